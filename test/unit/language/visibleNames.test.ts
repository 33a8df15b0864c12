// The indexed names a check suggests from are exactly the names visible from the bundle: random
// trees, random names asked, compared with the plain scan over the visible names listed.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NATIVE_CONCEPTS } from '../../../server/src/language/spec/natives.js';
import type { Bundle } from '../../../server/src/language/model.js';
import { symbolsOf, type MethodTree } from '../../../server/src/language/tree.js';
import { conceptNameIndexes, pipeNameIndexes, prepareNameIndexes, prepareQualifiedConceptIndexes } from '../../../server/src/language/visibleNames.js';
import { suggest, suggestAmong } from '../../../server/src/util/suggest.js';
import { treeOf } from '../../helpers/tree.js';

const conceptCode = fc.stringMatching(/^[A-Z][a-zA-Z]{0,9}$/);
const pipeCode = fc.stringMatching(/^[a-z][a-z_]{0,9}$/);
const bundle = fc.record({
  domain: fc.option(fc.constantFrom('legal', 'legal.sub', 'hr', 'fin'), { nil: undefined }),
  concepts: fc.array(fc.oneof(conceptCode, fc.constantFrom('Text', 'Summary', 'Image')), { maxLength: 5 }),
  pipes: fc.array(pipeCode, { maxLength: 5 }),
});

function text(b: { domain: string | undefined; concepts: string[]; pipes: string[] }): string {
  const lines = b.domain === undefined ? [] : [`domain = "${b.domain}"`];
  for (const c of new Set(b.concepts)) lines.push(`[concept.${c}]`, 'description = "c"');
  for (const p of new Set(b.pipes)) lines.push(`[pipe.${p}]`, 'type = "PipeLLM"', 'description = "p"', 'output = "Text"', 'prompt = "x"');
  return lines.join('\n') + '\n';
}

// The plain lists the indexes stand for: the natives aside, a bundle's own domain bare (its own
// declarations included), every other domain qualified.
function visibleConceptCodes(tree: MethodTree, from: Bundle): string[] {
  const domain = from.domain?.value;
  const codes = new Set<string>();
  if (domain !== undefined) for (const code of tree.symbols.get(domain)?.concepts.keys() ?? []) codes.add(code);
  for (const c of from.concepts) codes.add(c.code);
  return withQualified([...codes], tree, domain, 'concepts');
}

function visiblePipeCodes(tree: MethodTree, from: Bundle): string[] {
  const domain = from.domain?.value;
  const codes = new Set<string>();
  for (const p of from.pipes) codes.add(p.code);
  if (domain !== undefined) for (const code of tree.symbols.get(domain)?.pipes.keys() ?? []) codes.add(code);
  return withQualified([...codes], tree, domain, 'pipes');
}

function withQualified(codes: string[], tree: MethodTree, domain: string | undefined, kind: 'concepts' | 'pipes'): string[] {
  for (const [d, table] of tree.symbols) if (d !== domain) for (const code of table[kind].keys()) codes.push(`${d}.${code}`);
  return codes;
}

