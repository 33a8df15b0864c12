// The index of a tree's occurrences by key (definition, references, highlight, rename): a tree made
// from the one indexed before (an edit of a few bundles) is indexed from it, and must answer as an
// index built from scratch, after every edit of a random sequence.

import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import type { Bundle } from '../../../server/src/language/model.js';
import { occurrencesOf, type Occurrence } from '../../../server/src/ide/occurrences.js';
import { treeIndex } from '../../../server/src/ide/symbolIndex.js';
import { createTree, updateTree, type MethodTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';
import { rng } from '../check/cacheSequence.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { workspaceBundle } from '../../../bench/generate.mjs';

const generated = workspaceBundle as (i: number, o: { pipes: number; domain: string }) => { text: string };

/** One edit: typing in a description, a reference retargeted, or a declaration renamed. */
function edit(text: string, random: () => number, others: readonly string[]): string {
  switch (Math.floor(random() * 4)) {
    case 0:
      return text.replace('description = "', `description = "${'x'.repeat(1 + Math.floor(random() * 3))}`);
    case 1: {
      // Point an output at a concept of another bundle (or at nothing).
      const target = random() < 0.7 ? others[Math.floor(random() * others.length)]! : 'Missing';
      return text.replace(/output = "[^"]*"/, `output = "${target}"`);
    }
    case 2:
      return text.replace(/\[concept\.(\w+)\]/, (_m, code: string) => `[concept.${code}X]`);
    default:
      return text.replace(/output = "[^"]*"/, 'output = "Text"');
  }
}

const shown = (os: readonly Occurrence[] | undefined): string[] => (os ?? []).map((o) => `${o.file}@${o.range.start}-${o.range.end} ${o.kind} ${o.role}`);

describe('the index of a tree by key', () => {
  it('answers as one built from scratch after every edit, the tree updated or remade', () => {
    const count = 60;
    const texts = Array.from({ length: count }, (_, i) => generated(i, { pipes: 3, domain: `d${i % 4}` }).text);
    const build = (i: number): Bundle => buildBundle(`/ws/b${i}.mthds`, parseToml(texts[i]!));
    let tree: MethodTree = createTree('/ws', texts.map((_, i) => build(i)));
    treeIndex(tree);
    const concepts = [...new Set(texts.join('\n').match(/B\d+Thing\d/g) ?? [])];
    const seen = new Set<string>();
    const random = rng(7);
    for (let step = 0; step < 80; step++) {
      const changed = Array.from({ length: 1 + Math.floor(random() * 2) }, () => Math.floor(random() * count));
      for (const i of changed) texts[i] = edit(texts[i]!, random, concepts);
      const replaced = [...new Set(changed)].map((index) => ({ index, bundle: build(index) }));
      // As the session makes it (updated), or as a view of open buffers does (a copy with other bundles).
      if (random() < 0.7) tree = updateTree(tree, replaced);
      else {
        const bundles = tree.bundles.slice();
        for (const r of replaced) bundles[r.index] = r.bundle;
        tree = { ...tree, bundles };
        tree.symbols = createTree(tree.root, bundles).symbols;
      }
      const fresh = createTree(`/fresh${step}`, [...tree.bundles]);
      const expected = new Map<string, Occurrence[]>();
      for (const b of fresh.bundles) for (const o of occurrencesOf(fresh, b)) expected.set(o.key, [...(expected.get(o.key) ?? []), o]);
      for (const key of expected.keys()) seen.add(key);
      const index = treeIndex(tree);
      for (const key of seen) expect(shown(index.byKey.get(key)), `step ${step}, ${key}`).toEqual(shown(expected.get(key)));
      for (const b of tree.bundles) expect(index.bundleOf.get(b.file)).toBe(b);
    }
  });
});

describe('the index of an edited tree', () => {
  it('keeps the lists of the keys the edit does not touch', () => {
    const texts = Array.from({ length: 40 }, (_, i) => generated(i, { pipes: 3, domain: `d${i % 4}` }).text);
    const tree = createTree('/kept', texts.map((t, i) => buildBundle(`/kept/b${i}.mthds`, parseToml(t))));
    const before = treeIndex(tree);
    const edited = buildBundle('/kept/b5.mthds', parseToml(texts[5]!.replace('description = "', 'description = "typed ')));
    const after = treeIndex(updateTree(tree, [{ index: 5, bundle: edited }]));
    const mentioned = new Set(occurrencesOf(tree, edited).map((o) => o.key));
    const other = occurrencesOf(tree, tree.bundles[20]!).find((o) => !mentioned.has(o.key))!;
    expect(after.byKey.get(other.key)).toBe(before.byKey.get(other.key));
    // The edited bundle's own keys are made again, with its new ranges.
    const own = occurrencesOf(tree, edited).find((o) => o.role === 'declaration' && o.kind === 'pipe')!;
    expect(after.byKey.get(own.key)!.some((o) => o.file === edited.file && o.range.start === own.range.start)).toBe(true);
  });
});
