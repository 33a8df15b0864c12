// The messages read and not yet handed to the connection. vscode-jsonrpc handles one queued
// message per turn of the event loop, so a request read behind a flood of 10,000 `didOpen` waited
// for all of them (and for the checks they scheduled meanwhile): seconds. Here they wait in this
// queue, handed over one per turn, and a request that answers about its own document only (a
// hover, a completion, the outline) goes ahead of the document notifications and the requests of
// its kind queued before it that are about other documents, by the rule of passingRules.ts.

import type { Message, MessageReader } from 'vscode-languageserver';
import { mayPass, outlineOf, passingDocument } from './passingRules.js';

/** The longest stretch of queued notifications a request looks back over (a bound on its cost). */
const MAX_PASSED = 100_000;

export class PassingQueue {
  private items: Message[] = [];
  private head = 0;
  private scheduled = false;

  /**
   * `deliver` hands a message to the connection; `later` runs a function in a later turn of the
   * event loop (setImmediate: after the connection's own turn).
   */
  constructor(
    private readonly deliver: (message: Message) => void,
    private readonly later: (fn: () => void) => void = (fn) => void setImmediate(fn),
  ) {}

  /** How many messages wait. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Queues a message read (an empty queue hands it over at once, as the connection would take it). */
  push(message: Message): void {
    if (this.size === 0 && !this.scheduled) {
      this.deliver(message);
      this.schedule();
      return;
    }
    const outline = outlineOf(message);
    let at = this.items.length;
    if (passingDocument(outline) !== undefined) {
      const floor = Math.max(this.head, this.items.length - MAX_PASSED);
      while (at > floor) {
        if (!mayPass(outline, outlineOf(this.items[at - 1]!))) break;
        at -= 1;
      }
    }
    if (at === this.items.length) this.items.push(message);
    else this.items.splice(at, 0, message);
    this.schedule();
  }

  /** The queue's order now (tests). */
  pending(): Message[] {
    return this.items.slice(this.head);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.later(() => this.drain());
  }

  /** One message a turn, the pace of the connection's own queue: a request read meanwhile can still pass the rest. */
  private drain(): void {
    this.scheduled = false;
    if (this.size === 0) return;
    const message = this.items[this.head]!;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 4096 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.deliver(message);
    this.schedule();
  }
}

/** The reader with the queue between it and the connection. */
export function passingReader(reader: MessageReader): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) => {
      const queue = new PassingQueue(callback);
      return reader.listen((message) => queue.push(message));
    },
    dispose: () => reader.dispose(),
  };
}
