// Assembling a tree of many bundles, or updating many of them, in steps (language/tree.ts
// createTreeSteps, updateTreeSteps): a check in slices yields between them, and the tables are the
// ones built at once.

import { expect, it } from 'vitest';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { buildSymbols, createTree, createTreeSteps, updateTreeSteps } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { workspaceBundle } from '../../../bench/generate.mjs';
import { runCounted } from '../../helpers/runCounted.js';

const generated = workspaceBundle as (i: number, o: { pipes: number; domain: string }) => { text: string };

it('assembles a tree of 500 bundles in several steps, with the tables built at once', () => {
  const bundles = Array.from({ length: 500 }, (_, i) => buildBundle(`/t/b${i}.mthds`, parseToml(generated(i, { pipes: 3, domain: `d${i % 7}` }).text)));
  const { pauses: count, value: tree } = runCounted(createTreeSteps('/t', bundles));
  expect(count).toBeGreaterThanOrEqual(7);
  expect(tree.bundles).toBe(bundles);
  const expected = buildSymbols(bundles);
  expect([...tree.symbols.keys()]).toEqual([...expected.keys()]);
  for (const [domain, t] of expected) {
    expect([...tree.symbols.get(domain)!.concepts]).toEqual([...t.concepts]);
    expect([...tree.symbols.get(domain)!.pipes]).toEqual([...t.pipes]);
  }
});

it('patches the tables of 200 changed bundles in several steps, as built at once', () => {
  const bundles = Array.from({ length: 400 }, (_, i) => buildBundle(`/t/b${i}.mthds`, parseToml(generated(i, { pipes: 3, domain: `d${i % 7}` }).text)));
  const tree = createTree('/t', bundles);
  const replaced = Array.from({ length: 200 }, (_, k) => {
    const i = k * 2;
    return { index: i, bundle: buildBundle(`/t/b${i}.mthds`, parseToml(generated(i, { pipes: 3, domain: `d${i % 7}` }).text.replace('description = "', 'description = "changed '))) };
  });
  const { pauses: count, value: done } = runCounted(updateTreeSteps(tree, replaced));
  expect(count).toBeGreaterThanOrEqual(6);
  const after = bundles.slice();
  for (const { index, bundle } of replaced) after[index] = bundle;
  expect(done.bundles).toEqual(after);
  const expected = buildSymbols(after);
  for (const [domain, t] of expected) {
    expect([...done.symbols.get(domain)!.concepts]).toEqual([...t.concepts]);
    expect([...done.symbols.get(domain)!.pipes]).toEqual([...t.pipes]);
  }
});
