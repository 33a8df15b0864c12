// What the stdin worker (stdinWorker.ts) tells the main thread (stdinReader.ts).

export type StdinEvent =
  /** Messages decoded, in the order read (their shape is checked by the connection). */
  | { kind: 'messages'; messages: unknown[] }
  /** A well-framed message whose content is not JSON. */
  | { kind: 'error'; message: string }
  /** The framing broke: what and at which byte; nothing more is read. */
  | { kind: 'fault'; fault: string }
  /** The input ended (or failed to read). */
  | { kind: 'end'; error?: string };
