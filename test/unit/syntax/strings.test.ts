// Decoded string values map back to their exact source offsets, for every string style and escape.

import { describe, expect, it } from 'vitest';
import { parseToml } from '../../../server/src/syntax/document.js';
import { sourceOffsetToValue, valueOffsetToSource } from '../../../server/src/syntax/strings.js';
import type { LString } from '../../../server/src/syntax/types.js';
import { at, str } from './helpers.js';

function parseString(text: string, key = 'k'): LString {
  const doc = parseToml(text);
  expect(doc.errors).toEqual([]);
  return str(doc, [key]);
}

/** Escapes and what they decode to, to check what a value index maps onto. */
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\', e: '\x1b' };

/**
 * For every value index: the mapping is strictly increasing, round-trips, and points either at
 * the very same character or at the backslash of the escape that produced it.
 */
function checkMapping(text: string, s: LString): void {
  let prev = -1;
  for (let i = 0; i <= s.value.length; i++) {
    const o = valueOffsetToSource(s, i);
    expect(o, `index ${i}`).toBeGreaterThan(prev);
    prev = o;
    expect(sourceOffsetToValue(s, o), `round trip of ${i}`).toBe(i);
    if (i === s.value.length) {
      expect(o).toBe(s.contentEnd);
      continue;
    }
    const ch = s.value[i]!;
    if (text[o] === ch) continue;
    // The second half of a surrogate pair decoded from \U........ maps just after the backslash.
    if (/[\udc00-\udfff]/.test(ch) && text[o - 1] === '\\' && valueOffsetToSource(s, i - 1) === o - 1) continue;
    expect(text[o], `index ${i} (${JSON.stringify(ch)}) maps onto ${JSON.stringify(text.slice(o, o + 4))}`).toBe('\\');
    const e = text[o + 1]!;
    if (e in ESCAPES) expect(ESCAPES[e]).toBe(ch);
    else {
      // \uXXXX, \UXXXXXXXX or \xHH: the code point, or the first half of a surrogate pair.
      const len = e === 'u' ? 4 : e === 'U' ? 8 : 2;
      const cp = String.fromCodePoint(parseInt(text.slice(o + 2, o + 2 + len), 16));
      expect(cp[0]).toBe(ch);
    }
  }
}

describe('basic strings', () => {
  it('without escapes: verbatim, empty offset map', () => {
    const text = 'k = "hello $doc"';
    const s = parseString(text);
    expect(s).toMatchObject({ value: 'hello $doc', style: 'basic', offsetMap: [] });
    expect(s.range).toEqual({ start: 4, end: text.length });
    expect(text.slice(s.contentStart, s.contentEnd)).toBe('hello $doc');
    expect(text.slice(valueOffsetToSource(s, 6), valueOffsetToSource(s, 10))).toBe('$doc');
    checkMapping(text, s);
  });

  it('with every escape', () => {
    const text = String.raw`k = "a\nb\tc\"d\\e\bf\fg\rh\u00e9i\U0001F600j\u20ACk"`;
    const s = parseString(text);
    expect(s.value).toBe('a\nb\tc"d\\e\bf\fg\rhéi😀j€k');
    checkMapping(text, s);
    // The escape maps to its backslash, the next character to right after the escape.
    expect(valueOffsetToSource(s, 1)).toBe(at(text, '\\n'));
    expect(valueOffsetToSource(s, 2)).toBe(at(text, 'b'));
    const emoji = s.value.indexOf('😀');
    expect(valueOffsetToSource(s, emoji)).toBe(at(text, '\\U'));
    expect(text[valueOffsetToSource(s, emoji + 2)]).toBe('j');
    expect(text.slice(valueOffsetToSource(s, s.value.indexOf('€')), valueOffsetToSource(s, s.value.indexOf('€') + 1))).toBe('\\u20AC');
  });

  it('maps source offsets inside an escape to the character it decodes to', () => {
    const text = String.raw`k = "x\u00e9y"`;
    const s = parseString(text);
    const esc = at(text, '\\u');
    for (let o = esc; o < esc + 6; o++) expect(sourceOffsetToValue(s, o)).toBe(1);
    expect(sourceOffsetToValue(s, esc + 6)).toBe(2);
    expect(sourceOffsetToValue(s, s.contentStart - 1)).toBeUndefined();
    expect(sourceOffsetToValue(s, s.contentEnd)).toBe(3);
    expect(sourceOffsetToValue(s, s.contentEnd + 1)).toBeUndefined();
  });

  it('clamps value indices', () => {
    const s = parseString('k = "ab"');
    expect(valueOffsetToSource(s, -3)).toBe(s.contentStart);
    expect(valueOffsetToSource(s, 99)).toBe(s.contentEnd);
  });

  it('counts astral characters as two units', () => {
    const text = 'k = "😀$x"';
    const s = parseString(text);
    expect(s.value.length).toBe(4);
    expect(text[valueOffsetToSource(s, 2)]).toBe('$');
    checkMapping(text, s);
  });
});

