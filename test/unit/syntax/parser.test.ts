// The located tree: ranges, tables, statements, definition rules, recovery and robustness.

import { describe, expect, it } from 'vitest';
import { parseToml } from '../../../server/src/syntax/document.js';
import { parseTomlSyntax, MAX_DEPTH } from '../../../server/src/syntax/parser.js';
import type { LArray, LTable, TomlDocument } from '../../../server/src/syntax/types.js';
import { toPlainValue } from '../../../server/src/syntax/values.js';
import { at, keys, src, str, table, value } from './helpers.js';

const MTHDS = `domain = "demo"
[concept.Summary]
description = "A summary"
[concept.Summary.structure]
title = { type = "text", description = "Title", required = true }
[pipe.summarize]
type = "PipeLLM"
inputs = { doc = "Text" }
output = "Summary"
prompt = """
Summarize $doc please.
"""
steps = [ { pipe = "a", result = "x" }, { pipe = "b" } ]
`;

function clean(text: string): TomlDocument {
  const doc = parseToml(text);
  expect(doc.errors).toEqual([]);
  return doc;
}

describe('ranges', () => {
  const doc = clean(MTHDS);
  const t = MTHDS;

  it('of keys, header keys and values', () => {
    const pipe = table(doc, ['pipe']);
    const summarize = pipe.entries[0]!;
    expect(summarize.key).toBe('summarize');
    expect(summarize.keyRange).toEqual({ start: at(t, 'summarize'), end: at(t, 'summarize') + 9 });
    const header = doc.statements.find((s) => s.kind === 'header' && s.key[1]?.name === 'summarize');
    expect(header?.kind === 'header' && header.key.map((k) => src(t, k.range))).toEqual(['pipe', 'summarize']);
    expect(header && src(t, header.range)).toBe('[pipe.summarize]');
    const typeEntry = table(doc, ['pipe', 'summarize']).entries[0]!;
    expect(src(t, typeEntry.keyRange)).toBe('type');
    expect(src(t, typeEntry.range)).toBe('type = "PipeLLM"');
    expect(src(t, typeEntry.value.range)).toBe('"PipeLLM"');
  });

  it('of values in inline tables and arrays', () => {
    const title = table(doc, ['concept', 'Summary', 'structure', 'title']);
    expect(title.origin).toBe('inline');
    expect(src(t, title.range)).toBe('{ type = "text", description = "Title", required = true }');
    const desc = title.entries[1]!;
    expect(src(t, desc.keyRange)).toBe('description');
    expect(src(t, desc.range)).toBe('description = "Title"');
    expect(src(t, desc.value.range)).toBe('"Title"');
    expect(src(t, value(doc, ['concept', 'Summary', 'structure', 'title', 'required']).range)).toBe('true');
    const steps = value(doc, ['pipe', 'summarize', 'steps']) as LArray;
    expect(src(t, steps.range)).toBe('[ { pipe = "a", result = "x" }, { pipe = "b" } ]');
    expect(steps.items.map((i) => src(t, i.range))).toEqual(['{ pipe = "a", result = "x" }', '{ pipe = "b" }']);
    const result = table(doc, ['pipe', 'summarize', 'steps', 0]).entries[1]!;
    expect(src(t, result.keyRange)).toBe('result');
    expect(result.keyRange.start).toBe(at(t, 'result'));
    expect(src(t, result.value.range)).toBe('"x"');
  });

  it('of tables: header to last statement, implicit parents spanning their children', () => {
    expect(doc.root.range).toEqual({ start: 0, end: t.length });
    const summary = table(doc, ['concept', 'Summary']);
    expect(summary.origin).toBe('header');
    expect(src(t, summary.range)).toBe('[concept.Summary]\ndescription = "A summary"');
    expect(summary.header && src(t, summary.header.range)).toBe('[concept.Summary]');
    const concept = table(doc, ['concept']);
    expect(concept.origin).toBe('implicit');
    expect(concept.range.start).toBe(at(t, '[concept.Summary]'));
    expect(concept.range.end).toBe(at(t, 'required = true }') + 'required = true }'.length);
    const summarize = table(doc, ['pipe', 'summarize']);
    expect(summarize.range.end).toBe(t.length - 1); // the last statement, not the final newline
    const entry = table(doc, ['pipe']).entries[0]!;
    expect(entry.range).toEqual(summarize.range);
  });

  it('of dotted keys', () => {
    const text = 'a . "b c" .d = 1\na.x = 2\n';
    const d = clean(text);
    const stmt = d.statements[0]!;
    expect(stmt.kind === 'keyvalue' && stmt.key.map((k) => [k.name, src(text, k.range)])).toEqual([
      ['a', 'a'],
      ['b c', '"b c"'],
      ['d', 'd'],
    ]);
    const a = table(d, ['a']);
    expect(a.origin).toBe('dotted');
    expect(src(text, a.range)).toBe('a . "b c" .d = 1\na.x = 2');
    expect(src(text, d.root.entries[0]!.range)).toBe('a . "b c" .d = 1');
    expect(src(text, a.entries[0]!.keyRange)).toBe('"b c"');
    expect(src(text, a.entries[1]!.range)).toBe('a.x = 2');
  });

  it('of arrays of tables', () => {
    const text = '[[fruit]]\nname = "apple"\n[fruit.physical]\ncolor = "red"\n[[fruit]]\nname = "banana"\n';
    const d = clean(text);
    const fruit = value(d, ['fruit']) as LArray;
    expect(fruit.ofTables).toBe(true);
    expect(src(text, fruit.range)).toBe('[[fruit]]');
    expect(fruit.items.map((i) => (i as LTable).origin)).toEqual(['array-element', 'array-element']);
    expect(src(text, fruit.items[0]!.range)).toBe('[[fruit]]\nname = "apple"');
    expect(table(d, ['fruit', 0, 'physical']).origin).toBe('header');
    expect(src(text, d.root.entries[0]!.range)).toBe(text.trimEnd());
    expect(toPlainValue(d.root)).toEqual({ fruit: [{ name: 'apple', physical: { color: 'red' } }, { name: 'banana' }] });
  });
});

