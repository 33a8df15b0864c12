// The structural half of the parser: statements (headers, key/value pairs), arrays and inline
// tables, table definitions and error recovery. Single pass, char-code based, never throws.
//
// Recovery:
// - An error inside a statement is recorded; the value that failed becomes an `LInvalid` (or stays
//   partial: an unterminated string keeps what was read, an array the items before the error), and
//   parsing resumes with the next line. A line whose first token is `[` is always a header.
// - Arrays and inline tables recover item by item (a bad item becomes `LInvalid`; a missing comma is
//   reported and parsing goes on). In an array, a line that starts with `key =` ends the array: it
//   was left unclosed and the line is the next statement.
// - Runaway constructs: when a multi-line value (array, inline table, or an unterminated
//   multi-line string) had errors and one of the lines it swallowed looks like a table header
//   (`[` at column 0, a key, `]` or `]]`, then nothing but a comment) or, for arrays and inline
//   tables, like a key/value pair starting at column 0 (`key =`), the value is parsed again as if
//   the text ended just before that line, so that line and everything after it are kept. A
//   multi-line string that is closed is never cut, whatever its lines look like; nor is a value
//   without errors (valid TOML 1.1 inline tables may hold such lines).
// - Nesting deeper than MAX_DEPTH arrays/inline tables is an error; the rest of the line is skipped.

import { computeLineStarts, lineOfOffset, lineStartsAfterEdit } from './positions.js';
import { Scanner, describeChar, isBareKeyChar } from './scanner.js';
import { DefineError, TableMeta, defineHeader, defineKeyValue, defineSingle, formatKey, newTable } from './tables.js';
import type { KeySegment, KeyValueStatement, LArray, LEntry, LInvalid, LTable, LValue, Range, Statement, TomlSyntaxError } from './types.js';

/** Deepest nesting of arrays and inline tables (smol-toml's limit too). */
export const MAX_DEPTH = 1000;

export interface SyntaxOptions {
  /**
   * Strict TOML 1.0: also reject what smol-toml accepts beyond it (newlines, comments and a
   * trailing comma in inline tables, `\e` and `\x` escapes, times without seconds, impossible days
   * of the month such as Feb 30, integers beyond 64 bits). Off by default, so that this parser
   * agrees with smol-toml, the authority on validity.
   */
  toml10?: boolean;
}

export interface SyntaxResult {
  root: LTable;
  statements: Statement[];
  /** This parser's own errors, located, in document order. */
  errors: TomlSyntaxError[];
  /** Offsets at which each line starts (computed on first access). */
  readonly lineStarts: number[];
}

/** A copy without spare capacity (arrays grow by 16 slots at their first push). */
function compact<T>(a: T[]): T[] {
  return a.length > 0 && a.length < 32 ? a.slice() : a;
}

const PLACEHOLDER: LInvalid = { type: 'invalid', range: { start: 0, end: 0 } };

class Parser extends Scanner {
  /** Computed on first use: only error recovery and error locations need them. */
  private ls: number[] | null = null;
  readonly root: LTable;
  readonly rootMeta: TableMeta;
  /** The table receiving key/value pairs. */
  section: TableMeta;
  /** Ranges to grow to the end of the current section when it closes. */
  sectionExtend: Range[] = [];
  /** Set when nesting is too deep: every construct returns at once. */
  abort = false;
  /** Set by skipVoid() when it crossed a line break. */
  sawNewline = false;
  /** The statements of the previous parse (see `reusable`), and the next one to look at. */
  private readonly old: readonly Statement[];
  private oldAt = 0;
  /**
   * Key/value statements of `old` ending before `reuseEnd` are taken over as they are; those of the
   * unchanged tail, starting at or after `reuseFrom` here and `reuseShift` characters before in the
   * previous text, as they are too when the edit kept the length, else as copies moved by the
   * shift (see `reusable`).
   */
  private readonly reuseEnd: number;
  private readonly reuseFrom: number;
  private readonly reuseShift: number;

  constructor(text: string, toml10: boolean, old: readonly Statement[], reuse: Reuse) {
    super(text, toml10);
    this.root = newTable('root', 0, text.length);
    this.rootMeta = new TableMeta(this.root);
    this.section = this.rootMeta;
    this.old = old;
    this.reuseEnd = reuse.end;
    this.reuseFrom = reuse.from;
    this.reuseShift = reuse.shift;
  }

  get lineStarts(): number[] {
    return (this.ls ??= computeLineStarts(this.s));
  }

