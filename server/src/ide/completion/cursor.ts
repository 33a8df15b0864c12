// Where the cursor is, in completion's terms: typing a key of some table, a string value, a bare
// value after `=`, an item of an array, or a table header. Built on the located TOML lookup, so it
// works on half-typed documents (unterminated strings, keys without values, headers being typed).

import { nodeAtOffset, type NodeAtOffset } from '../../syntax/lookup.js';
import { sourceOffsetToValue } from '../../syntax/strings.js';
import type { HeaderStatement, LArray, LString, LTable, Range, TomlDocument } from '../../syntax/types.js';
import type { PathSegment } from '../../language/specPaths.js';

export type CursorPlace =
  /** A key of the table at `tablePath`; `range` is the word typed so far. */
  | { kind: 'key'; tablePath: PathSegment[]; table: LTable; range: Range; hasValue: boolean; inline: boolean; atLineStart: boolean }
  /** Inside the content of a string; `index` is the cursor's index in the decoded value. */
  | { kind: 'string'; path: PathSegment[]; node: LString; index: number; unterminated: boolean }
  /** After `key =` with no value yet (or an unquoted word): `range` is what a quoted value replaces. */
  | { kind: 'bare'; path: PathSegment[]; range: Range }
  /** Between the items of an array. */
  | { kind: 'item'; path: PathSegment[]; array: LArray }
  /** A table header being typed: `[pi`, `[concept.X.`. */
  | { kind: 'header'; header: HeaderStatement; range: Range; segments: string[]; segmentIndex: number }
  | { kind: 'none' };

const WORD = /[A-Za-z0-9_-]/;

/** The identifier-ish word around `offset` (a key being typed, replaced whole). */
export function wordBefore(text: string, offset: number): Range {
  let start = offset;
  while (start > 0 && WORD.test(text[start - 1]!)) start--;
  let end = offset;
  while (end < text.length && WORD.test(text[end]!)) end++;
  return { start, end };
}

function lineStartOf(text: string, offset: number): number {
  const nl = text.lastIndexOf('\n', offset - 1);
  return nl + 1;
}

function lineEndOf(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl;
}

/** Whether a string literal lacks its closing delimiter (the text ends its content). */
function isUnterminated(text: string, s: LString): boolean {
  const quote = s.style === 'basic' ? '"' : s.style === 'literal' ? "'" : s.style === 'ml-basic' ? '"""' : "'''";
  return s.contentEnd === s.range.end || text.slice(s.contentEnd, s.contentEnd + quote.length) !== quote;
}

export function cursorPlace(doc: TomlDocument, offset: number, node: NodeAtOffset = nodeAtOffset(doc, offset)): CursorPlace {
  const text = doc.text;
  const st = node.statement;
  if (st?.kind === 'comment') return { kind: 'none' };
  // A header being typed may be followed by an error statement (`[concept.X.]`): the header wins.
  const header = st?.kind === 'header' ? st : node.header !== undefined && node.header.range.start <= offset && offset <= node.header.range.end ? node.header : undefined;
  if (header) {
    const segments = header.key.map((k) => k.name);
    let segmentIndex = segments.length;
    for (let i = 0; i < header.key.length; i++) if (header.key[i]!.range.start <= offset && offset <= header.key[i]!.range.end) segmentIndex = i;
    // The header up to the end of its line (`]` included when written).
    const end = Math.max(offset, Math.min(lineEndOf(text, header.range.start), header.range.end));
    return { kind: 'header', header, range: { start: header.range.start, end }, segments, segmentIndex };
  }
  const value = node.value;
  if (node.key && !node.key.inHeader) {
    const seg = node.key.segment;
    const after = text.slice(seg.range.end, lineEndOf(text, seg.range.end));
    const start = lineStartOf(text, seg.range.start);
    return {
      kind: 'key',
      tablePath: node.path.slice(0, -1),
      table: node.table,
      range: seg.range,
      hasValue: /^\s*(\.|=)/.test(after),
      inline: node.table.origin === 'inline',
      atLineStart: /^\s*$/.test(text.slice(start, seg.range.start)) && node.key.index === 0,
    };
  }
  if (value?.type === 'string') {
    if (offset < value.contentStart || offset > value.contentEnd) return { kind: 'none' };
    const index = sourceOffsetToValue(value, offset) ?? 0;
    return { kind: 'string', path: node.path, node: value, index, unterminated: isUnterminated(text, value) };
  }
  if (value?.type === 'invalid') {
    // Clamp to the line: a value being typed never spans lines.
    const end = Math.max(offset, Math.min(value.range.end, lineEndOf(text, value.range.start)));
    return { kind: 'bare', path: node.path, range: { start: Math.min(value.range.start, offset), end } };
  }
  if (value?.type === 'table' && value.origin === 'inline') {
    const range = wordBefore(text, offset);
    return { kind: 'key', tablePath: node.path, table: value, range, hasValue: false, inline: true, atLineStart: false };
  }
  if (value?.type === 'array') return { kind: 'item', path: node.path, array: value };
  if (value !== undefined) return { kind: 'none' };
  if (st?.kind === 'keyvalue') {
    // After a complete value, or between the key and `=`.
    return { kind: 'none' };
  }
  // A blank line (or an error statement) of a section: a key of the section.
  const range = wordBefore(text, offset);
  const lineStart = lineStartOf(text, offset);
  return { kind: 'key', tablePath: node.path, table: node.section, range, hasValue: false, inline: false, atLineStart: /^\s*$/.test(text.slice(lineStart, range.start)) };
}
