// Kept suggestions equal the search made afresh, after any sequence of renames: random domains of
// names, random edits of their tables (names added, removed, renamed, brought back), random names
// asked between them.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suggestKept, suggestKeptSplit } from '../../../server/src/util/keptSuggestions.js';
import { NameIndex, namesScored, suggest, suggestAmong } from '../../../server/src/util/suggest.js';

/** One table's lineage: its names and its latest index, each made after the one before. */
interface Table {
  names: string[];
  index: NameIndex;
}

function edited(table: Table, names: string[]): Table {
  return { names, index: NameIndex.after(table.index, names) };
}

describe('kept suggestions', () => {
  // Names of one shape (a domain, a code of a few letters and digits): many are a few edits apart,
  // so that an answer often has more candidates than it keeps (short codes over three letters).
  const code = fc.oneof(fc.stringMatching(/^[AB1]{1,4}$/), fc.stringMatching(/^[A-Da-d1-3]{1,6}$/));
  const tables = fc.array(fc.array(code, { maxLength: 40 }), { minLength: 1, maxLength: 5 });
  // Names every table may declare too (as natives are, beside a domain's own concepts).
  const NATIVES = ['A', 'AB', 'B1', 'A1B', 'Text'];
  // An edit of table `t`: rename its name `n` to `to`, add `to`, remove its name `n`, go back to an
  // earlier version, or take another list of names (many removed and added at once).
  const edit = fc.record({ t: fc.nat(), n: fc.nat(), to: code, kind: fc.constantFrom('rename', 'add', 'remove', 'undo', 'switch'), list: fc.array(code, { maxLength: 30 }) });
  const asked = fc.array(fc.oneof(code, fc.tuple(fc.integer({ min: 1, max: 5 }), code).map(([d, c]) => `d${d}.${c}`)), { minLength: 1, maxLength: 6 });

  // Few spare candidates kept (the server keeps 11): removals often leave too few, and additions come past the last kept.
  it('equal the search made afresh after random renames, for every max', () => {
    fc.assert(
      fc.property(tables, fc.array(fc.array(edit, { maxLength: 4 }), { minLength: 1, maxLength: 6 }), asked, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 }), (groups, steps, names, max, spare) => {
        // The natives, then table 1 bare (the asking domain's own), the others qualified with their domain.
        const qualify = (t: number, list: string[]): string[] => (t <= 1 ? list : list.map((n) => `d${t}.${n}`));
        const natives = { names: NATIVES, index: new NameIndex(NATIVES) };
        let state: Table[] = [natives, ...groups.map((g, t) => ({ names: qualify(t + 1, g), index: new NameIndex(qualify(t + 1, g)) }))];
        const history: Table[][] = [state];
        const scope = `test ${JSON.stringify(groups)}`;
        const check = (): void => {
          for (const name of names) {
            const indexes = state.map((t) => t.index);
            const fresh = suggestAmong(name, state.map((t) => new NameIndex(t.names)), max);
            expect(suggestKept(name, indexes, scope, max, spare)).toEqual(fresh);
            expect(fresh).toEqual(suggest(name, state.flatMap((t) => t.names), max));
          }
        };
        check();
        for (const step of steps) {
          let next = [...state];
          for (const { t, n, to, kind, list: other } of step) {
            const at = 1 + (t % (next.length - 1));
            const table = next[at]!;
            const list = [...table.names];
            const name = qualify(at, [to])[0]!;
            if (kind === 'undo') {
              // Back to an earlier version's names (a branch switched back), made after the latest.
              const earlier = history[n % history.length]![at]!;
              next[at] = edited(table, [...earlier.names]);
              continue;
            }
            if (kind === 'switch') {
              next[at] = edited(table, [...new Set(qualify(at, other))]);
              continue;
            }
            if (kind === 'remove' && list.length > 0) list.splice(n % list.length, 1);
            else if (kind === 'rename' && list.length > 0) list[n % list.length] = name;
            else list.push(name);
            next[at] = edited(table, [...new Set(list)]);
          }
          state = next;
          history.push(state);
          check();
        }
      }),
      { seed: 41, numRuns: 600 },
    );
  });

  it('go through the names that changed only, not the tables', () => {
    const domains = Array.from({ length: 50 }, (_, d) => Array.from({ length: 40 }, (_, i) => `d${d}.B${d * 40 + i}Item`));
    let indexes = domains.map((names) => new NameIndex(names));
    const asked = Array.from({ length: 100 }, (_, k) => `d${k % 50}.B${k * 7}Report`);
    const first = asked.map((name) => suggestKept(name, indexes, 'c d0'));
    // Rename a concept in each of 10 domains: the answers follow, without a search.
    const renamed = domains.map((names, d) => (d % 5 === 0 ? names.map((n, i) => (i === 3 ? n.replace('Item', 'Report') : n)) : names));
    indexes = indexes.map((index, d) => (d % 5 === 0 ? NameIndex.after(index, renamed[d]!) : index));
    const before = namesScored();
    const second = asked.map((name) => suggestKept(name, indexes, 'c d0'));
    // Each answer went through the 10 names added, not the 2,000 of the tables.
    expect(namesScored() - before).toBe(asked.length * 10);
    expect(second).toEqual(asked.map((name) => suggest(name, renamed.flat())));
    expect(second).not.toEqual(first);
  });

  // Asked from the bundles of several domains: each sees its own domain's codes bare and the
  // others' qualified; the qualified part of the answer is kept once for all of them.
  it('asked from several domains, equal the search made afresh over what each domain sees', () => {
    const domainNames = fc.array(fc.array(code, { maxLength: 25 }), { minLength: 1, maxLength: 6 });
    const rename = fc.record({ t: fc.nat(), n: fc.nat(), to: code, kind: fc.constantFrom('rename', 'add', 'remove', 'switch'), list: fc.array(code, { maxLength: 20 }) });
    const askedFrom = fc.array(fc.tuple(fc.nat(), fc.oneof(code, fc.tuple(fc.integer({ min: 0, max: 6 }), code).map(([d, c]) => `d${d}.${c}`))), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(domainNames, fc.array(fc.array(rename, { maxLength: 3 }), { maxLength: 4 }), askedFrom, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 }), (groups, steps, asks, max, spare) => {
        const NATIVE_INDEX = new NameIndex(NATIVES);
        let names = groups.map((g) => [...new Set(g)]);
        let bare = names.map((list) => new NameIndex(list));
        let qualified = names.map((list, d) => new NameIndex(list.map((n) => `d${d}.${n}`)));
        const scope = `split ${JSON.stringify(groups)} ${max} ${spare}`;
        const check = (): void => {
          for (const [from, name] of asks) {
            const h = from % names.length;
            const visible = [...NATIVES, ...names[h]!, ...names.flatMap((list, d) => (d === h ? [] : list.map((n) => `d${d}.${n}`)))];
            const split = { own: [NATIVE_INDEX, bare[h]!], shared: qualified, hidden: { domain: `d${h}`, index: qualified[h] } };
            expect(suggestKeptSplit(name, split, `${scope} d${h}`, `${scope} *`, max, spare)).toEqual(suggest(name, visible, max));
          }
        };
        check();
        for (const step of steps) {
          const next = names.map((list) => [...list]);
          for (const { t, n, to, kind, list } of step) {
            const at = t % next.length;
            const own = next[at]!;
            if (kind === 'switch') next[at] = [...list];
            else if (kind === 'remove' && own.length > 0) own.splice(n % own.length, 1);
            else if (kind === 'rename' && own.length > 0) own[n % own.length] = to;
            else own.push(to);
            next[at] = [...new Set(next[at])];
          }
          bare = next.map((list, d) => NameIndex.after(bare[d], list));
          qualified = next.map((list, d) => NameIndex.after(qualified[d], list.map((c) => `d${d}.${c}`)));
          names = next;
          check();
        }
      }),
      { seed: 43, numRuns: 600 },
    );
  });

  it('search the names every domain shares once for a name asked from several domains', () => {
    const domains = Array.from({ length: 50 }, (_, d) => Array.from({ length: 40 }, (_, i) => `B${d * 40 + i}Item`));
    const bare = domains.map((names) => new NameIndex(names));
    const qualified = domains.map((names, d) => new NameIndex(names.map((n) => `d${d}.${n}`)));
    const natives = new NameIndex(NATIVES);
    const visibleFrom = (h: number): string[] => [...NATIVES, ...domains[h]!, ...domains.flatMap((names, d) => (d === h ? [] : names.map((n) => `d${d}.${n}`)))];
    const asked = 'd7.B285Report';
    let before = namesScored();
    expect(suggestKeptSplit(asked, { own: [natives, bare[3]!], shared: qualified, hidden: { domain: 'd3', index: qualified[3] } }, 'c d3', 'c *')).toEqual(suggest(asked, visibleFrom(3)));
    const first = namesScored() - before;
    before = namesScored();
    expect(suggestKeptSplit(asked, { own: [natives, bare[4]!], shared: qualified, hidden: { domain: 'd4', index: qualified[4] } }, 'c d4', 'c *')).toEqual(suggest(asked, visibleFrom(4)));
    // The second domain searched its own names only (the natives and its 40 codes), not the 2,000 qualified.
    expect(first).toBeGreaterThan(2000);
    expect(namesScored() - before).toBe(NATIVES.length + 40);
  });
});
