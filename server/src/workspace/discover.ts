// Finding method trees on disk: the nearest METHODS.toml at or above a file, the packages below a
// folder, and the files of a tree.

import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE } from '../language/spec/manifest.js';

export const BUNDLE_EXTENSION = '.mthds';
/**
 * Folders never searched for method files. `.mthds` holds installed methods and packages: they are
 * dependencies, found by workspace/dependencies.ts, never part of the user's own tree.
 */
export const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', '.mthds']);

/** The folder of the nearest METHODS.toml at or above `dir`, stopping at a repository root. */
export function findPackageRoot(dir: string): string | undefined {
  let current = path.resolve(dir);
  for (;;) {
    if (existsSync(path.join(current, MANIFEST_FILE))) return current;
    if (existsSync(path.join(current, '.git'))) return undefined;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

export interface TreeFiles {
  /** Every file below the root (absolute paths), nested packages excluded. */
  files: string[];
  /** Folders below the root that are packages of their own (they hold a METHODS.toml). */
  nestedPackages: string[];
  /** Symbolic links met (not followed). */
  links: string[];
  /** True when the walk stopped at the file limit. */
  truncated: boolean;
}

/**
 * The files below `root`, sorted, symbolic links not followed, tool folders skipped. A folder for
 * which `stopAt` holds is listed in `stopped` and not entered.
 */
export function walkFiles(root: string, options: { limit?: number; stopAt?: (dir: string) => boolean } = {}): { files: string[]; stopped: string[]; links: string[]; truncated: boolean } {
  const limit = options.limit ?? 100_000;
  const files: string[] = [];
  const stopped: string[] = [];
  const links: string[] = [];
  let truncated = false;
  const walk = (dir: string, depth: number): void => {
    if (depth > 64) return;
    if (files.length >= limit) {
      truncated = true;
      return;
    }
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      // Symbolic links are not followed: a tree is what lies inside its folder.
      if (entry.isSymbolicLink()) {
        links.push(full);
        continue;
      }
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        if (options.stopAt?.(full)) stopped.push(full);
        else walk(full, depth + 1);
      } else if (entry.isFile()) {
        if (files.length >= limit) {
          truncated = true;
          return;
        }
        files.push(full);
      }
    }
  };
  walk(root, 0);
  return { files, stopped, links, truncated };
}

/** Lists the files of the tree rooted at `root`; a sub-folder holding a METHODS.toml is its own tree. */
export function listTreeFiles(root: string, limit = 100_000): TreeFiles {
  const { files, stopped, links, truncated } = walkFiles(root, { limit, stopAt: (dir) => existsSync(path.join(dir, MANIFEST_FILE)) });
  return { files, nestedPackages: stopped, links, truncated };
}

export function isBundlePath(file: string): boolean {
  return file.endsWith(BUNDLE_EXTENSION);
}

/** The names of the folders directly inside `dir` (symbolic links excluded); none when unreadable. */
export function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
