// A parse after an edit takes over the previous parse's key/value statements before the edit: the
// objects are shared, and the result is exactly what a fresh parse builds (ranges, values, tables,
// statements, errors, in both dialects).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { parseToml } from '../../../server/src/syntax/document.js';
import { parseTomlSyntax, type SyntaxResult } from '../../../server/src/syntax/parser.js';
import { Scanner } from '../../../server/src/syntax/scanner.js';
import { computeLineStarts } from '../../../server/src/syntax/positions.js';
import type { LValue, Range, Statement } from '../../../server/src/syntax/types.js';

const r = (x: Range): [number, number] => [x.start, x.end];

/** The whole result as plain data, every range read. */
function plain(v: LValue): unknown {
  switch (v.type) {
    case 'string':
      return ['string', r(v.range), v.value, v.style, v.contentStart, v.contentEnd, [...v.offsetMap]];
    case 'integer':
      return ['integer', r(v.range), typeof v.value === 'bigint' ? `${v.value}n` : Object.is(v.value, -0) ? '-0' : v.value];
    case 'float':
      return ['float', r(v.range), String(v.value)];
    case 'boolean':
    case 'invalid':
      return [v.type, r(v.range), v.type === 'boolean' ? v.value : null];
    case 'datetime':
      return ['datetime', r(v.range), v.kind, v.value];
    case 'array':
      return ['array', r(v.range), v.ofTables, v.items.map(plain)];
    case 'table':
      return [
        'table',
        r(v.range),
        v.origin,
        v.header && [r(v.header.range), v.header.key.map((k) => [k.name, r(k.range)])],
        v.entries.map((e) => [e.key, r(e.keyRange), r(e.range), plain(e.value)]),
      ];
  }
}

function plainStatement(s: Statement): unknown {
  const key = 'key' in s ? s.key.map((k) => [k.name, r(k.range)]) : null;
  if (s.kind === 'keyvalue') return [s.kind, r(s.range), key, plain(s.value)];
  if (s.kind === 'header') return [s.kind, r(s.range), key, s.arrayOfTables, r(s.table.range), s.table.entries.length];
  return [s.kind, r(s.range)];
}

function plainResult(res: SyntaxResult): unknown {
  return { root: plain(res.root), statements: res.statements.map(plainStatement), errors: res.errors, lineStarts: res.lineStarts };
}

/** A parse that cannot reuse anything: the previous parse was of an empty text. */
function fresh(text: string, toml10: boolean): SyntaxResult {
  parseTomlSyntax('', { toml10 });
  return parseTomlSyntax(text, { toml10 });
}

const root = path.resolve(__dirname, '../../..');
function documents(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) documents(p, out);
    else if (/\.(mthds|toml)$/.test(name)) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}
const DOCS = [...documents(path.join(root, 'examples')), ...documents(path.join(root, 'test/fixtures'))].filter((t) => t.length < 100_000);

const BUNDLE = `domain = "demo"
description = "Demo"

[concept]
Summary = "A summary"

[pipe.summarize]
description = "Sums up a document"
type = "PipeLLM"
output = "Summary"
inputs = { doc = "Text" }
prompt = """
In three lines: $doc
"""

[pipe.translate]
type = "PipeLLM"
output = "Text"
`;

