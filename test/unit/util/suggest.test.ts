import fc from 'fast-check';
import { distance } from 'fastest-levenshtein';
import { describe, expect, it } from 'vitest';
import { best, bestAmong, boundedDistance, NameIndex, scoredAmong, suggest, suggestAmong } from '../../../server/src/util/suggest.js';

/** The ranking as it was defined before the distance was bounded: two full distances per candidate. */
function reference(name: string, candidates: Iterable<string>, max = 5): string[] {
  const lower = name.toLowerCase();
  return [...new Set(candidates)]
    .filter((candidate) => candidate !== name)
    .map((candidate) => {
      const local = candidate.slice(candidate.lastIndexOf('.') + 1).toLowerCase();
      const d = Math.min(distance(lower, candidate.toLowerCase()), distance(lower, local) + 0.5);
      const limit = Math.max(2, Math.floor(Math.max(name.length, local.length) / 3));
      const contains = local.length >= 4 && (lower.includes(local) || local.includes(lower));
      return { candidate, kept: d <= limit || contains, score: contains ? Math.min(d, limit) : d };
    })
    .filter((s) => s.kept)
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map((s) => s.candidate);
}

/** What `run` returns, and how many candidates it scored (`NameIndex.scoreAt` calls). */
function scoreCalls<T>(run: () => T): { result: T; calls: number } {
  const original = NameIndex.prototype.scoreAt;
  let calls = 0;
  NameIndex.prototype.scoreAt = function (this: NameIndex, ...args: Parameters<NameIndex['scoreAt']>) {
    calls++;
    return original.apply(this, args);
  };
  try {
    return { result: run(), calls };
  } finally {
    NameIndex.prototype.scoreAt = original;
  }
}

const word = fc.stringMatching(/^[a-zA-Z_.]{0,14}$/);

describe('boundedDistance', () => {
  it('is the edit distance up to the limit, and limit + 1 beyond it', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 8 }), (a, b, limit) => {
        expect(boundedDistance(a, b, limit)).toBe(Math.min(distance(a, b), limit + 1));
      }),
      { seed: 17, numRuns: 2000 },
    );
  });

  it('answers far strings from their lengths', () => {
    expect(boundedDistance('ab', 'abcdefgh', 2)).toBe(3);
    expect(boundedDistance('summary', 'summary', 0)).toBe(0);
    expect(boundedDistance('summery', 'summary', 1)).toBe(1);
  });
});

describe('suggest', () => {
  it('ranks exactly as the unbounded definition does', () => {
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 12 }), fc.integer({ min: 1, max: 6 }), (name, candidates, max) => {
        expect(suggest(name, candidates, max)).toEqual(reference(name, candidates, max));
      }),
      { seed: 17, numRuns: 3000 },
    );
  });

  it('keeps near misses, qualified candidates and containing names', () => {
    expect(suggest('sumary', ['summary', 'draft', 'domain.summary'])).toEqual(['summary', 'domain.summary']);
    expect(suggest('Summary', ['summary'])).toEqual(['summary']);
    expect(suggest('write_report_summary', ['report', 'unrelated_pipe'])).toEqual(['report']);
  });
});

