// What the language server needs from where it runs, beside its connection: the desktop's process
// and the browser's worker each fill it (lsp/main.ts, lsp/browserMain.ts), and the rest of the
// server reaches the disk, the runner and the file watcher only through it.

import type { FileSystem } from '../workspace/fileSystem.js';

export interface ServerHost {
  /** Where method files are read from: the disk, or the files the browser's client sent. */
  fs: FileSystem;
}
