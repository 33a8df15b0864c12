// parseToml: smol-toml decides validity; the own parser's errors complete it.

import { describe, expect, it } from 'vitest';
import { cleanSmolMessage, parseToml } from '../../../server/src/syntax/document.js';
import { parseTomlSyntax } from '../../../server/src/syntax/parser.js';
import { TomlDateTime, toPlainValue } from '../../../server/src/syntax/values.js';
import { at } from './helpers.js';

describe('parseToml', () => {
  it('a valid document has no errors and the whole tree', () => {
    const text = 'a = 1\n[t]\nb = "x"\n';
    const doc = parseToml(text);
    expect(doc.text).toBe(text);
    expect(doc.errors).toEqual([]);
    expect(doc.lineStarts).toEqual([0, 6, 10, 18]);
    expect(toPlainValue(doc.root)).toEqual({ a: 1, t: { b: 'x' } });
  });

  it("reports smol-toml's error at its line and column, with its sentence only", () => {
    const text = 'a = 1\nb = 2 3\n';
    const doc = parseToml(text);
    expect(doc.errors).toHaveLength(1);
    const e = doc.errors[0]!;
    expect(e).toMatchObject({ line: 2, column: 7 });
    expect(e.range.start).toBe(at(text, '3'));
    expect(e.message).toMatch(/^each key-value declaration must be followed by an end-of-line/);
    expect(e.message).not.toMatch(/Invalid TOML document|\n/);
  });

  it("adds the own parser's errors on other lines, one error per line", () => {
    const text = 'a = [1, 2\nb = nope\nc = 1 2 3\n';
    const doc = parseToml(text);
    expect(doc.errors.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(new Set(doc.errors.map((e) => e.line)).size).toBe(doc.errors.length);
  });

  it('smol-toml is the authority: what it accepts has no errors', () => {
    // smol-toml (through the JavaScript Date parser) accepts this; the own parser does not.
    const text = 'a = 1979- 5-27\n';
    expect(parseTomlSyntax(text).errors.length).toBeGreaterThan(0);
    expect(parseToml(text).errors).toEqual([]);
  });

  it('TOML 1.1 features that smol-toml accepts are not errors', () => {
    const doc = parseToml('a = {\n  b = 1, # note\n  c = "\\e",\n}\nt = 07:32\n');
    expect(doc.errors).toEqual([]);
    expect(toPlainValue(doc.root)).toEqual({ a: { b: 1, c: '\x1b' }, t: new TomlDateTime('local-time', '07:32') });
  });
});

describe('cleanSmolMessage', () => {
  it('keeps the sentence', () => {
    expect(cleanSmolMessage('Invalid TOML document: invalid value\n\n1:  a = x\n        ^\n')).toBe('invalid value');
    expect(cleanSmolMessage('something else')).toBe('something else');
    expect(cleanSmolMessage('')).toBe('invalid TOML');
  });
});

describe('toPlainValue', () => {
  it('converts every kind of value', () => {
    const doc = parseToml('s = "x"\ni = 1\nb = 9007199254740993\nf = 1.5\nt = true\nd = 1979-05-27T07:32:00Z\na = [1, [2]]\nn = { x = { y = 1 } }\n"__proto__" = 1\n');
    const v = toPlainValue(doc.root) as Record<string, unknown>;
    expect(v).toEqual({
      s: 'x',
      i: 1,
      b: 9007199254740993n,
      f: 1.5,
      t: true,
      d: new TomlDateTime('offset-datetime', '1979-05-27T07:32:00Z'),
      a: [1, [2]],
      n: { x: { y: 1 } },
      ['__proto__']: 1,
    });
    expect(Object.keys(v)).toContain('__proto__');
    expect(String(v.d)).toBe('1979-05-27T07:32:00Z');
  });

  it('invalid values are undefined', () => {
    expect(toPlainValue(parseToml('a = oops\nb = 1').root)).toEqual({ a: undefined, b: 1 });
  });
});
