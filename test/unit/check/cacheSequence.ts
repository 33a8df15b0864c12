// Random edit sequences over a tree, comparing the findings of the per-bundle check cache (the tree
// updated or patched from the previous one, as the session does) with a check from scratch after every edit:
// test/unit/check/checkCache.test.ts over generated, multi-domain and fixture trees,
// test/corpus/checkCache.test.ts over the shared corpus.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { checkTree, checkTreeSteps, createCheckCache, type Finding } from '../../../server/src/check/index.js';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { buildManifest, type Manifest } from '../../../server/src/language/manifest.js';
import type { Bundle } from '../../../server/src/language/model.js';
import { createTree, updateTree, type MethodTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';

/** Folders under `root` holding several bundles side by side: trees whose bundles read each other. */
export function bundleFolders(root: string): Record<string, string>[] {
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
  walk(root, 0);
  return out;
}

export function rng(seed: number): () => number {
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

/** Checks `bundles` incrementally (the tree patched from the previous one, as the session does) and from scratch. */
export class Checker {
  private readonly cache = createCheckCache();
  private previous: MethodTree | undefined;
  private steps = 0;

  constructor(private readonly root: string) {}

  compare(bundles: readonly Bundle[], manifest: Manifest | undefined, files: ReadonlySet<string>, label: string): Finding[] {
    const fresh = checkTree(createTree(this.root, [...bundles], manifest, files));
    const tree = this.assemble(bundles, manifest, files);
    const cached = checkTree(tree, this.cache);
    this.previous = tree;
    expect(strip(cached), label).toEqual(strip(fresh));
    return fresh;
  }

  /**
   * The tree of `bundles` as the session makes it: updated from the previous one when only
   * versions of its files changed (two times in three: the third assembles it anew from the
   * previous one, so that both ways and the passages between them are compared).
   */
  private assemble(bundles: readonly Bundle[], manifest: Manifest | undefined, files: ReadonlySet<string>): MethodTree {
    const prev = this.previous;
    const same = prev !== undefined && prev.manifest === manifest && prev.bundles.length === bundles.length && prev.bundles.every((b, i) => b.file === bundles[i]!.file) && prev.files.size === files.size && [...files].every((f) => prev.files.has(f));
    if (prev && same && this.steps++ % 3 !== 2) {
      return updateTree(prev, bundles.flatMap((bundle, index) => (bundle === prev.bundles[index] ? [] : [{ index, bundle }])));
    }
    return createTree(this.root, [...bundles], manifest, files, prev);
  }

  /** Starts a check of another version of the tree and leaves it unfinished (a newer change came). */
  abandon(bundles: readonly Bundle[], manifest: Manifest | undefined, files: ReadonlySet<string>, steps: number): void {
    const run = checkTreeSteps(this.assemble(bundles, manifest, files), this.cache, 1);
    for (let i = 0; i < steps; i++) if (run.next().done) throw new Error('the check ended before it could be left');
  }
}

// One line per finding: a difference shows as the findings that differ.
const strip = (fs: readonly Finding[]): string[] => fs.map((f) => JSON.stringify(f));

export function runSequence(files: Record<string, string>, seed: number, edits: number): void {
  const random = rng(seed);
  const root = '/virtual/cache';
  const names = Object.keys(files).filter((n) => n.endsWith('.mthds'));
  const manifestText = files['METHODS.toml'];
  const manifest = manifestText !== undefined ? buildManifest(path.join(root, 'METHODS.toml'), parseToml(manifestText)) : undefined;
  const texts = names.map((n) => files[n]!);
  const bundles: Bundle[] = names.map((n, i) => buildBundle(path.join(root, n), parseToml(texts[i]!)));
  const words = [...new Set(texts.join('\n').match(/[A-Za-z_][A-Za-z0-9_]{2,}/g) ?? [])];
  const checker = new Checker(root);
  const fileSet = new Set(Object.keys(files));
  for (let step = 0; step <= edits; step++) {
    if (step > 0) {
      const i = Math.floor(random() * names.length);
      texts[i] = mutate(texts[i]!, files[names[i]!]!, words, random);
      // Only the edited bundle is a new object, as in the language server.
      bundles[i] = buildBundle(path.join(root, names[i]!), parseToml(texts[i]!));
    }
    checker.compare(bundles, manifest, fileSet, `seed ${seed}, step ${step}`);
  }
}

