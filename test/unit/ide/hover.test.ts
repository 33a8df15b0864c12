// Hover and inlay hint logic (language/hoverInfo, language/inlays) on in-memory trees.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hoverAt } from '../../../server/src/ide/hover.js';
import { inlaysOf } from '../../../server/src/ide/inlayHints.js';
import { catalogFromDeck, choicesFor, findChoice } from '../../../server/src/language/modelCatalog.js';
import { ROOT, treeOf } from '../../helpers/tree.js';

const CONCEPTS = `domain = "legal"
description = "Contracts"

[concept.Party]
description = "A party to a contract"

[concept.Party.structure]
name = "The legal name"

[concept.Contract]
description = "A signed contract"

[concept.Contract.structure]
title   = { type = "text", description = "The title", required = true }
parties = { type = "list", item_type = "concept", item_concept_ref = "Party", description = "Who signs" }
value   = { type = "number", description = "The amount" }

[concept.Lease]
description = "A lease"
refines = "Contract"
`;

const MAIN = `domain = "legal"
description = "Review"

[pipe.review]
type = "PipeSequence"
description = "Review a contract"
inputs = { contract = "Lease" }
output = "Text"
steps = [
  { pipe = "summarize", result = "summary" },
  { from = "contract.parties", result = "parties" },
  { pipe = "summarize", batch_over = "parties", batch_as = "party", result = "notes" },
  { pipe = "summarize", nb_output = 3, result = "three" },
]

[pipe.summarize]
type = "PipeLLM"
description = "Summarize a contract"
inputs = { contract = "Contract" }
output = "Text"
model = "@fast"
prompt = """
Summarize $contract.title for {{ contract.value }}:

@contract
"""
`;

function setup(main = MAIN) {
  const tree = treeOf({ 'concepts.mthds': CONCEPTS, 'main.mthds': main });
  const bundle = tree.bundles.find((b) => b.file === path.join(ROOT, 'main.mthds'))!;
  return { tree, bundle, text: main };
}

const DECK = catalogFromDeck({ models: [{ name: 'gpt', type: 'llm', provider: 'openai' }], aliases: { fast: 'gpt' }, waterfalls: { llm: { chain: ['gpt'] } }, presets: { llm: { 'writing-factual': { model: 'gpt' } } } }, 'the test deck');

function hover(needle: string, delta = 1, main = MAIN, findings?: Array<{ code: string; range: { start: number; end: number } }>) {
  const { tree, bundle, text } = setup(main);
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not found`);
  const found = hoverAt({ tree, bundle, offset: at + delta, models: DECK, ...(findings ? { findings } : {}) });
  return found ? { ...found, text: text.slice(found.range.start, found.range.end) } : undefined;
}

describe('hover', () => {
  it('shows an inherited structure with the refinement chain', () => {
    const h = hover('"Lease"', 2)!;
    expect(h.text).toBe('Lease');
    expect(h.markdown).toContain('Refines: `Lease` → `Contract`');
    expect(h.markdown).toContain('Fields inherited from `Contract`');
    expect(h.markdown).toContain('| `parties` | Party[] | no | Who signs |');
  });

  it('shows the type of each step result and binding', () => {
    expect(hover('result = "notes"', 11)!.markdown).toContain('stores `Text[]`');
    expect(hover('result = "three"', 11)!.markdown).toContain('stores `Text[3]`');
    expect(hover('from = "contract.parties"', 9)!.markdown).toContain('binds `Party[]`');
  });

  it('reads model references against the deck, sigils and spellings included', () => {
    expect(hover('"@fast"', 2)!.markdown).toContain('**@fast** — llm alias');
    expect(hover('model = "', 10, MAIN.replace('@fast', 'alias:fast'))!.markdown).toContain('**@fast** — llm alias');
    expect(hover('model = "', 10, MAIN.replace('@fast', '~other'))!.markdown).toContain('**~other** — waterfall (llm)\n\n_not listed by the test deck; the runtime resolves it._');
  });

  it('describes structure fields and inputs where they are declared', () => {
    const { tree } = setup();
    const concepts = tree.bundles.find((b) => b.file.endsWith('concepts.mthds'))!;
    const at = CONCEPTS.indexOf('parties =') + 2;
    expect(hoverAt({ tree, bundle: concepts, offset: at })!.markdown).toContain('**parties**: Party[] — field of `Contract`');
    expect(hover('inputs = { contract', 13)!.markdown).toContain('**contract** — input of `review`: `Lease`');
  });

  it('adds the registry explanation of findings under the cursor, alone or after the rest', () => {
    const at = MAIN.indexOf('"@fast"');
    const finding = { code: 'method.model_setting_invalid', range: { start: at, end: at + 7 } };
    const both = hover('"@fast"', 2, MAIN, [finding])!;
    expect(both.markdown).toMatch(/\*\*@fast\*\*[\s\S]*---[\s\S]*\*\*method\.model_setting_invalid\*\*/);
    const alone = hover('description = "Review"', 0, MAIN, [{ code: 'method.schema_violation', range: { start: 0, end: 200 } }])!;
    expect(alone.markdown).toContain('**method.schema_violation**');
  });

  it('says nothing on plain text', () => {
    expect(hover('Summarize $', 2)).toBeUndefined();
  });
});

describe('inlay hints', () => {
  it('labels results and template reads over the requested range only', () => {
    const { tree, bundle, text } = setup();
    const all = inlaysOf(tree, bundle, { start: 0, end: text.length }).map((i) => `${/[^\s{]*$/.exec(text.slice(0, i.offset))![0]}${i.label}`);
    expect(all).toEqual(['"summary": Text', '"parties": Party[]', '"notes": Text[]', '"three": Text[3]', '$contract.title: text', 'contract.value: number', '@contract: Contract']);
    const start = text.indexOf('[pipe.summarize]');
    expect(inlaysOf(tree, bundle, { start, end: text.length })).toHaveLength(3);
  });
});

describe('model catalog', () => {
  it('reads handles, aliases, waterfalls and presets, and falls back from judgment to llm', () => {
    expect(DECK.choices.map((c) => c.reference)).toEqual(['gpt', '@fast', '~chain', '$writing-factual']);
    expect(choicesFor(DECK, 'judgment').map((c) => c.reference)).toContain('gpt');
    expect(choicesFor(DECK, 'img_gen')).toEqual([]);
    expect(findChoice(DECK, 'preset:writing-factual')?.detail).toBe('preset of gpt');
    expect(catalogFromDeck('nonsense', 'x').choices).toEqual([]);
  });
});