describe('tables', () => {
  it('a parent declared after its child becomes a header table', () => {
    const text = '[a.b]\nx = 1\n[a]\ny = 2\n';
    const d = clean(text);
    const a = table(d, ['a']);
    expect(a.origin).toBe('header');
    expect(src(text, a.range)).toBe('[a]\ny = 2');
    expect(src(text, d.root.entries[0]!.keyRange)).toBe('a');
    expect(d.root.entries[0]!.keyRange.start).toBe(at(text, '[a]') + 1);
    expect(keys(a)).toEqual(['b', 'y']);
  });

  it('headers may add sub-tables to tables defined by dotted keys', () => {
    const d = clean('[fruit]\napple.color = "red"\n[fruit.apple.texture]\nsmooth = true\n');
    expect(toPlainValue(d.root)).toEqual({ fruit: { apple: { color: 'red', texture: { smooth: true } } } });
  });

  it('statements in order, comments and errors included', () => {
    const text = '# top\na = [ # in array\n  1,\n]\n[t] # trailing\nb = 1 junk\n';
    const d = parseToml(text);
    expect(d.statements.map((s) => [s.kind, src(text, s.range)])).toEqual([
      ['comment', '# top'],
      ['keyvalue', 'a = [ # in array\n  1,\n]'],
      ['comment', '# in array'],
      ['header', '[t]'],
      ['comment', '# trailing'],
      ['keyvalue', 'b = 1'],
      ['error', 'junk'],
    ]);
    const header = d.statements[3]!;
    expect(header.kind === 'header' && header.table).toBe(table(d, ['t']));
  });

  it('values', () => {
    const d = clean(
      'i = -0\nbig = 9223372036854775807\nhex = 0xDEAD_beef\nf = -1.5e3\ninf = -inf\nnan = nan\n' +
        'odt = 1979-05-27 07:32:00Z\nldt = 1979-05-27T07:32:00.999\nld = 1979-05-27\nlt = 07:32:00\n',
    );
    const v = (k: string): unknown => (value(d, [k]) as { value: unknown }).value;
    expect(v('i')).toBe(0);
    expect(v('big')).toBe(9223372036854775807n);
    expect(v('hex')).toBe(0xdeadbeef);
    expect(v('f')).toBe(-1500);
    expect(v('inf')).toBe(-Infinity);
    expect(v('nan')).toBeNaN();
    expect(value(d, ['odt'])).toMatchObject({ type: 'datetime', kind: 'offset-datetime', value: '1979-05-27 07:32:00Z' });
    expect(value(d, ['ldt'])).toMatchObject({ kind: 'local-datetime' });
    expect(value(d, ['ld'])).toMatchObject({ kind: 'local-date' });
    expect(value(d, ['lt'])).toMatchObject({ kind: 'local-time' });
  });
});