  /** The line starts, if they were computed. */
  get lineStartsIfKnown(): number[] | null {
    return this.ls;
  }

  run(): void {
    const s = this.s;
    if (s.charCodeAt(0) === 0xfeff) this.p = 1; // byte order mark
    for (;;) {
      this.skipVoid();
      if (this.p >= this.n) break;
      if (s.charCodeAt(this.p) === 91) this.header();
      else this.keyValue();
    }
    this.closeSection();
  }

  /** Skip blanks, line breaks and comments. */
  skipVoid(): void {
    const s = this.s;
    const n = this.n;
    let p = this.p;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === 32 || c === 9) p++;
      else if (c === 10) {
        p++;
        this.sawNewline = true;
      } else if (c === 13) {
        if (!(p + 1 < n && s.charCodeAt(p + 1) === 10)) this.error('a carriage return must be followed by a line feed', p, p + 1);
        p++;
        this.sawNewline = true;
      } else if (c === 35) {
        this.p = p;
        this.scanComment();
        p = this.p;
      } else break;
    }
    this.p = p;
  }

  /** After a statement: blanks, an optional comment, then a line break or the end. */
  private endOfStatement(what: string): void {
    this.skipBlanks();
    const s = this.s;
    let p = this.p;
    if (p < this.n && s.charCodeAt(p) === 35) {
      this.scanComment();
      p = this.p;
    }
    if (p >= this.n) return;
    const c = s.charCodeAt(p);
    if (c === 10 || c === 13) return;
    const end = this.lineEnd(p);
    this.error(`expected a line break after ${what}, found ${describeChar(c)}`, p, end);
    this.skipRest(p, end);
  }

  /** Record [from, to) as skipped text and move to `to`. */
  private skipRest(from: number, to: number): void {
    if (to > from) this.statements.push({ kind: 'error', range: { start: from, end: to } });
    this.p = to;
  }

  private closeSection(): void {
    const node = this.section.node;
    if (node === this.root) return;
    node.entries = compact(node.entries);
    const end = node.range.end;
    const ext = this.sectionExtend;
    for (let i = 0; i < ext.length; i++) {
      const r = ext[i]!;
      if (r.end < end) r.end = end;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Statements

  private header(): void {
    const s = this.s;
    const n = this.n;
    const start = this.p;
    this.closeSection();
    let p = start + 1;
    const aot = p < n && s.charCodeAt(p) === 91;
    if (aot) p++;
    this.p = p;
    this.skipBlanks();
    p = this.p;
    let key: KeySegment[];
    let ok = false;
    let end: number;
    const reused = start < this.reuseEnd || start >= this.reuseFrom ? this.reusedHeader(start) : undefined;
    if (reused !== undefined) {
      // The header as the previous parse read it (no error there): its key, at the same place.
      key = reused.key;
      ok = true;
      end = reused.range.end;
    } else if (p < n && s.charCodeAt(p) === 93) {
      key = [];
      this.error('missing key in table header', start, p + 1);
      end = p;
    } else {
      key = this.scanKey();
      p = this.p;
      end = p;
      if (this.keyOk) {
        if (p < n && s.charCodeAt(p) === 93) {
          if (!aot) {
            ok = true;
            end = p + 1;
          } else if (p + 1 < n && s.charCodeAt(p + 1) === 93) {
            ok = true;
            end = p + 2;
          } else this.error(`expected ']]' to close the array-of-tables header, found ${describeChar(p + 1 < n ? s.charCodeAt(p + 1) : NaN)}`, p, p + 1);
        } else {
          this.error(`expected '${aot ? ']]' : ']'}' to close the table header, found ${describeChar(p < n ? s.charCodeAt(p) : NaN)}`, p, p < n ? p + 1 : p);
        }
      }
    }
    const headerRange: Range = { start, end };
    const extend: Range[] = [];
    let meta: TableMeta | undefined;
    if (ok) {
      const r = defineHeader(this.rootMeta, key, aot, headerRange, extend);
      if (r instanceof DefineError) {
        const seg = key[r.index]!;
        this.error(r.message, seg.range.start, seg.range.end);
        extend.length = 0;
      } else meta = r;
    }
    if (meta === undefined) {
      // Not part of the tree: the section's pairs go to a detached table.
      const node = newTable(aot ? 'array-element' : 'header', start, end);
      node.header = { range: headerRange, key };
      meta = new TableMeta(node);
    }
    this.statements.push({ kind: 'header', arrayOfTables: aot, key, range: headerRange, table: meta.node });
    this.section = meta;
    this.sectionExtend = extend;
    this.p = end;
    if (ok) this.endOfStatement('the table header');
    else this.skipRest(end, this.lineEnd(end));
  }

  private keyValue(): void {
    const s = this.s;
    const start = this.p;
    if ((start < this.reuseEnd || start >= this.reuseFrom) && this.reuseKeyValue(start)) return;
    const key = this.scanKey();
    if (!this.keyOk) {
      const end = this.lineEnd(this.p);
      if (key.length === 0) this.skipRest(start, end);
      else {
        // A partial key: keep it as a statement (for completion), but define nothing.
        this.statements.push({ kind: 'keyvalue', key, value: this.invalid(this.p, end), range: { start, end } });
        this.p = end;
      }
      return;
    }
    let p = this.p;
    if (!(p < this.n && s.charCodeAt(p) === 61)) {
      const end = this.lineEnd(p);
      if (p < end) this.error(`expected '=' after the key '${formatKey(key)}', found ${describeChar(s.charCodeAt(p))}`, p, p + 1);
      else this.error(`expected '=' and a value after the key '${formatKey(key)}'`, start, p);
      this.statements.push({ kind: 'keyvalue', key, value: this.invalid(p, end), range: { start, end } });
      this.p = end;
      return;
    }
    this.p = p + 1;
    this.skipBlanks();
    const range: Range = { start, end: start };
    const stmt: Statement & { kind: 'keyvalue' } = { kind: 'keyvalue', key, value: PLACEHOLDER, range };
    this.statements.push(stmt);
    const errMark = this.errors.length;
    const stmtMark = this.statements.length;
    const valueStart = this.p;
    let value = this.value(0, 0);
    if (this.abort) {
      this.abort = false;
      this.skipRest(this.p, this.lineEnd(this.p));
    } else if (this.errors.length > errMark) {
      value = this.cutRunaway(value, valueStart, errMark, stmtMark);
    }
    stmt.value = value;
    range.end = value.range.end;
    this.define(key, value, range);
    this.endOfStatement('the value');
  }

  /** Define a key/value pair in the current section. */
  private define(key: readonly KeySegment[], value: LValue, range: Range): void {
    if (key.length === 1) {
      const seg = key[0]!;
      const message = defineSingle(this.section, seg.name, seg.range, value, range);
      if (message !== null) this.error(message, seg.range.start, seg.range.end);
    } else {
      const err = defineKeyValue(this.section, key, value, range);
      if (err !== null) {
        const seg = key[err.index]!;
        this.error(err.message, seg.range.start, seg.range.end);
      }
    }
    const sec = this.section.node;
    if (sec !== this.root && sec.range.end < range.end) sec.range.end = range.end;
  }

  /**
   * The previous parse's statement that read the same text as one at `start` here, in the text
   * both share (see `reusable`): before the edit, one that ends two characters before it (a scan
   * reads at most two characters past a statement: a local date looks for ` HH` after it, and
   * nothing before its start); after it, in the unchanged tail. Undefined when there is none.
   */
  private oldStatementAt(start: number): Statement | undefined {
    const old = this.old;
    const tail = start >= this.reuseFrom;
    const at = tail ? start - this.reuseShift : start;
    let i = this.oldAt;
    while (i < old.length && old[i]!.range.start < at) i++;
    this.oldAt = i;
    const found = i < old.length ? old[i]! : undefined;
    if (found === undefined || found.range.start !== at) return undefined;
    if (!tail && found.range.end + 2 > this.reuseEnd) return undefined;
    return found;
  }

  /** The key and extent of the previous parse's header at `start` (see oldStatementAt). */
  private reusedHeader(start: number): { key: KeySegment[]; range: Range } | undefined {
    const found = this.oldStatementAt(start);
    if (found === undefined || found.kind !== 'header') return undefined;
    this.oldAt++;
    const shift = start - found.range.start;
    if (shift === 0) return found;
    return { key: shiftKey(found.key, shift), range: moved(found.range, shift) };
  }

  /**
   * Take over the previous parse's key/value statement at `start` (see oldStatementAt): its key,
   * value and range objects are what scanning it again would build. In the tail after an edit
   * that changed the length, the statement is copied with its offsets moved (nodes are never
   * changed, so a copy is all that differs; the decoded strings are shared). Only the definition
   * (which depends on the tables around it) is done again. Returns false when there is no such
   * statement.
   */
  private reuseKeyValue(start: number): boolean {
    const found = this.oldStatementAt(start);
    if (found === undefined || found.kind !== 'keyvalue' || found.value.type === 'invalid') return false;
    const old = this.old;
    let i = this.oldAt;
    const shift = start - found.range.start;
    const st = shift === 0 ? found : shiftKeyValue(found, shift);
    const end = st.range.end;
    this.statements.push(st);
    // The comments inside a multi-line value come with it.
    for (i++; i < old.length && old[i]!.range.start < found.range.end; i++) {
      const c = old[i]!;
      this.statements.push(shift === 0 ? c : { kind: 'comment', range: moved(c.range, shift) });
    }
    this.oldAt = i;
    this.define(st.key, st.value, st.range);
    this.p = end;
    this.endOfStatement('the value');
    return true;
  }

  /** See "Runaway constructs" at the top of the file. */
  private cutRunaway(value: LValue, valueStart: number, errMark: number, stmtMark: number): LValue {
    if (value.type === 'string') {
      if (value.style !== 'ml-basic' && value.style !== 'ml-literal') return value;
      if (value.range.end !== value.contentEnd) return value; // closed
    } else if (value.type !== 'array' && value.type !== 'table') return value;
    const ls = this.lineStarts;
    const stop = this.p;
    const keyValuesToo = value.type !== 'string';
    for (let line = lineOfOffset(ls, valueStart) + 1; line < ls.length && ls[line]! <= stop; line++) {
      const at = ls[line]!;
      if (!this.looksLikeHeader(at) && !(keyValuesToo && this.looksLikeKeyValue(at))) continue;
      this.errors.length = errMark;
      this.statements.length = stmtMark;
      const savedN = this.n;
      this.n = this.lineBreakBefore(at);
      this.p = valueStart;
      const v = this.value(0, 0);
      this.abort = false;
      this.n = savedN;
      return v;
    }
    return value;
  }

  /** The offset of the line break that ends the line before the one containing `p`. */
  private lineBreakBefore(p: number): number {
    const s = this.s;
    while (p > 0) {
      const c = s.charCodeAt(p - 1);
      if (c === 10 || c === 13) break;
      p--;
    }
    if (p > 0 && s.charCodeAt(p - 1) === 10) p--;
    if (p > 0 && s.charCodeAt(p - 1) === 13) p--;
    return p;
  }

  /** Whether the line starting at `p` is a table header: `[key]` or `[[key]]`, then only a comment. */
  looksLikeHeader(p: number): boolean {
    const s = this.s;
    const n = this.s.length;
    if (s.charCodeAt(p) !== 91) return false;
    p++;
    if (s.charCodeAt(p) === 91) p++;
    let any = false;
    for (;;) {
      if (p >= n) return false;
      const c = s.charCodeAt(p);
      if (c === 93) break;
      if (isBareKeyChar(c)) any = true;
      else if (c === 34 || c === 39) {
        const close = this.closingQuote(p);
        if (close < 0) return false;
        any = true;
        p = close;
      } else if (c !== 46 && c !== 32 && c !== 9) return false;
      p++;
    }
    if (!any) return false;
    p++;
    if (s.charCodeAt(p) === 93) p++;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === 32 || c === 9) p++;
      else break;
    }
    if (p >= n) return true;
    const c = s.charCodeAt(p);
    return c === 10 || c === 13 || c === 35;
  }

  /** The offset of the quote closing the one at `p` on the same line, or -1. */
  private closingQuote(p: number): number {
    const s = this.s;
    const n = s.length;
    const q = s.charCodeAt(p);
    for (let i = p + 1; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === q) return i;
      if (c === 10 || c === 13) return -1;
    }
    return -1;
  }

  /** Whether the text at `p` reads like the start of a key/value pair: a key, then `=`. */
  private looksLikeKeyValue(p: number): boolean {
    const s = this.s;
    const n = this.n;
    let segs = 0;
    for (;;) {
      const c = s.charCodeAt(p);
      if (isBareKeyChar(c)) {
        while (p < n && isBareKeyChar(s.charCodeAt(p))) p++;
      } else if (c === 34 || c === 39) {
        const close = this.closingQuote(p);
        if (close < 0) return false;
        p = close + 1;
      } else return false;
      segs++;
      while (p < n && (s.charCodeAt(p) === 32 || s.charCodeAt(p) === 9)) p++;
      if (p < n && s.charCodeAt(p) === 46) {
        p++;
        while (p < n && (s.charCodeAt(p) === 32 || s.charCodeAt(p) === 9)) p++;
        continue;
      }
      break;
    }
    return segs > 0 && p < n && s.charCodeAt(p) === 61 && s.charCodeAt(p + 1) !== 61;
  }

  // ---------------------------------------------------------------------------------------------
  // Values

  /** A value at `p`. `closer` is the bracket that may legitimately follow (`]`, `}` or 0). */
  private value(depth: number, closer: number): LValue {
    const s = this.s;
    const p = this.p;
    if (p >= this.n) {
      this.error('expected a value', p, p);
      return this.invalid(p, p);
    }
    const c = s.charCodeAt(p);
    if (c === 34 || c === 39) return this.scanString();
    if (c === 91) return this.array(depth + 1);
    if (c === 123) return this.inlineTable(depth + 1);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 35 || c === 44 || c === closer) {
      this.error('expected a value', p, p);
      return this.invalid(p, p);
    }
    if (c === 93 || c === 125) {
      this.error(`unexpected ${describeChar(c)}, expected a value`, p, p + 1);
      this.p = p + 1;
      return this.invalid(p, p + 1);
    }
    return this.scanScalar();
  }

  private tooDeep(start: number): LInvalid {
    this.error(`too deeply nested: more than ${MAX_DEPTH} levels of arrays and inline tables`, start, start + 1);
    this.abort = true;
    this.p = start + 1;
    return this.invalid(start, start + 1);
  }

  private array(depth: number): LArray | LInvalid {
    const s = this.s;
    const start = this.p;
    if (depth > MAX_DEPTH) return this.tooDeep(start);
    this.p = start + 1;
    const items: LValue[] = [];
    const arr: LArray = { type: 'array', items, range: { start, end: start }, ofTables: false };
    let missingComma = -1;
    let carriedNewline = false; // a line break between the previous item and a missing comma
    for (;;) {
      this.sawNewline = carriedNewline;
      carriedNewline = false;
      this.skipVoid();
      const p = this.p;
      if (p >= this.n) {
        this.error("unterminated array: missing ']'", start, start + 1);
        arr.range.end = p;
        break;
      }
      const c = s.charCodeAt(p);
      if (c === 93) {
        this.p = p + 1;
        arr.range.end = p + 1;
        break;
      }
      if (c === 44) {
        this.error("expected a value before ','", p, p + 1);
        this.p = p + 1;
        continue;
      }
      const atLineStart = this.sawNewline;
      const itemMark = this.errors.length;
      const v = this.value(depth, 93);
      if (this.abort) {
        items.push(v);
        arr.range.end = this.p;
        break;
      }
      if (v.type === 'invalid' && atLineStart && this.looksLikeKeyValue(p)) {
        // The array was left open: this line is the next key/value pair.
        this.errors.length = itemMark;
        if (missingComma >= 0) this.errors.splice(missingComma, 1);
        this.error("unterminated array: missing ']'", start, start + 1);
        this.p = this.lineBreakBefore(p);
        arr.range.end = this.p;
        break;
      }
      missingComma = -1;
      items.push(v);
      this.sawNewline = false;
      this.skipVoid();
      const q = this.p;
      if (q >= this.n) {
        this.error("unterminated array: missing ']'", start, start + 1);
        arr.range.end = q;
        break;
      }
      const d = s.charCodeAt(q);
      if (d === 44) {
        this.p = q + 1;
        continue;
      }
      if (d === 93) {
        this.p = q + 1;
        arr.range.end = q + 1;
        break;
      }
      missingComma = this.errors.length;
      carriedNewline = this.sawNewline;
      this.error(`expected ',' or ']' after an array item, found ${describeChar(d)}`, q, q + 1);
    }
    arr.items = compact(items);
    return arr;
  }

  private inlineTable(depth: number): LTable | LInvalid {
    const s = this.s;
    const n = this.n;
    const start = this.p;
    if (depth > MAX_DEPTH) return this.tooDeep(start);
    this.p = start + 1;
    const node = newTable('inline', start, start);
    // Created on demand: most inline tables are a few `bare = value` pairs, checked by a scan.
    let meta: TableMeta | null = null;
    let trailingComma = -1;
    let newlineReported = false;
    for (;;) {
      this.sawNewline = false;
      this.skipVoid();
      let p = this.p;
      if (this.sawNewline && this.toml10 && !newlineReported) {
        newlineReported = true;
        this.error('line breaks and comments are not allowed in an inline table in TOML 1.0', p, p);
      }
      if (p >= n) {
        this.error("unterminated inline table: missing '}'", start, start + 1);
        node.range.end = p;
        break;
      }
      let c = s.charCodeAt(p);
      if (c === 125) {
        if (trailingComma >= 0 && this.toml10) this.error("a trailing ',' is not allowed in an inline table in TOML 1.0", trailingComma, trailingComma + 1);
        this.p = p + 1;
        node.range.end = p + 1;
        break;
      }
      if (c === 44) {
        this.error("expected a key before ','", p, p + 1);
        this.p = p + 1;
        continue;
      }
      if (c === 91 && this.sawNewline && this.looksLikeHeader(p) && (p === 0 || s.charCodeAt(p - 1) === 10 || s.charCodeAt(p - 1) === 13)) {
        // The inline table was left open: this line is the next header.
        this.error("unterminated inline table: missing '}'", start, start + 1);
        this.p = this.lineBreakBefore(p);
        node.range.end = this.p;
        break;
      }
      trailingComma = -1;
      const keyStart = p;
      // Fast path: `bare = value`.
      let e = p;
      while (e < n && isBareKeyChar(s.charCodeAt(e))) e++;
      let q = e;
      while (q < n && (s.charCodeAt(q) === 32 || s.charCodeAt(q) === 9)) q++;
      if (e > p && q < n && s.charCodeAt(q) === 61) {
        this.p = q + 1;
        this.skipBlanks();
        const v = this.value(depth, 125);
        const name = this.name(p, e);
        const entries = node.entries;
        let fast = meta === null && entries.length < 8;
        for (let i = 0; fast && i < entries.length; i++) if (entries[i]!.key === name) fast = false;
        if (fast) entries.push({ key: name, keyRange: { start: p, end: e }, value: v, range: { start: keyStart, end: v.range.end } });
        else {
          meta ??= new TableMeta(node);
          const message = defineSingle(meta, name, { start: p, end: e }, v, { start: keyStart, end: v.range.end });
          if (message !== null) this.error(message, p, e);
        }
      } else {
        const key = this.scanKey();
        if (!this.keyOk) {
          this.skipToSeparator();
          continue;
        }
        p = this.p;
        if (!(p < n && s.charCodeAt(p) === 61)) {
          this.error(`expected '=' after the key '${formatKey(key)}', found ${describeChar(p < n ? s.charCodeAt(p) : NaN)}`, p, p < n ? p + 1 : p);
          this.skipToSeparator();
          continue;
        }
        this.p = p + 1;
        this.skipBlanks();
        const v = this.value(depth, 125);
        meta ??= new TableMeta(node);
        const err = defineKeyValue(meta, key, v, { start: keyStart, end: v.range.end });
        if (err !== null) {
          const seg = key[err.index]!;
          this.error(err.message, seg.range.start, seg.range.end);
        }
      }
      if (this.abort) {
        node.range.end = this.p;
        break;
      }
      this.sawNewline = false;
      this.skipVoid();
      p = this.p;
      if (this.sawNewline && this.toml10 && !newlineReported) {
        newlineReported = true;
        this.error('line breaks and comments are not allowed in an inline table in TOML 1.0', p, p);
      }
      if (p >= n) {
        this.error("unterminated inline table: missing '}'", start, start + 1);
        node.range.end = p;
        break;
      }
      c = s.charCodeAt(p);
      if (c === 44) {
        trailingComma = p;
        this.p = p + 1;
        continue;
      }
      if (c === 125) {
        this.p = p + 1;
        node.range.end = p + 1;
        break;
      }
      this.error(`expected ',' or '}' after a key/value pair, found ${describeChar(c)}`, p, p + 1);
    }
    node.entries = compact(node.entries);
    return node;
  }

  /** Inline-table recovery: skip to the next `,`, `}` or line break. */
  private skipToSeparator(): void {
    const s = this.s;
    const n = this.n;
    let p = this.p;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === 44 || c === 125 || c === 10 || c === 13) break;
      p++;
    }
    this.p = p;
  }
}

