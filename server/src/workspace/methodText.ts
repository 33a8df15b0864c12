// A method file's bytes judged as text: UTF-8 only, with the first fault located so that a bad file
// gets an exact, clear finding instead of an exception. Pure (no disk): the desktop's reads
// (readText.ts) and the in-memory file system of the browser (memoryFileSystem.ts) share it.

export type ReadResult =
  | { ok: true; text: string; stamp?: ReadStamp }
  /** Text could be produced, but the bytes had a fault at `offset` (an index into `text`). */
  | { ok: true; text: string; stamp?: ReadStamp; fault: { kind: 'not_utf8' | 'binary'; offset: number; message: string } }
  | RefusedRead;

/**
 * The file's modification time and size as the descriptor it was read through gave them (where
 * the file system has them): the version of exactly the bytes read, without a second look.
 */
export interface ReadStamp {
  mtimeMs: number;
  size: number;
}

/** Why a file was not read: `message` completes "the file ..." (or "<path> ..."). */
export type RefusedRead = { ok: false; kind: 'missing' | 'directory' | 'not_regular' | 'too_large' | 'unreadable'; message: string };

/** Files larger than this are refused rather than parsed (no method file is anywhere near it). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8', { fatal: false });

export function decodeMethodBytes(bytes: Uint8Array): Exclude<ReadResult, RefusedRead> {
  // The decoders drop one leading BOM themselves; a second one stays (and TOML refuses it).
  const body = bytes;
  try {
    const text = strict.decode(body);
    const nul = text.indexOf('\u0000');
    if (nul >= 0) return { ok: true, text, fault: { kind: 'binary', offset: nul, message: 'the file holds a NUL byte: it looks like a binary file, not a method' } };
    return { ok: true, text };
  } catch {
    const bad = firstInvalidUtf8(body);
    const text = lenient.decode(body);
    // Offset in the decoded text of the first bad byte: decode the valid prefix.
    const offset = lenient.decode(body.subarray(0, bad)).length;
    const byte = body[bad] ?? 0;
    return { ok: true, text, fault: { kind: 'not_utf8', offset, message: `the file is not valid UTF-8 (byte 0x${byte.toString(16).padStart(2, '0')} cannot start or continue a character)` } };
  }
}

/** Index of the first byte that breaks UTF-8. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let n = 0;
    let min = 0;
    if (c < 0x80) n = 0;
    else if (c >= 0xc2 && c <= 0xdf) { n = 1; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { n = 2; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 3; min = 0x10000; }
    else return i;
    if (i + n >= b.length && n > 0) return i;
    let cp = n === 0 ? c : c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const cc = b[i + k]!;
      if ((cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (n > 0 && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) return i;
    i += n + 1;
  }
  return b.length;
}