describe('duplicate keys and redefined tables (the first definition is kept)', () => {
  const cases: [string, string, number][] = [
    ['a = 1\na = 2', 'a', 2],
    ['a.b = 1\na.b = 2', 'b', 2],
    ['a = { b = 1 }\na.c = 2', 'a', 2],
    ['a = { b = 1, b = 2 }', 'b', 1],
    ['[a]\nx = 1\n[a]\ny = 2', 'a', 3],
    ['a.b = 1\n[a]', 'a', 2],
    ['a.b = 1\n[a.b]', 'b', 2],
    ['[a.b]\n[a]\nb = 1', 'b', 3],
    ['[a]\nb.c = 1\n[a.b]', 'b', 3],
    ['[[a]]\n[a]', 'a', 2],
    ['[a]\n[[a]]', 'a', 2],
    ['a = [1]\n[[a]]', 'a', 2],
    ['[a.b.c]\n[a]\nb.d = 1', 'b', 3],
  ];
  for (const [text, key, line] of cases) {
    it(JSON.stringify(text), () => {
      const own = parseTomlSyntax(text);
      expect(own.errors.map((e) => [e.line, text.slice(e.range.start, e.range.end)])).toEqual([[line, key]]);
      expect(parseToml(text).errors.length).toBe(1);
    });
  }

  it('keeps the first value and puts the keys of a redefined table in a detached table', () => {
    const text = 'a = 1\na = 2\n[t]\nx = 1\n[t]\ny = 2\n[u]\nz = 3\n';
    const d = parseToml(text);
    expect(toPlainValue(d.root)).toEqual({ a: 1, t: { x: 1 }, u: { z: 3 } });
    const second = d.statements.filter((s) => s.kind === 'header')[1]!;
    expect(second.kind === 'header' && keys(second.table)).toEqual(['y']);
  });
});

describe('key names (read through a small cache of the names seen)', () => {
  // Names of one length with the same first and last characters fall into the same cache slot.
  const names = ['axb', 'ayb', 'azb', 'a-b', 'a_b', 'a1b'];

  it('keeps names that share a cache slot apart, in small and large documents', () => {
    for (const padding of [0, 40_000]) {
      const text = names.map((n, i) => `${n} = ${i}\n${n}x.${n} = ${i}\n`).join('') + '#'.repeat(padding);
      const d = parseTomlSyntax(text);
      expect(d.errors).toEqual([]);
      const expected = Object.fromEntries(names.flatMap((n, i) => [[n, i], [`${n}x`, { [n]: i }]]));
      expect(toPlainValue(d.root)).toEqual(expected);
    }
  });

  it('finds duplicates among names that share a cache slot', () => {
    const text = 'axb = 1\nayb = 2\n[t]\nazb = 3\n[u]\naxb = 4\n[t.ayb]\n';
    expect(parseTomlSyntax(text).errors).toEqual([]);
    const dup = text + '[u]\n';
    expect(parseTomlSyntax(dup).errors.map((e) => e.line)).toEqual([8]);
    const again = 'axb = 1\nayb = 2\naxb = 3\n';
    expect(parseTomlSyntax(again).errors.map((e) => [e.line, e.message])).toEqual([[3, "duplicate key 'axb': it is already defined"]]);
  });
});

