// Document links: the files a document names. A bundle's `template_file` (resolved beside the
// bundle, as the runtime does) and a manifest's `[dependencies] path` (linked to the dependency's
// METHODS.toml). Only targets that exist are links; a missing one is a finding of the checks.

import path from 'node:path';
import type { DocumentLink, DocumentLinkParams } from 'vscode-languageserver';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { getEntry } from '../syntax/lookup.js';
import { rangeToLspRange } from '../syntax/positions.js';
import type { LString, TomlDocument } from '../syntax/types.js';
import type { FeatureContext } from './featureContext.js';
import type { FileSystem } from '../workspace/fileSystem.js';

export function documentLinks(ctx: FeatureContext, params: DocumentLinkParams): DocumentLink[] | null {
  const doc = ctx.docOf(params.textDocument.uri);
  if (!doc || !path.isAbsolute(doc.file)) return null;
  const toml = ctx.tomlOf(doc);
  const dir = path.dirname(doc.file);
  const fs = ctx.host.session().fs;
  const links: DocumentLink[] = [];
  const link = (node: LString, target: string, tooltip: string): void => {
    links.push({ range: rangeToLspRange(toml.lineStarts, { start: node.contentStart, end: node.contentEnd }), target: ctx.host.locator.uriOf(target), tooltip });
  };
  if (path.basename(doc.file) === MANIFEST_FILE) {
    for (const { node, target } of dependencyPaths(fs, toml, dir)) link(node, target, `Open the manifest of ${path.relative(dir, path.dirname(target)) || '.'}`);
    return links;
  }
  for (const { node, target } of templateFiles(fs, toml, dir)) link(node, target, `Open ${path.relative(dir, target)}`);
  return links;
}

/** `template_file = "..."` of every pipe, when the file exists. */
export function templateFiles(fs: FileSystem, toml: TomlDocument, dir: string): Array<{ node: LString; target: string }> {
  const out: Array<{ node: LString; target: string }> = [];
  const pipes = getEntry(toml.root, 'pipe')?.value;
  if (pipes?.type !== 'table') return out;
  for (const entry of pipes.entries) {
    const node = getEntry(entry.value, 'template_file')?.value;
    if (node?.type !== 'string' || node.value.trim() === '') continue;
    const target = path.resolve(dir, node.value);
    if (fs.stat(target)?.kind === 'file') out.push({ node, target });
  }
  return out;
}

/** `[dependencies] alias = { path = "..." }`, linked to the dependency's manifest when it has one. */
export function dependencyPaths(fs: FileSystem, toml: TomlDocument, dir: string): Array<{ node: LString; target: string }> {
  const out: Array<{ node: LString; target: string }> = [];
  const deps = getEntry(toml.root, 'dependencies')?.value;
  if (deps?.type !== 'table') return out;
  for (const entry of deps.entries) {
    const node = getEntry(entry.value, 'path')?.value;
    if (node?.type !== 'string' || node.value.trim() === '') continue;
    const target = path.join(path.resolve(dir, node.value), MANIFEST_FILE);
    if (fs.exists(target)) out.push({ node, target });
  }
  return out;
}
