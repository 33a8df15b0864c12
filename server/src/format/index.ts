// The formatter: pure text in, text (or edits) out, no editor types. Used by the language server
// (textDocument/formatting and rangeFormatting) and by `mthds format`.

import type { Range, TomlDocument } from '../syntax/types.js';
import { diffLines, splitLines } from './diff.js';
import { layoutToml, type FormatResult } from './document.js';
import { resolveFormatOptions, type FormatOptions } from './options.js';
import { unfaithful } from './verify.js';

export type { FormatOptions } from './options.js';
export type { FormatResult } from './document.js';
export { DEFAULT_FORMAT_OPTIONS, resolveFormatOptions } from './options.js';

export interface FormatEdit {
  range: Range;
  newText: string;
}

/** Formats a document; `ok: false` (and the reason) when it is left as it is. */
export function formatText(text: string, options: FormatOptions = {}, doc?: TomlDocument): FormatResult {
  const resolved = resolveFormatOptions(options);
  const result = layoutToml(text, resolved, doc);
  if (!result.ok || !resolved.verify || result.text === text) return result;
  const problem = unfaithful(text, result.text, !resolved.reorderKeys);
  return problem ? { ok: false, reason: `formatting was refused: ${problem}` } : result;
}

/**
 * The edits that format a document, line by line; with `range`, only the changed lines that
 * touch it (the whole of each changed block, so the result stays valid TOML, then checked again).
 */
export function formatEdits(text: string, options: FormatOptions = {}, range?: Range, doc?: TomlDocument): { ok: true; edits: FormatEdit[] } | { ok: false; reason: string } {
  const result = formatText(text, options, doc);
  if (!result.ok) return result;
  if (result.text === text) return { ok: true, edits: [] };
  const before = splitLines(text);
  const after = splitLines(result.text);
  const hunks = diffLines(before, after);
  // Too different to diff (or not worth it): one edit over the whole document.
  if (!hunks) return range ? { ok: true, edits: [] } : { ok: true, edits: [{ range: { start: 0, end: text.length }, newText: result.text }] };
  const starts: number[] = [0];
  for (const line of before) starts.push(starts[starts.length - 1]! + line.length);
  let chosen = hunks;
  if (range) {
    const first = lineIndexOf(starts, range.start);
    const last = lineIndexOf(starts, Math.max(range.start, range.end - (range.end > range.start ? 1 : 0)));
    chosen = hunks.filter((h) => (h.start === h.end ? h.start >= first && h.start <= last + 1 : h.start <= last && h.end > first));
  }
  const edits = chosen.map((h) => ({ range: { start: starts[h.start]!, end: starts[h.end]! }, newText: h.lines.join('') }));
  if (range && chosen.length !== hunks.length && resolveFormatOptions(options).verify) {
    // A part of the changes applied alone must still be a faithful rewrite.
    const partial = applyEdits(text, edits);
    if (unfaithful(text, partial, !resolveFormatOptions(options).reorderKeys)) return { ok: true, edits: [] };
  }
  return { ok: true, edits };
}

function lineIndexOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/** Applies non-overlapping edits to a text. */
export function applyEdits(text: string, edits: readonly FormatEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.range.start - a.range.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}
