// The per-bundle check cache (what the language server uses between keystrokes) must give exactly
// the findings of a check from scratch: random edit sequences over multi-bundle trees, comparing
// both after every edit.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTree, createCheckCache } from '../../../server/src/check/index.js';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { buildManifest } from '../../../server/src/language/manifest.js';
import type { Bundle } from '../../../server/src/language/model.js';
import { createTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { generateTree } from '../../../bench/generate.mjs';

const REPO = path.resolve(__dirname, '../../..');
const CORPUS = path.resolve(REPO, '../shared/corpus');

/** Folders holding several bundles side by side: trees whose bundles read each other. */
function corpusTrees(): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 6) return;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    const bundles = names.filter((n) => n.endsWith('.mthds'));
    if (bundles.length >= 3) out.push(Object.fromEntries(bundles.map((n) => [n, readFileSync(path.join(dir, n), 'utf8')])));
    for (const n of names) if (statSync(path.join(dir, n)).isDirectory()) walk(path.join(dir, n), depth + 1);
  };
  walk(CORPUS, 0);
  return out;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One edit of a bundle text: the kinds of change typing makes, renames of codes included. */
function mutate(text: string, original: string, words: readonly string[], random: () => number): string {
  const lines = text.split('\n');
  const at = Math.floor(random() * lines.length);
  const word = words[Math.floor(random() * words.length)] ?? 'x';
  switch (Math.floor(random() * 6)) {
    case 0:
      lines.splice(at, 1);
      return lines.join('\n');
    case 1:
      lines.splice(at, 0, lines[at] ?? '');
      return lines.join('\n');
    case 2: {
      // Replace one identifier-like word of a line with a word of the tree (renames, retypes).
      const line = lines[at] ?? '';
      const matches = [...line.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)];
      const m = matches[Math.floor(random() * matches.length)];
      if (m?.index !== undefined) lines[at] = line.slice(0, m.index) + word + line.slice(m.index + m[0].length);
      return lines.join('\n');
    }
    case 3: {
      const line = lines[at] ?? '';
      const cut = Math.floor(random() * (line.length + 1));
      lines[at] = line.slice(0, cut) + (random() < 0.5 ? '' : word) + line.slice(cut + Math.floor(random() * 3));
      return lines.join('\n');
    }
    case 4:
      return original;
    default:
      return `${text}\n[pipe.${word.toLowerCase()}_x]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { text = "Text" }\noutput = "${word}"\nprompt = "@text"\n`;
  }
}

function runSequence(files: Record<string, string>, seed: number, edits: number): void {
  const random = rng(seed);
  const root = '/virtual/cache';
  const names = Object.keys(files).filter((n) => n.endsWith('.mthds'));
  const manifestText = files['METHODS.toml'];
  const manifest = manifestText !== undefined ? buildManifest(path.join(root, 'METHODS.toml'), parseToml(manifestText)) : undefined;
  const texts = names.map((n) => files[n]!);
  const bundles: Bundle[] = names.map((n, i) => buildBundle(path.join(root, n), parseToml(texts[i]!)));
  const words = [...new Set(texts.join('\n').match(/[A-Za-z_][A-Za-z0-9_]{2,}/g) ?? [])];
  const cache = createCheckCache();
  const fileSet = new Set(Object.keys(files));
  for (let step = 0; step <= edits; step++) {
    if (step > 0) {
      const i = Math.floor(random() * names.length);
      texts[i] = mutate(texts[i]!, files[names[i]!]!, words, random);
      // Only the edited bundle is a new object, as in the language server.
      bundles[i] = buildBundle(path.join(root, names[i]!), parseToml(texts[i]!));
    }
    const cached = checkTree(createTree(root, [...bundles], manifest, fileSet), cache);
    const fresh = checkTree(createTree(root, [...bundles], manifest, fileSet));
    const strip = (fs: typeof fresh): string => JSON.stringify(fs.map((f) => ({ ...f, fix: f.fix, alternatives: f.alternatives })));
    expect(strip(cached), `seed ${seed}, step ${step}`).toBe(strip(fresh));
  }
}

describe('the per-bundle check cache', () => {
  it('gives the findings of a fresh check after every edit, on generated trees', () => {
    const files = generateTree(120, 8) as Record<string, string>;
    for (let seed = 1; seed <= 4; seed++) runSequence(files, seed, 60);
  });

  it('gives the findings of a fresh check after every edit, on corpus folders', () => {
    const trees = corpusTrees();
    expect(trees.length).toBeGreaterThan(0);
    trees.slice(0, 12).forEach((files, i) => runSequence(files, 100 + i, 40));
  });

  it('re-checks a bundle when a declaration it reads changes inside, its code unchanged', () => {
    const root = '/virtual/reads';
    const callee = (output: string): Bundle => buildBundle(`${root}/a.mthds`, parseToml(`domain = "d"\n[concept.Summary]\ndescription = "s"\n[pipe.summarize]\ntype = "PipeLLM"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "${output}"\nprompt = "@text"\n`));
    const caller = buildBundle(`${root}/b.mthds`, parseToml('domain = "d"\n[pipe.run]\ntype = "PipeSequence"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "Summary"\nsteps = [{ pipe = "summarize", result = "s" }]\n'));
    const cache = createCheckCache();
    // The findings of the caller's file: it only reads `summarize` through resolution.
    const codes = (a: Bundle): string[] => checkTree(createTree(root, [a, caller]), cache).filter((f) => f.file === caller.file).map((f) => f.code);
    expect(codes(callee('Summary'))).toEqual([]);
    // Same codes everywhere (same shape); only what `run` reads of `summarize` changed.
    expect(codes(callee('Image'))).toContain('method.output_concept_mismatch');
    expect(codes(callee('Summary'))).toEqual([]);
  });
});
