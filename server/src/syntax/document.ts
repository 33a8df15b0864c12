// The public entry: text -> TomlDocument. The located tree comes from this layer's own parser;
// whether the text is valid TOML is smol-toml's call (it is what runs the methods). The own parser
// agrees with it (tested), so smol-toml is asked only when the own parser finds a fault:
// - smol-toml accepts: no errors, whatever the own parser thought;
// - smol-toml refuses: its error (located at its line/column, message without the code excerpt,
//   completed by the own parser's message for that line), plus the own parser's errors on other
//   lines (one error per line);
// - smol-toml fails without a located TomlError (it ran out of stack, say): that is no verdict on
//   the text, and the own parser's errors stand.

import { parse } from 'smol-toml';
import { parseTomlSyntax, type SyntaxResult } from './parser.js';
import type { LTable, Range, Statement, TomlDocument, TomlSyntaxError } from './types.js';

/**
 * `previous`: an earlier version of the same document (a file changed on disk), whose statements
 * before and after the changed stretch the parse takes over (see parser.ts); the result is the same.
 */
export function parseToml(text: string, previous?: TomlDocument): TomlDocument {
  const r = parseTomlSyntax(text, undefined, previous instanceof ParsedDocument ? previous.syntaxResult : undefined);
  let errors: TomlSyntaxError[] = [];
  // The own parser's default dialect accepts exactly what smol-toml accepts (proved over toml-test
  // and fuzzed mutations of it and of the corpus, see test/unit/syntax): when it finds no fault,
  // asking smol-toml again would only double the cost of every keystroke. When it finds one,
  // smol-toml has the last word, and its message leads.
  if (r.errors.length > 0) {
    try {
      parse(text, { integersAsBigInt: 'asNeeded' });
    } catch (failure) {
      errors = mergeErrors(text, r.lineStarts, r.errors, failure);
    }
  }
  return new ParsedDocument(text, r, errors);
}

/** A class, not a literal with a getter: see ParsedSyntax in parser.ts (a map per document). */
class ParsedDocument implements TomlDocument {
  readonly root: LTable;
  readonly statements: Statement[];

  constructor(
    readonly text: string,
    private readonly syntax: SyntaxResult,
    readonly errors: TomlSyntaxError[],
  ) {
    this.root = syntax.root;
    this.statements = syntax.statements;
  }

  /** Computed on first access, once. */
  get lineStarts(): number[] {
    return this.syntax.lineStarts;
  }

  get syntaxResult(): SyntaxResult {
    return this.syntax;
  }
}

/** `Invalid TOML document: invalid value\n\n1:  a = ...` -> `invalid value`. */
export function cleanSmolMessage(message: string): string {
  let m = message;
  const nl = m.indexOf('\n');
  if (nl >= 0) m = m.slice(0, nl);
  m = m.replace(/^Invalid TOML document:\s*/, '').trim();
  return m || 'invalid TOML';
}

function tokenEnd(text: string, offset: number): number {
  let p = offset;
  while (p < text.length) {
    const c = text.charCodeAt(p);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 44 || c === 93 || c === 125 || c === 35 || c === 61) break;
    p++;
  }
  if (p === offset && p < text.length) {
    const c = text.charCodeAt(p);
    if (c !== 10 && c !== 13) p++;
  }
  return p;
}

function mergeErrors(text: string, lineStarts: number[], own: TomlSyntaxError[], failure: unknown): TomlSyntaxError[] {
  const f = failure as { message?: unknown; line?: unknown; column?: unknown } | null;
  const message = f && typeof f.message === 'string' ? cleanSmolMessage(f.message) : String(failure);
  let first: TomlSyntaxError;
  if (f && typeof f.line === 'number' && typeof f.column === 'number' && f.line >= 1) {
    // smol-toml counts lines split on \r?\n; up to its error, that is where lineStarts are too (a
    // lone \r is an error, so none comes before it).
    const lineIdx = Math.min(f.line - 1, lineStarts.length - 1);
    const ls = lineStarts[lineIdx]!;
    const start = Math.min(ls + Math.max(0, f.column - 1), text.length);
    let end = tokenEnd(text, start);
    let detail: TomlSyntaxError | undefined;
    for (const e of own) {
      if (e.line !== lineIdx + 1) continue;
      detail ??= e;
      if (e.range.start === start && e.range.end > end) end = e.range.end;
    }
    const range: Range = { start, end };
    // smol-toml's sentence, completed by the own parser's when that says more about the same line
    // ("control characters are not allowed in strings (unterminated string: missing closing ")").
    let full = message;
    if (detail !== undefined && detail.message !== message) full = detail.message.startsWith(message) ? detail.message : `${message} (${detail.message})`;
    first = { message: full, range, line: lineIdx + 1, column: start - ls + 1 };
  } else {
    // Not a verdict on the text (e.g. smol-toml ran out of stack): the own parser's errors stand.
    return onePerLine(own);
  }
  const out = [first];
  const lines = new Set<number>([first.line]);
  for (const e of own) {
    if (lines.has(e.line)) continue;
    lines.add(e.line);
    out.push(e);
  }
  out.sort((a, b) => a.range.start - b.range.start);
  return out;
}

function onePerLine(errors: TomlSyntaxError[]): TomlSyntaxError[] {
  const lines = new Set<number>();
  return errors.filter((e) => !lines.has(e.line) && (lines.add(e.line), true));
}
