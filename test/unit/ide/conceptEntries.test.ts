// The concept entries of a domain are kept across versions of its symbol table when its concepts
// did not change (compared before anything is made): whatever the sequence of versions, the entries
// given are those made afresh from the table, and a version with the same concepts shares them;
// a concept unchanged between two versions keeps its entry.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { conceptEntries, madeEntries, type ConceptEntry } from '../../../server/src/ide/completion/refs.js';
import { createTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';

const concept = fc.record({
  code: fc.constantFrom('Thing', 'Other', 'Third', 'Fourth'),
  description: fc.option(fc.constantFrom('A thing', 'A thing\nover two lines', 'A thing\n', 'Another', 'A thing ', 'concept', 'concept\nmore'), { nil: undefined }),
});
/** A version of the domain: its bundles, each a list of concepts. */
const version = fc.array(fc.array(concept, { maxLength: 4 }), { minLength: 1, maxLength: 3 });

function tableOf(bundles: ReadonlyArray<ReadonlyArray<{ code: string; description: string | undefined }>>, round: number) {
  const built = bundles.map((concepts, i) => {
    const body = concepts.map((c, k) => `[concept.${c.code}${k % 2 === 0 ? '' : 'X'}]\n${c.description === undefined ? '' : `description = ${JSON.stringify(c.description)}\n`}`).join('\n');
    return buildBundle(`/w/b${i}.mthds`, parseToml(`domain = "entries"\ndescription = "round ${round}"\n\n${body}`));
  });
  return createTree('/w', built).symbols.get('entries')!;
}

describe('concept entries kept across versions of a domain table', () => {
  it('equal the entries made afresh, and are shared when the concepts are the same', () => {
    let round = 0;
    fc.assert(
      fc.property(fc.array(version, { minLength: 1, maxLength: 6 }), (versions) => {
        let previous: { entries: readonly ConceptEntry[]; fresh: ConceptEntry[] } | undefined;
        for (const v of versions) {
          const table = tableOf(v, round++);
          const entries = conceptEntries('entries', table);
          const fresh = madeEntries('entries', table);
          expect(entries).toEqual(fresh);
          // Asked again for the same table: the same entries.
          expect(conceptEntries('entries', table)).toBe(entries);
          if (previous && JSON.stringify(previous.fresh) === JSON.stringify(fresh)) expect(entries).toBe(previous.entries);
          // A concept unchanged since the previous version keeps its entry (nothing made again).
          for (const e of entries) {
            const before = previous?.entries.find((p) => p.code === e.code);
            if (before && before.detail === e.detail) expect(e).toBe(before);
          }
          previous = { entries, fresh };
        }
      }),
      { numRuns: 200 },
    );
  });
});
