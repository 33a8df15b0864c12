// The file system through which the workspace layer (and the few language-server features that look
// at files) reads: synchronous, because the walks and the checks are synchronous and sliced. The
// desktop fills it over node:fs (nodeFileSystem.ts); the browser's language server fills it with
// the files its client reads from the editor (memoryFileSystem.ts). Writing is not part of it: only
// the desktop writes (writeGuarded.ts).

import type { ReadResult } from './methodText.js';

/** What an entry is, without following it: links are never followed by the walks. */
export type EntryKind = 'file' | 'directory' | 'link' | 'special';

export interface EntryStat {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
  /** For a special entry, what it is in words ("a FIFO", "a socket"). */
  special?: string;
}

export interface FolderEntry {
  name: string;
  kind: EntryKind;
}

export interface FileSystem {
  /** The entry at `path`, following links; undefined when nothing is there. */
  stat(path: string): EntryStat | undefined;
  /** The entry at `path` itself (a link is a link); undefined when nothing is there. */
  lstat(path: string): EntryStat | undefined;
  exists(path: string): boolean;
  /**
   * The entries of a folder, in no particular order. Throws an error carrying a `code` (ENOENT,
   * ENOTDIR, EACCES) when the folder cannot be listed: the walks turn it into a finding.
   */
  readFolder(path: string): FolderEntry[];
  /** A method file's text, or why it was refused (missing, a folder, special, too large, unreadable). */
  readMethodFile(path: string): ReadResult;
  /** The user's home folder (installed methods, the package store); undefined where there is none. */
  home(): string | undefined;
  /**
   * False where the file system holds only the workspace (the browser's): the package store, the
   * home folder and paths outside the workspace cannot be read, and what would be looked for there
   * is unreachable, not missing.
   */
  readonly packagesReachable: boolean;
}

/** An error as a folder read throws it: a message and an errno-like code. */
export function folderError(code: string, path: string): Error & { code: string } {
  return Object.assign(new Error(`${code}: cannot list '${path}'`), { code });
}
