// `mthds serve` warms each serving process up before it listens (runner/warmUp.ts): on by default,
// off with --no-warm-up, `warm_up = false` or `warm_up = 0`, for a CPU budget of `warm_up` milliseconds;
// the answers are the same either way.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { warmUpBundles } from '../../../server/src/runner/warmUp.js';
import { HELLO, post, serveProcess } from './helpers.js';
import { runCli } from '../../helpers/cli.js';


/**
 * The warm-up lines of a server's stderr once `count` of them are there (the workers write their
 * own; the URL comes when the first worker listens, the others may still be warming up: up to
 * twice the CPU budget, more on busy cores, so the wait is long and not what is tested).
 */
async function warmUpLines(stderr: () => string, count: number): Promise<string[]> {
  const lines = (): string[] => stderr().split('\n').filter((l) => l.startsWith('warm-up: '));
  for (let i = 0; i < 1500 && lines().length < count; i++) await new Promise((r) => setTimeout(r, 20));
  return lines();
}

/** Stops servers with SIGTERM; each exits 0. */
async function stopped(...servers: Array<Awaited<ReturnType<typeof serveProcess>>>): Promise<void> {
  for (const s of servers) s.child.kill('SIGTERM');
  for (const s of servers) expect(await s.exited).toBe(0);
}

describe('mthds serve warm-up', () => {
  it('warms up by default, not with --no-warm-up, and answers /validate the same either way', async () => {
    const warm = await serveProcess(['--workers', '1', '--quiet']);
    const cold = await serveProcess(['--workers', '1', '--quiet', '--no-warm-up']);
    try {
      const lines = await warmUpLines(warm.stderr, 1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^warm-up: \d+ \/validate requests in \d+ ms \(CPU \d+ ms\)$/);
      // A bundle of the warm-up itself (its verdict was not kept), a valid one, and an invalid one.
      const bodies = [{ mthds_contents: [warmUpBundles(0)[0]!.text] }, { mthds_contents: [HELLO] }, { mthds_contents: [HELLO.replace('PipeLLM', 'PipeLMM')] }];
      for (const body of bodies) {
        const a = await post(`${warm.url}/validate`, body);
        const b = await post(`${cold.url}/validate`, body);
        expect(a.status).toBe(200);
        expect(a.text).toBe(b.text);
      }
      expect(cold.stderr()).not.toContain('warm-up');
    } finally {
      await stopped(warm, cold);
    }
  });

  it('warms up every worker', async () => {
    const { child, url, exited, stderr } = await serveProcess(['--workers', '2', '--quiet']);
    try {
      expect(await warmUpLines(stderr, 2)).toHaveLength(2);
      for (let i = 0; i < 100 && !stderr().includes('(2 worker processes)'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(stderr()).toContain('(2 worker processes)');
      expect((await post(`${url}/validate`, { mthds_contents: [HELLO] })).json.is_valid).toBe(true);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('is turned off by warm_up = false in the config file, and warm_up must be a boolean or milliseconds', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-warm-up-'));
    const off = path.join(dir, 'off.toml');
    writeFileSync(off, 'warm_up = false\n');
    const { child, url, exited, stderr } = await serveProcess(['--workers', '1', '--config', off]);
    expect((await post(`${url}/validate`, { mthds_contents: [HELLO] })).json.is_valid).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr()).not.toContain('warm-up');

    for (const value of ['"yes"', '-1', '2.5']) {
      const bad = path.join(dir, 'bad.toml');
      writeFileSync(bad, `warm_up = ${value}\n`);
      const r = runCli(['serve', '--port', '0', '--config', bad], { timeout: 10_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('warm_up must be a boolean or a non-negative integer (milliseconds of CPU time)');
    }
  });

  it('spends the CPU budget warm_up gives in milliseconds, and none with warm_up = 0', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-warm-up-'));
    const short = path.join(dir, 'short.toml');
    writeFileSync(short, 'warm_up = 150\n');
    const none = path.join(dir, 'none.toml');
    writeFileSync(none, 'warm_up = 0\n');
    const brief = await serveProcess(['--workers', '1', '--quiet', '--config', short]);
    const cold = await serveProcess(['--workers', '1', '--quiet', '--config', none]);
    try {
      const [line] = await warmUpLines(brief.stderr, 1);
      const cpu = Number(/\(CPU (\d+) ms\)$/.exec(line ?? '')?.[1]);
      // No round starts past the budget; the round under way when it is reached finishes (one
      // round is a few requests, far less than the default budget of 2,500 ms).
      expect(cpu).toBeGreaterThanOrEqual(150);
      expect(cpu).toBeLessThan(1500);
      expect((await post(`${brief.url}/validate`, { mthds_contents: [HELLO] })).json.is_valid).toBe(true);
      expect((await post(`${cold.url}/validate`, { mthds_contents: [HELLO] })).json.is_valid).toBe(true);
      expect(cold.stderr()).not.toContain('warm-up');
    } finally {
      await stopped(brief, cold);
    }
  });
});
