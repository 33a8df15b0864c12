// The order in which the stdin thread (stdinWorker.ts) hands what it read to the main thread, once a
// large message is decoded on a thread of its own (largeBodyWorker.ts) while the messages behind it
// are read: everything read after it waits for it, in order, except a request that may pass it by
// the rule of passingRules.ts (a hover of another document passes a `didOpen` of 50 MB being
// decoded). Small messages are gathered and posted once per chunk read, as they were before.

import { mayPass, outlineOf, type MessageOutline } from './passingRules.js';
import type { StdinEvent } from './stdinEvents.js';

type Held =
  | { kind: 'message'; message: unknown; outline: MessageOutline }
  | { kind: 'event'; event: StdinEvent }
  /** A large message being decoded; `decoded` once it is (null: nothing to hand over). */
  | { kind: 'large'; ticket: number; outline: MessageOutline; decoded?: StdinEvent | null };

/** The longest stretch of held messages a request looks back over to pass them (a bound on its cost). */
const MAX_PASSED = 10_000;

export class ArrivalOrder {
  private held: Held[] = [];
  private batch: unknown[] = [];

  constructor(private readonly post: (event: StdinEvent) => void) {}

  /** How many entries wait behind a large message being decoded. */
  get waiting(): number {
    return this.held.length;
  }

  /** A small message decoded. */
  message(message: unknown): void {
    if (this.held.length === 0) {
      this.batch.push(message);
      return;
    }
    const outline = outlineOf(message);
    const passes = this.held.length <= MAX_PASSED && this.held.every((h) => h.kind !== 'event' && mayPass(outline, h.outline));
    if (passes) this.batch.push(message);
    else this.held.push({ kind: 'message', message, outline });
  }

  /** Anything else read (an error, a fault, the end): after everything before it. */
  event(event: StdinEvent): void {
    if (this.held.length > 0) {
      this.held.push({ kind: 'event', event });
      return;
    }
    this.flush();
    this.post(event);
  }

  /** A large message sent to be decoded, known by its outline until it is. */
  large(ticket: number, outline: MessageOutline): void {
    this.held.push({ kind: 'large', ticket, outline });
  }

  /** What a large message came to (undefined: nothing to hand over); what waited behind it follows. */
  decoded(ticket: number, event: StdinEvent | undefined): void {
    const entry = this.held.find((h) => h.kind === 'large' && h.ticket === ticket);
    if (entry === undefined || entry.kind !== 'large') return;
    entry.decoded = event ?? null;
    let released = 0;
    for (const h of this.held) {
      if (h.kind === 'large' && h.decoded === undefined) break;
      released += 1;
      if (h.kind === 'message') this.batch.push(h.message);
      else {
        const next = h.kind === 'event' ? h.event : h.decoded;
        if (next === null || next === undefined) continue;
        this.flush();
        this.post(next);
      }
    }
    this.held = this.held.slice(released);
    this.flush();
  }

  /** Posts the messages gathered (once per chunk read). */
  flush(): void {
    if (this.batch.length === 0) return;
    this.post({ kind: 'messages', messages: this.batch });
    this.batch = [];
  }
}