/**
 * The last parse, kept so that the next one can take over its statements where the text did not
 * change: an editor parses the whole document again on every keystroke, and the statements before
 * the edit (key, value and range objects) are most of what a parse allocates, and keeps alive.
 */
let last: { text: string; toml10: boolean; statements: readonly Statement[]; errors: readonly TomlSyntaxError[]; result: ParsedSyntax } | undefined;

const NO_STATEMENTS: readonly Statement[] = [];

/** What a parse may take over from the previous one (see Parser.reuseEnd). */
interface Reuse {
  end: number;
  from: number;
  /** The tail's offset here minus its offset in the previous text. */
  shift: number;
  /** How many characters both texts share at their start (-1: not an edit) and at their end. */
  head: number;
  tail: number;
}

const NO_REUSE: Reuse = { end: 0, from: Infinity, shift: 0, head: -1, tail: 0 };

/** How far an edit of a text may spread (in characters) for the next parse to reuse statements. */
const MAX_EDIT = 4096;

const CHUNK = 1024;

/**
 * Longer texts are not remembered: what an editor types in is far shorter, and a process that
 * parsed one huge document (a runner's request) should not keep its tree until the next parse.
 */
const REMEMBER_UP_TO = 1 << 20;

/**
 * When `text` is an edit of the previously parsed text (they differ in one stretch of at most
 * MAX_EDIT characters: another document sharing its first lines is not an edit): the offset up to
 * which both are the same, or up to the previous parse's first error if it comes sooner; and where
 * the same tail begins, with how far it moved, if the previous parse found no error at all.
 */