describe('reusing the previous parse', () => {
  it('takes over the key/value statements before an edit, and builds the rest anew', () => {
    const before = fresh(BUNDLE, false);
    const at = BUNDLE.indexOf('output = "Text"');
    const edited = BUNDLE.slice(0, at) + '# note\n' + BUNDLE.slice(at);
    const after = parseTomlSyntax(edited);
    const kv = (res: SyntaxResult) => res.statements.filter((s) => s.kind === 'keyvalue');
    const old = kv(before);
    const now = kv(after);
    expect(now.length).toBe(old.length);
    // A scan may read up to two characters past a statement (`d = 1979-05-27` checks for ` 07:`).
    for (let i = 0; i < now.length; i++) {
      if (now[i]!.range.end + 2 <= at) expect(now[i]).toBe(old[i]);
      else expect(now[i]).not.toBe(old[i]);
    }
    // Tables are always built anew (their extents and entries depend on what follows).
    expect(after.root).not.toBe(before.root);
    expect(plainResult(after)).toEqual(plainResult(fresh(edited, false)));
  });

  it('takes over the statements after an edit that kept the length, at the same offsets', () => {
    const before = fresh(BUNDLE, false);
    const at = BUNDLE.indexOf('"Summary"') + 1;
    const edited = `${BUNDLE.slice(0, at)}X${BUNDLE.slice(at + 1)}`;
    const after = parseTomlSyntax(edited);
    const translate = after.statements.find((s) => s.kind === 'keyvalue' && s.range.start === BUNDLE.indexOf('output = "Text"'));
    expect(before.statements).toContain(translate);
    const changed = after.statements.find((s) => s.kind === 'keyvalue' && s.range.start <= at && at < s.range.end);
    expect(before.statements).not.toContain(changed);
    expect(plainResult(after)).toEqual(plainResult(fresh(edited, false)));
  });

  it('moves the statements and headers after an edit that changed the length, without scanning them again', () => {
    const text = `${BUNDLE}${Array.from({ length: 40 }, (_, i) => `[pipe.p${i}]\ndescription = "Pipe ${i} \\u00e9"\nmodel = { name = "m", temperature = 0.${i}, tags = ["a", 'b'] }\n`).join('\n')}`;
    const before = fresh(text, false);
    for (const [at, edited] of [
      [BUNDLE.indexOf('Sums up'), (t: string, p: number) => `${t.slice(0, p)}xy${t.slice(p)}`],
      [BUNDLE.indexOf('Sums up'), (t: string, p: number) => `${t.slice(0, p)}${t.slice(p + 3)}`],
    ] as const) {
      void fresh(text, false).lineStarts;
      const changed = edited(text, at);
      const strings = vi.spyOn(Scanner.prototype, 'scanString');
      const keys = vi.spyOn(Scanner.prototype, 'scanKey');
      const after = parseTomlSyntax(changed);
      // The edited statement is scanned again; the 40 pipes' headers, keys and strings are copied.
      expect(strings.mock.calls.length).toBeLessThanOrEqual(1);
      expect(keys.mock.calls.length).toBeLessThanOrEqual(1);
      strings.mockRestore();
      keys.mockRestore();
      // The line starts are those of the previous text, moved: only the edited stretch is read.
      const searches = vi.spyOn(String.prototype, 'indexOf');
      const starts = after.lineStarts;
      const searched = searches.mock.calls.length;
      searches.mockRestore();
      expect(searched).toBeLessThan(5);
      expect(starts).toEqual(computeLineStarts(changed));
      const tail = after.statements.filter((s) => s.range.start > at + 3);
      expect(tail.some((s) => before.statements.includes(s))).toBe(false);
      expect(plainResult(after)).toEqual(plainResult(fresh(changed, false)));
    }
  });

  it('scans again a statement whose value an edit right after it extends', () => {
    // `1979-05-27` then ` 07:32:00` typed after it: one local date-time, not a date.
    for (const text of ['a = 1\nd = 1979-05-27\nz = 2\n', 'a = 1\nd = 1979-05-27 \nz = 2\n']) {
      for (const typed of [' 07:32:00', '07:32:00', ' 0', '0']) {
        const at = text.indexOf('\nz');
        const edited = text.slice(0, at) + typed + text.slice(at);
        fresh(text, false);
        expect(plainResult(parseTomlSyntax(edited))).toEqual(plainResult(fresh(edited, false)));
      }
    }
  });

  it('does not remember a huge document', () => {
    const huge = `${BUNDLE}x = "${'y'.repeat(1 << 20)}"\n`;
    parseTomlSyntax('');
    const a = parseTomlSyntax(huge);
    const b = parseTomlSyntax(huge);
    expect(b.statements.filter((s) => a.statements.includes(s))).toEqual([]);
  });

  it('reuses nothing from another document that merely starts the same way', () => {
    const other = `${BUNDLE}${'\n[pipe.more]\ntype = "PipeLLM"\n'.repeat(300)}`;
    const a = fresh(BUNDLE, false);
    const b = parseTomlSyntax(other);
    expect(b.statements.filter((s) => a.statements.includes(s))).toEqual([]);
  });

  it('nor statements at or after an error of the previous parse', () => {
    const broken = BUNDLE.replace('output = "Summary"', 'output = "Summary');
    const before = fresh(broken, false);
    const after = parseTomlSyntax(`${broken}x = 1\n`);
    const errorAt = before.errors[0]!.range.start;
    for (const s of after.statements) if (before.statements.includes(s)) expect(s.range.end).toBeLessThan(errorAt);
    expect(plainResult(after)).toEqual(plainResult(fresh(`${broken}x = 1\n`, false)));
  });

  it('gives what a fresh parse gives, over random edit sequences', () => {
    const fragments = ['x', '"', "'", '=', '\n', '\r\n', ' ', '[', ']', '[[', '{', '}', ',', '#', '.', '"""', "'''", 'a = 1\n', '[t]\n', 'k.j = 2\n', '\\', 'é', '😀'];
    const edit = fc.oneof(fc.tuple(fc.nat(), fc.nat(4), fc.constantFrom(...fragments)), fc.tuple(fc.nat(), fc.constant(1), fc.constantFrom(...fragments.filter((f) => f.length === 1))));
    fc.assert(
      fc.property(fc.nat(DOCS.length - 1), fc.array(edit, { minLength: 1, maxLength: 8 }), fc.boolean(), (doc, edits, toml10) => {
        let text = DOCS[doc]!;
        parseTomlSyntax(text, { toml10 });
        for (const [at, del, ins] of edits) {
          const p = at % (text.length + 1);
          text = text.slice(0, p) + ins + text.slice(p + del);
          const incremental = plainResult(parseTomlSyntax(text, { toml10 }));
          expect(incremental).toEqual(plainResult(fresh(text, toml10)));
        }
      }),
      { numRuns: 300, seed: 14 },
    );
  });

  it('gives what a fresh parse gives while typing: letters typed and deleted, the rest moved each time', () => {
    fc.assert(
      fc.property(fc.nat(DOCS.length - 1), fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.constantFrom('x', 'ab', ' ', '\n', '\r', '\r\n', '#', '"', '1')), { minLength: 1, maxLength: 12 }), (doc, edits) => {
        let text = DOCS[doc]!;
        parseTomlSyntax(text);
        for (const [at, remove, typed] of edits) {
          const p = at % (text.length + 1);
          text = remove ? text.slice(0, p) + text.slice(p + typed.length) : text.slice(0, p) + typed + text.slice(p);
          expect(plainResult(parseTomlSyntax(text))).toEqual(plainResult(fresh(text, false)));
        }
      }),
      { numRuns: 200, seed: 15 },
    );
  });
});

