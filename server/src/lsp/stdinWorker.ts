// The worker thread that reads the language server's stdin (`lsp/stdinReader.ts` starts it): it
// cuts the stream into messages (framing.ts) and decodes each one's UTF-8 and JSON here, so that
// receiving a document of tens of megabytes, or a flood of small messages, never holds the main
// thread's event loop; the main thread gets the messages parsed, a chunk's worth per post. A large
// message (framing.ts's LARGE_BODY_BYTES) is decoded on a thread of its own (largeBodyWorker.ts,
// started with the first one) while the messages behind it are read, and handed over in the order
// arrivalOrder.ts keeps: a hover of another document does not wait for a `didOpen` of 50 MB.

import { fstatSync, createReadStream } from 'node:fs';
import { Socket } from 'node:net';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import { ArrivalOrder } from './arrivalOrder.js';
import { SplitFrameReader } from './framing.js';
import { KnownRequests } from './knownRequests.js';
import { notJson, type LargeBody, type LargeBodyDecoded, type StdinEvent } from './stdinEvents.js';

const port = parentPort;
if (port === null) throw new Error('stdinWorker.js runs as a worker thread');

// The long strings of a large message move to the main thread without a copy.
const post = (event: StdinEvent): void => port.postMessage(event, event.kind === 'packed' ? event.strings.map((s) => s.bytes) : []);

/** Standard input as a stream of this thread: a pipe or socket through its own handle, else (a file, a terminal) read as a file. */
function openStdin(): Readable {
  const stat = fstatSync(0);
  if (stat.isFIFO() || stat.isSocket()) return new Socket({ fd: 0, readable: true, writable: false });
  return createReadStream('', { fd: 0, autoClose: false });
}

const frames = new SplitFrameReader();
const requests = new KnownRequests();
const order = new ArrivalOrder(post);
let decoder: Worker | undefined;
let tickets = 0;

/** The thread decoding large messages, started with the first one. */
function largeBodyDecoder(): Worker {
  if (decoder !== undefined) return decoder;
  const worker = new Worker(new URL('./largeBodyWorker.js', import.meta.url));
  worker.on('message', (answer: LargeBodyDecoded) => {
    if ('error' in answer) order.decoded(answer.ticket, { kind: 'error', message: answer.error });
    else order.decoded(answer.ticket, requests.passes(answer.message) ? { kind: 'packed', message: answer.message, strings: answer.strings } : undefined);
  });
  worker.on('error', (error) => post({ kind: 'failed', reason: `the thread decoding large messages: ${error.message}` }));
  decoder = worker;
  return worker;
}

/**
 * Reads stdin to its end. Started by the entry point before the server's code loads (see
 * stdinReader.ts `EARLY_STDIN_WORKER`), the thread waits for the reader to say it listens: a
 * message posted before would find no one to take it.
 */
function readStdin(): void {
  const input = openStdin();
  input.on('data', (chunk: Buffer) => {
    const fault = frames.push(chunk, (body) => {
      if ('bytes' in body) {
        const ticket = ++tickets;
        // Its id is known before it is decoded: a cancel of it read meanwhile is kept.
        requests.passes({ method: body.outline.method, id: body.outline.request ? body.outline.id : undefined });
        order.large(ticket, body.outline);
        const message: LargeBody = { ticket, bytes: body.bytes.buffer as ArrayBuffer };
        largeBodyDecoder().postMessage(message, [message.bytes]);
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(body.text);
      } catch (error) {
        // The frame held, so the next message is read as usual: the connection logs this one.
        order.event({ kind: 'error', message: notJson(error) });
        return;
      }
      if (requests.passes(message)) order.message(message);
    });
    order.flush();
    if (fault !== undefined) {
      order.event({ kind: 'fault', fault });
      input.destroy();
    }
  });
  input.on('end', () => order.event({ kind: 'end' }));
  input.on('close', () => order.event({ kind: 'end' }));
  input.on('error', (error) => order.event({ kind: 'end', error: error.message }));
}

if ((workerData as { gated?: boolean } | undefined)?.gated === true) port.once('message', readStdin);
else readStdin();