describe('visible names as indexes', () => {
  it('suggest what the plain scan over the visible names suggests, from every bundle', () => {
    fc.assert(
      fc.property(fc.array(bundle, { minLength: 1, maxLength: 6 }), fc.array(fc.oneof(conceptCode, pipeCode, fc.constantFrom('legal.Summry', 'hr.revew', 'Txt')), { minLength: 1, maxLength: 4 }), (bundles, asked) => {
        const tree = treeOf(Object.fromEntries(bundles.map((b, i) => [`b${i}.mthds`, text(b)])));
        for (const from of tree.bundles) {
          for (const name of asked) {
            expect(suggestAmong(name, conceptNameIndexes(tree, from))).toEqual(suggest(name, [...NATIVE_CONCEPTS.map((c) => c.code), ...visibleConceptCodes(tree, from)]));
            expect(suggestAmong(name, pipeNameIndexes(tree, from))).toEqual(suggest(name, visiblePipeCodes(tree, from)));
          }
        }
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it('made ahead (left at any step), are the indexes a lookup reads, and suggest the same', () => {
    fc.assert(
      fc.property(fc.array(bundle, { minLength: 1, maxLength: 6 }), fc.nat({ max: 8 }), fc.array(fc.oneof(conceptCode, pipeCode, fc.constantFrom('legal.Summry', 'hr.revew', 'Txt')), { minLength: 1, maxLength: 3 }), (bundles, stop, asked) => {
        const tree = treeOf(Object.fromEntries(bundles.map((b, i) => [`b${i}.mthds`, text(b)])));
        for (const from of tree.bundles) {
          for (const kind of ['concepts', 'pipes'] as const) {
            const steps = prepareNameIndexes(tree, from, kind);
            for (let k = 0; k < stop && !steps.next().done; k++);
          }
          for (const name of asked) {
            expect(suggestAmong(name, conceptNameIndexes(tree, from))).toEqual(suggest(name, [...NATIVE_CONCEPTS.map((c) => c.code), ...visibleConceptCodes(tree, from)]));
            expect(suggestAmong(name, pipeNameIndexes(tree, from))).toEqual(suggest(name, visiblePipeCodes(tree, from)));
          }
        }
      }),
      { seed: 9, numRuns: 200 },
    );
    // Made in full: a lookup finds every index of the other domains made already.
    const tree = treeOf({ 'a.mthds': 'domain = "legal"\n[concept.Contract]\ndescription = "c"\n', 'b.mthds': 'domain = "hr"\n[concept.Person]\ndescription = "p"\n[pipe.review]\ntype = "PipeLLM"\ndescription = "p"\noutput = "Text"\nprompt = "x"\n' });
    const from = tree.bundles[0]!;
    for (const kind of ['concepts', 'pipes'] as const) for (const g = prepareNameIndexes(tree, from, kind); !g.next().done; );
    const prepared = conceptNameIndexes(tree, from);
    expect(conceptNameIndexes(tree, from)).toEqual(prepared);
    expect(pipeNameIndexes(tree, from).slice(1)).toEqual(pipeNameIndexes(tree, from).slice(1));
  });

  it('made ahead for the whole tree (left at any step), suggest the same from every bundle', () => {
    fc.assert(
      fc.property(fc.array(bundle, { minLength: 1, maxLength: 6 }), fc.nat({ max: 8 }), fc.array(fc.oneof(conceptCode, fc.constantFrom('legal.Summry', 'hr.Persn', 'Txt')), { minLength: 1, maxLength: 3 }), (bundles, stop, asked) => {
        const tree = treeOf(Object.fromEntries(bundles.map((b, i) => [`b${i}.mthds`, text(b)])));
        const steps = prepareQualifiedConceptIndexes(tree);
        for (let k = 0; k < stop && !steps.next().done; k++);
        for (const from of tree.bundles) {
          for (const name of asked) expect(suggestAmong(name, conceptNameIndexes(tree, from))).toEqual(suggest(name, [...NATIVE_CONCEPTS.map((c) => c.code), ...visibleConceptCodes(tree, from)]));
        }
      }),
      { seed: 13, numRuns: 200 },
    );
    // One step per domain, and every bundle's lookup then reads the indexes made (the same objects).
    const tree = treeOf({ 'a.mthds': 'domain = "legal"\n[concept.Contract]\ndescription = "c"\n', 'b.mthds': 'domain = "hr"\n[concept.Person]\ndescription = "p"\n', 'c.mthds': 'domain = "fin"\n[concept.Bill]\ndescription = "b"\n' });
    let steps = 0;
    for (const g = prepareQualifiedConceptIndexes(tree); !g.next().done; ) steps += 1;
    expect(steps).toBe(3);
    const [fromLegal, fromHr] = [tree.bundles[0]!, tree.bundles[1]!];
    // From legal: natives, legal bare, then hr and fin qualified; from hr: natives, hr bare, legal and fin qualified.
    expect(conceptNameIndexes(tree, fromLegal)[3]).toBe(conceptNameIndexes(tree, fromHr)[3]);
  });

  it('follow an edit: a table of a new version is indexed again', () => {
    const tree = treeOf({ 'a.mthds': 'domain = "legal"\n[concept.Contract]\ndescription = "c"\n', 'b.mthds': 'domain = "legal"\n' });
    const from = tree.bundles[1]!;
    expect(suggestAmong('Contrct', conceptNameIndexes(tree, from))).toEqual(['Contract']);
    const edited = treeOf({ 'a.mthds': 'domain = "legal"\n[concept.Contrast]\ndescription = "c"\n', 'b.mthds': 'domain = "legal"\n' });
    const next = { ...tree, bundles: edited.bundles, symbols: symbolsOf(edited.bundles) };
    expect(suggestAmong('Contrct', conceptNameIndexes(next, next.bundles[1]!))).toEqual(['Contrast']);
  });

  it('share one index between versions of a table holding the same names', () => {
    const files = (description: string): Record<string, string> => ({ 'a.mthds': `domain = "legal"\n[concept.Contract]\ndescription = "${description}"\n`, 'b.mthds': 'domain = "hr"\n[concept.Person]\ndescription = "p"\n' });
    const before = treeOf(files('c'));
    const after = treeOf(files('changed'));
    expect(after.symbols.get('legal')).not.toBe(before.symbols.get('legal'));
    const [, ownBefore, otherBefore] = conceptNameIndexes(before, before.bundles[0]!);
    const [, ownAfter, otherAfter] = conceptNameIndexes(after, after.bundles[0]!);
    expect(ownAfter).toBe(ownBefore);
    expect(otherAfter).toBe(otherBefore);
  });
});

