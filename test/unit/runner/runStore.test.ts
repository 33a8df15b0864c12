// The run store, in memory and in Redis (a private redis-server): the same behaviour from both.
// A run becomes terminal once; the callback is claimed once; terminal runs are forgotten after the
// retention time; a retry of a terminal run starts nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRunStore, type RunOutcome, type RunRecord, type RunStore } from '../../../server/src/runner/lifecycle/store.js';
import { connectRedis, RedisRunStore, whenReady } from '../../../server/src/runner/lifecycle/redisStore.js';
import { redisAvailable, startRedis, type RedisServer } from '../../e2e/runner/redis.js';

let counter = 0;
function record(): RunRecord {
  counter++;
  return { pipeline_run_id: `run-${Date.now()}-${counter}`, owner: 'token:a', pipe_code: 'greet', status: 'PENDING', created_at: new Date().toISOString(), attempts: 0 };
}

const completed = (id: string): RunOutcome => ({
  status: 'COMPLETED',
  finished_at: new Date().toISOString(),
  result: { pipeline_run_id: id, state: 'COMPLETED', created_at: 'c', finished_at: 'f', pipe_output: { pipeline_run_id: id, working_memory: { root: {}, aliases: {} } } },
});

const failed: RunOutcome = {
  status: 'FAILED',
  finished_at: new Date().toISOString(),
  error: { type: 't', title: 'x', status: 503, detail: 'd', code: 'mthdsls.run.abandoned', error_domain: 'runtime', retryable: false, params: { attempts: 2 }, errors: [] },
};

function contract(name: string, make: (retentionSeconds: number) => Promise<RunStore>, wait: (ms: number) => Promise<void>): void {
  describe(name, () => {
    it('stores a run, records each attempt, and makes it terminal exactly once', async () => {
      const store = await make(60);
      const r = record();
      await store.create(r);
      expect((await store.get(r.pipeline_run_id))?.status).toBe('PENDING');
      const first = await store.begin(r, '2026-01-01T00:00:00Z');
      expect(first).toMatchObject({ started: true, record: { status: 'RUNNING', attempts: 1, started_at: '2026-01-01T00:00:00Z' } });
      const second = await store.begin(r, '2026-01-01T00:00:01Z');
      expect(second.record.attempts).toBe(2);
      const results = await Promise.all([store.finish(r.pipeline_run_id, completed(r.pipeline_run_id)), store.finish(r.pipeline_run_id, failed)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const done = await store.get(r.pipeline_run_id);
      expect(done?.status).toBe(results[0] ? 'COMPLETED' : 'FAILED');
      expect(await store.finish(r.pipeline_run_id, failed)).toBe(false);
      // A worker taking the job up again after the run ended starts nothing.
      expect((await store.begin(r, 'later')).started).toBe(false);
      await store.close();
    });

    it('keeps the result of a completed run and the error of a failed one', async () => {
      const store = await make(60);
      const a = record();
      const b = record();
      await store.create(a);
      await store.create(b);
      await store.finish(a.pipeline_run_id, completed(a.pipeline_run_id));
      await store.finish(b.pipeline_run_id, failed);
      expect((await store.result(a.pipeline_run_id))?.pipeline_run_id).toBe(a.pipeline_run_id);
      expect(await store.result(b.pipeline_run_id)).toBeUndefined();
      const rb = await store.get(b.pipeline_run_id);
      expect(rb?.error).toMatchObject({ code: 'mthdsls.run.abandoned', errors: [] });
      expect(rb?.finished_at).toBeDefined();
      await store.close();
    });

    it('claims the callback of a run once, whoever asks', async () => {
      const store = await make(60);
      const r = record();
      await store.create(r);
      const claims = await Promise.all([store.claimCallback(r.pipeline_run_id), store.claimCallback(r.pipeline_run_id), store.claimCallback(r.pipeline_run_id)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      await store.close();
    });

    it('holds a callback claim for its lease only, gives it back on release, and never after delivery', async () => {
      const store = await make(60);
      const r = record();
      await store.create(r);
      expect(await store.claimCallback(r.pipeline_run_id, 'a', 400)).toBe(true);
      expect(await store.claimCallback(r.pipeline_run_id, 'b', 400)).toBe(false);
      // The holder renews its own claim.
      expect(await store.claimCallback(r.pipeline_run_id, 'a', 400)).toBe(true);
      // Its delivery failed: released, the next one claims it at once.
      await store.releaseCallback(r.pipeline_run_id, 'a');
      expect(await store.claimCallback(r.pipeline_run_id, 'b', 400)).toBe(true);
      // Its holder died (no release, no renewal): free once the lease ran out.
      expect(await store.claimCallback(r.pipeline_run_id, 'c', 400)).toBe(false);
      await wait(600);
      expect(await store.claimCallback(r.pipeline_run_id, 'c', 400)).toBe(true);
      // Another's release changes nothing.
      await store.releaseCallback(r.pipeline_run_id, 'b');
      expect(await store.claimCallback(r.pipeline_run_id, 'd', 400)).toBe(false);
      expect(await store.callbackDelivered(r.pipeline_run_id)).toBe(false);
      await store.deliveredCallback(r.pipeline_run_id);
      expect(await store.callbackDelivered(r.pipeline_run_id)).toBe(true);
      await wait(600);
      expect(await store.claimCallback(r.pipeline_run_id, 'e', 400)).toBe(false);
      await store.close();
    });

    it('forgets a finished run after the retention time, never a running one', async () => {
      const store = await make(1);
      const done = record();
      const running = record();
      await store.create(done);
      await store.create(running);
      await store.begin(running, 'now');
      await store.finish(done.pipeline_run_id, completed(done.pipeline_run_id));
      expect(await store.get(done.pipeline_run_id)).toBeDefined();
      await wait(2_100);
      expect(await store.get(done.pipeline_run_id)).toBeUndefined();
      expect(await store.result(done.pipeline_run_id)).toBeUndefined();
      expect((await store.get(running.pipeline_run_id))?.status).toBe('RUNNING');
      await store.close();
    });
  });
}

// The memory store reads a clock: advanced by hand, no waiting.
let now = Date.now();
contract('MemoryRunStore', async (retention) => new MemoryRunStore(retention, () => now), async (ms) => {
  now += ms;
});

const hasRedis = redisAvailable();
let redis: RedisServer | undefined;
beforeAll(async () => {
  if (hasRedis) redis = await startRedis();
}, 20_000);
afterAll(async () => {
  await redis?.stop();
});

if (hasRedis) {
  contract(
    'RedisRunStore',
    async (retention) => {
      const client = connectRedis(redis!.url, 'test');
      await whenReady(client, 5_000);
      return new RedisRunStore(client, { retentionSeconds: retention, prefix: `t${counter}:` });
    },
    (ms) => new Promise((r) => setTimeout(r, ms)),
  );

  describe('RedisRunStore with Redis gone', () => {
    it('rejects writes at once instead of queueing them (a run is never accepted unstored)', async () => {
      const client = connectRedis('redis://127.0.0.1:1', 'test');
      client.on('error', () => {});
      const store = new RedisRunStore(client, { retentionSeconds: 60 });
      const started = Date.now();
      await expect(store.create(record())).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(1_000);
      await store.close();
    });
  });
} else {
  console.warn('runStore.test.ts: RedisRunStore SKIPPED — redis-server is not installed (CI installs it in .ci/run).');
}