describe('reusing an earlier version of the same document (a file changed on disk)', () => {
  it('takes over its statements whatever was parsed in between, and gives what a fresh parse gives', () => {
    const edits = fc.array(fc.tuple(fc.nat(), fc.nat(6), fc.constantFrom('x', 'description = "d"\n', '\n', '"', '[t]\n', '#', ' ', '😀', '')), { minLength: 1, maxLength: 4 });
    let shared = 0;
    fc.assert(
      fc.property(fc.nat(DOCS.length - 1), fc.nat(DOCS.length - 1), edits, fc.boolean(), (doc, other, changes, toml10) => {
        const before = DOCS[doc]!;
        let text = before;
        for (const [at, del, ins] of changes) {
          const p = at % (text.length + 1);
          text = text.slice(0, p) + ins + text.slice(p + del);
        }
        const previous = parseTomlSyntax(before, { toml10 });
        // Other documents parsed meanwhile (the other files of an update).
        parseTomlSyntax(DOCS[other]!, { toml10 });
        const after = parseTomlSyntax(text, { toml10 }, previous);
        if (after.statements.some((st) => previous.statements.includes(st))) shared++;
        expect(plainResult(after)).toEqual(plainResult(fresh(text, toml10)));
      }),
      { numRuns: 300, seed: 16 },
    );
    expect(shared).toBeGreaterThan(200);
  });

  it('through parseToml: the statements before and after the changed stretch are those of the earlier version', () => {
    const text = `${BUNDLE}${Array.from({ length: 20 }, (_, i) => `[pipe.p${i}]\ndescription = "Pipe ${i}"\n`).join('\n')}`;
    const previous = parseToml(text);
    parseToml('a = 1\n');
    const at = text.indexOf('Pipe 7');
    for (const changed of [`${text.slice(0, at)}Tube${text.slice(at + 4)}`, `${text.slice(0, at)}A longer pipe${text.slice(at + 4)}`]) {
      const doc = parseToml(changed, previous);
      const kept = doc.statements.filter((st) => previous.statements.includes(st));
      // Every key/value statement ending before the change is the earlier version's.
      const before = previous.statements.filter((st) => st.kind === 'keyvalue' && st.range.end + 2 <= at);
      for (const st of before) expect(kept).toContain(st);
      // An edit that kept the length: the tail's statements are the earlier version's too.
      if (changed.length === text.length) expect(kept.some((st) => st.range.start > at + 4)).toBe(true);
      expect(doc.root).toEqual(parseToml(changed).root);
      expect(doc.statements).toEqual(parseToml(changed).statements);
      expect(doc.errors).toEqual([]);
    }
    // Not the version of another document: nothing of a text that does not parse as one kept.
    const unrelated = parseToml(`x = [\n${text}`, previous);
    expect(unrelated.errors.length).toBeGreaterThan(0);
    expect(plainResult(parseTomlSyntax(`x = [\n${text}`, undefined, parseTomlSyntax(text)))).toEqual(plainResult(fresh(`x = [\n${text}`, false)));
  });
});
