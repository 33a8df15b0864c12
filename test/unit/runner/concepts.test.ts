// Concept structures as data (the catalog), their JSON Schemas, and mock minting from them.

import { describe, expect, it } from 'vitest';
import { ConceptCatalog, conceptJsonSchema, conceptListJsonSchema } from '../../../server/src/language/jsonSchema.js';
import { createRng, hashSeed, hashSeedOf, mintContent, mintFromSchema, mintList } from '../../../server/src/language/mock.js';
import { contentFault } from '../../../server/src/runner/execute/contents.js';
import { treeOf } from '../../helpers/tree.js';

const BUNDLE = `domain = "shop"
description = "Shop"

[concept.Money]
description = "An amount"
[concept.Money.structure]
amount = { type = "number", description = "Amount", required = true }
currency = { description = "Currency", choices = ["EUR", "USD"], default_value = "EUR" }

[concept.Line]
description = "An invoice line"
[concept.Line.structure]
label = "What was sold"
price = { type = "concept", concept_ref = "Money", description = "Price", required = true }
when = { type = "date", description = "Date" }
tags = { type = "list", item_type = "text", description = "Tags" }

[concept.Invoice]
description = "An invoice"
[concept.Invoice.structure]
lines = { type = "list", item_type = "concept", item_concept_ref = "Line", description = "Lines", required = true }
extra = { type = "dict", key_type = "text", value_type = "text", description = "Extra" }

[concept.Node]
description = "A tree node"
[concept.Node.structure]
name = "Name"
child = { type = "concept", concept_ref = "Node", description = "Child" }

[concept.Note]
description = "A note"
refines = "Text"

[concept.Memo]
description = "A memo"

[concept.Big]
description = "A big invoice"
refines = "Invoice"

[concept.Score]
description = "A score"
[concept.Score.structure]
stars = { type = "integer", description = "Stars", required = true, choices = ["1", "2", "3"] }
confidence = { type = "integer", description = "Not a verdict member here", required = true }
position = { type = "text", description = "Not a verdict member here", required = true }
`;

const catalog = (): ConceptCatalog => new ConceptCatalog(treeOf({ 'shop.mthds': BUNDLE }));

describe('ConceptCatalog', () => {
  it('resolves natives, user concepts and refinements, with their lineage and shape', () => {
    const c = catalog();
    const bundle = c.tree.bundles[0]!;
    expect(c.resolve('Text', bundle)).toMatchObject({ ref: 'native.Text', shape: 'text' });
    expect(c.resolve('native.Image')).toMatchObject({ ref: 'native.Image', shape: 'structured' });
    expect(c.resolve('Note', bundle)).toMatchObject({ ref: 'shop.Note', lineage: ['shop.Note', 'native.Text'], shape: 'text' });
    expect(c.resolve('Memo', bundle)).toMatchObject({ ref: 'shop.Memo', shape: 'text' });
    const big = c.resolve('shop.Big')!;
    expect(big.lineage).toEqual(['shop.Big', 'shop.Invoice']);
    expect(big.fields.map((f) => f.name)).toEqual(['lines', 'extra']);
    expect(c.resolve('Nope', bundle)).toBeUndefined();
    expect(c.resolve('dep->shop.Line', bundle)).toBeUndefined();
    expect(c.refines(big, c.byRef('shop.Invoice')!)).toBe(true);
  });
});

