// `mthds serve --workers N`: several processes on one port, with one idempotency store and one
// set of rate-limit windows (held by the primary) whichever worker a connection lands on.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO, get, post } from './helpers.js';
import { CLI_BIN as BIN, runCli } from '../../helpers/cli.js';

const REPO = path.resolve(__dirname, '../../..');
// Every request on a new connection: the cluster hands connections to the workers in turn.
const CLOSE = { Connection: 'close' };

let child: ChildProcess;
let url: string;
let exited: Promise<number | null>;
let stderr = '';

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-workers-'));
  const config = path.join(dir, 'runner.json');
  writeFileSync(config, JSON.stringify({ rate_limit: { limit: 12, window_seconds: 600 } }));
  child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--workers', '3', '--no-warm-up', '--config', config], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  // The line on stderr follows the URL on stdout. No warm-up: this file measures none.
  while (!stderr.includes('worker processes)\n')) await new Promise((resolve) => setTimeout(resolve, 20));
}, 30_000);

afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

/** The pids of the processes the primary forked (Linux). */
function workerPids(): number[] {
  const file = `/proc/${child.pid}/task/${child.pid}/children`;
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : [];
}

describe('mthds serve --workers', () => {
  it('serves one port from the workers it forked, and answers idempotency keys from one store', async () => {
    expect(stderr).toContain('(3 worker processes)');
    if (process.platform === 'linux') {
      expect(workerPids()).toHaveLength(3);
      // The workers' young generation is sized on their command line (cluster.ts, workerExecArgv).
      for (const pid of workerPids()) expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--max-semi-space-size=32');
    }
    const body = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };
    const first = await post(`${url}/execute`, body, { ...CLOSE, 'Idempotency-Key': 'one-request' });
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Later connections land on every worker in turn: each answers the replay of the first run.
    for (let i = 0; i < 5; i++) {
      const again = await post(`${url}/execute`, body, { ...CLOSE, 'Idempotency-Key': 'one-request' });
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json.pipeline_run_id).toBe(first.json.pipeline_run_id);
    }
    const conflict = await post(`${url}/execute`, { ...body, inputs: { name: { concept: 'Text', content: 'Bob' } } }, { ...CLOSE, 'Idempotency-Key': 'one-request' });
    expect(conflict.status).toBe(409);
    expect(conflict.json.code).toBe('request.idempotency_conflict');
  }, 30_000);

  it('counts a rate limit across the workers', async () => {
    // 7 requests were counted by the first test; the limit is 12 per window.
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await get(`${url}/models`, CLOSE)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.slice(5)).toEqual([429, 429, 429, 429]);
  }, 30_000);

  it('stops every worker on SIGTERM and exits 0', async () => {
    const pids = workerPids();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 30_000);

  it('exits 2 when the workers cannot listen', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const r = runCli(['serve', '--port', String(port), '--workers', '2'], { timeout: 20_000 });
    blocker.close();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('EADDRINUSE');
    const usage = runCli(['serve', '--workers', 'zero'], { timeout: 10_000 });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--workers');
  }, 30_000);
});
