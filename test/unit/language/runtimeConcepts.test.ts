// The language layer's view of Markdown (a native refining Text) and of structures the host binds
// to description-only concepts: completion, hover, the concept catalog and the mocks all read them
// from one place.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { complete } from '../../../server/src/ide/completion/index.js';
import { hoverAt } from '../../../server/src/ide/hover.js';
import { buildHostStructures, hostStructureOf } from '../../../server/src/language/hostStructures.js';
import { ConceptCatalog, conceptJsonSchema } from '../../../server/src/language/jsonSchema.js';
import { createRng, mintContent } from '../../../server/src/language/mock.js';
import { isCompatible, lookupConcept, nativeConcept } from '../../../server/src/language/concepts.js';
import { getNative } from '../../../server/src/language/spec/natives.js';
import { parseToml } from '../../../server/src/syntax/document.js';
import { ROOT, treeOf } from '../../helpers/tree.js';

const BUNDLE = `domain = "reports"
description = "Reports"

[concept]
Combined = "Both analyses"
Note = "A note"

[concept.Brief]
description = "A brief"
refines = "Text"

[pipe.write]
type = "PipeLLM"
description = "Writes"
inputs = { topic = "Text" }
output = "Markdown"
prompt = "Write about $topic"
`;

describe('Markdown', () => {
  it('is in the one list of natives, refining Text, with one field text', () => {
    const md = getNative('Markdown')!;
    expect(md.refines).toBe('Text');
    expect(md.fields.map((f) => [f.name, f.type, f.required])).toEqual([['text', 'text', true]]);
  });
  it('is accepted where Text is, and Text is not narrowed to Markdown by other natives', () => {
    const tree = treeOf({ 'main.mthds': BUNDLE });
    expect(isCompatible(tree, nativeConcept('Markdown'), nativeConcept('Text'))).toBe(true);
    expect(isCompatible(tree, nativeConcept('Markdown'), nativeConcept('Html'))).toBe(false);
  });
  it('completion offers it among the concepts of an output', () => {
    const text = BUNDLE.replace('output = "Markdown"', 'output = "Mark"');
    const tree = treeOf({ 'main.mthds': text });
    const bundle = tree.bundles[0]!;
    const items = complete({ tree, bundle, offset: text.indexOf('output = "Mark"') + 'output = "Mark'.length });
    expect(items.map((i) => i.label)).toContain('Markdown');
  });
  it('hover describes it as a native refining Text', () => {
    const tree = treeOf({ 'main.mthds': BUNDLE });
    const bundle = tree.bundles[0]!;
    const hover = hoverAt({ tree, bundle, offset: BUNDLE.indexOf('"Markdown"') + 2 });
    expect(hover!.markdown).toContain('**Markdown** — native concept');
    expect(hover!.markdown).toContain('Refines: `Text`');
  });
  it('the catalog gives it the text shape and Text in its lineage; the mock mints { text }', () => {
    const catalog = new ConceptCatalog(treeOf({ 'main.mthds': BUNDLE }));
    const info = catalog.byRef('native.Markdown')!;
    expect(info.shape).toBe('text');
    expect(info.lineage).toEqual(['native.Markdown', 'native.Text']);
    expect(catalog.refines(info, catalog.byRef('native.Text')!)).toBe(true);
    expect(Object.keys(mintContent(catalog, info, createRng(1)) as object)).toEqual(['text']);
  });
});

describe('structures of the host program', () => {
  const STRUCTURES = `[Combined]
length = { type = "integer", description = "Words", required = true }

[reports.Combined]
score = { type = "number", description = "A score", required = true }
tone = "The tone"

[Brief]
extra = "Never used: Brief refines Text"
`;
  const structures = buildHostStructures(path.join(ROOT, 'structures.toml'), parseToml(STRUCTURES));

  it('a table per concept, domain-limited or for any domain', () => {
    expect(structures.structures.map((s) => [s.domain, s.code, s.fields.map((f) => f.name)])).toEqual([
      [undefined, 'Combined', ['length']],
      ['reports', 'Combined', ['score', 'tone']],
      [undefined, 'Brief', ['extra']],
    ]);
  });
  it('binds only description-only concepts, its own domain first', () => {
    const tree = treeOf({ 'main.mthds': BUNDLE });
    const decl = (code: string) => tree.bundles[0]!.concepts.find((c) => c.code === code)!;
    expect(hostStructureOf(structures, decl('Combined'))!.domain).toBe('reports');
    expect(hostStructureOf(structures, decl('Note'))).toBeUndefined();
    expect(hostStructureOf(structures, decl('Brief'))).toBeUndefined();
  });
  it('the catalog, the JSON Schema and the mock take its fields', () => {
    const tree = treeOf({ 'main.mthds': BUNDLE });
    tree.hostStructures = structures;
    const catalog = new ConceptCatalog(tree);
    const info = catalog.byRef('reports.Combined')!;
    expect(info.shape).toBe('structured');
    expect(conceptJsonSchema(catalog, info)['required']).toEqual(['score', 'tone']);
    expect(Object.keys(mintContent(catalog, info, createRng(2)) as object).sort()).toEqual(['score', 'tone']);
    const combined = lookupConcept(tree, tree.bundles[0]!, { domain: 'reports', code: 'Combined' })!;
    expect(combined.kind).toBe('declared');
    const bundle = tree.bundles[0]!;
    const hover = hoverAt({ tree, bundle, offset: BUNDLE.indexOf('Combined = ') + 2 })!.markdown;
    expect(hover).toContain('Fields of the structure the host program binds to it (`structures.toml`)');
    expect(hover).toContain('| `score` | number | yes |');
  });
});