describe('conceptJsonSchema', () => {
  it('maps every field type, nests concepts and lists required fields', () => {
    const c = catalog();
    const schema = conceptJsonSchema(c, c.byRef('shop.Invoice')!);
    expect(schema).toMatchObject({
      type: 'object',
      required: ['lines'],
      additionalProperties: false,
      properties: {
        lines: { type: 'array', items: { type: 'object', required: ['label', 'price'], properties: { label: { type: 'string' }, price: { type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string', enum: ['EUR', 'USD'] } } }, when: { type: 'string', format: 'date' }, tags: { type: 'array', items: { type: 'string' } } } } },
        extra: { type: 'object', additionalProperties: { type: 'string' } },
      },
    });
  });

  it('keeps recursive structures finite and leaves out verdict uncertainty for generation', () => {
    const c = catalog();
    expect(JSON.stringify(conceptJsonSchema(c, c.byRef('shop.Node')!)).length).toBeLessThan(2000);
    const yesNo = conceptJsonSchema(c, c.byRef('native.YesNo')!, { forGeneration: true });
    expect(Object.keys(yesNo['properties'] as object)).toEqual(['yes_no']);
    expect(Object.keys(conceptJsonSchema(c, c.byRef('native.YesNo')!)['properties'] as object)).toEqual(['yes_no', 'probability']);
    expect(conceptListJsonSchema(c, c.byRef('native.Text')!, 3)).toMatchObject({ properties: { items: { type: 'array', minItems: 3, maxItems: 3 } } });
  });

  it('builds the schema of a concept once per catalog and options', () => {
    const c = catalog();
    const invoice = c.byRef('shop.Invoice')!;
    const first = conceptJsonSchema(c, invoice, { forGeneration: true });
    expect(conceptJsonSchema(c, invoice, { forGeneration: true })).toBe(first);
    expect(conceptJsonSchema(c, invoice)).not.toBe(first);
    expect(conceptJsonSchema(c, invoice, { forGeneration: true, maxDepth: 1 })).not.toBe(first);
    const other = catalog();
    const again = conceptJsonSchema(other, other.byRef('shop.Invoice')!, { forGeneration: true });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    // A list schema wraps the shared item schema without changing it.
    conceptListJsonSchema(c, invoice, 2, { forGeneration: true });
    expect(first).not.toHaveProperty('minItems');
    expect(conceptJsonSchema(c, invoice, { forGeneration: true })).toEqual(again);
  });
});

describe('mock minting', () => {
  it('is reproducible for a seed and differs across seeds', () => {
    const c = catalog();
    const info = c.byRef('shop.Invoice')!;
    expect(mintContent(c, info, createRng('seed'))).toEqual(mintContent(c, info, createRng('seed')));
    expect(mintContent(c, info, createRng('seed'))).not.toEqual(mintContent(c, info, createRng('other')));
  });

  it('mints contents that satisfy their concepts, natives included', () => {
    const c = catalog();
    for (const ref of ['shop.Invoice', 'shop.Big', 'shop.Line', 'shop.Node', 'shop.Note', 'native.Text', 'native.Image', 'native.Document', 'native.Page', 'native.SearchResult', 'native.YesNo', 'native.Choice', 'native.Rating', 'native.Date', 'native.Time', 'native.Html', 'native.JSON', 'native.Number', 'native.TextAndImages']) {
      const info = c.byRef(ref)!;
      const value = mintContent(c, info, createRng(ref));
      expect(contentFault(c, info, value), ref).toBeUndefined();
    }
    const money = mintContent(c, c.byRef('shop.Money')!, createRng(1)) as Record<string, unknown>;
    expect(money['currency']).toBe('EUR');
    expect((mintContent(c, c.byRef('native.Image')!, createRng(1)) as Record<string, unknown>)['url']).toMatch(/^mock:\/\/image\//);
    expect(mintContent(c, c.byRef('native.Composite')!, createRng(1))).toEqual({});
    expect(mintList(c, c.byRef('native.Text')!, 3, createRng(1))).toHaveLength(3);
  });

  it('takes typed choices as values of their type, and leaves user fields named like verdict members alone', () => {
    const c = catalog();
    const info = c.byRef('shop.Score')!;
    const score = mintContent(c, info, createRng(1)) as Record<string, unknown>;
    expect(score['stars']).toBe(1);
    expect(Number.isInteger(score['confidence'])).toBe(true);
    expect(typeof score['position']).toBe('string');
    expect(contentFault(c, info, score)).toBeUndefined();
    expect(contentFault(c, info, { ...score, stars: 4 })).toBe('stars');
    expect((conceptJsonSchema(c, info)['properties'] as Record<string, unknown>)['stars']).toMatchObject({ type: 'integer', enum: [1, 2, 3] });
  });

  it('leaves optional fields out on request and uncertainty members out for generation', () => {
    const c = catalog();
    expect(Object.keys(mintContent(c, c.byRef('shop.Line')!, createRng(1), { optionalFields: false }) as object)).toEqual(['label', 'price']);
    expect(Object.keys(mintContent(c, c.byRef('native.YesNo')!, createRng(1), { forGeneration: true }) as object)).toEqual(['yes_no']);
  });

  it('mints from a JSON Schema: enums, bounded integers, sized arrays', () => {
    const rng = createRng('s');
    expect(mintFromSchema({ type: 'object', properties: { choice: { type: 'string', enum: ['a', 'b'] } } }, rng)).toEqual({ choice: 'a' });
    const level = mintFromSchema({ type: 'integer', minimum: 0, maximum: 2 }, rng) as number;
    expect(level).toBeGreaterThanOrEqual(0);
    expect(level).toBeLessThanOrEqual(2);
    expect(mintFromSchema({ type: 'array', items: { type: 'string' }, minItems: 4, maxItems: 4 }, rng)).toHaveLength(4);
  });
});

// Draws of the generator as first written (closures over a state): any faster form must give the same.
const GOLDEN_DRAWS = [0.19354423391632736, 13, 'b', 0.45864006178453565, 601104];
const GOLDEN_FORKS = [0.38065960770472884, 329, 0.31371327629312873, 0.4840129951480776];

describe('mock seeds', () => {
  it('hash text given in parts as the text written whole', () => {
    const parts = ['', 'dry|bench.step_1', '|', 'Read the text and describe thing 1:\n\n<text>\nmock text amber 123\n</text>', 'é\u{1F600}', '1234567'];
    for (const a of parts) for (const b of parts) for (const c of parts) expect(hashSeedOf(a, b, c), JSON.stringify([a, b, c])).toBe(hashSeed(a + b + c));
    expect(hashSeedOf('a', 'b', 'c', 'd', 'e')).toBe(hashSeed('abcde'));
  });

  it('give the generators of earlier versions (mock runs stay reproducible)', () => {
    const rng = createRng('dry|bench.step_1');
    const child = rng.fork('text');
    expect([rng.next(), rng.int(1, 100), rng.pick(['a', 'b', 'c']), child.next(), createRng(42).int(0, 1_000_000)]).toEqual(GOLDEN_DRAWS);
    const later = createRng(7);
    later.next();
    later.next();
    expect([later.fork('a').next(), later.fork('').int(0, 1000), createRng(0).fork('x').next(), createRng(4294967295).fork('y').next()]).toEqual(GOLDEN_FORKS);
  });
});
