// The stdio transport's reader: a worker thread (stdinWorker.ts) reads and decodes stdin, and this
// reader hands the parsed messages to the connection. Decoding on the main thread held it for
// seconds while a document of 50 MB arrived (the library's reader assembles the message chunk by
// chunk, then decodes its UTF-8 and JSON in one go) and for a second or more under a flood of
// small messages; here the main thread only receives the parsed messages, a chunk's worth at once,
// and the long strings of a large message as bytes, made strings again a slice per turn while the
// requests that may pass it (arrivalOrder.ts) are handed over.

import { Worker } from 'node:worker_threads';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message, type MessageReader } from 'vscode-languageserver/node.js';
import { knownSize } from '../workspace/documentSize.js';
import { ArrivalOrder } from './arrivalOrder.js';
import { unpackStrings } from './packedStrings.js';
import { outlineOf } from './passingRules.js';
import { documentTextPath, rememberPieces } from './textPieces.js';
import type { StdinEvent } from './stdinEvents.js';

export interface StdinReaderEvents {
  /** The framing broke (the fault and its byte): the server cannot read on. */
  fault(fault: string): void;
  /** The input ended. */
  end(): void;
  /** The reading thread failed (its file missing beside server.js, a fault of its own): nothing more is read. */
  failed(reason: string): void;
  /** Messages arrived (before they are handed to the connection). */
  arrived?(): void;
}

/**
 * Where the entry point (`bin/mthds-language-server.js`) leaves the stdin thread it starts before
 * the server's code loads, gated (it reads nothing until told): the thread's start (an isolate,
 * its module) then runs beside the compiling of the server's code instead of after it, about
 * 50-70 ms of the start-up on this project's machines.
 */
export const EARLY_STDIN_WORKER = Symbol.for('mthds.earlyStdinWorker');

function takeEarlyWorker(): Worker | undefined {
  const holder = globalThis as Record<symbol, unknown>;
  const early = holder[EARLY_STDIN_WORKER];
  delete holder[EARLY_STDIN_WORKER];
  return early instanceof Worker ? early : undefined;
}

export class StdinReader extends AbstractMessageReader implements MessageReader {
  private callback: DataCallback | undefined;
  /** Messages read before the connection listens. */
  private early: Message[] = [];
  private readonly worker: Worker;

  constructor(private readonly events: StdinReaderEvents, workerUrl: URL = new URL('./stdinWorker.js', import.meta.url)) {
    super();
    // The worker keeps the process alive as stdin did: the end of the input (or `exit`) ends it.
    const early = takeEarlyWorker();
    this.worker = early ?? new Worker(workerUrl);
    this.worker.on('message', (event: StdinEvent) => this.receive(event));
    this.worker.on('error', (error) => this.events.failed(error.message));
    // Started early, it waits for this: the listeners are on.
    if (early) this.worker.postMessage('start');
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const early = this.early;
    this.early = [];
    for (const message of early) callback(message);
    return { dispose: () => (this.callback = undefined) };
  }

  override dispose(): void {
    super.dispose();
    void this.worker.terminate();
  }

  /** What the worker posted, in the order it is handed on: a large message being unpacked holds what may not pass it. */
  private readonly order = new ArrivalOrder((event) => this.dispatch(event));
  private unpacking = 0;

  private receive(event: StdinEvent): void {
    switch (event.kind) {
      case 'messages':
        this.events.arrived?.();
        for (const message of event.messages) this.order.message(message);
        this.order.flush();
        return;
      case 'packed': {
        this.events.arrived?.();
        const ticket = ++this.unpacking;
        this.order.large(ticket, outlineOf(event.message));
        const pieces: Array<{ path: ReadonlyArray<string | number>; pieces: readonly string[] }> = [];
        const onString = (text: string, size: number, of: readonly string[], at: ReadonlyArray<string | number>): void => {
          knownSize(text, size);
          pieces.push({ path: at, pieces: of });
        };
        const done = (message: unknown): void => {
          rememberDocumentPieces(message as Message, pieces);
          this.order.decoded(ticket, { kind: 'messages', messages: [message] });
        };
        unpackStrings(event.message, event.strings, done, { onString });
        return;
      }
      case 'failed':
        // Nothing more can be read: said at once, whatever waits.
        this.events.failed(event.reason);
        return;
      default:
        this.order.event(event);
    }
  }

  private dispatch(event: StdinEvent): void {
    switch (event.kind) {
      case 'messages':
        for (const message of event.messages as Message[]) {
          if (this.callback) this.callback(message);
          else this.early.push(message);
        }
        return;
      case 'error':
        this.fireError(new Error(event.message));
        return;
      case 'fault':
        this.events.fault(event.fault);
        return;
      case 'end':
        this.fireClose();
        this.events.end();
        return;
      case 'packed':
      case 'failed':
        return;
    }
  }
}

/** Keeps the pieces of the document text a message sets, when it came in pieces. */
function rememberDocumentPieces(message: Message, strings: ReadonlyArray<{ path: ReadonlyArray<string | number>; pieces: readonly string[] }>): void {
  const at = documentTextPath(message);
  if (at === undefined) return;
  const found = strings.find((s) => s.path.length === at.path.length && s.path.every((key, i) => key === at.path[i]));
  if (found !== undefined) rememberPieces(at.uri, at.version, found.pieces);
}
