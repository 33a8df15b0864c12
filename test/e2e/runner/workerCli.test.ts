// `mthds worker` and `mthds serve --queue` as processes: usage faults exit 2 with a clear message.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';

function mthds(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = runCli(args, { timeout: 20_000 });
  return { status, stdout, stderr };
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
