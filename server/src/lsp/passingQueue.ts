// The messages read and not yet handed to the connection. vscode-jsonrpc handles one queued
// message per turn of the event loop, so a request read behind a flood of 10,000 `didOpen` waited
// for all of them (and for the checks they scheduled meanwhile): seconds. Here they wait in this
// queue, handed over one at a time as the connection takes them, and a request that answers about
// its own document only (a hover, a completion, the outline) goes ahead of the document
// notifications and the requests queued before it that are about other documents, by the rule of
// passingRules.ts.

import type { Message, MessageReader } from 'vscode-languageserver';
import { mayPass, outlineOf, passingDocument } from './passingRules.js';

const CANCEL_METHOD = '$/cancelRequest';

/** The longest stretch of queued notifications a request looks back over (a bound on its cost). */
const MAX_PASSED = 100_000;

export class PassingQueue {
  private items: Message[] = [];
  private head = 0;
  private scheduled = false;
  /** Messages handed over, and those of them the connection will never dispatch (see `connectionReady`). */
  private delivered = 0;
  private lost = 0;
  /** The connection's dispatch count when last looked at, and the turns since it last moved. */
  private lastDispatched = 0;
  private stillTurns = 0;

  /**
   * `deliver` hands a message to the connection; `later` runs a function in a later turn of the
   * event loop (setImmediate: after the connection's own turn); `dispatched`, when given, counts
   * the messages the connection has dispatched (messageTurns.ts): a message is then handed over
   * only once the connection has dispatched the one before and a poll of the input has followed
   * (`connectionReady`), so that nothing waits in the connection's own queue, where nothing can
   * pass it. Handed over one a turn regardless, a message was always queued there behind the one
   * being handled: a hover arriving during a 50 ms step waited for that step and the next.
   */
  constructor(
    private readonly deliver: (message: Message) => void,
    private readonly later: (fn: () => void) => void = (fn) => void setImmediate(fn),
    private readonly dispatched?: () => number,
  ) {}

  /** How many messages wait. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Queues a message read (an empty queue hands it over at once, as the connection would take it). */
  push(message: Message): void {
    if (this.size === 0 && !this.scheduled && this.connectionReady()) {
      this.handOver(message);
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

  private handOver(message: Message): void {
    // A cancellation of a request being handled is never dispatched (the library cancels its token
    // at once): not counted. One the library queues is dispatched, and the count is mended then.
    if ((message as { method?: unknown }).method !== CANCEL_METHOD) this.delivered += 1;
    this.deliver(message);
  }

  /**
   * Whether the connection may take the next message: it dispatched none since the last look (a
   * dispatch runs in the same phase of the loop as this queue's turn, right before it: the input
   * read during that dispatch's step is read in the loop's next poll, so the next message waits one
   * turn for it), and it holds none handed over. It dispatches one queued message a turn: a turn
   * without a dispatch while it seems to hold one means it holds none (a cancellation took a
   * queued request out of its queue), and the count is mended.
   */
  private connectionReady(): boolean {
    if (!this.dispatched) return true;
    const now = this.dispatched();
    const moved = now !== this.lastDispatched;
    this.lastDispatched = now;
    if (moved) {
      this.stillTurns = 0;
      return false;
    }
    if (this.delivered - this.lost <= now) {
      this.lost = this.delivered - now;
      return true;
    }
    if (++this.stillTurns < 2) return false;
    this.lost = this.delivered - now;
    this.stillTurns = 0;
    return true;
  }

  /** One message a turn at most, once the connection took the last: a request read meanwhile can still pass the rest. */
  private drain(): void {
    this.scheduled = false;
    if (this.size === 0) return;
    if (!this.connectionReady()) {
      this.schedule();
      return;
    }
    const message = this.items[this.head]!;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 4096 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.handOver(message);
    this.schedule();
  }
}

/** The reader with the queue between it and the connection (`dispatched`: see PassingQueue). */
export function passingReader(reader: MessageReader, dispatched?: () => number): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) => {
      const queue = new PassingQueue(callback, undefined, dispatched);
      return reader.listen((message) => queue.push(message));
    },
    dispose: () => reader.dispose(),
  };
}
