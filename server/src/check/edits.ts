// Text edits shared by fixes and repairs: deleting a key, inserting a line into a table or after
// another, appending a block to a file. The edits of the method model (inputs) are modelEdits.ts.

import type { LEntry, LTable, Range } from '../syntax/types.js';
import type { TextEdit } from './finding.js';

/** The range of a whole line holding only `range` (plus blanks and a trailing comment), else `range`. */
export function wholeLines(text: string, range: Range): Range {
  let start = range.start;
  while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start -= 1;
  if (start > 0 && text[start - 1] !== '\n') return range;
  let end = range.end;
  while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end += 1;
  if (text[end] === '#') while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end += 1;
  if (text[end] === '\r') end += 1;
  if (text[end] === '\n') end += 1;
  else if (end < text.length) return range;
  return { start, end };
}

/** Deletes a `key = value` entry, with its line when it stands alone on it. */
export function deleteEntryEdit(file: string, text: string, entry: LEntry): TextEdit {
  return { file, range: wholeLines(text, entry.range), newText: '' };
}

/** The line break a document already uses, for the lines an edit adds. */
export function newlineOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Where a table's content ends: its last entry, else its header, else the table itself. */
export function lastEntryEnd(table: LTable): number {
  const last = table.entries[table.entries.length - 1];
  return last ? last.range.end : table.header ? table.header.range.end : table.range.end;
}

/** Inserts `line` on a line of its own after the line holding offset `at`. */
export function insertLineAfter(file: string, text: string, at: number, line: string): TextEdit {
  const nl = newlineOf(text);
  let end = at;
  while (end < text.length && text[end] !== '\n') end += 1;
  if (end >= text.length) return { file, range: { start: text.length, end: text.length }, newText: `${nl}${line}${nl}` };
  return { file, range: { start: end + 1, end: end + 1 }, newText: `${line}${nl}` };
}

/** Inserts `line` as the last line of a header table (after its last entry). */
export function appendToTableEdit(file: string, text: string, table: LTable, line: string): TextEdit {
  return insertLineAfter(file, text, lastEntryEnd(table), line);
}

/** Appends a block of lines at the end of a file, after one blank line. */
export function appendBlockEdit(file: string, text: string, lines: readonly string[]): TextEdit {
  const nl = newlineOf(text);
  const lead = text === '' ? '' : text.endsWith(`${nl}${nl}`) ? '' : text.endsWith(nl) ? nl : `${nl}${nl}`;
  return { file, range: { start: text.length, end: text.length }, newText: `${lead}${lines.join(nl)}${nl}` };
}

/**
 * Edits that touch one another (one ends where the next starts, in one file) as one edit each run:
 * the same text once applied. A fix-all of a pipe with 30,000 unused inputs is 30,000 adjacent
 * removals: sent as one, the answer is a few hundred bytes instead of megabytes that the server
 * converts to positions and the client reads. Edits are taken as `chooseSafeFixes` leaves them:
 * none overlaps another, and no two start at one point.
 */
export function mergeTouchingEdits(edits: readonly TextEdit[]): TextEdit[] {
  const sorted = [...edits].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start - b.range.start || a.range.end - b.range.end));
  const out: TextEdit[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && last.file === e.file && last.range.end === e.range.start && e.range.start !== e.range.end && last.range.start !== last.range.end) {
      out[out.length - 1] = { file: e.file, range: { start: last.range.start, end: e.range.end }, newText: last.newText + e.newText };
    } else out.push(e);
  }
  return out;
}
