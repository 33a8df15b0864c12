// The notification by which the browser's client sends the workspace's method files to the
// language server's worker (which cannot read the editor's file system itself): every bundle,
// METHODS.toml and methods.lock at start (the installed methods of `.mthds/methods/` included),
// then each change a file watcher sees; and where the walk stopped at its bound, if it did.

export const FILES_NOTIFICATION = 'mthds/files';

export type FileChange =
  /** A file's whole text (created or changed). */
  | { uri: string; text: string }
  | { uri: string; deleted: true }
  /** A folder the client could not list: what it holds is unknown, and said so. */
  | { uri: string; unreadable: true };

/** Where the client's walk stopped at its bound: the files beyond it were never read. */
export interface WalkBound {
  /** The workspace folder (a URI) being walked when the bound was reached. */
  folder: string;
  limit: number;
  /** What the bound counts. */
  counted: 'method files' | 'folders';
}

export interface FilesParams {
  changes: FileChange[];
  bound?: WalkBound;
}
