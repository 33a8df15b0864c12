import { describe, expect, it } from 'vitest';
import { parseToml } from '../../../server/src/syntax/document.js';
import { getEntry, getPath, nodeAtOffset } from '../../../server/src/syntax/lookup.js';
import { at, src, table } from './helpers.js';

const TEXT = `domain = "demo"
[concept.Summary]
description = "A summary"

[pipe.summarize]
type = "PipeLLM"
inputs = { doc = "Text", nested.deep = "x" }
steps = [ { pipe = "a", result = "x" }, { pipe = "b" } ]

[[pipe.summarize.cases]]
when = "a"
[[pipe.summarize.cases]]
when = "b"
`;
const doc = parseToml(TEXT);

describe('getEntry / getPath', () => {
  it('finds entries of small and big tables', () => {
    expect(doc.errors).toEqual([]);
    expect(getEntry(doc.root, 'domain')?.value.type).toBe('string');
    expect(getEntry(doc.root, 'nope')).toBeUndefined();
    expect(getEntry(getEntry(doc.root, 'domain')?.value, 'x')).toBeUndefined();
    expect(getEntry(undefined, 'x')).toBeUndefined();
    const big = parseToml(Array.from({ length: 50 }, (_, i) => `k${i} = ${i}`).join('\n'));
    expect(getEntry(big.root, 'k37')?.value).toMatchObject({ type: 'integer', value: 37 });
    expect(getEntry(big.root, 'k50')).toBeUndefined();
  });

  it('walks keys and indices', () => {
    expect(getPath(doc.root, ['pipe', 'summarize', 'steps', 1, 'pipe'])).toMatchObject({ type: 'string', value: 'b' });
    expect(getPath(doc.root, ['pipe', 'summarize', 'cases', 1, 'when'])).toMatchObject({ value: 'b' });
    expect(getPath(doc.root, ['pipe', 'summarize', 'inputs', 'nested', 'deep'])).toMatchObject({ value: 'x' });
    expect(getPath(doc.root, ['pipe', 'nope', 'x'])).toBeUndefined();
    expect(getPath(doc.root, ['domain', 0])).toBeUndefined();
    expect(getPath(doc.root, [])).toBe(doc.root);
  });
});

describe('nodeAtOffset', () => {
  it('on a header key segment', () => {
    const n = nodeAtOffset(doc, at(TEXT, 'summarize]') + 2);
    expect(n.statement?.kind).toBe('header');
    expect(n.key).toMatchObject({ index: 1, inHeader: true, segment: { name: 'summarize' } });
    expect(n.path).toEqual(['pipe', 'summarize']);
    expect(n.section).toBe(table(doc, ['pipe', 'summarize']));
  });

  it('on the first segment of a header: the path stops there', () => {
    const n = nodeAtOffset(doc, at(TEXT, '[pipe.summarize]') + 2);
    expect(n.key?.segment.name).toBe('pipe');
    expect(n.path).toEqual(['pipe']);
  });

  it('on a key of a key/value pair', () => {
    const n = nodeAtOffset(doc, at(TEXT, 'type ='));
    expect(n.key).toMatchObject({ index: 0, inHeader: false, segment: { name: 'type' } });
    expect(n.path).toEqual(['pipe', 'summarize', 'type']);
    expect(n.steps.map((s) => s.kind)).toEqual(['entry', 'entry', 'entry']);
    expect(n.value).toBeUndefined();
  });

  it('inside a string inside an inline table inside an array', () => {
    const offset = at(TEXT, '"x" }', 1) + 1;
    const n = nodeAtOffset(doc, offset);
    expect(n.path).toEqual(['pipe', 'summarize', 'steps', 0, 'result']);
    expect(n.value).toMatchObject({ type: 'string', value: 'x' });
    expect(n.table).toBe(getPath(doc.root, ['pipe', 'summarize', 'steps', 0]));
    expect(n.key).toBeUndefined();
  });

  it('on a key inside an inline table, through dotted keys', () => {
    const n = nodeAtOffset(doc, at(TEXT, 'deep'));
    expect(n.path).toEqual(['pipe', 'summarize', 'inputs', 'nested', 'deep']);
    expect(n.key).toMatchObject({ index: 1, segment: { name: 'deep' } });
    expect(n.key?.key.map((k) => k.name)).toEqual(['nested', 'deep']);
  });

  it('between entries of an inline table: the inline table receives new keys', () => {
    const n = nodeAtOffset(doc, at(TEXT, ', nested') + 1);
    expect(n.path).toEqual(['pipe', 'summarize', 'inputs']);
    expect(n.table).toBe(getPath(doc.root, ['pipe', 'summarize', 'inputs']));
  });

  it('on a blank line: the section', () => {
    const n = nodeAtOffset(doc, at(TEXT, '\n\n[pipe') + 1);
    expect(n.statement).toBeUndefined();
    expect(n.header?.key.map((k) => k.name)).toEqual(['concept', 'Summary']);
    expect(n.path).toEqual(['concept', 'Summary']);
    expect(n.table).toBe(table(doc, ['concept', 'Summary']));
  });

  it('before any header: the root', () => {
    const n = nodeAtOffset(doc, 2);
    expect(n.header).toBeUndefined();
    expect(n.section).toBe(doc.root);
    expect(n.path).toEqual(['domain']);
  });

  it('in an element of an array of tables: the element index is in the path', () => {
    const n = nodeAtOffset(doc, at(TEXT, '"b"', 1) + 1);
    expect(n.path).toEqual(['pipe', 'summarize', 'cases', 1, 'when']);
    expect(n.steps[3]).toMatchObject({ kind: 'item', index: 1 });
    const h = nodeAtOffset(doc, at(TEXT, 'cases]]') + 1);
    expect(h.path).toEqual(['pipe', 'summarize', 'cases', 0]);
  });

  it('on a half-typed key, for completion', () => {
    const text = '[pipe.x]\ntype = "PipeLLM"\ndesc\n';
    const d = parseToml(text);
    const n = nodeAtOffset(d, at(text, 'desc') + 4);
    expect(n.statement?.kind).toBe('keyvalue');
    expect(n.key?.segment.name).toBe('desc');
    expect(n.path).toEqual(['pipe', 'x', 'desc']);
    expect(n.section).toBe(table(d, ['pipe', 'x']));
  });

  it('inside an unterminated inline table and string', () => {
    const text = '[pipe.x]\ninputs = { doc = "Te';
    const d = parseToml(text);
    const n = nodeAtOffset(d, text.length);
    expect(n.path).toEqual(['pipe', 'x', 'inputs', 'doc']);
    expect(n.value).toMatchObject({ type: 'string', value: 'Te' });
    expect(src(text, n.value!.range)).toBe('"Te');
  });
});
