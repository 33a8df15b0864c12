// Finding method trees on disk: the nearest METHODS.toml at or above a file, the packages below a
// folder, and the files of a tree.

import path from 'node:path';
import type { FileSystem } from './fileSystem.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { SKIPPED_FOLDERS } from '../language/spec/folders.js';
import { runSteps } from '../util/steps.js';

export const BUNDLE_EXTENSION = '.mthds';
/** The most files a method tree holds (a package with more is refused); also the bound of a workspace folder's walk. */
export const MAX_PACKAGE_FILES = 100_000;

/** The folder of the nearest METHODS.toml at or above `dir`, stopping at a repository root. */
export function findPackageRoot(fs: FileSystem, dir: string): string | undefined {
  let current = path.resolve(dir);
  for (;;) {
    if (fs.exists(path.join(current, MANIFEST_FILE))) return current;
    if (fs.exists(path.join(current, '.git'))) return undefined;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Why a folder could not be listed, in words for a finding's message. */
export function folderFault(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EACCES' || code === 'EPERM' ? 'cannot be read (permission denied)' : `cannot be read (${code ?? 'unknown error'})`;
}

export interface UnreadableFolder {
  dir: string;
  message: string;
}

export interface TreeFiles {
  /** Every file below the root (absolute paths), nested packages excluded. */
  files: string[];
  /** Folders below the root that are packages of their own (they hold a METHODS.toml). */
  nestedPackages: string[];
  /** Symbolic links met (not followed). */
  links: string[];
  /** Entries that are neither files, folders nor links (FIFOs, sockets, devices): never read. */
  special: string[];
  /** Folders whose entries could not be read: what they hold is unknown, never silently nothing. */
  unreadable: UnreadableFolder[];
  /** True when the walk stopped at the file limit. */
  truncated: boolean;
}

type Walked = { files: string[]; stopped: string[]; links: string[]; special: string[]; unreadable: UnreadableFolder[]; truncated: boolean };

/** How many entries of a folder a walk in steps goes through between two pauses. */
const ENTRIES_PER_STEP = 256;

/**
 * The files below `root`, sorted, symbolic links not followed, tool folders skipped. A folder for
 * which `stopAt` holds is listed in `stopped` and not entered.
 */
export function walkFiles(fs: FileSystem, root: string, options: { limit?: number; stopAt?: (dir: string) => boolean } = {}): Walked {
  return runSteps(walkFilesSteps(fs, root, options));
}

/**
 * walkFiles in steps, for a caller that yields to other work between them (an editor listing a
 * large tree again): each folder's read is a step, and so are every ENTRIES_PER_STEP of its entries.
 */
export function* walkFilesSteps(fs: FileSystem, root: string, options: { limit?: number; stopAt?: (dir: string) => boolean } = {}): Generator<void, Walked> {
  const limit = options.limit ?? MAX_PACKAGE_FILES;
  const files: string[] = [];
  const stopped: string[] = [];
  const links: string[] = [];
  const special: string[] = [];
  const unreadable: UnreadableFolder[] = [];
  let truncated = false;
  const walk = function* (dir: string, depth: number): Generator<void, void> {
    if (depth > 64) return;
    if (files.length >= limit) {
      truncated = true;
      return;
    }
    let entries;
    try {
      entries = fs.readFolder(dir);
    } catch (error) {
      unreadable.push({ dir, message: folderFault(error) });
      return;
    }
    yield;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let seen = 0;
    for (const entry of entries) {
      if (++seen % ENTRIES_PER_STEP === 0) yield;
      const full = path.join(dir, entry.name);
      // Symbolic links are not followed: a tree is what lies inside its folder.
      if (entry.kind === 'link') {
        links.push(full);
        continue;
      }
      if (entry.kind === 'directory') {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        if (options.stopAt?.(full)) stopped.push(full);
        else yield* walk(full, depth + 1);
      } else if (entry.kind === 'file') {
        if (files.length >= limit) {
          truncated = true;
          return;
        }
        files.push(full);
      } else special.push(full);
    }
  };
  yield* walk(root, 0);
  return { files, stopped, links, special, unreadable, truncated };
}

/** Lists the files of the tree rooted at `root`; a sub-folder holding a METHODS.toml is its own tree. */
export function listTreeFiles(fs: FileSystem, root: string, limit = MAX_PACKAGE_FILES): TreeFiles {
  return runSteps(listTreeFilesSteps(fs, root, limit));
}

/** listTreeFiles in steps (see walkFilesSteps). */
export function* listTreeFilesSteps(fs: FileSystem, root: string, limit = MAX_PACKAGE_FILES): Generator<void, TreeFiles> {
  const { files, stopped, links, special, unreadable, truncated } = yield* walkFilesSteps(fs, root, { limit, stopAt: (dir) => fs.exists(path.join(dir, MANIFEST_FILE)) });
  return { files, nestedPackages: stopped, links, special, unreadable, truncated };
}

export function isBundlePath(file: string): boolean {
  return file.endsWith(BUNDLE_EXTENSION);
}

/** The names of the folders directly inside `dir` (symbolic links excluded); none when unreadable. */
export function subfolders(fs: FileSystem, dir: string): string[] {
  try {
    return fs
      .readFolder(dir)
      .filter((e) => e.kind === 'directory')
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** True for a regular file that is not a symbolic link (a link could lead outside the tree). */
export function isPlainFile(fs: FileSystem, p: string): boolean {
  return fs.lstat(p)?.kind === 'file';
}

/** What a path that is neither a file nor a folder is, in words ("a FIFO"); not followed. */
export function entryKind(fs: FileSystem, p: string): string {
  const stat = fs.lstat(p);
  if (stat === undefined) return 'gone';
  if (stat.kind === 'link') return 'a symbolic link';
  return stat.special ?? 'not a regular file';
}

export function isDirectory(fs: FileSystem, p: string): boolean {
  return fs.stat(p)?.kind === 'directory';
}
