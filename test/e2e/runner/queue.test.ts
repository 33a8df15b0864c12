// Durable runs on a Redis queue, as processes over loopback HTTP: `mthds serve --queue` and
// `mthds worker` from the built CLI against a private redis-server. No accepted run is lost when a
// worker and then the server are killed with SIGKILL; a run whose workers keep dying is given up
// after the configured attempts; callbacks go out once per run; with Redis gone /start answers
// 503 and reads say `degraded`. Needs `npm run build` first.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, HELLO, post, problemOf } from './helpers.js';
import { SdkShapedClient } from './lifecycleClient.js';
import { startServe, startWorkerProcess, writeConfig, type Proc } from './queueProcesses.js';
import { redisAvailable, startRedis, type RedisServer } from './redis.js';
import { freePort } from '../../helpers/ports.js';

const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };
const TOKEN = { MTHDS_RUNNER_TOKENS: 'queue-token' };
const auth = { Authorization: 'Bearer queue-token' };

/** Every POST a callback receiver got, by run id. */
async function receiver(): Promise<{ url: string; got: Map<string, any[]>; close: () => Promise<void> }> {
  const got = new Map<string, any[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      got.set(body.pipeline_run_id, [...(got.get(body.pipeline_run_id) ?? []), body]);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`, got, close: () => new Promise((r) => server.close(() => r())) };
}

async function statusOf(base: string, id: string): Promise<any> {
  return (await get(`${base}/runs/${id}/status`, auth)).json;
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const hasRedis = redisAvailable();
if (!hasRedis) console.warn('queue.test.ts: SKIPPED — redis-server is not installed (CI installs it in .ci/run and sets MTHDS_REQUIRE_REDIS).');

describe.runIf(hasRedis)('runs on a Redis queue (processes)', () => {
  let redis: RedisServer;
  const procs: Proc[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill()));
    await redis?.stop();
  });

  it('completes all 20 runs although a worker and then the server are SIGKILLed mid-way', async () => {
    const cb = await receiver();
    const config = writeConfig({ runs: { stall_timeout_ms: 1000, attempts: 3 }, callbacks: { allow_private: true }, models: { mock_latency_ms: 600 } });
    const port = await freePort();
    const server = await startServe(redis.url, port, config, TOKEN);
    procs.push(server);
    const workerA = await startWorkerProcess(redis.url, 3, config);
    const workerB = await startWorkerProcess(redis.url, 3, config);
    procs.push(workerA, workerB);
    const base = server.line;
    try {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const started = await post(`${base}/start`, { ...run, inputs: { name: { concept: 'Text', content: `Ada ${i}` } }, callback_url: cb.url }, auth);
        expect(started.status).toBe(202);
        ids.push(started.json.pipeline_run_id);
      }
      // Both workers hold runs: kill one of them in the middle of its runs, then the server.
      await until(async () => (await Promise.all(ids.map((id) => statusOf(base, id)))).filter((s) => s.status === 'RUNNING').length >= 4, 10_000, 'runs in flight');
      await workerA.kill('SIGKILL');
      await server.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 300));
      const again = await startServe(redis.url, port, config, TOKEN);
      procs.push(again);
      expect(again.line).toBe(base);
      await until(async () => (await Promise.all(ids.map((id) => statusOf(base, id)))).every((s) => s.status === 'COMPLETED'), 30_000, 'every run COMPLETED');
      const records = await Promise.all(ids.map((id) => statusOf(base, id)));
      // The runs of the killed worker were taken up again, and their records say so.
      expect(records.some((s) => s.attempts >= 2)).toBe(true);
      for (const [i, id] of ids.entries()) {
        const results = await get(`${base}/runs/${id}/results`, auth);
        expect(results.status).toBe(200);
        expect(results.json.main_stuff).toMatchObject({ concept: 'native.Text', content: { text: expect.stringContaining(`Ada ${i}`) } });
      }
      // One callback per run, even for the runs that were run twice.
      await until(async () => ids.every((id) => cb.got.has(id)), 10_000, 'every callback');
      await new Promise((r) => setTimeout(r, 500));
      for (const id of ids) expect(cb.got.get(id)).toHaveLength(1);
      expect(ids.every((id) => cb.got.get(id)![0].status === 'COMPLETED')).toBe(true);
    } finally {
      await Promise.all(procs.splice(0).map((p) => p.kill()));
      await cb.close();
    }
  }, 90_000);

  it('gives a run up (FAILED, mthdsls.run.abandoned) when its workers die past the configured attempts', async () => {
    const cb = await receiver();
    const config = writeConfig({ runs: { stall_timeout_ms: 800, attempts: 1 }, callbacks: { allow_private: true }, models: { mock_latency_ms: 60_000 } });
    const server = await startServe(redis.url, 0, config, TOKEN);
    procs.push(server);
    const doomed = await startWorkerProcess(redis.url, 1, config);
    const base = server.line;
    try {
      const id = (await post(`${base}/start`, { ...run, callback_url: cb.url }, auth)).json.pipeline_run_id as string;
      await until(async () => (await statusOf(base, id)).status === 'RUNNING', 10_000, 'the run RUNNING');
      await doomed.kill('SIGKILL');
      procs.push(await startWorkerProcess(redis.url, 1, config));
      await until(async () => (await statusOf(base, id)).status === 'FAILED', 20_000, 'the run FAILED');
      expect(await statusOf(base, id)).toMatchObject({ status: 'FAILED', attempts: 1, error: { code: 'mthdsls.run.abandoned', params: { attempts: 1 } } });
      const results = await get(`${base}/runs/${id}/results`, auth);
      expect(problemOf(results)).toMatchObject({ status: 409, code: 'mthdsls.run.not_completed', params: { status: 'FAILED' } });
      await until(async () => cb.got.has(id), 10_000, 'the callback');
      await new Promise((r) => setTimeout(r, 300));
      expect(cb.got.get(id)).toEqual([expect.objectContaining({ status: 'FAILED', error: expect.objectContaining({ code: 'mthdsls.run.abandoned' }) })]);
    } finally {
      await Promise.all(procs.splice(0).map((p) => p.kill()));
      await cb.close();
    }
  }, 60_000);

  it('is followed by the SDK sequence, waits on /execute, keeps idempotency keys across servers, and refuses runs while Redis is unreachable', async () => {
    const own = await startRedis();
    const config = writeConfig({ runs: { stall_timeout_ms: 1000, execute_wait_seconds: 10 }, models: { mock_latency_ms: 100 } });
    const port = await freePort();
    const server = await startServe(own.url, port, config, TOKEN);
    procs.push(server, await startWorkerProcess(own.url, 2, config));
    const base = server.line;
    try {
      const client = new SdkShapedClient(new URL(base).origin, 'queue-token');
      expect(await client.health()).toMatchObject({ status: 'ok', queue: 'redis' });
      const result = await client.startAndWaitForResult(run);
      expect(result['main_stuff']).toMatchObject({ concept: 'native.Text', content: { text: expect.stringContaining('Ada') } });
      const id = result['pipeline_run_id'] as string;
      // /execute through the queue: the run waited for, answered like a direct one.
      const executed = await post(`${base}/execute`, run, auth);
      expect(executed.status).toBe(200);
      expect(executed.json).toMatchObject({ state: 'COMPLETED', pipe_output: { working_memory: { root: { main_stuff: { concept: 'native.Text' } } } } });

      // An idempotency key is kept in Redis: a restarted server replays the first answer.
      const keyed = await post(`${base}/start`, run, { ...auth, 'Idempotency-Key': 'start-once' });
      expect(keyed.status).toBe(202);
      await server.kill('SIGKILL');
      // One process: a degraded read answers from what the serving process saw (with --workers N,
      // the worker that accepted or read the run), so the reads below must reach the same one.
      const again = await startServe(own.url, port, config, TOKEN, ['--workers', '1']);
      procs.push(again);
      const replay = await post(`${base}/start`, run, { ...auth, 'Idempotency-Key': 'start-once' });
      expect(replay.status).toBe(202);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json.pipeline_run_id).toBe(keyed.json.pipeline_run_id);
      expect(problemOf(await post(`${base}/start`, { ...run, inputs: { name: { concept: 'Text', content: 'Bob' } } }, { ...auth, 'Idempotency-Key': 'start-once' })).code).toBe('request.idempotency_conflict');

      // The serving process read the run before Redis went away: it answers that record, degraded.
      expect((await get(`${base}/runs/${id}/status`, auth)).json).toMatchObject({ status: 'COMPLETED', degraded: false });
      const fresh = (await post(`${base}/start`, run, auth)).json.pipeline_run_id as string;

      await own.stop();
      // A run this process accepted and never read since: its record as accepted, degraded.
      expect((await get(`${base}/runs/${fresh}/status`, auth)).json).toMatchObject({ pipeline_run_id: fresh, status: 'PENDING', degraded: true });
      expect(problemOf(await get(`${base}/runs/${keyed.json.pipeline_run_id}-x/status`, auth))).toMatchObject({ status: 503, code: 'mthdsls.runtime.unavailable' });
      const refused = await post(`${base}/start`, run, auth);
      expect(refused.status).toBe(503);
      expect(problemOf(refused)).toMatchObject({ code: 'mthdsls.runtime.unavailable', retry_after: 5 });
      expect(refused.headers['retry-after']).toBe('5');
      const degraded = await get(`${base}/runs/${id}/status`, auth);
      expect(degraded.status).toBe(200);
      expect(degraded.json).toMatchObject({ pipeline_run_id: id, status: 'COMPLETED', degraded: true });
      expect(degraded.headers['retry-after']).toBe('5');
      // Clients read a 503 on results as "still running, retry".
      expect((await get(`${base}/runs/${id}/results`, auth)).status).toBe(503);
      expect((await get(`${new URL(base).origin}/health`)).status).toBe(503);
    } finally {
      await Promise.all(procs.splice(0).map((p) => p.kill()));
      await own.stop();
    }
  }, 60_000);
});
