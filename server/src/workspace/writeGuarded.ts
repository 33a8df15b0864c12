// Writing a file the tools read earlier (`mthds check --fix`, `mthds format`) without clobbering a
// change made by someone else in between: the file is read into a snapshot, the new content is
// computed from it, staged in a temporary file of the same folder (same mode), and the file's
// current bytes are compared with the snapshot's right before the temporary file is renamed over
// it. A difference means another writer got there first: nothing is written (the caller reports
// method.changed_concurrently) and the other change stays intact.
//
// The comparison and the rename are two system calls, so a writer landing exactly between them
// can still be overwritten; every earlier change is caught. The rename replaces the file by a new
// one: its mode is kept, hard links to the old file keep the old content.

import { closeSync, fsyncSync, openSync, realpathSync, renameSync, unlinkSync, writeSync, chmodSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { readRegularFile, type RefusedRead } from './readText.js';

/** A file as read: the bytes a later write is compared against. */
export interface FileSnapshot {
  /** The path as given. */
  file: string;
  /** The file written: the path with symbolic links resolved (a link stays a link). */
  target: string;
  bytes: Buffer;
  /** Permission bits, given to the replacement. */
  mode: number;
}

export type GuardedWriteResult =
  | { status: 'written' }
  /** The file is no longer what the snapshot holds (changed, replaced or removed): nothing written. */
  | { status: 'changed' }
  | { status: 'failed'; message: string };

export interface GuardedWriteHooks {
  /**
   * Called once the new content is staged, right before the file is compared and replaced: where a
   * concurrent writer would strike (tests use it to simulate one).
   */
  beforeCommit?: () => void;
}

/** A file a snapshot was refused for: its message completes "the file ...". */
export class SnapshotRefused extends Error {
  constructor(readonly refusal: RefusedRead) {
    super(refusal.message);
  }
}

/**
 * Reads a file into a snapshot (a regular file only, bounded like every read: readRegularFile);
 * throws SnapshotRefused, or the file system's error, when it cannot be read.
 */
export function readSnapshot(file: string): FileSnapshot {
  let target: string;
  try {
    target = realpathSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SnapshotRefused({ ok: false, kind: 'missing', message: 'does not exist' });
    throw error;
  }
  const read = readRegularFile(target);
  if (!read.ok) throw new SnapshotRefused(read);
  return { file, target, bytes: read.bytes, mode: read.stat.mode & 0o7777 };
}

function currentBytes(target: string): Buffer | undefined {
  const read = readRegularFile(target);
  return read.ok ? read.bytes : undefined;
}

function errorText(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ? `${e.code}${e.message ? `: ${e.message}` : ''}` : error instanceof Error ? error.message : String(error);
}

/** Replaces the file read into `snapshot` with `content` (UTF-8 for a string), unless it changed since. */
export function writeGuarded(snapshot: FileSnapshot, content: string | Uint8Array, hooks: GuardedWriteHooks = {}): GuardedWriteResult {
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const dir = path.dirname(snapshot.target);
  const temp = path.join(dir, `.${path.basename(snapshot.target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let staged = false;
  try {
    const fd = openSync(temp, 'wx', snapshot.mode);
    staged = true;
    try {
      let offset = 0;
      while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // openSync's mode is filtered by the umask: set it exactly.
    chmodSync(temp, snapshot.mode);
    hooks.beforeCommit?.();
    const now = currentBytes(snapshot.target);
    if (!now || !now.equals(snapshot.bytes)) {
      unlinkSync(temp);
      staged = false;
      return { status: 'changed' };
    }
    renameSync(temp, snapshot.target);
    staged = false;
    return { status: 'written' };
  } catch (error) {
    if (staged) {
      try {
        unlinkSync(temp);
      } catch {
        // already gone
      }
    }
    return { status: 'failed', message: errorText(error) };
  }
}
