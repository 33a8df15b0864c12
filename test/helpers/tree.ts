// Builds method trees from in-memory files, for tests of the language and check layers.

import path from 'node:path';
import { buildBundle } from '../../server/src/language/buildBundle.js';
import { buildManifest } from '../../server/src/language/manifest.js';
import { createTree, type MethodTree } from '../../server/src/language/tree.js';
import { checkTree } from '../../server/src/check/index.js';
import type { Finding } from '../../server/src/check/finding.js';
import { parseToml } from '../../server/src/syntax/document.js';

export const ROOT = path.resolve('/virtual/tree');

/** A tree of files given as `relative path -> text`; `METHODS.toml` becomes the manifest. */
export function treeOf(files: Record<string, string>): MethodTree {
  const bundles = [];
  let manifest;
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(ROOT, rel);
    if (rel.endsWith('METHODS.toml')) manifest = buildManifest(file, parseToml(text));
    else if (rel.endsWith('.mthds')) bundles.push(buildBundle(file, parseToml(text)));
  }
  const tree = createTree(ROOT, bundles, manifest, new Set(Object.keys(files)));
  const lock = files['methods.lock'];
  if (lock !== undefined) tree.lock = { file: path.join(ROOT, 'methods.lock'), doc: parseToml(lock) };
  return tree;
}

export function check(files: Record<string, string> | string): Finding[] {
  return checkTree(treeOf(typeof files === 'string' ? { 'main.mthds': files } : files));
}

export function codes(findings: readonly Finding[]): string[] {
  return findings.map((f) => f.code);
}

/** The source text a finding's range covers. */
export function textAt(text: string, finding: Finding): string {
  return text.slice(finding.range.start, finding.range.end);
}

export function only(findings: readonly Finding[], code: string): Finding[] {
  return findings.filter((f) => f.code === code);
}

export const HEADER = 'domain = "demo"\ndescription = "A demo bundle"\n';
