// The long strings of a decoded message sent between threads as bytes rather than cloned: the
// structured clone of a 50 MB string held the receiving thread for 0.3-0.5 s, while its bytes
// move without a copy (a transfer) and become a string again in one copy on arrival. A string of
// Latin-1 characters only (every method document in ASCII) travels as one byte a character, any
// other as UTF-16 (two bytes a character, as the string already is in memory).

/** A long string taken out of a message: where it was, how it is encoded, its bytes. */
export interface PackedString {
  path: Array<string | number>;
  latin1: boolean;
  bytes: ArrayBuffer;
}

/** Strings from this length on travel as bytes. */
export const PACKED_MIN_LENGTH = 64 * 1024;

const NOT_LATIN1 = /[^\u0000-\u00ff]/;

/** Takes the long strings out of `message` (in place), each as bytes whose buffer can be transferred. */
export function packStrings(message: unknown, minLength: number = PACKED_MIN_LENGTH): PackedString[] {
  const out: PackedString[] = [];
  // Iterative: a message nested deeper than the call stack is still walked.
  const stack: Array<{ value: object; path: Array<string | number> }> = typeof message === 'object' && message !== null ? [{ value: message, path: [] }] : [];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      const at = [...path, Array.isArray(value) ? Number(key) : key];
      if (typeof child === 'string' && child.length >= minLength) {
        const latin1 = !NOT_LATIN1.test(child);
        const bytes = Buffer.from(child, latin1 ? 'latin1' : 'utf16le');
        out.push({ path: at, latin1, bytes: ownBuffer(bytes) });
        record[key] = '';
      } else if (typeof child === 'object' && child !== null) stack.push({ value: child, path: at });
    }
  }
  return out;
}

/** Bytes made a string per turn of the event loop: 1-2 ms where fresh memory is slow to touch. */
export const UNPACK_SLICE_BYTES = 256 * 1024;

/**
 * Puts the strings back into the message they were taken from, a slice of `sliceBytes` a turn
 * (`later` runs the next): one string of 50 MB made at once held the main thread 0.25-0.3 s, most
 * of it the first touch of fresh memory. A string made of slices is a rope; `onString` is told
 * each string and its UTF-8 size, counted on the slices, so that nothing joins the rope to count
 * it (workspace/documentSize.ts), and the pieces it was joined from, in order, with where it sits
 * in the message (lsp/textPieces.ts: read piece by piece, the rope is never flattened). `done` gets
 * the message whole.
 */
export function unpackStrings(
  message: unknown,
  strings: readonly PackedString[],
  done: (message: unknown) => void,
  { later = (fn: () => void) => void setImmediate(fn), sliceBytes = UNPACK_SLICE_BYTES, onString = () => undefined }: { later?: (fn: () => void) => void; sliceBytes?: number; onString?: (text: string, utf8Size: number, pieces: readonly string[], path: ReadonlyArray<string | number>) => void } = {},
): void {
  let index = 0;
  let offset = 0;
  let text = '';
  let size = 0;
  let pieces: string[] = [];
  const step = (): void => {
    const packed = strings[index];
    if (packed === undefined) return done(message);
    const bytes = Buffer.from(packed.bytes);
    let end = Math.min(bytes.length, offset + (packed.latin1 ? sliceBytes : Math.max(2, sliceBytes - (sliceBytes % 2))));
    // A UTF-16 slice never ends between the two halves of a pair: each slice counts its own size.
    if (!packed.latin1 && end < bytes.length && isHighSurrogate(bytes.readUInt16LE(end - 2))) end += 2;
    const piece = bytes.toString(packed.latin1 ? 'latin1' : 'utf16le', offset, end);
    text += piece;
    pieces.push(piece);
    size += Buffer.byteLength(piece, 'utf8');
    offset = end;
    if (offset >= bytes.length) {
      let holder = message as Record<string | number, unknown>;
      for (const key of packed.path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
      holder[packed.path.at(-1)!] = text;
      onString(text, size, pieces, packed.path);
      [index, offset, text, size, pieces] = [index + 1, 0, '', 0, []];
    }
    later(step);
  };
  step();
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;

/** The bytes' own ArrayBuffer, all of it theirs (copied when they share one). */
function ownBuffer(bytes: Buffer): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
