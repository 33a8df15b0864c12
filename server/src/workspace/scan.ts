// Listing what an editor session has to know about on disk: every method file (bundles,
// manifests and lock files) below a workspace folder, and the bundles of one folder.

import path from 'node:path';
import { LOCK_FILE, MANIFEST_FILE } from '../language/spec/manifest.js';
import { runSteps } from '../util/steps.js';
import { MAX_PACKAGE_FILES, folderFault, isBundlePath, walkFiles, walkFilesSteps, type UnreadableFolder } from './discover.js';
import type { FileSystem } from './fileSystem.js';

export function isMethodFile(file: string): boolean {
  const base = path.basename(file);
  return isBundlePath(file) || base === MANIFEST_FILE || base === LOCK_FILE;
}

/**
 * Every bundle and manifest below `root` (symbolic links not followed), sorted, the folders that
 * could not be read, and the method files that are links or not regular files (skipped).
 */
export function scanMethodFiles(fs: FileSystem, root: string, limit = MAX_PACKAGE_FILES): MethodFileScan {
  return runSteps(scanMethodFilesSteps(fs, root, limit));
}

/**
 * What scanMethodFiles finds, and whether the walk stopped at `limit` files (of any kind): a
 * folder holding far more files than a method tree can (the home folder, `/`) is not walked whole.
 */
export interface MethodFileScan {
  files: string[];
  unreadable: UnreadableFolder[];
  skipped: string[];
  truncated: boolean;
}

/** scanMethodFiles in steps (see walkFilesSteps), for a caller that serves other work meanwhile. */
export function* scanMethodFilesSteps(fs: FileSystem, root: string, limit = MAX_PACKAGE_FILES): Generator<void, MethodFileScan> {
  const walked = yield* walkFilesSteps(fs, root, { limit });
  const wanted = (f: string): boolean => isBundlePath(f) || path.basename(f) === MANIFEST_FILE;
  // Method files met as links (not followed) or as FIFOs and devices (never read): named, not passed over.
  const skipped = [...walked.links, ...walked.special].filter(wanted).sort();
  return { files: walked.files.filter(wanted), unreadable: walked.unreadable, skipped, truncated: walked.truncated };
}

/** The files directly in `dir` (not below): bundles, every name for resource lookups, and the bundles skipped (links, FIFOs). */
export function listFolderFiles(fs: FileSystem, dir: string): { bundles: string[]; names: string[]; unreadable?: UnreadableFolder; links?: string[]; special?: string[] } {
  let entries;
  try {
    entries = fs.readFolder(dir);
  } catch (error) {
    return { bundles: [], names: [], unreadable: { dir, message: folderFault(error) } };
  }
  const names = entries.filter((e) => e.kind === 'file').map((e) => e.name).sort();
  const out: ReturnType<typeof listFolderFiles> = { bundles: names.filter((n) => isBundlePath(n)).map((n) => path.join(dir, n)), names };
  // Bundles met as links or FIFOs: reported by the caller, never read.
  const skipped = entries.filter((e) => e.kind !== 'file' && e.kind !== 'directory' && isBundlePath(e.name));
  if (skipped.length > 0) {
    out.links = skipped.filter((e) => e.kind === 'link').map((e) => path.join(dir, e.name));
    out.special = skipped.filter((e) => e.kind !== 'link').map((e) => path.join(dir, e.name));
  }
  return out;
}

/**
 * Whether the folders hold at least `count` bundles, found by walks bounded to a few times that
 * many files (a folder of other files stops the walk early): cheap enough to ask at start-up.
 */
export function holdsBundles(fs: FileSystem, roots: readonly string[], count: number): boolean {
  let found = 0;
  for (const root of roots) {
    found += walkFiles(fs, root, { limit: count * 4 }).files.filter((f) => isBundlePath(f)).length;
    if (found >= count) return true;
  }
  return false;
}