function reusable(prev: NonNullable<typeof last>, text: string): Reuse {
  const a = prev.text;
  const shorter = Math.min(a.length, text.length);
  // Compared a chunk at a time natively first: a loop over every character costs about as much
  // as the statements it saves. Equality of two slices is a memory comparison; `startsWith` and
  // `endsWith` compare character by character (ten times slower, measured on Node 20).
  let head = 0;
  while (head + CHUNK <= shorter && a.substring(head, head + CHUNK) === text.substring(head, head + CHUNK)) head += CHUNK;
  while (head < shorter && a.charCodeAt(head) === text.charCodeAt(head)) head++;
  let tail = 0;
  while (tail + CHUNK <= shorter - head && a.substring(a.length - tail - CHUNK, a.length - tail) === text.substring(text.length - tail - CHUNK, text.length - tail)) tail += CHUNK;
  while (tail < shorter - head && a.charCodeAt(a.length - 1 - tail) === text.charCodeAt(text.length - 1 - tail)) tail++;
  if (Math.max(a.length, text.length) - head - tail > MAX_EDIT) return NO_REUSE;
  const firstError = prev.errors.length > 0 ? prev.errors[0]!.range.start : Infinity;
  return { end: Math.min(head, firstError), from: prev.errors.length === 0 ? text.length - tail : Infinity, shift: text.length - a.length, head, tail };
}

