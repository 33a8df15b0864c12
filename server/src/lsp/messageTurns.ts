// Lets every queued message through before work in slices goes on. vscode-jsonrpc dispatches one
// queued message per turn of the event loop; a check that yields with one `setImmediate` between
// slices therefore lets one message through per slice, and a request queued behind a burst of N
// notifications waits N slices. The connection's message strategy counts what it dispatches: a
// pause goes on yielding while turns keep dispatching messages, and ends once turns dispatch none
// (the queue is empty), or after as long as the work since the previous pause ran (a slice of a
// check, and the collections within it; a slice's length at least, 50 ms at most): under a flood
// of messages (a burst of watched-file notifications) the messages get half the loop and the
// check the other half, so the check still ends soon after the burst, and a collection during a
// slice does not leave the messages read meanwhile queued for several slices.

import type { Message, MessageStrategy } from 'vscode-languageserver';

/** The longest a pause defers work in slices while messages keep coming (ms; a slice's length). */
const MAX_PAUSE_MS = 8;
/**
 * The turns a pause gives whatever its clock says: a message read takes a turn to decode and one
 * to dispatch, and a collection in a pause's first turn would otherwise end it at once, leaving a
 * request read meanwhile for after the next slice.
 */
const MIN_TURNS = 4;
/** The longest a pause defers work while messages keep coming, however long the work before it ran (ms). */
const MAX_FAIR_PAUSE_MS = 50;

const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

export class MessageTurns {
  private dispatched = 0;
  private arrivals = 0;
  /** When the last pause ended (the clock of `now`). */
  private lastEnd: number | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The connection's message strategy (`createConnection(features, { messageStrategy })`). */
  readonly strategy: MessageStrategy = {
    handleMessage: (message: Message, next: (message: Message) => void): void => {
      this.dispatched += 1;
      next(message);
    },
  };

  /** How many messages the connection has dispatched. */
  count(): number {
    return this.dispatched;
  }

  /**
   * Input arrived (the transport's data event). A message read in the turn where a pause ends is
   * dispatched in that turn but after the pause's own callback, so after the next slice: a turn in
   * which input arrived is not quiet.
   */
  arrived(): void {
    this.arrivals += 1;
  }

  /**
   * Yields to the event loop until two turns in a row pass without a message dispatched (every
   * message queued meanwhile has been handled), or `maxMs` passed, or as long as the work since
   * the previous pause ran when that is longer (MAX_FAIR_PAUSE_MS at most; MIN_TURNS turns at least). Two: within one turn, the
   * connection's next dispatch may come after this pause's own callback (it was queued later).
   */
  async pause(maxMs = MAX_PAUSE_MS): Promise<void> {
    const start = this.now();
    const bound = Math.min(Math.max(maxMs, this.lastEnd === undefined ? 0 : start - this.lastEnd), MAX_FAIR_PAUSE_MS);
    let quiet = 0;
    for (let turns = 1; ; turns++) {
      const before = this.dispatched + this.arrivals;
      await turn();
      quiet = this.dispatched + this.arrivals === before ? quiet + 1 : 0;
      if (quiet >= 2 || (turns >= MIN_TURNS && this.now() - start >= bound)) break;
    }
    this.lastEnd = this.now();
  }
}

/** A pause without a connection to watch (unit tests, embedders): one turn of the event loop. */
export const oneTurn = turn;