describe('error recovery', () => {
  it('keeps every table and key before and after errors', () => {
    const text = `domain = "demo"
[concept.Summary]
description = "A summary
refines = Text
[pipe.summarize]
type = "PipeLLM"
inputs = { doc = "Text", bad = }
output = "Summary"
prompt = """
Summarize $doc please.
[pipe.other]
type = "PipeFunc"
descr
steps = [ { pipe = "a", result = "x" }, { pipe = "b" }
[pipe.third]
type = "PipeLLM"
type = "dup"
`;
    const d = parseToml(text);
    expect(d.errors.map((e) => e.line)).toEqual([3, 4, 7, 9, 13, 14, 17]);
    expect(d.errors[0]!.message).toMatch(/^control characters are not allowed in strings/);
    expect(keys(d.root)).toEqual(['domain', 'concept', 'pipe']);
    expect(keys(table(d, ['concept', 'Summary']))).toEqual(['description', 'refines']);
    expect(str(d, ['concept', 'Summary', 'description']).value).toBe('A summary');
    expect(value(d, ['concept', 'Summary', 'refines']).type).toBe('invalid');
    expect(keys(table(d, ['pipe']))).toEqual(['summarize', 'other', 'third']);
    expect(keys(table(d, ['pipe', 'summarize']))).toEqual(['type', 'inputs', 'output', 'prompt']);
    expect(keys(table(d, ['pipe', 'summarize', 'inputs']))).toEqual(['doc', 'bad']);
    expect(str(d, ['pipe', 'summarize', 'prompt']).value).toBe('Summarize $doc please.');
    expect(keys(table(d, ['pipe', 'other']))).toEqual(['type', 'steps']);
    expect((value(d, ['pipe', 'other', 'steps']) as LArray).items.length).toBe(2);
    expect(str(d, ['pipe', 'third', 'type']).value).toBe('PipeLLM');
    // The half-typed key is a statement (for completion), not an entry.
    expect(d.statements.some((s) => s.kind === 'keyvalue' && s.key[0]?.name === 'descr')).toBe(true);
  });

  it('an unterminated multi-line string stops before a later header', () => {
    const text = 'a = """\nsome text\n\n[next]\nb = 1\n';
    const d = parseToml(text);
    expect(d.errors.length).toBe(1);
    expect(str(d, ['a']).value).toBe('some text\n');
    expect(toPlainValue(table(d, ['next']))).toEqual({ b: 1 });
  });

  it('a closed multi-line string is never cut, whatever its lines look like', () => {
    const text = 'a = """\n[not.a.header]\n"""\nb = 1\n';
    const d = clean(text);
    expect(str(d, ['a']).value).toBe('[not.a.header]\n');
  });

  it('an unterminated multi-line string without a later header runs to the end', () => {
    const d = parseToml('a = """\nx = 1\ny = 2\n');
    expect(d.errors.length).toBe(1);
    expect(str(d, ['a']).value).toBe('x = 1\ny = 2\n');
  });

  it('an unclosed array ends before a key/value line or a header', () => {
    const d = parseToml('a = [1, 2\nb = 3\nc = [\n  "x",\n[t]\nd = 4\n');
    expect(toPlainValue(d.root)).toEqual({ a: [1, 2], b: 3, c: ['x'], t: { d: 4 } });
    expect(d.errors[0]).toMatchObject({ line: 1, column: 5, message: "unterminated array: missing ']'" });
  });

  it('an unclosed inline table ends before a header', () => {
    const d = parseToml('a = { x = 1,\n[t]\nd = 4\n');
    expect(toPlainValue(d.root)).toEqual({ a: { x: 1 }, t: { d: 4 } });
  });

  it('bad items and missing commas inside arrays and inline tables', () => {
    const d = parseToml('a = [1 2, oops, 3]\nb = { x = 1 y = 2, = 3, z = 4 }\n');
    expect(toPlainValue(d.root)).toEqual({ a: [1, 2, undefined, 3], b: { x: 1, y: 2, z: 4 } });
  });

  it('half-typed statements', () => {
    for (const text of ['a =', 'a = ', 'a', 'a.', '[', '[pipe.', '[pipe.x', '[[aot]', '"quoted', 'a = "', 'a = [', 'a = {', 'a = { b', 'a = { b =', 'a = [1,', '= 1']) {
      const d = parseToml(text + '\nafter = 1\n');
      expect(d.errors.length, text).toBeGreaterThan(0);
      const plain = toPlainValue(d.root) as Record<string, unknown>;
      const inDetached = d.statements.some((s) => s.kind === 'header' && s.table.entries.some((e) => e.key === 'after'));
      expect(plain.after === 1 || inDetached, `${text}: 'after' kept`).toBe(true);
    }
  });

  it('a half-typed header keeps its segments; its keys go to a detached table', () => {
    const text = '[pipe.su\ntype = "x"\n';
    const d = parseToml(text);
    const h = d.statements[0]!;
    expect(h.kind).toBe('header');
    if (h.kind !== 'header') return;
    expect(h.key.map((k) => k.name)).toEqual(['pipe', 'su']);
    expect(keys(h.table)).toEqual(['type']);
    expect(keys(d.root)).toEqual([]);
  });

  it('errors are located: 1-based line and UTF-16 column', () => {
    const d = parseToml('a = 1\r\nb = "😀" x\n');
    expect(d.errors).toHaveLength(1);
    expect(d.errors[0]).toMatchObject({ line: 2, column: 10 });
    expect(d.errors[0]!.range.start).toBe(at('a = 1\r\nb = "😀" x\n', 'x'));
  });
});

