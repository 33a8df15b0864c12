// Random edit sequences over a tree, comparing the findings of the per-bundle check cache with a
// check from scratch after every edit (test/unit/check/checkCache.test.ts over generated trees and
// fixture folders, test/corpus/checkCache.test.ts over the shared corpus).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { checkTree, createCheckCache } from '../../../server/src/check/index.js';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { buildManifest } from '../../../server/src/language/manifest.js';
import type { Bundle } from '../../../server/src/language/model.js';
import { createTree } from '../../../server/src/language/tree.js';
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

export function runSequence(files: Record<string, string>, seed: number, edits: number): void {
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
