// Offsets <-> LSP positions. Offsets and characters are UTF-16 code units (JavaScript string
// indices), which is LSP's default position encoding. Line breaks follow LSP: `\r\n`, `\n` and a
// lone `\r` each end a line.

import type { Range } from './types.js';

/** A 0-based LSP position: `character` counts UTF-16 code units from the start of the line. */
export interface Position {
  line: number;
  character: number;
}

export interface LspRange {
  start: Position;
  end: Position;
}

/** Offsets at which each line starts; line 0 starts at 0. */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  if (text.indexOf('\r') === -1) {
    // Fast path: `\n` only.
    let i = text.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    return starts;
  }
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/**
 * The line starts of `text`, an edit of a text of `beforeLength` characters whose line starts were
 * `before`: both share their first `head` and last `tail` characters. Only the edited stretch is
 * read (what computeLineStarts gives, without a pass over the whole text).
 */
export function lineStartsAfterEdit(before: readonly number[], beforeLength: number, text: string, head: number, tail: number): number[] {
  // A start before `head` follows a line break decided by the shared head alone (a `\r` at
  // `head - 1` may pair with what follows it: read again).
  let kept = 0;
  while (kept < before.length && before[kept]! < head) kept++;
  const starts = kept > 0 ? before.slice(0, kept) : [0];
  // From the same offset on, the breaks of the shared tail and their starts (a `\n` there ends a
  // line whatever precedes it).
  const tailFrom = text.length - tail + 1;
  for (let i = Math.max(0, head - 1); i < text.length - tail; i++) {
    const c = text.charCodeAt(i);
    let start = -1;
    if (c === 10) start = i + 1;
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    if (start > 0 && start < tailFrom) starts.push(start);
  }
  const shift = text.length - beforeLength;
  let i = kept;
  while (i < before.length && before[i]! < beforeLength - tail + 1) i++;
  for (; i < before.length; i++) starts.push(before[i]! + shift);
  return starts;
}

/** Index of the line containing `offset` (the last line whose start is <= offset). */
export function lineOfOffset(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The 0-based position of `offset`. Negative offsets map to the start of the document. */
export function offsetToPosition(lineStarts: readonly number[], offset: number): Position {
  if (!(offset > 0)) return { line: 0, character: 0 };
  const line = lineOfOffset(lineStarts, offset);
  return { line, character: offset - lineStarts[line]! };
}

/**
 * The offset of `pos`, clamped like LSP asks: a line past the end maps to the end of the text, a
 * character past the end of its line maps to the end of that line (before its line break).
 */
export function positionToOffset(lineStarts: readonly number[], text: string, pos: Position): number {
  const line = lspInteger(pos.line);
  if (line < 0) return 0;
  if (line >= lineStarts.length) return text.length;
  const start = lineStarts[line]!;
  let end: number;
  if (line + 1 < lineStarts.length) {
    end = lineStarts[line + 1]!;
    // Step back over the line break: `\n`, `\r` or `\r\n`.
    if (text.charCodeAt(end - 1) === 10) end--;
    if (text.charCodeAt(end - 1) === 13) end--;
  } else {
    end = text.length;
  }
  const ch = lspInteger(pos.character);
  return ch > 0 && start + ch < end ? start + ch : ch > 0 ? end : start;
}

/**
 * A line or character number as sent by a client, made a usable integer: anything not a finite
 * number (a peer may send null, a string, a fraction) counts as 0; fractions are truncated.
 */
export function lspInteger(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0;
}

/** The position `pos` denotes in the text, inside it (see positionToOffset). */
export function clampPosition(lineStarts: readonly number[], text: string, pos: Position): Position {
  return offsetToPosition(lineStarts, positionToOffset(lineStarts, text, pos));
}

/** The range `range` denotes in the text: each end clamped, a reversed range put in order. */
export function clampLspRange(lineStarts: readonly number[], text: string, range: LspRange): LspRange {
  return rangeToLspRange(lineStarts, lspRangeToRange(lineStarts, text, range));
}

export function rangeToLspRange(lineStarts: readonly number[], range: Range): LspRange {
  return { start: offsetToPosition(lineStarts, range.start), end: offsetToPosition(lineStarts, range.end) };
}

/** The offset range of an LSP range (clamped, see positionToOffset; a reversed range is put in order). */
export function lspRangeToRange(lineStarts: readonly number[], text: string, range: LspRange): Range {
  const a = positionToOffset(lineStarts, text, range.start ?? { line: 0, character: 0 });
  const b = positionToOffset(lineStarts, text, range.end ?? range.start ?? { line: 0, character: 0 });
  return a <= b ? { start: a, end: b } : { start: b, end: a };
}
