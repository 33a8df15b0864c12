// Lays out a whole TOML document in the MTHDS house style, statement by statement: headers and
// key/values start their line, `=` aligned within a block of consecutive key/values, one blank
// line before each table (and its leading comments), runs of blank lines collapsed to one, comments
// kept where they are (a comment after a statement stays on its line), trailing blanks dropped and
// a final line break. The line breaks of the document (LF or CRLF) are kept.

import { parseToml } from '../syntax/document.js';
import { computeLineStarts, offsetToPosition } from '../syntax/positions.js';
import type { Statement, TomlDocument, TomlSyntaxError } from '../syntax/types.js';
import { resolveFormatOptions, type FormatOptions, type ResolvedFormatOptions } from './options.js';
import { FormatBail, ValueLayout } from './values.js';

type Line =
  | { kind: 'blank' }
  | { kind: 'comment'; text: string }
  | { kind: 'header'; text: string; comment?: string }
  | { kind: 'kv'; key: string; value: string; comment?: string; dotted: boolean; multiline: boolean };

/** A refusal carries the syntax errors when they are the reason, so that callers can locate them. */
export type FormatResult = { ok: true; text: string } | { ok: false; reason: string; syntaxErrors?: readonly TomlSyntaxError[] };

/** The document in house style, or why it cannot be formatted (syntax errors, say). */
export function layoutToml(text: string, options: FormatOptions = {}, doc?: TomlDocument): FormatResult {
  const resolved = resolveFormatOptions(options);
  const parsed = doc ?? parseToml(text);
  if (parsed.errors.length > 0) return { ok: false, reason: 'the document has syntax errors', syntaxErrors: parsed.errors };
  const unparsed = parsed.statements.filter((s) => s.kind === 'error');
  if (unparsed.length > 0) {
    const starts = computeLineStarts(text);
    const syntaxErrors = unparsed.map((s) => {
      const at = offsetToPosition(starts, s.range.start);
      return { message: 'this line is not a TOML statement', range: s.range, line: at.line + 1, column: at.character + 1 };
    });
    return { ok: false, reason: 'the document has syntax errors', syntaxErrors };
  }
  try {
    return { ok: true, text: layout(parsed, resolved) };
  } catch (error) {
    if (error instanceof FormatBail) return { ok: false, reason: `the document could not be laid out safely (${error.message})` };
    throw error;
  }
}

function layout(doc: TomlDocument, options: ResolvedFormatOptions): string {
  const text = doc.text;
  const firstBreak = text.indexOf('\n');
  const eol = firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : '\n';
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const values = new ValueLayout(text, eol, options);
  const lines: Line[] = [];
  let prevEnd = bom.length;
  for (const st of doc.statements) {
    // Comments inside arrays and inline tables are laid out with their value.
    if (st.range.start < prevEnd) continue;
    const gap = text.slice(prevEnd, st.range.start);
    if (!/^[ \t\r\n]*$/.test(gap)) throw new FormatBail('text outside any statement');
    const newlines = countNewlines(gap);
    const last = lines[lines.length - 1];
    if (st.kind === 'comment' && newlines === 0 && last && (last.kind === 'kv' || last.kind === 'header') && last.comment === undefined) {
      last.comment = commentText(text, st);
      prevEnd = st.range.end;
      continue;
    }
    if (newlines === 0 && lines.length > 0) throw new FormatBail('two statements on one line');
    if (newlines >= 2 && lines.length > 0) lines.push({ kind: 'blank' });
    lines.push(statementLine(text, st, values));
    prevEnd = st.range.end;
  }
  if (!/^[ \t\r\n]*$/.test(text.slice(prevEnd))) throw new FormatBail('text after the last statement');
  const spaced = spaceTables(lines);
  if (options.reorderKeys) sortBlocks(spaced);
  return bom + render(spaced, options, eol);
}

function statementLine(text: string, st: Statement, values: ValueLayout): Line {
  if (st.kind === 'comment') return { kind: 'comment', text: commentText(text, st) };
  if (st.kind === 'header') {
    const key = st.key.map((k) => text.slice(k.range.start, k.range.end)).join('.');
    return { kind: 'header', text: st.arrayOfTables ? `[[${key}]]` : `[${key}]` };
  }
  if (st.kind === 'keyvalue') {
    const key = st.key.map((k) => text.slice(k.range.start, k.range.end)).join('.');
    const value = values.value(st.value, 0);
    const structured = st.value.type === 'array' || st.value.type === 'table';
    return { kind: 'kv', key, value, dotted: st.key.length > 1, multiline: structured && value.includes('\n') };
  }
  throw new FormatBail('a statement that does not parse');
}

function commentText(text: string, st: Statement): string {
  return text.slice(st.range.start, st.range.end).trimEnd();
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * One blank line before each header, placed above the comments that lead into it (a comment block
 * right above a header belongs to that table); no blank line at the start or the end.
 */
function spaceTables(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    if (line.kind === 'header') {
      let at = out.length;
      while (at > 0 && out[at - 1]!.kind === 'comment') at--;
      if (at > 0 && out[at - 1]!.kind !== 'blank') out.splice(at, 0, { kind: 'blank' });
    }
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1]!.kind === 'blank') out.pop();
  return out;
}

/**
 * Consecutive key/value lines laid out together: sorted (`throughComments` false: a comment line
 * belongs to the key below it and ends the block) or aligned (`throughComments`: a comment line
 * between keys does not break their alignment; a blank line, a header or a multi-line value does).
 */
function blocks(lines: readonly Line[], throughComments = false): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = -1;
  lines.forEach((line, i) => {
    const inBlock = (line.kind === 'kv' && !line.multiline) || (throughComments && start >= 0 && line.kind === 'comment');
    if (inBlock && start < 0) start = i;
    if (!inBlock && start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  });
  if (start >= 0) out.push([start, lines.length]);
  return out;
}

function sortBlocks(lines: Line[]): void {
  for (const [start, end] of blocks(lines)) {
    const block = lines.slice(start, end) as Array<Extract<Line, { kind: 'kv' }>>;
    // Dotted keys build tables as they go: their order is left to the author.
    if (block.some((l) => l.dotted)) continue;
    block.sort((a, b) => (bareKey(a.key) < bareKey(b.key) ? -1 : bareKey(a.key) > bareKey(b.key) ? 1 : 0));
    lines.splice(start, block.length, ...block);
  }
}

function bareKey(key: string): string {
  return key.replace(/^["']|["']$/g, '');
}

function render(lines: readonly Line[], options: ResolvedFormatOptions, eol: string): string {
  const width = new Map<number, number>();
  if (options.alignEntries) {
    for (const [start, end] of blocks(lines, true)) {
      let max = 0;
      for (let i = start; i < end; i++) {
        const line = lines[i]!;
        if (line.kind === 'kv') max = Math.max(max, line.key.length);
      }
      for (let i = start; i < end; i++) width.set(i, max);
    }
  }
  const out: string[] = lines.map((line, i) => {
    switch (line.kind) {
      case 'blank':
        return '';
      case 'comment':
        return line.text;
      case 'header':
        return line.comment !== undefined ? `${line.text} ${line.comment}` : line.text;
      case 'kv': {
        const key = line.key.padEnd(width.get(i) ?? 0);
        const body = `${key} = ${line.value}`;
        return line.comment !== undefined ? `${body} ${line.comment}` : body;
      }
    }
  });
  return out.length === 0 ? '' : out.join(eol) + eol;
}
