// What the stdin worker (stdinWorker.ts) tells the main thread (stdinReader.ts), and what the thread
// decoding large messages (largeBodyWorker.ts) tells the stdin worker.

import type { PackedString } from './packedStrings.js';

export type StdinEvent =
  /** Messages decoded, in the order read (their shape is checked by the connection). */
  | { kind: 'messages'; messages: unknown[] }
  /** One large message decoded, its long strings as bytes (packedStrings.ts). */
  | { kind: 'packed'; message: unknown; strings: PackedString[] }
  /** A well-framed message whose content is not JSON. */
  | { kind: 'error'; message: string }
  /** The framing broke: what and at which byte; nothing more is read. */
  | { kind: 'fault'; fault: string }
  /** A thread of the reading failed: nothing more is read. */
  | { kind: 'failed'; reason: string }
  /** The input ended (or failed to read). */
  | { kind: 'end'; error?: string };

/** A large body to decode (its bytes transferred), and the answer for it. */
export interface LargeBody {
  ticket: number;
  bytes: ArrayBuffer;
}
export type LargeBodyDecoded = { ticket: number } & ({ message: unknown; strings: PackedString[] } | { error: string });

/** What the connection logs of a well-framed message that is not JSON. */
export function notJson(error: unknown): string {
  return `a message that is not JSON: ${error instanceof Error ? error.message : String(error)}`;
}
