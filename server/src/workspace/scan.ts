// Listing what an editor session has to know about on disk: every method file (bundles,
// manifests and lock files) below a workspace folder, and the bundles of one folder.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { LOCK_FILE, MANIFEST_FILE } from '../language/spec/manifest.js';
import { isBundlePath, walkFiles } from './discover.js';

export function isMethodFile(file: string): boolean {
  const base = path.basename(file);
  return isBundlePath(file) || base === MANIFEST_FILE || base === LOCK_FILE;
}

/** Every bundle and manifest below `root` (symbolic links not followed), sorted. */
export function listMethodFiles(root: string, limit = 100_000): string[] {
  return walkFiles(root, { limit }).files.filter((f) => isBundlePath(f) || path.basename(f) === MANIFEST_FILE);
}

/** The files directly in `dir` (not below): bundles, and every name for resource lookups. */
export function listFolderFiles(dir: string): { bundles: string[]; names: string[] } {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { bundles: [], names: [] };
  }
  const names = entries.filter((e) => e.isFile()).map((e) => e.name).sort();
  return { bundles: names.filter((n) => isBundlePath(n)).map((n) => path.join(dir, n)), names };
}
