// Selection ranges (expand selection): word → string content → value (and each enclosing array item
// or inline-table entry) → key/value → table → document.

import type { SelectionRange, SelectionRangeParams } from 'vscode-languageserver';
import { rangeToLspRange } from '../syntax/positions.js';
import type { LValue, Range, TomlDocument } from '../syntax/types.js';
import type { FeatureContext } from './featureContext.js';

export function selectionRanges(ctx: FeatureContext, params: SelectionRangeParams): SelectionRange[] | null {
  const doc = ctx.docOf(params.textDocument.uri);
  if (!doc) return null;
  const toml = ctx.tomlOf(doc);
  return params.positions.map((p) => toSelection(toml, selectionChain(toml, doc.offset(p))));
}

const inside = (r: Range, offset: number): boolean => r.start <= offset && offset <= r.end;

/** The ranges around `offset`, outermost first. */
export function selectionChain(doc: TomlDocument, offset: number): Range[] {
  const chain: Range[] = [{ start: 0, end: doc.text.length }];
  const statements = doc.statements;
  // The table: from its header to its last statement before the next header.
  let headerIndex = -1;
  for (let i = 0; i < statements.length && statements[i]!.range.start <= offset; i++) if (statements[i]!.kind === 'header') headerIndex = i;
  if (headerIndex >= 0) {
    let end = statements[headerIndex]!.range.end;
    for (let i = headerIndex + 1; i < statements.length && statements[i]!.kind !== 'header'; i++) end = Math.max(end, statements[i]!.range.end);
    chain.push({ start: statements[headerIndex]!.range.start, end });
  }
  const st = statements.find((s) => s.kind !== 'comment' && inside(s.range, offset));
  if (st) {
    chain.push(st.range);
    if (st.kind === 'header' || st.kind === 'keyvalue') {
      const seg = st.key.find((k) => inside(k.range, offset));
      if (seg) chain.push(seg.range);
    }
    if (st.kind === 'keyvalue') descend(st.value, offset, chain);
  }
  const word = wordAt(doc.text, offset);
  if (word) chain.push(word);
  // Keep each range strictly inside the previous one.
  const out: Range[] = [];
  for (const r of chain) {
    const last = out[out.length - 1];
    if (last && (r.start < last.start || r.end > last.end || (r.start === last.start && r.end === last.end))) continue;
    out.push(r);
  }
  return out;
}

function descend(v: LValue, offset: number, chain: Range[]): void {
  if (!inside(v.range, offset)) return;
  chain.push(v.range);
  if (v.type === 'string') chain.push({ start: v.contentStart, end: v.contentEnd });
  else if (v.type === 'array') {
    const item = v.items.find((i) => inside(i.range, offset));
    if (item) descend(item, offset, chain);
  } else if (v.type === 'table') {
    const entry = v.entries.find((e) => inside(e.range, offset));
    if (!entry) return;
    chain.push(entry.range);
    if (inside(entry.keyRange, offset)) chain.push(entry.keyRange);
    else if (entry.value.type === 'table' && entry.value.origin === 'dotted') descend({ ...entry.value, range: entry.range }, offset, chain);
    else descend(entry.value, offset, chain);
  }
}

function wordAt(text: string, offset: number): Range | undefined {
  const isWord = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);
  let start = offset;
  let end = offset;
  while (isWord(text[start - 1])) start--;
  while (isWord(text[end])) end++;
  return end > start ? { start, end } : undefined;
}

function toSelection(doc: TomlDocument, chain: readonly Range[]): SelectionRange {
  let parent: SelectionRange | undefined;
  for (const r of chain) parent = parent ? { range: rangeToLspRange(doc.lineStarts, r), parent } : { range: rangeToLspRange(doc.lineStarts, r) };
  return parent!;
}