function moved(r: Range, shift: number): Range {
  return { start: r.start + shift, end: r.end + shift };
}

function shiftKey(key: readonly KeySegment[], shift: number): KeySegment[] {
  const out: KeySegment[] = new Array(key.length);
  for (let i = 0; i < out.length; i++) {
    const seg = key[i]!;
    out[i] = { name: seg.name, range: moved(seg.range, shift) };
  }
  return out;
}

/** A copy of a key/value statement of the previous parse, `shift` characters further. */
function shiftKeyValue(st: KeyValueStatement, shift: number): KeyValueStatement {
  return { kind: 'keyvalue', key: shiftKey(st.key, shift), value: shiftValue(st.value, shift), range: moved(st.range, shift) };
}

/** A copy of a value, `shift` characters further: the same node a scan at its new place builds. */
function shiftValue(v: LValue, shift: number): LValue {
  switch (v.type) {
    case 'string': {
      const map = v.offsetMap;
      let offsetMap = map;
      if (map.length > 0) {
        offsetMap = map.slice();
        for (let i = 1; i < offsetMap.length; i += 2) offsetMap[i]! += shift;
      }
      return { type: 'string', value: v.value, range: moved(v.range, shift), style: v.style, contentStart: v.contentStart + shift, contentEnd: v.contentEnd + shift, offsetMap };
    }
    case 'integer':
      return { type: 'integer', value: v.value, range: moved(v.range, shift) };
    case 'float':
      return { type: 'float', value: v.value, range: moved(v.range, shift) };
    case 'boolean':
      return { type: 'boolean', value: v.value, range: moved(v.range, shift) };
    case 'datetime':
      return { type: 'datetime', kind: v.kind, value: v.value, range: moved(v.range, shift) };
    case 'invalid':
      return { type: 'invalid', range: moved(v.range, shift) };
    case 'array': {
      const items: LValue[] = new Array(v.items.length);
      for (let i = 0; i < items.length; i++) items[i] = shiftValue(v.items[i]!, shift);
      return { type: 'array', items, range: moved(v.range, shift), ofTables: v.ofTables };
    }
    case 'table': {
      const entries: LEntry[] = new Array(v.entries.length);
      for (let i = 0; i < entries.length; i++) {
        const e = v.entries[i]!;
        entries[i] = { key: e.key, keyRange: moved(e.keyRange, shift), value: shiftValue(e.value, shift), range: moved(e.range, shift) };
      }
      const header = v.header && { range: moved(v.header.range, shift), key: shiftKey(v.header.key, shift) };
      return { type: 'table', origin: v.origin, entries, range: moved(v.range, shift), header };
    }
  }
}

