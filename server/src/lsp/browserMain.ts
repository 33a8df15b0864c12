// Entry point of the language server as a web worker (server/dist/browser.js), for the editor in a
// browser (vscode.dev, github.dev). The same server as the desktop's, over the worker's messages;
// the method files of the workspace are read by the client through the editor's file system and
// sent here (FILES_NOTIFICATION), held in memory, and checked as the desktop checks the disk. No
// runner starts here and no dry run runs: the runner commands use a configured runner.

import { BrowserMessageReader, BrowserMessageWriter, createConnection, FileChangeType } from 'vscode-languageserver/browser.js';
import { MemoryFileSystem } from '../workspace/memoryFileSystem.js';
import { browserUris } from './browserUris.js';
import { FILES_NOTIFICATION, type FilesParams } from '../protocol/browserFiles.js';
import { startServer } from './server.js';

/** The worker's global scope, as far as the message reader and writer need it. */
declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

installImmediate();

const fs = new MemoryFileSystem();
const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));
const origin = (globalThis as { origin?: unknown }).origin;
const server = startServer(connection, { host: { fs, uris: browserUris, env: {}, watchFiles: false, defaultWarmUpMs: 0, ...(typeof origin === 'string' ? { origin } : {}) } });

connection.onNotification(FILES_NOTIFICATION, (params: FilesParams) => {
  const changes: Array<{ uri: string; type: FileChangeType }> = [];
  for (const change of params.changes) {
    const file = browserUris.toFile(change.uri);
    if (!file.startsWith('/')) continue;
    if ('unreadable' in change) {
      fs.markUnreadable(file);
      continue;
    }
    if ('deleted' in change) {
      fs.remove(file);
      changes.push({ uri: change.uri, type: FileChangeType.Deleted });
      continue;
    }
    const existed = fs.exists(file);
    fs.write(file, change.text);
    changes.push({ uri: change.uri, type: existed ? FileChangeType.Changed : FileChangeType.Created });
  }
  server.filesChanged(changes);
  if (params.bound) server.walkBounded(params.bound);
});

/**
 * setImmediate, which the server's slicing yields with (lsp/messageTurns.ts, lsp/diagnostics.ts),
 * is a Node timer. In the worker a MessageChannel gives the same turn (after the messages already
 * queued) without the 4 ms floor that nested setTimeout calls get.
 */
function installImmediate(): void {
  const scope = globalThis as unknown as { setImmediate?: unknown; clearImmediate?: unknown };
  if (typeof scope.setImmediate === 'function') return;
  // The DOM's MessageChannel (the server is typed against Node's, whose port has no onmessage).
  const Channel = (globalThis as unknown as { MessageChannel: new () => { port1: { onmessage: ((event: { data: number }) => void) | null }; port2: { postMessage(id: number): void } } }).MessageChannel;
  const channel = new Channel();
  const queue = new Map<number, () => void>();
  let next = 0;
  channel.port1.onmessage = (event): void => {
    const run = queue.get(event.data);
    queue.delete(event.data);
    run?.();
  };
  scope.setImmediate = (callback: (...args: unknown[]) => void, ...args: unknown[]): number => {
    const id = ++next;
    queue.set(id, () => callback(...args));
    channel.port2.postMessage(id);
    return id;
  };
  scope.clearImmediate = (id: number): void => void queue.delete(id);
}
