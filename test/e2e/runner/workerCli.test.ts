// `mthds worker` and `mthds serve --queue` as processes: usage faults exit 2 with a clear message.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = path.join(REPO, 'server/bin/mthds.js');

function mthds(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('mthds worker (usage)', () => {
  it('needs a queue, a redis:// one, and a sane concurrency', () => {
    expect(mthds('worker')).toMatchObject({ status: 2, stderr: expect.stringContaining('runs.queue must name the queue') });
    expect(mthds('worker', '--queue', 'http://127.0.0.1:6379')).toMatchObject({ status: 2, stderr: expect.stringContaining('runs.queue must be a redis:// URL') });
    expect(mthds('worker', '--queue', 'redis://127.0.0.1:1', '--concurrency', '0')).toMatchObject({ status: 2, stderr: expect.stringContaining('--concurrency') });
    expect(mthds('serve', '--queue', 'ftp://x')).toMatchObject({ status: 2, stderr: expect.stringContaining('runs.queue must be a redis:// URL') });
    expect(mthds('worker', '--help')).toMatchObject({ status: 0, stdout: expect.stringContaining('--queue redis://HOST:PORT') });
  });

  it('documents its options, exit statuses and examples in --help', () => {
    const help = mthds('worker', '--help').stdout;
    for (const part of ['Options:', '--concurrency N', '--config FILE', '--functions FILE', 'Exit status:', '130', 'Examples:', 'stall_timeout_ms', 'worker ready']) expect(help).toContain(part);
  });
});