/** Fill in 1-based line/column and sort errors by position. */
function locate(errors: TomlSyntaxError[], lineStarts: number[]): void {
  for (const e of errors) {
    const line = lineOfOffset(lineStarts, e.range.start);
    e.line = line + 1;
    e.column = e.range.start - lineStarts[line]! + 1;
  }
  errors.sort((a, b) => a.range.start - b.range.start);
}

/**
 * Parse `text` into a located tree, with this parser's own errors (smol-toml is not consulted;
 * see document.ts for the public entry). Never throws.
 */
export function parseTomlSyntax(text: string, options?: SyntaxOptions, previous?: SyntaxResult): SyntaxResult {
  const toml10 = options?.toml10 === true;
  // The previous version of the same document when the caller has it (a file changed on disk),
  // else the last parse (an editor's keystrokes).
  const base = previous instanceof ParsedSyntax ? previous.asPrevious() : last;
  const prev = base !== undefined && base.toml10 === toml10 ? base : undefined;
  const reuse = prev === undefined ? NO_REUSE : reusable(prev, text);
  const parser = new Parser(text, toml10, reuse.end > 0 || reuse.from < Infinity ? prev!.statements : NO_STATEMENTS, reuse);
  last = undefined;
  try {
    parser.run();
  } catch (error) {
    // A bug here must not take the editor down: report it and keep what was built.
    const at = Math.min(parser.p, text.length);
    parser.errors.push({ message: `internal parser error: ${error instanceof Error ? error.message : String(error)}`, range: { start: at, end: at }, line: 0, column: 0 });
  }
  if (parser.errors.length > 0) locate(parser.errors, parser.lineStarts);
  const result = new ParsedSyntax(parser.root, parser.statements, parser.errors, text, parser.lineStartsIfKnown, toml10);
  // The line starts of an edit are those of the previous text, moved, with the edited stretch read.
  const before = reuse.head >= 0 ? prev!.result.knownLineStarts : null;
  if (before !== null) result.derive(before, prev!.text.length, reuse.head, reuse.tail);
  if (text.length <= REMEMBER_UP_TO && !parser.errors.some((e) => e.message.startsWith('internal parser error'))) {
    last = { text, toml10, statements: parser.statements, errors: parser.errors, result };
  }
  return result;
}

