// The symbols of a bundle: its outline (concepts with their structure fields, pipes with their
// inputs, steps and outcomes) and the names it declares for a search of the workspace; a manifest's
// outline is its tables and keys. Offsets, like every answer of ide/: lsp/symbols.ts converts.

import type { Bundle, ConceptDecl, PipeDecl } from '../language/model.js';
import { getEntry } from '../syntax/lookup.js';
import type { LTable, LValue, Range, TomlDocument } from '../syntax/types.js';

export type SymbolKind = 'concept' | 'field' | 'pipe' | 'controller' | 'signature' | 'input' | 'step' | 'outcome' | 'table' | 'array' | 'string' | 'number' | 'boolean' | 'value';

export interface OutlineSymbol {
  name: string;
  kind: SymbolKind;
  /** What the symbol covers: its declaration, its name and its children. */
  range: Range;
  /** Its name (unquoted). */
  selection: Range;
  detail?: string;
  children: OutlineSymbol[];
}

/** A symbol whose range covers its selection and its children. */
function symbol(text: string, name: string, kind: SymbolKind, range: Range, selection: Range, detail?: string, children: OutlineSymbol[] = []): OutlineSymbol {
  let start = Math.min(range.start, selection.start);
  let end = Math.max(range.end, selection.end);
  for (const c of children) {
    start = Math.min(start, c.range.start);
    end = Math.max(end, c.range.end);
  }
  const out: OutlineSymbol = { name, kind, range: { start, end }, selection, children };
  if (detail !== undefined && detail !== '') out.detail = detail;
  return out;
}

/** A name's range without its quotes. */
export function unquoted(text: string, range: Range): Range {
  const c = text[range.start];
  return (c === '"' || c === "'") && range.end - range.start >= 2 ? { start: range.start + 1, end: range.end - 1 } : range;
}

/** The outline of a bundle, in the order of the text. */
export function bundleOutline(bundle: Bundle): OutlineSymbol[] {
  const text = bundle.doc.text;
  return [...bundle.concepts.map((c) => conceptSymbol(text, c)), ...bundle.pipes.map((p) => pipeSymbol(text, p))].sort((a, b) => a.selection.start - b.selection.start);
}

function conceptSymbol(text: string, c: ConceptDecl): OutlineSymbol {
  const fields = (c.structure ?? []).map((f) => symbol(text, f.name, 'field', f.range, unquoted(text, f.nameRange), fieldDetail(f)));
  const detail = c.refines ? `refines ${c.refines.raw}` : undefined;
  return symbol(text, c.code, 'concept', c.range, unquoted(text, c.codeRange), detail, fields);
}

function fieldDetail(f: NonNullable<ConceptDecl['structure']>[number]): string | undefined {
  const type = f.type?.value;
  if (type === 'list') return `list of ${f.itemConceptRef?.raw ?? f.itemType?.value ?? '?'}`;
  if (type === 'concept') return f.conceptRef?.raw ?? 'concept';
  return type ?? (f.choices ? 'choices' : undefined);
}

/** How a pipe is shown: a signature, a controller, or an operator. */
export function pipeKind(p: PipeDecl): SymbolKind {
  return p.typeless ? 'signature' : p.spec?.kind === 'controller' ? 'controller' : 'pipe';
}

function pipeSymbol(text: string, p: PipeDecl): OutlineSymbol {
  const children: OutlineSymbol[] = [];
  for (const input of p.inputs) children.push(symbol(text, input.name, 'input', input.range, unquoted(text, input.nameRange), input.ref?.raw));
  for (const step of p.steps) {
    const pipe = step.pipe?.raw ?? (step.from ? `from ${step.from.value}` : '?');
    const label = `${step.index + 1}. ${pipe}`;
    children.push(symbol(text, label, 'step', step.node.range, step.pipe?.node.range ?? step.node.range, step.result ? `→ ${step.result.value}` : undefined));
  }
  const outcomes = getEntry(p.table, 'outcomes')?.value;
  if (outcomes?.type === 'table') {
    for (const o of outcomes.entries) {
      children.push(symbol(text, o.key, 'outcome', o.range, unquoted(text, o.keyRange), o.value.type === 'string' ? `→ ${o.value.value}` : undefined));
    }
  }
  const detail = p.typeless ? 'signature' : (p.type?.value ?? '');
  return symbol(text, p.code, pipeKind(p), p.range, unquoted(text, p.codeRange), detail, children);
}

/** Any TOML table (the manifest): its entries, tables nested to a few levels. */
export function tableOutline(doc: TomlDocument, table: LTable = doc.root, depth = 0): OutlineSymbol[] {
  return table.entries.map((e) => {
    const v = e.value;
    const nested = v.type === 'table' && depth < 3 ? tableOutline(doc, v, depth + 1) : [];
    return symbol(doc.text, e.key, kindOfValue(v), e.range, unquoted(doc.text, e.keyRange), v.type === 'string' ? v.value : undefined, nested);
  });
}

function kindOfValue(v: LValue): SymbolKind {
  switch (v.type) {
    case 'table':
      return 'table';
    case 'array':
      return 'array';
    case 'string':
      return 'string';
    case 'integer':
    case 'float':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'value';
  }
}

/** A name a bundle declares, for a search of the workspace. */
export interface DeclaredName {
  name: string;
  kind: SymbolKind;
  /** The name without its quotes. */
  range: Range;
  /** The bundle's domain. */
  container?: string;
}

/** The concepts and pipes a bundle declares. */
export function declaredNames(bundle: Bundle): DeclaredName[] {
  const text = bundle.doc.text;
  const domain = bundle.domain?.value;
  const names: DeclaredName[] = [];
  const add = (name: string, kind: SymbolKind, range: Range): void => {
    const s: DeclaredName = { name, kind, range: unquoted(text, range) };
    if (domain !== undefined) s.container = domain;
    names.push(s);
  };
  for (const c of bundle.concepts) add(c.code, 'concept', c.codeRange);
  for (const p of bundle.pipes) add(p.code, pipeKind(p), p.codeRange);
  return names;
}
