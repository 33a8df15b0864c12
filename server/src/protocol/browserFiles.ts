// The notification by which the browser's client sends the workspace's method files to the
// language server's worker (which cannot read the editor's file system itself): every bundle,
// METHODS.toml and methods.lock at start, then each change a file watcher sees.

export const FILES_NOTIFICATION = 'mthds/files';

export type FileChange =
  /** A file's whole text (created or changed). */
  | { uri: string; text: string }
  | { uri: string; deleted: true }
  /** A folder the client could not list: what it holds is unknown, and said so. */
  | { uri: string; unreadable: true };

export interface FilesParams {
  changes: FileChange[];
}
