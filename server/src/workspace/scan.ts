// Listing what an editor session has to know about on disk: every method file (bundles and
// manifests) below a workspace folder, and the bundles of one folder.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { isBundlePath } from './discover.js';

/** Folders never searched (the same as the command line's, plus build outputs editors hold). */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv']);

export function isMethodFile(file: string): boolean {
  return isBundlePath(file) || path.basename(file) === MANIFEST_FILE;
}

/** Every bundle and manifest below `root` (symbolic links not followed), sorted. */
export function listMethodFiles(root: string, limit = 100_000): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 64 || out.length >= limit) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.isSymbolicLink()) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(full, depth + 1);
      } else if (entry.isFile() && isMethodFile(full)) out.push(full);
    }
  };
  walk(root, 0);
  return out;
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
