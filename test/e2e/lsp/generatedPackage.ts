// A package of generated bundles (the benchmarks' shapes, 10 domains, one in twenty broken), for
// the end-to-end tests of large trees.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempWorkspace } from './harness.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { workspaceBundle } from '../../../bench/generate.mjs';

/** A package of `count` generated bundles (10 domains); returns the folder and the bundle paths. */
export function bigPackage(count: number): { ws: string; files: string[]; texts: string[] } {
  const ws = tempWorkspace({ 'pkg/METHODS.toml': '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n' });
  const files: string[] = [];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const dir = path.join(ws, 'pkg', `group${i % 8}`);
    mkdirSync(dir, { recursive: true });
    const { text } = workspaceBundle(i, { pipes: 5, domain: `d${i % 10}` }) as { text: string };
    const file = path.join(dir, `bundle${i}.mthds`);
    writeFileSync(file, text);
    files.push(file);
    texts.push(text);
  }
  return { ws, files, texts };
}
