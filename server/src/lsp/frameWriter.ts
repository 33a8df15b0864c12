// The stdio transport's writer. The library's writer makes each message JSON and bytes in one go:
// the diagnostics of a document with 30,000 findings (18.8 MB) held the main thread 0.4-0.7 s, and
// every request of every other document waited. Here a message holding a long array (diagnostics,
// edits, ranges, symbols) is made in slices of a few hundred items a turn, and an answer to a
// request written meanwhile goes out ahead of it: answers are matched to their requests by id, and
// no notification depends on an answer's place. Everything else keeps the order it was written in.

import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver/node.js';

/** Arrays from this length on are made in slices. */
export const SLICED_ARRAY_MIN = 1000;
/** Items of such an array made per turn (about 10 ms for diagnostics). */
export const ITEMS_PER_SLICE = 500;
/** The most bytes of frames held for one write (see `send`). */
const BATCH_BYTES_MAX = 32 * 1024;

interface Outgoing {
  /** The frame's pieces once made (header first); undefined while the message is being made. */
  pieces: Buffer[] | undefined;
  done: (error?: Error | null) => void;
}

/** Where the long array of a message is (its holder and key), when it has one. */
function longArrayOf(message: Message): { holder: Record<string, unknown>; key: string; items: unknown[] } | undefined {
  let found: { holder: Record<string, unknown>; key: string; items: unknown[] } | undefined;
  // Only objects are walked (never into arrays) and only a few levels deep: where the protocol
  // puts its lists (params.diagnostics, result, result.items, result.edit.changes[uri], ...).
  const walk = (value: Record<string, unknown>, depth: number): void => {
    for (const key of Object.keys(value)) {
      const child = value[key];
      if (Array.isArray(child)) {
        if (child.length >= SLICED_ARRAY_MIN && (found === undefined || child.length > found.items.length)) found = { holder: value, key, items: child };
      } else if (typeof child === 'object' && child !== null && depth < 4) walk(child as Record<string, unknown>, depth + 1);
    }
  };
  walk(message as unknown as Record<string, unknown>, 0);
  return found;
}

const isResponse = (message: Message): boolean => 'id' in message && !('method' in message);

function header(bodyBytes: number): Buffer {
  return Buffer.from(`Content-Length: ${bodyBytes}\r\n\r\n`, 'ascii');
}

/** The whole frame of a message, made at once. */
export function frameOf(message: Message): Buffer[] {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return [header(body.length), body];
}

/**
 * The frame of a message made in steps (one per turn): the JSON around its long array, then the
 * array a slice at a time. The same bytes as `frameOf`.
 */
export function* frameSteps(message: Message): Generator<void, Buffer[]> {
  const long = longArrayOf(message);
  if (!long) return frameOf(message);
  // A marker no JSON of the message holds in that place: the array is cut out, the rest made whole.
  const marker = `\u0000slice:${Math.random()}\u0000`;
  long.holder[long.key] = marker;
  let shell: string;
  try {
    shell = JSON.stringify(message);
  } finally {
    long.holder[long.key] = long.items;
  }
  const at = shell.indexOf(JSON.stringify(marker));
  const body: Buffer[] = [Buffer.from(`${shell.slice(0, at)}[`, 'utf8')];
  for (let start = 0; start < long.items.length; start += ITEMS_PER_SLICE) {
    yield;
    const inner = JSON.stringify(long.items.slice(start, start + ITEMS_PER_SLICE)).slice(1, -1);
    body.push(Buffer.from(start === 0 ? inner : `,${inner}`, 'utf8'));
  }
  body.push(Buffer.from(`]${shell.slice(at + JSON.stringify(marker).length)}`, 'utf8'));
  return [header(body.reduce((n, b) => n + b.length, 0)), ...body];
}

export class FrameWriter extends AbstractMessageWriter implements MessageWriter {
  private readonly queue: Outgoing[] = [];

  constructor(
    private readonly sink: Writable,
    private readonly later: (step: () => void) => void = (step) => void setImmediate(step),
  ) {
    super();
    sink.on('error', (error: Error) => this.fireError(error));
    sink.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    return new Promise((resolve, reject) => {
      const item: Outgoing = { pieces: undefined, done: (error) => (error ? reject(error) : resolve()) };
      let steps: Generator<void, Buffer[]>;
      let first: IteratorResult<void, Buffer[]>;
      try {
        steps = frameSteps(message);
        first = steps.next();
      } catch (error) {
        this.fireError(error, message);
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (first.done === true) {
        item.pieces = first.value;
        // An answer passes a long message still being made (and what waits behind it).
        if (isResponse(message) && this.queue[0] !== undefined && this.queue[0].pieces === undefined) this.send(item);
        else {
          this.queue.push(item);
          this.flush();
        }
        return;
      }
      this.queue.push(item);
      const step = (): void => {
        let next: IteratorResult<void, Buffer[]>;
        try {
          next = steps.next();
        } catch (error) {
          // Unwritable (it cannot be made JSON): dropped, as the library's writer drops it.
          this.queue.splice(this.queue.indexOf(item), 1);
          this.fireError(error, message);
          item.done(error instanceof Error ? error : new Error(String(error)));
          this.flush();
          return;
        }
        if (next.done !== true) return this.later(step);
        item.pieces = next.value;
        this.flush();
      };
      this.later(step);
    });
  }

  private flush(): void {
    while (this.queue[0]?.pieces !== undefined) this.send(this.queue.shift()!);
  }

  /**
   * Writes a frame's pieces together: nothing else can come between them. The frames written in
   * one run of the program go out in one write, at its end: a large update publishes the
   * diagnostics of thousands of files, a write (a system call) each otherwise.
   */
  private send(item: Outgoing): void {
    const pieces = item.pieces!;
    if (this.corked === undefined) {
      const batch = { bytes: 0 };
      this.corked = batch;
      this.sink.cork();
      process.nextTick(() => this.uncork(batch));
    }
    for (let i = 0; i < pieces.length - 1; i++) this.sink.write(pieces[i]);
    this.sink.write(pieces[pieces.length - 1], (error) => item.done(error));
    for (const piece of pieces) this.corked.bytes += piece.length;
    // A pipe holds 64 KB: a larger batch would wait for the client to read all of it before
    // anything written after it (an answer) is read.
    if (this.corked.bytes >= BATCH_BYTES_MAX) this.uncork(this.corked);
  }

  /** The frames held for one write, and their size. */
  private corked: { bytes: number } | undefined;

  private uncork(batch: { bytes: number }): void {
    if (this.corked !== batch) return;
    this.corked = undefined;
    this.sink.uncork();
  }

  end(): void {
    this.sink.end();
  }
}