describe('robustness', () => {
  it('never throws', () => {
    const inputs = [
      '\u0000',
      'a = "\u0000"',
      '\ud800 = 1',
      'a = "\ud800\udc00\udc00"',
      '\ufeffa = 1',
      'a = 1\ufeff',
      '\r',
      '\r\r\r',
      '[[[[',
      ']]]]',
      '{{{{',
      'a = ' + '{b='.repeat(5000),
      'a = """' + '\\'.repeat(1000),
      '"'.repeat(1001),
      "'".repeat(1001),
      '[' + 'a.'.repeat(10000) + ']',
      Array.from({ length: 3000 }, (_, i) => String.fromCharCode(i * 37 % 0x3000)).join(''),
    ];
    for (const text of inputs) {
      expect(() => parseToml(text)).not.toThrow();
      const d = parseToml(text);
      expect(d.errors.every((e) => !e.message.startsWith('internal'))).toBe(true);
    }
  });

  it('a byte order mark at the start is skipped', () => {
    expect(toPlainValue(clean('\ufeffa = 1').root)).toEqual({ a: 1 });
  });

  it(`bounds nesting at ${MAX_DEPTH} levels`, () => {
    const ok = 'a = ' + '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH) + '\nb = 1';
    expect(parseToml(ok).errors).toEqual([]);
    const deep = 'a = ' + '['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1) + '\nb = 1';
    const d = parseToml(deep);
    expect(d.errors.length).toBeGreaterThan(0);
    expect(parseTomlSyntax(deep).errors[0]!.message).toMatch(/too deeply nested/);
    expect(keys(d.root)).toEqual(['a', 'b']);
    const deeper = 'a = ' + '[{x='.repeat(100_000);
    expect(parseTomlSyntax(deeper).errors.length).toBeGreaterThan(0);
  });

  it('parses a large document quickly', () => {
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) lines.push(`[t${i}]`, `k = "v${i}"`, `n = { a = ${i}, b = [1, 2] }`);
    const text = lines.join('\n');
    const t0 = performance.now();
    const d = parseToml(text);
    expect(d.errors).toEqual([]);
    expect(d.root.entries.length).toBe(20_000);
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});

describe('strict TOML 1.0 mode', () => {
  it('refuses what smol-toml accepts beyond TOML 1.0', () => {
    for (const text of ['a = { b = 1, }', 'a = {\nb = 1 }', 'a = "\\e"', 'a = "\\x41"', 'a = 07:32', 'a = 2023-02-29', 'a = 0xffffffffffffffff', 'a = 9223372036854775808']) {
      expect(parseTomlSyntax(text).errors, text).toEqual([]);
      expect(parseTomlSyntax(text, { toml10: true }).errors.length, text).toBeGreaterThan(0);
    }
    expect(parseTomlSyntax('a = 2024-02-29', { toml10: true }).errors).toEqual([]);
  });
});
