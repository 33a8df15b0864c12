// A queued runner under the faults operators meet, as processes over loopback HTTP against a
// private redis-server: a callback receiver that fails for a while with the workers killed in
// between (every callback still arrives, once), Redis stalled under a request and a server killed
// with a request in flight (the idempotency key is free again by the time the answer said to
// retry), a killed worker's run taken up within runs.stall_timeout_ms, and `mthds worker` ready
// only once Redis answers. Needs `npm run build` first.

import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { get, HELLO, post } from './helpers.js';
import { startServe, startWorkerProcess, writeConfig, type Proc } from './queueProcesses.js';
import { redisAvailable, startRedis, type RedisServer } from './redis.js';
import { freePort } from '../../helpers/ports.js';
import { CLI_BIN as BIN } from '../../helpers/cli.js';

const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };

const hasRedis = redisAvailable();
if (!hasRedis) console.warn('queueFaults.test.ts: SKIPPED — redis-server is not installed (CI installs it in .ci/run and sets MTHDS_REQUIRE_REDIS).');

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await wait(50);
  }
}

/** A callback receiver answering 500 until `recover()`, then 204; it counts both by run id. */
async function flakyReceiver(): Promise<{ url: string; refused: Map<string, number>; accepted: Map<string, number>; recover(): void; close(): Promise<void> }> {
  const refused = new Map<string, number>();
  const accepted = new Map<string, number>();
  let healthy = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { pipeline_run_id: string }).pipeline_run_id;
      const counts = healthy ? accepted : refused;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      res.writeHead(healthy ? 204 : 500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
    refused,
    accepted,
    recover: () => (healthy = true),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The pid of the redis-server listening on `port`, from Redis itself. */
function redisPid(port: number): number {
  const info = execFileSync('redis-cli', ['-p', String(port), 'INFO', 'server'], { encoding: 'utf8' });
  return Number(/process_id:(\d+)/.exec(info)![1]);
}

describe.runIf(hasRedis)('a queued runner under faults (processes, real Redis)', () => {
  const procs: Proc[] = [];
  const redises: RedisServer[] = [];
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill()));
    await Promise.all(redises.map((r) => r.stop()));
  });

  it('delivers every callback once although the receiver fails for a while and the workers delivering them are killed', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const cb = await flakyReceiver();
    const config = writeConfig({ runs: { stall_timeout_ms: 1500, attempts: 5 }, callbacks: { allow_private: true, retries: 2, timeout_ms: 1000 }, models: { mock_latency_ms: 100 } });
    const server = await startServe(redis.url, await freePort(), config, {}, ['--workers', '1']);
    procs.push(server);
    const first = await startWorkerProcess(redis.url, 4, config);
    procs.push(first);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await post(`${server.line}/start`, { ...run, callback_url: cb.url })).json.pipeline_run_id as string);
      // Every run ended and its callback refused at least once: the worker is delivering them.
      await until(() => ids.every((id) => (cb.refused.get(id) ?? 0) > 0), 20_000, 'a first refused delivery of each callback');
      await first.kill('SIGKILL');
      const second = await startWorkerProcess(redis.url, 4, config);
      procs.push(second);
      await wait(2_500);
      await second.kill('SIGKILL');
      const third = await startWorkerProcess(redis.url, 4, config);
      procs.push(third);
      await wait(1_000);
      cb.recover();
      await until(() => ids.every((id) => (cb.accepted.get(id) ?? 0) > 0), 40_000, 'every callback accepted');
      await wait(1_000);
      expect(ids.map((id) => cb.accepted.get(id))).toEqual(ids.map(() => 1));
      for (const id of ids) expect((await get(`${server.line}/runs/${id}/status`)).json.status).toBe('COMPLETED');
      // A line per run taken up, per callback refused (left to the queue), per callback delivered.
      expect(first.stderr()).toContain(`run ${ids[0]}: taken up`);
      expect(first.stderr()).toMatch(new RegExp(`run ${ids[0]}: the completion callback to http://127\\.0\\.0\\.1:\\d+ was not accepted; the queue tries again`));
      const delivered = [first, second, third].map((w) => w.stderr()).join('');
      for (const id of ids) expect(delivered).toContain(`run ${id}: callback delivered to http://127.0.0.1:`);
    } finally {
      await cb.close();
    }
  }, 90_000);

  it('frees an idempotency key within the Retry-After its answer gave: after a 503 while Redis stalled, and after the server was killed mid-request', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const config = writeConfig({ runs: { stall_timeout_ms: 1500, execute_wait_seconds: 20 }, models: { mock_latency_ms: 30_000 } });
    const port = await freePort();
    const server = await startServe(redis.url, port, config, {}, ['--workers', '1']);
    procs.push(server);
    const base = server.line;
    const pid = redisPid(redis.port);
    // Redis stalls: the reservation is written once Redis wakes up, after the runner gave up on it.
    process.kill(pid, 'SIGSTOP');
    let stalled;
    try {
      stalled = await post(`${base}/start`, run, { 'Idempotency-Key': 'stalled-key' });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(stalled.status).toBe(503);
    const retryAfter = Number(stalled.headers['retry-after']);
    expect(retryAfter).toBe(5);
    await wait(retryAfter * 1000 + 200);
    const retried = await post(`${base}/start`, run, { 'Idempotency-Key': 'stalled-key' });
    expect(retried.status, retried.text).toBe(202);

    // A request in flight when its server is killed: its key is held no longer than the lease.
    const pending = post(`${base}/execute`, run, { 'Idempotency-Key': 'killed-key' }).catch(() => undefined);
    await wait(1_000);
    const inUse = await post(`${base}/execute`, run, { 'Idempotency-Key': 'killed-key' });
    expect(inUse.status).toBe(409);
    expect(inUse.headers['retry-after']).toBe('1');
    await server.kill('SIGKILL');
    await pending;
    const again = await startServe(redis.url, port, config, {}, ['--workers', '1']);
    procs.push(again);
    await wait(5_500);
    const worker = await startWorkerProcess(redis.url, 2, writeConfig({ models: { mock_latency_ms: 10 } }));
    procs.push(worker);
    const after = await post(`${base}/execute`, run, { 'Idempotency-Key': 'killed-key' });
    expect(after.status, after.text).toBe(200);
  }, 90_000);

  it("takes a killed worker's run up within runs.stall_timeout_ms", async () => {
    const stall = 3_000;
    const config = writeConfig({ runs: { stall_timeout_ms: stall, attempts: 5 }, models: { mock_latency_ms: 60_000 } });
    const takeovers: number[] = [];
    for (let i = 0; i < 3; i++) {
      // A queue of its own each time: no run of an earlier round is waiting in it.
      const redis = await startRedis();
      redises.push(redis);
      const server = await startServe(redis.url, await freePort(), config, {}, ['--workers', '1']);
      procs.push(server);
      const holder = await startWorkerProcess(redis.url, 1, config);
      procs.push(holder);
      const id = (await post(`${server.line}/start`, run)).json.pipeline_run_id as string;
      const status = async (): Promise<{ status: string; attempts: number }> => (await get(`${server.line}/runs/${id}/status`)).json;
      await until(async () => (await status()).status === 'RUNNING', 10_000, 'the run taken up');
      // Another worker waits; the one holding the run dies at a random point of its lock's life.
      const next = await startWorkerProcess(redis.url, 1, config);
      procs.push(next);
      await wait(Math.random() * stall);
      const attempts = (await status()).attempts;
      // The takeover is timed by the waiting worker's own line as it arrives, not by a status
      // poll: a poll adds its interval and its round trip to the figure.
      let takenUpAt: number | undefined;
      next.child.stderr!.on('data', () => {
        if (takenUpAt === undefined && next.stderr().includes(`run ${id}: taken up`)) takenUpAt = Date.now();
      });
      const killedAt = Date.now();
      await holder.kill('SIGKILL');
      await until(async () => (await status()).attempts > attempts, 3 * stall, 'the run taken up again');
      await until(() => takenUpAt !== undefined, 5_000, "the waiting worker's line");
      takeovers.push(takenUpAt! - killedAt);
      expect(holder.stderr()).toContain(`run ${id}: taken up`);
      await Promise.all([next.kill('SIGKILL'), server.kill('SIGKILL'), redis.stop()]);
    }
    expect(Math.max(...takeovers), `takeovers: ${takeovers.join(', ')} ms`).toBeLessThanOrEqual(stall + 500);
  }, 120_000);

  it('says "worker ready" only once Redis answers, and logs an outage once, not once a second', async () => {
    const port = await freePort();
    const config = writeConfig({});
    const starting = startWorkerProcess(`redis://127.0.0.1:${port}`, 1, config);
    let ready = false;
    void starting.then(() => (ready = true), () => undefined);
    await wait(4_000);
    expect(ready).toBe(false);
    const redis = await startRedis(port);
    redises.push(redis);
    const worker = await starting;
    procs.push(worker);
    expect(worker.line).toContain('worker ready');
    const log = worker.stderr();
    expect(log.match(/unreachable/g)).toHaveLength(1);
    expect(log).toContain(`Redis at redis://127.0.0.1:${port} unreachable`);
    expect(log).toMatch(/reachable again after \d+ s/);
    // Stopped while it waits for Redis: status 0, at once.
    const waiting = spawn(process.execPath, [BIN, 'worker', '--queue', `redis://127.0.0.1:${await freePort()}`, '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    let waitingErr = '';
    waiting.stderr!.on('data', (d: Buffer) => (waitingErr += d.toString()));
    while (!waitingErr.includes('unreachable')) await wait(50);
    waiting.kill('SIGTERM');
    expect(await new Promise((r) => waiting.once('exit', (code) => r(code)))).toBe(0);
    expect(waitingErr).toContain('SIGTERM received before Redis answered, stopping');
    // An outage while it works: one line, then one when Redis is back.
    await redis.stop();
    await wait(4_000);
    const during = worker.stderr().slice(log.length);
    expect(during.match(/unreachable/g)?.length ?? 0).toBeLessThanOrEqual(2);
    expect(during).toContain('unreachable');
  }, 60_000);
});