/**
 * A parse's result. A class, not an object literal with a getter: V8 gives every object built from
 * a literal with a getter a map of its own (the getter's closure differs each time), and maps live
 * in the old generation; each parse's map then held its closure, and through it the whole tree, as
 * a root of every young-generation collection until the next full one (measured: a keystroke loop
 * on a 2,000-line bundle kept some 25 MB of dead trees alive per scavenge).
 */
class ParsedSyntax implements SyntaxResult {
  /** The previous text's line starts, its length and what both share (see lineStartsAfterEdit). */
  private before: readonly number[] | null = null;
  private beforeLength = 0;
  private head = 0;
  private tail = 0;

  constructor(
    readonly root: LTable,
    readonly statements: Statement[],
    readonly errors: TomlSyntaxError[],
    private readonly text: string,
    // Line starts are computed when first asked for (a valid document may never need them).
    private known: number[] | null,
    private readonly toml10: boolean,
  ) {}

  /** This parse as the previous one of the next (see parseTomlSyntax's `previous`), unless it failed inside. */
  asPrevious(): typeof last {
    if (this.errors.some((e) => e.message.startsWith('internal parser error'))) return undefined;
    return { text: this.text, toml10: this.toml10, statements: this.statements, errors: this.errors, result: this };
  }

  get lineStarts(): number[] {
    if (this.known === null) {
      this.known = this.before === null ? computeLineStarts(this.text) : lineStartsAfterEdit(this.before, this.beforeLength, this.text, this.head, this.tail);
      this.before = null;
    }
    return this.known;
  }

  /** The line starts, if they were asked for. */
  get knownLineStarts(): readonly number[] | null {
    return this.known;
  }

  /** Line starts to be made from those of the previous text (an array, never its parse). */
  derive(before: readonly number[], beforeLength: number, head: number, tail: number): void {
    if (this.known !== null) return;
    this.before = before;
    this.beforeLength = beforeLength;
    this.head = head;
    this.tail = tail;
  }
}