describe('NameIndex', () => {
  // Names of a tree: codes, some qualified with a domain (one or two dots), some long, some short.
  const code = fc.stringMatching(/^[a-zA-Z_]{0,16}$/);
  const qualified = fc.tuple(fc.stringMatching(/^[a-z_.]{0,9}$/), code).map(([d, c]) => `${d}.${c}`);
  const names = fc.array(fc.oneof(code, qualified), { maxLength: 40 });

  it('suggests exactly what the plain scan over the same names in order suggests', () => {
    fc.assert(
      fc.property(fc.oneof(code, qualified), fc.array(names, { maxLength: 4 }), fc.integer({ min: 1, max: 6 }), (name, groups, max) => {
        const indexes = groups.map((g) => new NameIndex(g));
        const expected = suggest(name, groups.flat(), max);
        expect(suggestAmong(name, indexes, max)).toEqual(expected);
        // Asked again: the kept answer is the same.
        expect(suggestAmong(name, indexes, max)).toEqual(expected);
      }),
      { seed: 23, numRuns: 3000 },
    );
  });

  it('suggests what the plain scan does among names a few edits apart (the bigram filter drops none)', () => {
    // Names made by up to five edits of one base, some qualified, with letters whose lower case is longer.
    const alphabet = fc.constantFrom('a', 'b', 'e', 'r', 't', '1', '2', '7', '.', '_', 'İ', 'ß', 'R', 'E');
    const edit = fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), alphabet);
    const variant = (base: string) => fc.array(edit, { maxLength: 5 }).map((edits) => {
      let text = base;
      for (const [at, kind, ch] of edits) {
        const i = at % (text.length + 1);
        if (kind === 'insert') text = text.slice(0, i) + ch + text.slice(i);
        else if (kind === 'delete') text = text.slice(0, i) + text.slice(i + 1);
        else text = text.slice(0, i) + ch + text.slice(i + 1);
      }
      return text;
    });
    const base = fc.constantFrom('d7.B7Report', 'B12Item', 'Report', 'd42.B1042Note', 'ab', 'summary_of_it');
    fc.assert(
      fc.property(
        base.chain((b) => fc.tuple(variant(b), fc.array(fc.array(variant(b), { maxLength: 30 }), { minLength: 1, maxLength: 3 }))),
        fc.integer({ min: 1, max: 6 }),
        ([name, groups], max) => {
          const indexes = groups.map((g) => new NameIndex(g));
          expect(suggestAmong(name, indexes, max)).toEqual(suggest(name, groups.flat(), max));
        },
      ),
      { seed: 31, numRuns: 2000 },
    );
  });

  it('gives the best candidates by their bounds as the ranking of every candidate does', () => {
    // Numbered names of one shape (a branch switch's): hundreds within the limit of each other, so
    // that the search stops early; and random names, so that it often goes through every bound.
    const numbered = fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 400 }), fc.constantFrom('Item', 'Report', 'Note', 'item')).map(([d, i, k]) => `d${d}.B${i}${k}`);
    const any = fc.oneof(numbered, numbered.map((n) => n.slice(n.indexOf('.') + 1)), code, qualified);
    fc.assert(
      fc.property(any, fc.array(fc.array(any, { maxLength: 60 }), { maxLength: 4 }), fc.integer({ min: 0, max: 17 }), (name, groups, room) => {
        const indexes = groups.map((g) => new NameIndex(g));
        const all = scoredAmong(name, indexes);
        const { kept, complete } = bestAmong(name, indexes, room);
        expect(kept).toEqual(best(all, room));
        // Complete: nothing was left out; else the answer is full (the ranking's first `room`).
        if (complete) expect(all.length).toBeLessThanOrEqual(room);
        else expect(kept.length).toBe(room);
      }),
      { seed: 47, numRuns: 3000 },
    );
  });

  it('scores a few candidates of a name among hundreds of its numbered neighbours', () => {
    // A branch switch's names: one index per domain, as a tree's tables give them.
    const names = Array.from({ length: 2000 }, (_, i) => `d${i % 100}.B${i}${i % 2 === 0 ? 'Report' : 'Item'}`);
    const indexes = Array.from({ length: 100 }, (_, d) => new NameIndex(names.filter((_, i) => i % 100 === d)));
    for (const name of ['d7.B1007Item', 'd38.B1438Report', 'B1437Item']) {
      const all = scoredAmong(name, indexes);
      // Hundreds are within the limit; the best 16 are read from far fewer.
      expect(all.length).toBeGreaterThan(250);
      const scored = scoreCalls(() => bestAmong(name, indexes, 16));
      expect(scored.result.kept).toEqual(best(all, 16));
      expect(scored.calls).toBeLessThan(all.length / 4);
    }
  });

  it('under a cap, gives exactly the near names scoring the cap at most', () => {
    const code = fc.stringMatching(/^[a-cA-C1_]{0,10}$/);
    const qualified = fc.tuple(fc.stringMatching(/^[a-c.]{0,5}$/), code).map(([d, c]) => `${d}.${c}`);
    const cap = fc.constantFrom(-Infinity, 0, 0.5, 1, 1.5, 2, 2.5, 3, 4, Infinity);
    fc.assert(
      fc.property(fc.oneof(code, qualified), fc.array(fc.oneof(code, qualified), { maxLength: 40 }), cap, (name, names, c) => {
        const index = new NameIndex(names);
        expect(index.within(name, c)).toEqual(index.within(name, Infinity).filter((s) => s.score <= c));
      }),
      { seed: 43, numRuns: 3000 },
    );
  });

  it('finds a name near a typo among many, however far the others', () => {
    const many = Array.from({ length: 3000 }, (_, i) => `d${i % 40}.Concept${i}`);
    const index = new NameIndex(['Summary', 'LongerContractClause', ...many]);
    expect(suggestAmong('Sumary', [index])).toEqual(['Summary']);
    // A code the name contains, and a code containing the name.
    expect(suggestAmong('Clause', [index])).toEqual(['LongerContractClause']);
    expect(suggestAmong('WriteTheSummaryNowPlease', [index])).toEqual(['Summary']);
    expect(suggestAmong('Concept2999', [index])[0]).toBe('d39.Concept2999');
  });
});
