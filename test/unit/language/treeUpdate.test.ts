// A tree updated after an edit (language/tree.ts updateTree) has the symbol tables a tree built
// from scratch has, order included, whatever the edit declares.

import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { createTree, updateTree, type MethodTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';
import { rng } from '../check/cacheSequence.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { workspaceBundle } from '../../../bench/generate.mjs';

const generated = workspaceBundle as (i: number, o: { pipes: number; domain: string }) => { text: string };

/** The tables as lists (domains, codes and declarations in order; a declaration by its file and place). */
function tables(tree: MethodTree): unknown {
  const where = (d: { bundle: { file: string; concepts: readonly unknown[]; pipes: readonly unknown[] } }, list: 'concepts' | 'pipes'): string => `${d.bundle.file}#${d.bundle[list].indexOf(d)}`;
  return [...tree.symbols].map(([domain, t]) => [domain, [...t.concepts].map(([code, ds]) => [code, ds.map((d) => where(d, 'concepts'))]), [...t.pipes].map(([code, ds]) => [code, ds.map((d) => where(d, 'pipes'))])]);
}

function edit(text: string, random: () => number, i: number): string {
  switch (Math.floor(random() * 7)) {
    case 5:
      // Into a new domain, or out of every domain, and back.
      return /^domain = /m.test(text) ? text.replace(/^domain = "[^"]*"\n/m, random() < 0.5 ? '' : `domain = "n${Math.floor(random() * 2)}"\n`) : `domain = "d${Math.floor(random() * 4)}"\n${text}`;
    case 6:
      // The first bundle of a domain leaves it: the domains' order changes.
      return i < 8 ? text.replace(/^domain = "[^"]*"/m, `domain = "d${Math.floor(random() * 4)}"`) : text;
    case 0:
      return text.replace(/\[pipe\.(\w+)\]/, (_m, code: string) => `[pipe.${code}z]`);
    case 1:
      return text.replace(/\[concept\.(\w+)\]/, (_m, code: string) => `[concept.Shared${Math.floor(random() * 3)}]`);
    case 2:
      return `${text}\n[pipe.extra${i % 3}]\ntype = "PipeLLM"\ndescription = "e"\ninputs = { text = "Text" }\noutput = "Text"\nprompt = "@text"\n`;
    case 3:
      return text.replace('description = "', 'description = "typed ');
    default:
      return text.replace(/^domain = "[^"]*"/m, `domain = "d${Math.floor(random() * 4)}"`);
  }
}

describe('a bundle moved to another domain', () => {
  it('makes again the tables of the two domains alone', () => {
    const texts = Array.from({ length: 200 }, (_, i) => generated(i, { pipes: 3, domain: `d${i % 20}` }).text);
    const first = createTree('/t', texts.map((t, i) => buildBundle(`/t/b${i}.mthds`, parseToml(t))));
    const moved = buildBundle('/t/b45.mthds', parseToml(texts[45]!.replace('domain = "d5"', 'domain = "d7"')));
    const tree = updateTree(first, [{ index: 45, bundle: moved }]);
    for (const [domain, table] of tree.symbols) {
      if (domain === 'd5' || domain === 'd7') expect(table).not.toBe(first.symbols.get(domain));
      else expect(table, domain).toBe(first.symbols.get(domain));
    }
    expect(tables(tree)).toEqual(tables(createTree('/fresh', [...tree.bundles])));
    // Into a new domain, then back.
    const away = updateTree(tree, [{ index: 45, bundle: buildBundle('/t/b45.mthds', parseToml(texts[45]!.replace('domain = "d5"', 'domain = "elsewhere"'))) }]);
    expect(tables(away)).toEqual(tables(createTree('/fresh', [...away.bundles])));
    expect(away.symbols.get('d9')).toBe(first.symbols.get('d9'));
  });
});

describe('an updated tree', () => {
  it('has the symbol tables of a tree built from scratch after every edit', () => {
    const texts = Array.from({ length: 40 }, (_, i) => generated(i, { pipes: 3, domain: `d${i % 4}` }).text);
    const build = (i: number) => buildBundle(`/t/b${i}.mthds`, parseToml(texts[i]!));
    let tree = createTree('/t', texts.map((_, i) => build(i)));
    const random = rng(11);
    for (let step = 0; step < 150; step++) {
      const i = Math.floor(random() * texts.length);
      texts[i] = edit(texts[i]!, random, i);
      const before = tables(tree);
      const previous = tree;
      tree = updateTree(tree, [{ index: i, bundle: build(i) }]);
      expect(tables(tree), `step ${step}`).toEqual(tables(createTree('/fresh', [...tree.bundles])));
      // The previous tree keeps its own tables.
      expect(tables(previous)).toEqual(before);
    }
  });
});
