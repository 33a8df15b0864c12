// The lexical half of the parser: strings (with their offset maps), keys, comments and scalar
// literals, scanned by char code. The structural half (statements, arrays, tables) is parser.ts,
// which extends this class.
//
// Dialect: by default the scanner accepts what smol-toml accepts (TOML 1.0 plus smol-toml's TOML
// 1.1 leniencies: `\e` and `\xHH` escapes, times without seconds, day-of-month up to 31 in every
// month, integers beyond 64 bits), so that a document smol-toml accepts never has errors here.
// With `toml10` set, those leniencies are errors, as TOML 1.0 demands.

import type { DateTimeKind, KeySegment, LBoolean, LDateTime, LFloat, LInteger, LInvalid, LString, Statement, StringStyle, TomlSyntaxError } from './types.js';

/** The offset map of strings that are verbatim copies of their source. Shared; never mutate. */
export const NO_OFFSET_MAP: number[] = Object.freeze([]) as unknown as number[];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** A-Z a-z 0-9 _ - */
export function isBareKeyChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

/** Characters that end a scalar literal: whitespace, line breaks, `,`, `]`, `}`, `#`. */
function endsAtom(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 44 || c === 93 || c === 125 || c === 35;
}

/** A character for an error message: `'x'`, or `U+000D` for invisible ones. */
export function describeChar(c: number): string {
  if (Number.isNaN(c)) return 'end of file';
  if (c < 33 || c === 127 || (c >= 0x80 && c <= 0xa0) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfeff || c === 0x3000) {
    return 'U+' + c.toString(16).toUpperCase().padStart(4, '0');
  }
  return `'${String.fromCharCode(c)}'`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export class Scanner {
  /** The document text. */
  readonly s: string;
  /** End of the text being parsed (lowered temporarily to cut a runaway construct short). */
  n: number;
  /** Current offset. */
  p = 0;
  readonly errors: TomlSyntaxError[] = [];
  readonly statements: Statement[] = [];
  /** Reject smol-toml's TOML 1.1 leniencies. */
  readonly toml10: boolean;
  /** Whether the last scanKey() read a complete key. */
  keyOk = true;
  /** Set by decodeEscape(): where the escape ends. */
  private escEnd = 0;
  private readonly segBuf: KeySegment[] = [];

  constructor(text: string, toml10: boolean) {
    this.s = text;
    this.n = text.length;
    this.toml10 = toml10;
    const slots = nameSlots(text.length);
    this.names = new Array<string | undefined>(slots).fill(undefined);
    this.nameMask = slots - 1;
  }

  error(message: string, start: number, end: number): void {
    this.errors.push({ message, range: { start, end }, line: 0, column: 0 });
  }

  invalid(start: number, end: number): LInvalid {
    return { type: 'invalid', range: { start, end } };
  }

  /** Offset of the end of the current line (the line break, or the end of the text). */
  lineEnd(p: number): number {
    const s = this.s;
    const n = this.n;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === 10 || c === 13) break;
      p++;
    }
    return p;
  }

  /** Skip spaces and tabs. */
  skipBlanks(): void {
    const s = this.s;
    const n = this.n;
    let p = this.p;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c !== 32 && c !== 9) break;
      p++;
    }
    this.p = p;
  }

  /** A `#` comment at `p`, up to (not including) its line break. Recorded as a statement. */
  scanComment(): void {
    const s = this.s;
    const n = this.n;
    const start = this.p;
    let p = start + 1;
    let bad = -1;
    for (; p < n; p++) {
      const c = s.charCodeAt(p);
      if (c < 32 || c === 127) {
        if (c === 10 || (c === 13 && p + 1 < n && s.charCodeAt(p + 1) === 10)) break;
        if (c !== 9 && bad < 0) bad = p;
      }
    }
    if (bad >= 0) this.error(`control character ${describeChar(s.charCodeAt(bad))} is not allowed in a comment`, bad, bad + 1);
    this.statements.push({ kind: 'comment', range: { start, end: p } });
    this.p = p;
  }

  // ---------------------------------------------------------------------------------------------
  // Strings

  /** A string literal of any style at `p` (which is on its opening quote). */
  scanString(): LString {
    const s = this.s;
    const n = this.n;
    const start = this.p;
    const q = s.charCodeAt(start);
    if (start + 2 < n && s.charCodeAt(start + 1) === q && s.charCodeAt(start + 2) === q) return this.scanMultiline(start, q);
    const literal = q === 39;
    const contentStart = start + 1;
    let p = contentStart;
    let value = '';
    let sliceStart = p;
    let map: number[] | null = null;
    let closed = false;
    for (;;) {
      if (p >= n) break;
      const c = s.charCodeAt(p);
      if (c === q) {
        closed = true;
        break;
      }
      if (c === 92 && !literal) {
        const dec = this.decodeEscape(p, false);
        if (dec !== null) {
          value += s.slice(sliceStart, p);
          value += dec;
          p = this.escEnd;
          sliceStart = p;
          if (map === null) map = [];
          map.push(value.length, p);
        } else p = this.escEnd;
      } else if (c < 32 ? c !== 9 : c === 127) {
        if (c === 10 || c === 13) break; // a single-line string ends with its line
        this.error(`control character ${describeChar(c)} is not allowed in a string; use an escape`, p, p + 1);
        p++;
      } else p++;
    }
    const contentEnd = p;
    if (map === null) value = s.slice(contentStart, contentEnd);
    else value += s.slice(sliceStart, contentEnd);
    if (closed) p++;
    else this.error('unterminated string: missing closing ' + (literal ? "'" : '"'), start, contentEnd);
    this.p = p;
    return {
      type: 'string',
      value,
      range: { start, end: p },
      style: literal ? 'literal' : 'basic',
      contentStart,
      contentEnd,
      offsetMap: map === null ? NO_OFFSET_MAP : map,
    };
  }

  private scanMultiline(start: number, q: number): LString {
    const s = this.s;
    const n = this.n;
    const literal = q === 39;
    let p = start + 3;
    // TOML trims a newline right after the opening delimiter.
    if (p < n) {
      const c = s.charCodeAt(p);
      if (c === 10) p++;
      else if (c === 13 && p + 1 < n && s.charCodeAt(p + 1) === 10) p += 2;
    }
    const contentStart = p;
    let value = '';
    let sliceStart = p;
    let map: number[] | null = null;
    let closed = false;
    let contentEnd = n;
    for (;;) {
      if (p >= n) break;
      const c = s.charCodeAt(p);
      if (c === q) {
        if (p + 2 < n && s.charCodeAt(p + 1) === q && s.charCodeAt(p + 2) === q) {
          // Up to two more quotes right before the closing delimiter belong to the content.
          if (p + 3 < n && s.charCodeAt(p + 3) === q) {
            p++;
            if (p + 3 < n && s.charCodeAt(p + 3) === q) p++;
          }
          closed = true;
          contentEnd = p;
          break;
        }
        p++;
      } else if (c === 92 && !literal) {
        const dec = this.decodeEscape(p, true);
        if (dec !== null) {
          value += s.slice(sliceStart, p);
          value += dec;
          p = this.escEnd;
          sliceStart = p;
          if (map === null) map = [];
          const v = value.length;
          const last = map.length - 2;
          if (last >= 0 && map[last] === v) map[last + 1] = p;
          else map.push(v, p);
        } else p = this.escEnd;
      } else if (c < 32 ? c !== 9 : c === 127) {
        if (c === 10) p++;
        else if (c === 13 && p + 1 < n && s.charCodeAt(p + 1) === 10) p += 2;
        else {
          this.error(`control character ${describeChar(c)} is not allowed in a string; use an escape`, p, p + 1);
          p++;
        }
      } else p++;
    }
    if (!closed) contentEnd = p;
    if (map === null) value = s.slice(contentStart, contentEnd);
    else value += s.slice(sliceStart, contentEnd);
    if (closed) p = contentEnd + 3;
    else this.error('unterminated multi-line string: missing closing ' + (literal ? "'''" : '"""'), start, start + 3);
    this.p = p;
    const style: StringStyle = literal ? 'ml-literal' : 'ml-basic';
    return {
      type: 'string',
      value,
      range: { start, end: p },
      style,
      contentStart,
      contentEnd,
      offsetMap: map === null ? NO_OFFSET_MAP : map,
    };
  }

  /**
   * The escape sequence whose backslash is at `p`: its decoded text ('' for a line-ending
   * backslash), with `escEnd` set after it; or null when it is invalid (the error is recorded, the
   * text is kept verbatim and `escEnd` is set after the backslash).
   */
  private decodeEscape(p: number, multiline: boolean): string | null {
    const s = this.s;
    const n = this.n;
    if (p + 1 >= n) {
      // `\` at the end of the text: the string is unterminated, which is reported anyway.
      this.escEnd = p + 1;
      return null;
    }
    const c = s.charCodeAt(p + 1);
    this.escEnd = p + 2;
    switch (c) {
      case 98: return '\b';
      case 116: return '\t';
      case 110: return '\n';
      case 102: return '\f';
      case 114: return '\r';
      case 34: return '"';
      case 92: return '\\';
      case 101: // \e (TOML 1.1)
        if (this.toml10) this.error('the escape \\e is not allowed in TOML 1.0', p, p + 2);
        return '\x1b';
      case 120: // \xHH (TOML 1.1)
        if (this.toml10) this.error('the escape \\x is not allowed in TOML 1.0', p, p + 2);
        return this.decodeHex(p, 2);
      case 117: return this.decodeHex(p, 4);
      case 85: return this.decodeHex(p, 8);
    }
    if (multiline && (c === 32 || c === 9 || c === 10 || c === 13)) {
      // Line-ending backslash: `\`, optional blanks, a newline, then all whitespace is trimmed.
      let i = p + 1;
      let d = c;
      while (i < n && (d === 32 || d === 9)) d = s.charCodeAt(++i);
      if (i < n && (d === 10 || (d === 13 && i + 1 < n && s.charCodeAt(i + 1) === 10))) {
        while (i < n) {
          d = s.charCodeAt(i);
          if (d === 32 || d === 9 || d === 10) i++;
          else if (d === 13 && i + 1 < n && s.charCodeAt(i + 1) === 10) i += 2;
          else break;
        }
        this.escEnd = i;
        return '';
      }
      this.error('invalid escape: only line-ending whitespace may follow a backslash', p, i);
      this.escEnd = p + 1;
      return null;
    }
    this.error(`invalid escape sequence \\${c < 32 || c === 127 ? describeChar(c) : String.fromCharCode(c)}`, p, p + 2);
    this.escEnd = p + 1;
    return null;
  }

  private decodeHex(p: number, len: number): string | null {
    const s = this.s;
    const start = p + 2;
    let v = 0;
    for (let i = 0; i < len; i++) {
      const d = start + i < this.n ? s.charCodeAt(start + i) : NaN;
      if (!isHex(d)) {
        this.error(`invalid escape: \\${s[p + 1]} needs ${len} hexadecimal digits`, p, start + i);
        this.escEnd = p + 1;
        return null;
      }
      v = v * 16 + (d <= 57 ? d - 48 : (d | 32) - 87);
    }
    if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
      this.error(`invalid escape: U+${v.toString(16).toUpperCase()} is not a Unicode scalar value`, p, start + len);
      this.escEnd = p + 1;
      return null;
    }
    this.escEnd = start + len;
    return String.fromCodePoint(v);
  }

  // ---------------------------------------------------------------------------------------------
  // Keys

  /**
   * A direct-mapped cache of bare key names (see name()), sized to the text: most bundles are a
   * few kilobytes, and a fixed 512 slots would cost more to allocate than the file has keys.
   */
  private readonly names: (string | undefined)[];
  private readonly nameMask: number;

  /**
   * The bare key text in [a, b), shared among equal keys: the same few names repeat throughout a
   * document, and one string per name keeps the tree smaller (cheaper for the GC). A hit costs a
   * comparison, no allocation.
   */
  name(a: number, b: number): string {
    const s = this.s;
    const len = b - a;
    const slot = (len * 31 + s.charCodeAt(a) * 7 + s.charCodeAt(b - 1)) & this.nameMask;
    const known = this.names[slot];
    if (known !== undefined && known.length === len && s.startsWith(known, a)) return known;
    const text = s.slice(a, b);
    this.names[slot] = text;
    return text;
  }

  /**
   * A (dotted) key at `p`. Stops after the last segment and the blanks after it. `keyOk` tells
   * whether the key is complete; when it is not, the error is recorded and the segments read so
   * far are returned.
   */
  scanKey(): KeySegment[] {
    const s = this.s;
    const n = this.n;
    let p = this.p;
    // Fast path: a single bare key.
    if (p < n && isBareKeyChar(s.charCodeAt(p))) {
      let e = p + 1;
      while (e < n && isBareKeyChar(s.charCodeAt(e))) e++;
      let q = e;
      while (q < n && (s.charCodeAt(q) === 32 || s.charCodeAt(q) === 9)) q++;
      if (!(q < n && s.charCodeAt(q) === 46)) {
        this.p = q;
        this.keyOk = true;
        return [{ name: this.name(p, e), range: { start: p, end: e } }];
      }
    }
    // Collected in a reused buffer and copied out, so that the result has no spare capacity.
    const segs = this.segBuf;
    let count = 0;
    this.keyOk = false;
    for (;;) {
      const c = p < n ? s.charCodeAt(p) : NaN;
      if (isBareKeyChar(c)) {
        const start = p;
        p++;
        while (p < n && isBareKeyChar(s.charCodeAt(p))) p++;
        segs[count++] = { name: this.name(start, p), range: { start, end: p } };
      } else if (c === 34 || c === 39) {
        if (p + 2 < n && s.charCodeAt(p + 1) === c && s.charCodeAt(p + 2) === c) {
          this.error('a key cannot be a multi-line string', p, p + 3);
          this.p = p;
          return segs.slice(0, count);
        }
        this.p = p;
        const errs = this.errors.length;
        const str = this.scanString();
        p = this.p;
        segs[count++] = { name: str.value, range: str.range };
        if (this.errors.length > errs && str.range.end === str.contentEnd) return segs.slice(0, count); // unterminated
      } else {
        if (c === 61 /* = */ && count === 0) this.error('missing key before =', p, p + 1);
        else if (count > 0) this.error(`expected a key after '.', found ${describeChar(c)}`, p, p < n ? p + 1 : p);
        else this.error(`invalid character ${describeChar(c)} in key; bare keys may use A-Z a-z 0-9 _ -, other keys need quotes`, p, p < n ? p + 1 : p);
        this.p = p;
        return segs.slice(0, count);
      }
      let d = s.charCodeAt(p);
      while (d === 32 || d === 9) d = s.charCodeAt(++p);
      if (p >= n) p = n;
      if (d === 46 /* . */ && p < n) {
        p++;
        d = s.charCodeAt(p);
        while (d === 32 || d === 9) d = s.charCodeAt(++p);
        if (p > n) p = n;
        continue;
      }
      break;
    }
    this.p = p;
    this.keyOk = true;
    return segs.slice(0, count);
  }

  // ---------------------------------------------------------------------------------------------
  // Scalars: booleans, numbers, dates and times

  /** End of the literal starting at `p`. */
  atomEnd(p: number): number {
    const s = this.s;
    const n = this.n;
    while (p < n && !endsAtom(s.charCodeAt(p))) p++;
    return p;
  }

  /** A boolean, number or date/time at `p` (which is not on a delimiter). */
  scanScalar(): LInteger | LFloat | LDateTime | LBoolean | LInvalid {
    const s = this.s;
    const a = this.p;
    let b = this.atomEnd(a);
    const c0 = s.charCodeAt(a);
    const len = b - a;
    if (c0 === 116 && len === 4 && s.startsWith('true', a)) {
      this.p = b;
      return { type: 'boolean', value: true, range: { start: a, end: b } };
    }
    if (c0 === 102 && len === 5 && s.startsWith('false', a)) {
      this.p = b;
      return { type: 'boolean', value: false, range: { start: a, end: b } };
    }
    if (isDigit(c0)) {
      // Dates commit on `dddd-`, times on `dd:`; anything else is a number.
      if (len >= 5 && s.charCodeAt(a + 4) === 45 && isDigit(s.charCodeAt(a + 1)) && isDigit(s.charCodeAt(a + 2)) && isDigit(s.charCodeAt(a + 3))) {
        // `1979-05-27 07:32:00`: a date, a space and a time make one literal.
        if (len === 10 && b + 1 < this.n && s.charCodeAt(b) === 32 && isDigit(s.charCodeAt(b + 1))) b = this.atomEnd(b + 1);
        this.p = b;
        return this.dateTime(a, b);
      }
      if (len >= 3 && s.charCodeAt(a + 2) === 58 && isDigit(s.charCodeAt(a + 1))) {
        this.p = b;
        const end = this.checkTime(a, b);
        if (end === b) return { type: 'datetime', kind: 'local-time', value: s.slice(a, b), range: { start: a, end: b } };
        this.error(this.dtMessage || `invalid time '${s.slice(a, b)}'; expected HH:MM:SS`, a, b);
        return this.invalid(a, b);
      }
    }
    this.p = b;
    const num = this.number(a, b);
    if (num !== null) return num;
    const text = s.slice(a, b);
    const c = c0 | 32;
    if (c >= 97 && c <= 122 && c0 !== 105 && c0 !== 110) {
      this.error(`invalid value '${text.length > 40 ? text.slice(0, 40) + '…' : text}': strings must be quoted`, a, b);
    } else this.error(`invalid value '${text.length > 40 ? text.slice(0, 40) + '…' : text}'`, a, b);
    return this.invalid(a, b);
  }

  private number(a: number, b: number): LInteger | LFloat | null {
    const s = this.s;
    let i = a;
    let c = s.charCodeAt(i);
    let signed = false;
    let neg = false;
    if (c === 43 || c === 45) {
      signed = true;
      neg = c === 45;
      i++;
      if (i >= b) return null;
      c = s.charCodeAt(i);
    }
    if (c === 105 /* i */ || c === 110 /* n */) {
      if (b - i !== 3) return null;
      if (c === 105 ? s.startsWith('inf', i) : s.startsWith('nan', i)) {
        return { type: 'float', value: c === 110 ? NaN : neg ? -Infinity : Infinity, range: { start: a, end: b } };
      }
      return null;
    }
    if (c === 48 && i + 1 < b) {
      const c1 = s.charCodeAt(i + 1);
      const base = c1 === 120 ? 16 : c1 === 111 ? 8 : c1 === 98 ? 2 : 0;
      if (base) return signed ? null : this.radix(a, b, base);
    }
    let under = false;
    // The integer part's value, exact while it has at most 15 digits.
    let iv = 0;
    let digits = 0;
    if (c === 48) {
      i++;
      digits = 1;
      if (i < b) {
        const d = s.charCodeAt(i);
        if (isDigit(d) || d === 95) return null; // leading zero
      }
    } else if (c >= 49 && c <= 57) {
      i++;
      iv = c - 48;
      digits = 1;
      while (i < b) {
        let d = s.charCodeAt(i);
        if (d === 95) {
          if (!(i + 1 < b && isDigit(s.charCodeAt(i + 1)))) return null;
          under = true;
          i++;
          d = s.charCodeAt(i);
        } else if (!isDigit(d)) break;
        iv = iv * 10 + (d - 48);
        digits++;
        i++;
      }
    } else return null;
    let isFloat = false;
    if (i < b && s.charCodeAt(i) === 46) {
      i++;
      if (!(i < b && isDigit(s.charCodeAt(i)))) return null;
      i++;
      const end = digitRun(s, i, b);
      if (end < 0) return null;
      if (end !== i && s.slice(i, end).includes('_')) under = true;
      i = end;
      isFloat = true;
    }
    if (i < b && (s.charCodeAt(i) | 32) === 101) {
      i++;
      if (i < b && (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45)) i++;
      if (!(i < b && isDigit(s.charCodeAt(i)))) return null;
      i++;
      const end = digitRun(s, i, b);
      if (end < 0) return null;
      if (end !== i && s.slice(i, end).includes('_')) under = true;
      i = end;
      isFloat = true;
    }
    if (i !== b) return null;
    if (!isFloat && digits <= 15) return { type: 'integer', value: neg && iv !== 0 ? -iv : iv, range: { start: a, end: b } };
    let text = s.slice(a, b);
    if (under) text = text.replaceAll('_', '');
    if (isFloat) return { type: 'float', value: Number(text), range: { start: a, end: b } };
    let value: number | bigint = Number(text);
    if (!Number.isSafeInteger(value)) {
      value = BigInt(text);
      if (this.toml10 && (value < INT64_MIN || value > INT64_MAX)) this.error('integer out of the 64-bit range', a, b);
    } else if (value === 0) value = 0; // -0
    return { type: 'integer', value, range: { start: a, end: b } };
  }

  private radix(a: number, b: number, base: number): LInteger | null {
    const s = this.s;
    let i = a + 2;
    let under = false;
    const digit = (d: number): boolean => (base === 16 ? isHex(d) : base === 8 ? d >= 48 && d <= 55 : d === 48 || d === 49);
    if (!(i < b && digit(s.charCodeAt(i)))) return null;
    i++;
    while (i < b) {
      const d = s.charCodeAt(i);
      if (digit(d)) i++;
      else if (d === 95) {
        if (!(i + 1 < b && digit(s.charCodeAt(i + 1)))) return null;
        under = true;
        i += 2;
      } else return null;
    }
    let text = s.slice(a + 2, b);
    if (under) text = text.replaceAll('_', '');
    let value: number | bigint = parseInt(text, base);
    if (!Number.isSafeInteger(value)) {
      value = BigInt((base === 16 ? '0x' : base === 8 ? '0o' : '0b') + text);
      if (this.toml10 && value > INT64_MAX) this.error('integer out of the 64-bit range', a, b);
    }
    return { type: 'integer', value, range: { start: a, end: b } };
  }

  /** Detail of the last date/time failure, for the error message. */
  private dtMessage = '';

  private two(i: number): number {
    const s = this.s;
    const a = s.charCodeAt(i);
    const b = s.charCodeAt(i + 1);
    return isDigit(a) && isDigit(b) ? (a - 48) * 10 + (b - 48) : -1;
  }

  /**
   * `HH:MM[:SS[.fraction]]` at `i` (seconds are optional unless `toml10`). Returns the offset after
   * it, or -1 (with `dtMessage` set).
   */
  private checkTime(i: number, b: number): number {
    const s = this.s;
    this.dtMessage = '';
    if (i + 5 > b || s.charCodeAt(i + 2) !== 58) return -1;
    const hh = this.two(i);
    const mm = this.two(i + 3);
    if (hh < 0 || mm < 0) return -1;
    if (hh > 23) {
      this.dtMessage = 'invalid time: hour must be 00 to 23';
      return -1;
    }
    if (mm > 59) {
      this.dtMessage = 'invalid time: minute must be 00 to 59';
      return -1;
    }
    let j = i + 5;
    if (j < b && s.charCodeAt(j) === 58) {
      const ss = j + 3 <= b ? this.two(j + 1) : -1;
      if (ss < 0) return -1;
      if (ss > 59) {
        this.dtMessage = 'invalid time: second must be 00 to 59';
        return -1;
      }
      j += 3;
      if (j < b && s.charCodeAt(j) === 46) {
        j++;
        if (!(j < b && isDigit(s.charCodeAt(j)))) return -1;
        while (j < b && isDigit(s.charCodeAt(j))) j++;
      }
    } else if (this.toml10) {
      this.dtMessage = 'invalid time: seconds are required in TOML 1.0';
      return -1;
    }
    return j;
  }

  /** A date, local date-time or offset date-time in [a, b). */
  private dateTime(a: number, b: number): LDateTime | LInvalid {
    const s = this.s;
    const fail = (detail: string): LInvalid => {
      this.error(detail || `invalid date-time '${s.slice(a, b)}'`, a, b);
      return this.invalid(a, b);
    };
    if (b - a < 10 || s.charCodeAt(a + 7) !== 45) return fail('');
    const year = this.two(a) * 100 + this.two(a + 2);
    const month = this.two(a + 5);
    const day = this.two(a + 8);
    if (month < 0 || day < 0) return fail('');
    if (month < 1 || month > 12) return fail('invalid date: month must be 01 to 12');
    if (day < 1 || day > 31) return fail('invalid date: day must be 01 to 31');
    if (this.toml10 && day > daysInMonth(year, month)) return fail(`invalid date: ${s.slice(a, a + 7)} has no day ${day}`);
    let kind: DateTimeKind = 'local-date';
    if (b - a > 10) {
      const sep = s.charCodeAt(a + 10);
      if (sep !== 84 && sep !== 116 && sep !== 32) return fail('');
      const t = this.checkTime(a + 11, b);
      if (t < 0) return fail(this.dtMessage);
      kind = 'local-datetime';
      if (t < b) {
        const c = s.charCodeAt(t);
        if ((c === 90 || c === 122) && t + 1 === b) kind = 'offset-datetime';
        else if ((c === 43 || c === 45) && t + 6 === b && s.charCodeAt(t + 3) === 58) {
          const oh = this.two(t + 1);
          const om = this.two(t + 4);
          if (oh < 0 || om < 0) return fail('');
          if (oh > 23 || om > 59) return fail('invalid date-time: offset out of range');
          kind = 'offset-datetime';
        } else return fail('');
      }
    }
    return { type: 'datetime', kind, value: s.slice(a, b), range: { start: a, end: b } };
  }
}

/** Slots of the name cache for a text of `n` characters: a power of two, 32 to 512. */
function nameSlots(n: number): number {
  let slots = 32;
  while (slots < 512 && slots * 32 < n) slots *= 2;
  return slots;
}

/**
 * The end of a run of digits starting at `i` (before `b`), underscores allowed only between
 * digits; -1 when an underscore is misplaced. The fraction and exponent of floats use it.
 */
function digitRun(s: string, i: number, b: number): number {
  while (i < b) {
    const d = s.charCodeAt(i);
    if (isDigit(d)) i++;
    else if (d === 95) {
      if (!(i + 1 < b && isDigit(s.charCodeAt(i + 1)))) return -1;
      i += 2;
    } else break;
  }
  return i;
}
