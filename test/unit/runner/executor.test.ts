// Executor pieces: working memory, path walking (bindings), content checks and input binding.

import { describe, expect, it } from 'vitest';
import { ConceptCatalog } from '../../../server/src/language/jsonSchema.js';
import { coerceToField, contentFault, listItems, normalizeItem, templateView } from '../../../server/src/runner/execute/contents.js';
import { accepts, bindInputs } from '../../../server/src/runner/execute/inputs.js';
import { WorkingMemory } from '../../../server/src/runner/execute/memory.js';
import { PathError, rawAt, walkPath } from '../../../server/src/runner/execute/paths.js';
import { treeOf } from '../../helpers/tree.js';

const BUNDLE = `domain = "d"
description = "d"

[concept.Line]
description = "A line"
[concept.Line.structure]
label = "Label"
amount = { type = "number", description = "Amount", required = true }

[concept.Invoice]
description = "An invoice"
[concept.Invoice.structure]
number = { type = "integer", description = "Number", required = true }
lines = { type = "list", item_type = "concept", item_concept_ref = "Line", description = "Lines" }
note = { type = "text", description = "Note" }
cover = { type = "concept", concept_ref = "Image", description = "Cover" }

[concept.Title]
description = "A title"
refines = "Text"

[pipe.p]
type = "PipeLLM"
description = "p"
inputs = { invoice = "Invoice", titles = "Text[]", pair = "Title[2]", maybe = "Text?" }
output = "Text"
prompt = "$invoice $titles $pair @?maybe"
`;

const tree = treeOf({ 'd.mthds': BUNDLE });
const catalog = new ConceptCatalog(tree);
const pipe = tree.bundles[0]!.pipes[0]!;
const invoiceInfo = catalog.byRef('d.Invoice')!;
const invoice = { number: 7, lines: [{ label: 'a', amount: 1 }, { label: 'b', amount: 2 }], cover: { url: 'https://x/c.png' } };

function memoryWithInvoice(): WorkingMemory {
  const m = new WorkingMemory();
  m.set('invoice', { concept: invoiceInfo, content: structuredClone(invoice), list: false });
  return m;
}

describe('WorkingMemory', () => {
  it('resolves aliases, designates the main stuff and records absences', () => {
    const m = memoryWithInvoice();
    m.setMain('result', { concept: catalog.byRef('native.Text')!, content: { text: 'x' }, list: false });
    expect(m.get('main_stuff')?.content).toEqual({ text: 'x' });
    expect(m.toWire().aliases).toEqual({ main_stuff: 'result' });
    m.markAbsent('gone');
    expect(m.isAbsent('gone')).toBe(true);
    m.set('gone', { concept: catalog.byRef('native.Text')!, content: { text: 'back' }, list: false });
    expect(m.isAbsent('gone')).toBe(false);
  });

  it('clones deeply: a branch never sees another branch write', () => {
    const m = memoryWithInvoice();
    const copy = m.clone();
    (copy.get('invoice')!.content as { number: number }).number = 99;
    expect((m.get('invoice')!.content as { number: number }).number).toBe(7);
  });

  it('serializes lists as { items: [...] }', () => {
    const m = new WorkingMemory();
    m.set('xs', { concept: catalog.byRef('native.Text')!, content: [{ text: 'a' }], list: true });
    expect(m.toWire().root['xs']).toEqual({ concept: 'native.Text', content: { items: [{ text: 'a' }] } });
  });
});

describe('walkPath', () => {
  it('types scalar fields as natives, crosses lists and flattens', () => {
    const m = memoryWithInvoice();
    expect(walkPath(catalog, m, 'invoice.number')).toMatchObject({ concept: { ref: 'native.Number' }, content: { number: 7 }, list: false });
    expect(walkPath(catalog, m, 'invoice.lines')).toMatchObject({ concept: { ref: 'd.Line' }, list: true });
    expect(walkPath(catalog, m, 'invoice.lines.amount')).toMatchObject({ concept: { ref: 'native.Number' }, content: [{ number: 1 }, { number: 2 }], list: true });
    expect(walkPath(catalog, m, 'invoice.cover')).toMatchObject({ concept: { ref: 'native.Image' }, content: { url: 'https://x/c.png' } });
    expect(walkPath(catalog, m, 'invoice')).toMatchObject({ concept: { ref: 'd.Invoice' } });
  });

  it('answers absent values and refuses paths into nothing', () => {
    const m = memoryWithInvoice();
    expect(walkPath(catalog, m, 'invoice.note')).toBeUndefined();
    expect(walkPath(catalog, m, 'nobody.x')).toBeUndefined();
    expect(() => walkPath(catalog, m, 'invoice.nope')).toThrow(PathError);
    expect(() => walkPath(catalog, m, 'invoice.number.x')).toThrow(PathError);
  });

  it('copies: a binding is independent of its source', () => {
    const m = memoryWithInvoice();
    const bound = walkPath(catalog, m, 'invoice.lines')!;
    (bound.content as Array<{ amount: number }>)[0]!.amount = 100;
    expect(rawAt(m, 'invoice.lines.amount')).toEqual([1, 2]);
  });
});

