// The worker thread that reads the language server's stdin (`lsp/stdinReader.ts` starts it): it
// cuts the stream into messages (framing.ts) and decodes each one's UTF-8 and JSON here, so that
// receiving a document of tens of megabytes, or a flood of small messages, never holds the main
// thread's event loop; the main thread gets the messages parsed, a chunk's worth per post.

import { fstatSync, createReadStream } from 'node:fs';
import { Socket } from 'node:net';
import { parentPort } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import { TextFrameReader } from './framing.js';
import { KnownRequests } from './knownRequests.js';
import type { StdinEvent } from './stdinEvents.js';

const port = parentPort;
if (port === null) throw new Error('stdinWorker.js runs as a worker thread');

const post = (event: StdinEvent): void => port.postMessage(event);

/** Standard input as a stream of this thread: a pipe or socket through its own handle, else (a file, a terminal) read as a file. */
function openStdin(): Readable {
  const stat = fstatSync(0);
  if (stat.isFIFO() || stat.isSocket()) return new Socket({ fd: 0, readable: true, writable: false });
  return createReadStream('', { fd: 0, autoClose: false });
}

const frames = new TextFrameReader();
const requests = new KnownRequests();
const input = openStdin();
input.on('data', (chunk: Buffer) => {
  let batch: unknown[] = [];
  const fault = frames.push(chunk, (body) => {
    try {
      const message: unknown = JSON.parse(body);
      if (requests.passes(message)) batch.push(message);
    } catch (error) {
      // The frame held, so the next message is read as usual: the connection logs this one.
      if (batch.length > 0) post({ kind: 'messages', messages: batch });
      batch = [];
      post({ kind: 'error', message: `a message that is not JSON: ${error instanceof Error ? error.message : String(error)}` });
    }
  });
  if (batch.length > 0) post({ kind: 'messages', messages: batch });
  if (fault !== undefined) {
    post({ kind: 'fault', fault });
    input.destroy();
  }
});
input.on('end', () => post({ kind: 'end' }));
input.on('close', () => post({ kind: 'end' }));
input.on('error', (error) => post({ kind: 'end', error: error.message }));
