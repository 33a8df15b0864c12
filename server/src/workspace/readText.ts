// Reading a method file from disk as text: UTF-8 only, with the first fault located so that a
// bad file gets an exact, clear finding instead of an exception.
//
// Every file the tools read (the command line, the language server, the runner's local files)
// comes through readRegularFile: a FIFO, a device or a socket is refused before a byte is read
// (opened without blocking, then judged by fstat on the open descriptor, so that a FIFO cannot
// hold the open and a file swapped after a stat cannot slip through), and the bound counts the
// bytes actually read: a device reports a size of 0 and never ends.

import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { decodeMethodBytes, MAX_FILE_BYTES, type ReadResult, type RefusedRead } from './methodText.js';

export { decodeMethodBytes, firstInvalidUtf8, MAX_FILE_BYTES, type ReadResult, type RefusedRead } from './methodText.js';

export type BytesRead = { ok: true; bytes: Buffer; stat: Stats } | RefusedRead;

/** O_NONBLOCK where the platform has it: opening a FIFO for reading then returns at once. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK = 64 * 1024;
/** The one byte asked past a short read (see readRegularFile). */
const probe = Buffer.alloc(1);

/** What a file that is neither regular nor a folder is, in words. */
export function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

function refusedFor(error: unknown): RefusedRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, kind: 'missing', message: 'does not exist' };
  if (code === 'EISDIR') return { ok: false, kind: 'directory', message: 'is a directory' };
  if (code === 'EACCES' || code === 'EPERM') return { ok: false, kind: 'unreadable', message: 'cannot be read (permission denied)' };
  if (code === 'ENXIO') return { ok: false, kind: 'not_regular', message: 'is not a regular file (a socket or a device); it is not read' };
  return { ok: false, kind: 'unreadable', message: `cannot be read (${code ?? 'unknown error'})` };
}

/**
 * Runs `use` on a regular file opened for reading (opened without blocking, judged by fstat on the
 * open descriptor, closed after); anything else is refused without a byte read.
 */
function withRegularFile<T>(path: string, use: (fd: number, stat: Stats) => T | RefusedRead): T | RefusedRead {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return refusedFor(error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { ok: false, kind: 'directory', message: 'is a directory' };
    if (!stat.isFile()) return { ok: false, kind: 'not_regular', message: `is not a regular file (${specialKind(stat)}); it is not read` };
    return use(fd, stat);
  } catch (error) {
    return refusedFor(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of a regular file, at most `limit` of them (more is refused as too large, counted as
 * read, never trusted from the size the file system reports). Anything but a regular file is
 * refused without reading.
 */
export function readRegularFile(path: string, limit: number = MAX_FILE_BYTES): BytesRead {
  return withRegularFile<BytesRead>(path, (fd, stat) => {
    const chunks: Buffer[] = [];
    let total = 0;
    // The first read asks for the size the file says it has, and one byte more to see its end: a
    // method file is read in one call into a buffer of its own size (a workspace reads thousands).
    let first = stat.size > 0 && stat.size < CHUNK ? stat.size + 1 : CHUNK;
    for (;;) {
      // One byte past the limit is enough to know the file is too large.
      const want = Math.min(first, limit + 1 - total);
      first = CHUNK;
      if (want <= 0) return { ok: false, kind: 'too_large', message: `is too large (more than ${limit} bytes; the limit is ${limit})` };
      const chunk = Buffer.allocUnsafe(want);
      const n = readSync(fd, chunk, 0, want, null);
      if (n === 0) break;
      chunks.push(n === want ? chunk : chunk.subarray(0, n));
      total += n;
      // A short read is the end of a regular file unless it grew meanwhile: asked with one byte,
      // not with a fresh chunk (64 KB of new memory per file read, 0.1 s over a thousand files).
      if (n < want) {
        if (readSync(fd, probe, 0, 1, null) === 0) break;
        chunks.push(Buffer.from(probe));
        total += 1;
      }
    }
    return { ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), stat };
  });
}

/**
 * Why a file may not be handed to a reader this module does not control (a module import), or
 * undefined for a regular file: judged as readRegularFile judges it, without reading it.
 */
export function regularFileFault(path: string): RefusedRead | undefined {
  return withRegularFile(path, () => undefined);
}

/** A regular file's text as UTF-8 (JSON, configuration): refused with a message unless it decodes. */
export function readRegularText(path: string, limit: number = MAX_FILE_BYTES): { ok: true; text: string } | RefusedRead | { ok: false; kind: 'not_utf8'; message: string } {
  const read = readRegularFile(path, limit);
  if (!read.ok) return read;
  const decoded = decodeMethodBytes(read.bytes);
  if ('fault' in decoded && decoded.fault.kind === 'not_utf8') return { ok: false, kind: 'not_utf8', message: decoded.fault.message.replace(/^the file /, '') };
  return { ok: true, text: decoded.text };
}

export function readMethodFile(path: string): ReadResult {
  const read = readRegularFile(path);
  return read.ok ? { ...decodeMethodBytes(read.bytes), stamp: { mtimeMs: read.stat.mtimeMs, size: read.stat.size } } : read;
}

