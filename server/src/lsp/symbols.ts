// Document symbols (the outline: concepts with their structure fields, pipes with their type, inputs,
// steps and outcomes) and workspace symbols (every concept and pipe of every tree, fuzzy-matched).

import path from 'node:path';
import { SymbolKind, type DocumentSymbol, type DocumentSymbolParams, type SymbolInformation, type WorkspaceSymbolParams } from 'vscode-languageserver';
import { buildBundle } from '../language/buildBundle.js';
import type { Bundle, ConceptDecl, PipeDecl } from '../language/model.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { getEntry } from '../syntax/lookup.js';
import { parseToml } from '../syntax/document.js';
import { sizePastLimit } from '../workspace/documentSize.js';
import { rangeToLspRange } from '../syntax/positions.js';
import type { LTable, LValue, Range, TomlDocument } from '../syntax/types.js';
import type { FeatureContext } from './featureContext.js';
import { fuzzyScore } from '../ide/index.js';
import type { FileSystem } from '../workspace/fileSystem.js';

export function documentSymbols(ctx: FeatureContext, params: DocumentSymbolParams): DocumentSymbol[] | null {
  const doc = ctx.docOf(params.textDocument.uri);
  if (!doc) return null;
  const toml = ctx.tomlOf(doc);
  if (path.basename(doc.file) === MANIFEST_FILE) return tableSymbols(toml, toml.root, 0);
  return bundleSymbols(buildBundle(doc.file, toml));
}

/** A symbol whose range covers its selection range and its children, as LSP demands. */
function symbol(doc: TomlDocument, name: string, kind: SymbolKind, range: Range, selection: Range, detail?: string, children: DocumentSymbol[] = []): DocumentSymbol {
  const ls = doc.lineStarts;
  let start = Math.min(range.start, selection.start);
  let end = Math.max(range.end, selection.end);
  const lspSelection = rangeToLspRange(ls, selection);
  const out: DocumentSymbol = { name: name === '' ? '(unnamed)' : name, kind, range: rangeToLspRange(ls, { start, end }), selectionRange: lspSelection, children };
  for (const c of children) {
    start = Math.min(start, offsetOf(ls, c.range.start));
    end = Math.max(end, offsetOf(ls, c.range.end));
  }
  out.range = rangeToLspRange(ls, { start, end });
  if (detail !== undefined && detail !== '') out.detail = detail;
  return out;
}

function offsetOf(lineStarts: readonly number[], p: { line: number; character: number }): number {
  return (lineStarts[p.line] ?? 0) + p.character;
}

function unquoted(text: string, range: Range): Range {
  const c = text[range.start];
  return (c === '"' || c === "'") && range.end - range.start >= 2 ? { start: range.start + 1, end: range.end - 1 } : range;
}

export function bundleSymbols(bundle: Bundle): DocumentSymbol[] {
  return [...bundle.concepts.map((c) => conceptSymbol(bundle.doc, c)), ...bundle.pipes.map((p) => pipeSymbol(bundle.doc, p))].sort(
    (a, b) => a.selectionRange.start.line - b.selectionRange.start.line || a.selectionRange.start.character - b.selectionRange.start.character,
  );
}

function conceptSymbol(doc: TomlDocument, c: ConceptDecl): DocumentSymbol {
  const fields = (c.structure ?? []).map((f) => symbol(doc, f.name, SymbolKind.Field, f.range, unquoted(doc.text, f.nameRange), fieldDetail(f)));
  const detail = c.refines ? `refines ${c.refines.raw}` : undefined;
  return symbol(doc, c.code, SymbolKind.Class, c.range, unquoted(doc.text, c.codeRange), detail, fields);
}

function fieldDetail(f: NonNullable<ConceptDecl['structure']>[number]): string | undefined {
  const type = f.type?.value;
  if (type === 'list') return `list of ${f.itemConceptRef?.raw ?? f.itemType?.value ?? '?'}`;
  if (type === 'concept') return f.conceptRef?.raw ?? 'concept';
  return type ?? (f.choices ? 'choices' : undefined);
}

function pipeSymbol(doc: TomlDocument, p: PipeDecl): DocumentSymbol {
  const children: DocumentSymbol[] = [];
  for (const input of p.inputs) children.push(symbol(doc, input.name, SymbolKind.Variable, input.range, unquoted(doc.text, input.nameRange), input.ref?.raw));
  for (const step of p.steps) {
    const pipe = step.pipe?.raw ?? (step.from ? `from ${step.from.value}` : '?');
    const label = `${step.index + 1}. ${pipe}`;
    children.push(symbol(doc, label, SymbolKind.Event, step.node.range, step.pipe?.node.range ?? step.node.range, step.result ? `→ ${step.result.value}` : undefined));
  }
  const outcomes = getEntry(p.table, 'outcomes')?.value;
  if (outcomes?.type === 'table') {
    for (const o of outcomes.entries) {
      children.push(symbol(doc, o.key, SymbolKind.EnumMember, o.range, unquoted(doc.text, o.keyRange), o.value.type === 'string' ? `→ ${o.value.value}` : undefined));
    }
  }
  const kind = p.typeless ? SymbolKind.Interface : p.spec?.kind === 'controller' ? SymbolKind.Module : SymbolKind.Function;
  const detail = p.typeless ? 'signature' : (p.type?.value ?? '');
  return symbol(doc, p.code, kind, p.range, unquoted(doc.text, p.codeRange), detail, children);
}

/** Any TOML table (the manifest): its entries, tables nested to a few levels. */
function tableSymbols(doc: TomlDocument, table: LTable, depth: number): DocumentSymbol[] {
  return table.entries.map((e) => {
    const v = e.value;
    const nested = v.type === 'table' && depth < 3 ? tableSymbols(doc, v, depth + 1) : [];
    return symbol(doc, e.key, kindOfValue(v), e.range, unquoted(doc.text, e.keyRange), v.type === 'string' ? v.value : undefined, nested);
  });
}

function kindOfValue(v: LValue): SymbolKind {
  switch (v.type) {
    case 'table':
      return SymbolKind.Namespace;
    case 'array':
      return SymbolKind.Array;
    case 'string':
      return SymbolKind.String;
    case 'integer':
    case 'float':
      return SymbolKind.Number;
    case 'boolean':
      return SymbolKind.Boolean;
    default:
      return SymbolKind.Property;
  }
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
  const cached = fileSymbols.get(file, open, stamp);
  if (cached) return cached;
  const text = open ? stamp : session.textOf(file);
  if (text === undefined || sizePastLimit(text) !== undefined) return [];
  const bundle = buildBundle(file, parseToml(text));
  const ls = bundle.doc.lineStarts;
  const domain = bundle.domain?.value;
  const symbols: FlatSymbol[] = [];
  const add = (name: string, kind: SymbolKind, range: Range): void => {
    const s: FlatSymbol = { name, kind, range: rangeToLspRange(ls, unquoted(text, range)) };
    if (domain !== undefined) s.container = domain;
    symbols.push(s);
  };
  for (const c of bundle.concepts) add(c.code, SymbolKind.Class, c.codeRange);
  for (const p of bundle.pipes) add(p.code, p.typeless ? SymbolKind.Interface : p.spec?.kind === 'controller' ? SymbolKind.Module : SymbolKind.Function, p.codeRange);
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
