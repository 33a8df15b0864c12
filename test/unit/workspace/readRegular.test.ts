// The one bounded reader of the tools' files: a FIFO is refused without blocking the open, a
// device (size 0, endless) without reading it, and the bound counts the bytes read.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMethodFile, readRegularFile, readRegularText } from '../../../server/src/workspace/readText.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mthds-read-'));

describe('readRegularFile', () => {
  it('refuses a FIFO with no writer at once (the open does not block)', () => {
    const fifo = path.join(dir, 'fifo.mthds');
    execFileSync('mkfifo', [fifo]);
    expect(readRegularFile(fifo)).toEqual({ ok: false, kind: 'not_regular', message: 'is not a regular file (a FIFO); it is not read' });
  });

  it('refuses a link to /dev/zero (followed when named, judged on the open file)', () => {
    const link = path.join(dir, 'zero.mthds');
    symlinkSync('/dev/zero', link);
    expect(readRegularFile(link)).toMatchObject({ ok: false, kind: 'not_regular', message: 'is not a regular file (a character device); it is not read' });
    expect(readMethodFile(link)).toMatchObject({ ok: false, kind: 'not_regular' });
  });

  it('bounds by the bytes read: the limit passes, one byte more is too large', () => {
    const file = path.join(dir, 'ten.mthds');
    writeFileSync(file, '0123456789');
    const read = readRegularFile(file, 10);
    expect(read.ok && read.bytes.toString()).toBe('0123456789');
    expect(readRegularFile(file, 9)).toMatchObject({ ok: false, kind: 'too_large' });
  });

  it('reads a file larger than one chunk whole', () => {
    const file = path.join(dir, 'big.mthds');
    const text = 'x'.repeat(200_000);
    writeFileSync(file, text);
    const read = readRegularFile(file);
    expect(read.ok && read.bytes.length).toBe(200_000);
  });

  it('reads files of every size around the chunk whole, and refuses one byte past the limit', () => {
    const chunk = 64 * 1024;
    for (const size of [0, 1, 2, chunk - 1, chunk, chunk + 1, 2 * chunk + 5]) {
      const file = path.join(dir, `sized-${size}.mthds`);
      const bytes = Buffer.from(Array.from({ length: size }, (_, i) => 97 + (i % 26)));
      writeFileSync(file, bytes);
      const read = readRegularFile(file);
      expect(read.ok && Buffer.compare(read.bytes, bytes), `size ${size}`).toBe(0);
      const exact = readRegularFile(file, size);
      expect(exact.ok && exact.bytes.length, `size ${size} at its own limit`).toBe(size);
      if (size > 0) expect(readRegularFile(file, size - 1), `size ${size} past the limit`).toMatchObject({ ok: false, kind: 'too_large' });
    }
  });

  it('names a missing file and a folder', () => {
    expect(readRegularFile(path.join(dir, 'nope.mthds'))).toMatchObject({ ok: false, kind: 'missing', message: 'does not exist' });
    expect(readRegularFile(dir)).toMatchObject({ ok: false, kind: 'directory' });
  });

  it('readRegularText refuses bytes that are not UTF-8', () => {
    const file = path.join(dir, 'latin.json');
    writeFileSync(file, Buffer.from([0x7b, 0xe9, 0x7d]));
    expect(readRegularText(file)).toMatchObject({ ok: false, kind: 'not_utf8' });
  });
});
