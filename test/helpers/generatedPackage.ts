// A package of many bundles on disk for the tests of large trees: the benchmarks' generated
// shapes (10 domains) unless `text` says otherwise, spread over `folders` folders.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error: a plain ES module of the benchmarks
import { workspaceBundle } from '../../bench/generate.mjs';

export const PACKAGE_MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';

/** The generated bundle number `i` (the benchmarks' shapes, 10 domains). */
export function generatedBundle(i: number): string {
  return (workspaceBundle(i, { pipes: 5, domain: `d${i % 10}` }) as { text: string }).text;
}

/** A package of `count` bundles in `folders` folders (`group0`, ...); its folder, files and texts. */
export function generatedPackage(count: number, options: { folders?: number; text?: (i: number) => string } = {}): { dir: string; files: string[]; texts: string[] } {
  const { folders = 1, text = generatedBundle } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-generated-'));
  writeFileSync(path.join(dir, 'METHODS.toml'), PACKAGE_MANIFEST);
  for (let f = 0; f < folders; f++) mkdirSync(path.join(dir, `group${f}`));
  const files: string[] = [];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `group${i % folders}`, `bundle${i}.mthds`);
    const t = text(i);
    writeFileSync(file, t);
    files.push(file);
    texts.push(t);
  }
  return { dir, files, texts };
}