describe('contents', () => {
  it('finds the first failing field by its dotted path', () => {
    expect(contentFault(catalog, invoiceInfo, invoice)).toBeUndefined();
    expect(contentFault(catalog, invoiceInfo, { lines: [] })).toBe('number');
    expect(contentFault(catalog, invoiceInfo, { number: 1.5 })).toBe('number');
    expect(contentFault(catalog, invoiceInfo, { number: 1, lines: [{ label: 'a', amount: 'x' }] })).toBe('lines.0.amount');
    expect(contentFault(catalog, invoiceInfo, { number: 1, cover: {} })).toBe('cover.url');
    expect(contentFault(catalog, catalog.byRef('native.Date')!, { date: '2024-13-45' })).toBe('date');
    expect(contentFault(catalog, catalog.byRef('native.Time')!, { time: '15:40:00+02:00' })).toBeUndefined();
    expect(contentFault(catalog, catalog.byRef('native.Anything')!, 42)).toBeUndefined();
  });

  it('normalizes short forms and reads both list forms', () => {
    expect(normalizeItem(catalog.byRef('d.Title')!, 'x')).toEqual({ text: 'x' });
    expect(normalizeItem(catalog.byRef('native.Number')!, 3)).toEqual({ number: 3 });
    expect(listItems([1])).toEqual([1]);
    expect(listItems({ items: [1] })).toEqual([1]);
    expect(listItems({ items: [1], other: 2 })).toBeUndefined();
  });

  it('annotates template views with concept codes, nested concepts included', () => {
    const view = templateView(catalog, { concept: invoiceInfo, content: invoice, list: false }, 'invoice') as Record<string, any>;
    expect(view['_concept_code']).toBe('d.Invoice');
    expect(view['_stuff_name']).toBe('invoice');
    expect(view['cover']._concept_code).toBe('native.Image');
    expect(view['lines'][0]._concept_code).toBe('d.Line');
  });

  it('coerces copied contents into the shape of their target field', () => {
    const label = catalog.byRef('d.Line')!.fields[0];
    expect(coerceToField(catalog, { text: 'x' }, label)).toBe('x');
    expect(coerceToField(catalog, { number: 3 }, catalog.byRef('d.Line')!.fields[1])).toBe(3);
  });
});

describe('bindInputs', () => {
  it('accepts refinements and Text-based concepts for Text, and anything for Anything', () => {
    expect(accepts(catalog, catalog.byRef('native.Text')!, catalog.byRef('d.Title')!)).toBe(true);
    expect(accepts(catalog, catalog.byRef('d.Title')!, catalog.byRef('native.Text')!)).toBe(false);
    expect(accepts(catalog, catalog.byRef('native.Anything')!, invoiceInfo)).toBe(true);
    expect(accepts(catalog, catalog.byRef('native.Text')!, invoiceInfo)).toBe(false);
  });

  it('binds valid inputs, records an omitted optional one as absent, and collects every fault', () => {
    const ok = bindInputs(catalog, pipe, {
      invoice: { concept: 'Invoice', content: invoice },
      titles: { concept: 'Text', content: ['a', 'b'] },
      pair: { concept: 'd.Title', content: { items: ['x', 'y'] } },
    });
    expect(ok.faults).toEqual([]);
    expect(ok.memory.get('titles')).toMatchObject({ list: true, content: [{ text: 'a' }, { text: 'b' }] });
    expect(ok.memory.get('pair')?.concept.ref).toBe('d.Title');
    expect(ok.memory.isAbsent('maybe')).toBe(true);

    const bad = bindInputs(catalog, pipe, {
      invoice: { concept: 'Invoice', content: { number: 'seven' } },
      pair: { concept: 'Title', content: ['only one'] },
      extra: { concept: 'Text', content: 'x' },
    });
    expect(bad.faults.map((f) => [f.code, f.params])).toEqual([
      ['input.invalid', { input: 'invoice', field: 'number' }],
      ['input.missing', { input: 'titles' }],
      ['input.wrong_multiplicity', { input: 'pair', expected: 'count', expected_count: 2, provided_count: 1 }],
      ['input.unexpected', { input: 'extra' }],
    ]);
  });
});
