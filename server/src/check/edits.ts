// Text edits shared by fixes: deleting a key, inserting a line into a table.

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

/** Inserts `line` as the last line of a header table (after its last entry). */
export function appendToTableEdit(file: string, text: string, table: LTable, line: string): TextEdit {
  const last = table.entries[table.entries.length - 1];
  let at = last ? last.range.end : table.header ? table.header.range.end : table.range.end;
  while (at < text.length && text[at] !== '\n') at += 1;
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  if (at >= text.length) return { file, range: { start: text.length, end: text.length }, newText: `${newline}${line}${newline}` };
  return { file, range: { start: at + 1, end: at + 1 }, newText: `${line}${newline}` };
}
