// The project's own test material (test/fixtures/, examples/) and one walker over folders, for the
// tests that sweep many documents. The shared corpus has its own entry: test/corpus/shared.ts.

import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(REPO, 'test/fixtures');
/** Bundles written for the tests: every pipe type the runner runs, packages, structures. All check clean. */
export const FIXTURE_BUNDLES = path.join(FIXTURES, 'bundles');
/** TOML documents written for the tests: every kind of value and table. */
export const FIXTURE_TOML = path.join(FIXTURES, 'toml');
export const EXAMPLES = path.join(REPO, 'examples');

/** Every file under `dir` (recursively) whose name ends with `suffix`, sorted; none when it is absent. */
export function filesUnder(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, suffix));
    else if (name.endsWith(suffix)) out.push(full);
  }
  return out;
}
