// Document symbols (the outline: concepts with their structure fields, pipes with their type, inputs,
// steps and outcomes) and workspace symbols (every concept and pipe of every tree, fuzzy-matched):
// the symbols of ide/symbols.ts in LSP's terms, and the cache of each file's declared names.

import path from 'node:path';
import { SymbolKind, type DocumentSymbol, type DocumentSymbolParams, type SymbolInformation, type WorkspaceSymbolParams } from 'vscode-languageserver';
import { bundleOutline, declaredNames, fuzzyScore, tableOutline, type OutlineSymbol, type SymbolKind as OutlineKind } from '../ide/index.js';
import { buildBundle } from '../language/buildBundle.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { parseToml } from '../syntax/document.js';
import { sizePastLimit } from '../workspace/documentSize.js';
import { rangeToLspRange } from '../syntax/positions.js';
import type { FeatureContext } from './featureContext.js';
import type { FileSystem } from '../workspace/fileSystem.js';

/** The LSP kind of each kind of symbol. */
const KINDS: Record<OutlineKind, SymbolKind> = {
  concept: SymbolKind.Class,
  field: SymbolKind.Field,
  pipe: SymbolKind.Function,
  controller: SymbolKind.Module,
  signature: SymbolKind.Interface,
  input: SymbolKind.Variable,
  step: SymbolKind.Event,
  outcome: SymbolKind.EnumMember,
  table: SymbolKind.Namespace,
  array: SymbolKind.Array,
  string: SymbolKind.String,
  number: SymbolKind.Number,
  boolean: SymbolKind.Boolean,
  value: SymbolKind.Property,
};

export function documentSymbols(ctx: FeatureContext, params: DocumentSymbolParams): DocumentSymbol[] | null {
  const doc = ctx.docOf(params.textDocument.uri);
  if (!doc) return null;
  const toml = ctx.tomlOf(doc);
  // The session's own bundle of this text when it has one (building it again cost tens of ms on a large bundle).
  const outline = path.basename(doc.file) === MANIFEST_FILE ? tableOutline(toml) : bundleOutline(ctx.viewOf(doc)?.bundle ?? buildBundle(doc.file, toml));
  return outline.map((s) => toDocumentSymbol(toml.lineStarts, s));
}

function toDocumentSymbol(lineStarts: readonly number[], s: OutlineSymbol): DocumentSymbol {
  const out: DocumentSymbol = {
    name: s.name === '' ? '(unnamed)' : s.name,
    kind: KINDS[s.kind],
    range: rangeToLspRange(lineStarts, s.range),
    selectionRange: rangeToLspRange(lineStarts, s.selection),
    children: s.children.map((c) => toDocumentSymbol(lineStarts, c)),
  };
  if (s.detail !== undefined) out.detail = s.detail;
  return out;
}

// ---- workspace symbols ---------------------------------------------------------------------------

interface FlatSymbol {
  name: string;
  kind: SymbolKind;
  container?: string;
  range: ReturnType<typeof rangeToLspRange>;
}

const MAX_RESULTS = 256;

interface FileSymbols {
  /** The buffer's text itself when the file was open (a reference, no copy), else its disk stamp. */
  open: boolean;
  stamp: string;
  symbols: FlatSymbol[];
}

/**
 * The symbols of each file of the trees, made again only when its text changed. An entry of a
 * closed document goes when it is closed (its text with it), those of files no longer in any tree at
 * the next request: what the cache holds follows the workspace, not every file ever seen.
 */
class FileSymbolCache {
  private readonly entries = new Map<string, FileSymbols>();

  get size(): number {
    return this.entries.size;
  }

  get(file: string, open: boolean, stamp: string): FlatSymbol[] | undefined {
    const cached = this.entries.get(file);
    return cached && cached.open === open && cached.stamp === stamp ? cached.symbols : undefined;
  }

  set(file: string, entry: FileSymbols): void {
    this.entries.set(file, entry);
  }

  forget(file: string): void {
    this.entries.delete(file);
  }

  /** Forgets every file but `files`. */
  keepOnly(files: ReadonlySet<string>): void {
    for (const file of this.entries.keys()) if (!files.has(file)) this.entries.delete(file);
  }
}

export const fileSymbols = new FileSymbolCache();

/** A document was closed: its symbols are made again from disk when asked for. */
export function forgetFileSymbols(file: string): void {
  fileSymbols.forget(file);
}

function diskStamp(fs: FileSystem, file: string): string | undefined {
  const s = fs.stat(file);
  return s !== undefined ? `${s.mtimeMs}:${s.size}` : undefined;
}

function symbolsOfFile(ctx: FeatureContext, file: string): FlatSymbol[] {
  const session = ctx.host.session();
  const open = session.isOpen(file);
  const stamp = open ? session.textOf(file) : diskStamp(session.fs, file);
  if (stamp === undefined) return [];
  // Before the cache: two texts of a large document of one length are compared by content, made flat.
  if (open && sizePastLimit(stamp) !== undefined) return [];
  const cached = fileSymbols.get(file, open, stamp);
  if (cached) return cached;
  const text = open ? stamp : session.textOf(file);
  if (text === undefined || sizePastLimit(text) !== undefined) return [];
  const bundle = buildBundle(file, parseToml(text));
  const ls = bundle.doc.lineStarts;
  const symbols = declaredNames(bundle).map((d): FlatSymbol => {
    const s: FlatSymbol = { name: d.name, kind: KINDS[d.kind], range: rangeToLspRange(ls, d.range) };
    if (d.container !== undefined) s.container = d.container;
    return s;
  });
  fileSymbols.set(file, { open, stamp, symbols });
  return symbols;
}

export function workspaceSymbols(ctx: FeatureContext, params: WorkspaceSymbolParams): SymbolInformation[] {
  const session = ctx.host.session();
  const files = new Set<string>();
  for (const id of session.treeIds()) for (const f of session.members(id).bundles) files.add(f);
  fileSymbols.keepOnly(files);
  const query = params.query.trim();
  const scored: Array<{ score: number; info: SymbolInformation }> = [];
  for (const file of files) {
    const uri = ctx.host.locator.uriOf(file);
    for (const s of symbolsOfFile(ctx, file)) {
      const target = query.includes('.') && s.container !== undefined ? `${s.container}.${s.name}` : s.name;
      const score = fuzzyScore(query, target);
      if (score === undefined) continue;
      const info: SymbolInformation = { name: s.name, kind: s.kind, location: { uri, range: s.range } };
      if (s.container !== undefined) info.containerName = s.container;
      scored.push({ score, info });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.info.name.localeCompare(b.info.name));
  return scored.slice(0, MAX_RESULTS).map((s) => s.info);
}