describe('literal strings', () => {
  it('keep backslashes verbatim', () => {
    const text = String.raw`k = 'C:\path\n $x'`;
    const s = parseString(text);
    expect(s).toMatchObject({ value: String.raw`C:\path\n $x`, style: 'literal', offsetMap: [] });
    expect(text[valueOffsetToSource(s, s.value.indexOf('$'))]).toBe('$');
    checkMapping(text, s);
  });
});

describe('multi-line basic strings', () => {
  it('trim the newline after the opening quotes', () => {
    const text = 'k = """\nSummarize $doc please.\n"""';
    const s = parseString(text);
    expect(s).toMatchObject({ value: 'Summarize $doc please.\n', style: 'ml-basic' });
    expect(s.contentStart).toBe(at(text, 'Summarize'));
    expect(s.contentEnd).toBe(text.length - 3);
    expect(text.slice(valueOffsetToSource(s, 10), valueOffsetToSource(s, 14))).toBe('$doc');
    checkMapping(text, s);
  });

  it('trim a CRLF after the opening quotes and keep CRLF in the content', () => {
    const text = 'k = """\r\nline 1\r\nline 2 $x"""';
    const s = parseString(text);
    expect(s.value).toBe('line 1\r\nline 2 $x');
    expect(s.contentStart).toBe(at(text, 'line 1'));
    expect(text[valueOffsetToSource(s, s.value.indexOf('$'))]).toBe('$');
    checkMapping(text, s);
  });

  it('skip a line-ending backslash and the whitespace after it', () => {
    const text = 'k = """\nThe quick \\   \n\n     brown \\\r\n   fox $x."""';
    const s = parseString(text);
    expect(s.value).toBe('The quick brown fox $x.');
    expect(text.slice(valueOffsetToSource(s, 10), valueOffsetToSource(s, 15))).toBe('brown');
    expect(text.slice(valueOffsetToSource(s, 16), valueOffsetToSource(s, 19))).toBe('fox');
    expect(text[valueOffsetToSource(s, s.value.indexOf('$'))]).toBe('$');
    checkMapping(text, s);
    // On the skipped whitespace: the character before it.
    expect(sourceOffsetToValue(s, at(text, '\\'))).toBe(9);
    expect(sourceOffsetToValue(s, at(text, 'brown') - 1)).toBe(9);
  });

  it('a line-ending backslash right after an escape, and at the very end', () => {
    const text = 'k = """a\\n\\\n  b\\\n"""';
    const s = parseString(text);
    expect(s.value).toBe('a\nb');
    expect(text[valueOffsetToSource(s, 2)]).toBe('b');
    expect(valueOffsetToSource(s, 3)).toBe(s.contentEnd);
    checkMapping(text, s);
  });

  it('escapes and quotes next to the closing delimiter', () => {
    const text = 'k = """say ""hi"" \\u00e9\\t$x"""""';
    const s = parseString(text);
    expect(s.value).toBe('say ""hi"" é\t$x""');
    expect(s.contentEnd).toBe(text.length - 3);
    expect(text[valueOffsetToSource(s, s.value.indexOf('$'))]).toBe('$');
    checkMapping(text, s);
  });
});

describe('multi-line literal strings', () => {
  it('trim the first newline, keep everything else verbatim', () => {
    const text = "k = '''\r\nraw \\n $x\r\n''''";
    const s = parseString(text);
    expect(s).toMatchObject({ value: "raw \\n $x\r\n'", style: 'ml-literal', offsetMap: [] });
    expect(s.contentStart).toBe(at(text, 'raw'));
    expect(text[valueOffsetToSource(s, s.value.indexOf('$'))]).toBe('$');
    checkMapping(text, s);
  });
});

describe('quoted keys and unterminated strings', () => {
  it('decodes quoted keys', () => {
    const doc = parseToml('"a\\u0062c" = 1\n\'d.e\' = 2');
    expect(doc.root.entries.map((e) => e.key)).toEqual(['abc', 'd.e']);
  });

  it('an unterminated string keeps what was read, up to the end of its line', () => {
    const text = 'k = "abc $x\nnext = 1';
    const doc = parseToml(text);
    expect(doc.errors.length).toBeGreaterThan(0);
    const s = str(doc, ['k']);
    expect(s.value).toBe('abc $x');
    expect(s.contentEnd).toBe(at(text, '\n'));
    expect(s.range.end).toBe(s.contentEnd);
    checkMapping(text, s);
    expect(doc.root.entries.map((e) => e.key)).toEqual(['k', 'next']);
  });
});
