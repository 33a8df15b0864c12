// The Idempotency-Key header on /execute and /start: replays, conflicts, requests still in flight
// (concurrent races), answers not kept, and the bounds of the store.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletion, startFakeOpenAI, type FakeOpenAI } from './fakeOpenAI.js';
import { HELLO, post, problemOf, withRunner } from './helpers.js';

const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };
const key = (k: string): Record<string, string> => ({ 'Idempotency-Key': k });

let slow: FakeOpenAI;
beforeAll(async () => {
  slow = await startFakeOpenAI(() => ({ json: chatCompletion('slow hello'), delayMs: 400 }));
});
afterAll(async () => {
  await slow.close();
});

describe('idempotency keys', () => {
  it('replays the answer of a repeated request, and refuses the key with another body', async () => {
    const r = await withRunner();
    try {
      const first = await post(`${r.url}/execute`, run, key('k-1'));
      expect(first.status).toBe(200);
      const again = await post(`${r.url}/execute`, { inputs: run.inputs, mthds_contents: run.mthds_contents }, key('k-1'));
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json.pipeline_run_id).toBe(first.json.pipeline_run_id);
      const other = await post(`${r.url}/execute`, { ...run, output_name: 'x' }, key('k-1'));
      expect(other.status).toBe(409);
      expect(problemOf(other).code).toBe('request.idempotency_conflict');
      // Without a key, every request runs.
      const a = await post(`${r.url}/execute`, run);
      const b = await post(`${r.url}/execute`, run);
      expect(a.json.pipeline_run_id).not.toBe(b.json.pipeline_run_id);
    } finally {
      await r.close();
    }
  });

  it('refuses a concurrent request with the same key while the first is in flight', async () => {
    const r = await withRunner({ models: { providers: [{ name: 'slow', base_url: slow.url, models: [{ name: 'slow-llm', type: 'llm' }] }] } });
    try {
      const results = await Promise.all([0, 1, 2, 3].map(() => post(`${r.url}/execute`, run, key('race'))));
      const ok = results.filter((x) => x.status === 200);
      const busy = results.filter((x) => x.status === 409);
      expect(ok).toHaveLength(1);
      expect(busy).toHaveLength(3);
      for (const b of busy) {
        expect(problemOf(b)).toMatchObject({ code: 'request.idempotency_key_in_use', retry_after: 1 });
        expect(b.headers['retry-after']).toBe('1');
      }
      const later = await post(`${r.url}/execute`, run, key('race'));
      expect(later.json.pipeline_run_id).toBe(ok[0]!.json.pipeline_run_id);
      // A different body under the key in flight is a conflict, not "in use".
      const [, conflicting] = await Promise.all([post(`${r.url}/execute`, run, key('race-2')), new Promise((res) => setTimeout(res, 100)).then(() => post(`${r.url}/execute`, { ...run, output_name: 'y' }, key('race-2')))]);
      expect(problemOf(conflicting).code).toBe('request.idempotency_conflict');
    } finally {
      await r.close();
    }
  });

  it('answers request.already_executed when the answer was too large to keep', async () => {
    const r = await withRunner({ idempotency: { max_answer_bytes: 10 } });
    try {
      expect((await post(`${r.url}/execute`, run, key('big'))).status).toBe(200);
      const again = await post(`${r.url}/execute`, run, key('big'));
      expect(again.status).toBe(409);
      expect(problemOf(again).code).toBe('request.already_executed');
    } finally {
      await r.close();
    }
  });

  it('keeps refusals too, and bounds the store in entries and time', async () => {
    const r = await withRunner({ idempotency: { max_entries: 2, ttl_seconds: 1 } });
    try {
      const refused = await post(`${r.url}/execute`, { mthds_contents: [HELLO] }, key('missing'));
      expect(problemOf(refused).code).toBe('input.missing');
      const replayed = await post(`${r.url}/execute`, { mthds_contents: [HELLO] }, { ...key('missing'), 'X-Request-ID': 'replay-1' });
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(problemOf(replayed)).toMatchObject({ code: 'input.missing', request_id: 'replay-1' });
      expect(replayed.headers['x-request-id']).toBe('replay-1');

      const first = await post(`${r.url}/execute`, run, key('e1'));
      await post(`${r.url}/execute`, run, key('e2'));
      await post(`${r.url}/execute`, run, key('e3'));
      const evicted = await post(`${r.url}/execute`, run, key('e1'));
      expect(evicted.json.pipeline_run_id).not.toBe(first.json.pipeline_run_id);

      const kept = await post(`${r.url}/execute`, run, key('e3'));
      expect(kept.headers['idempotent-replayed']).toBe('true');
      await new Promise((res) => setTimeout(res, 1100));
      const expired = await post(`${r.url}/execute`, run, key('e3'));
      expect(expired.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      await r.close();
    }
  });

  it('scopes keys per credential and per route, and checks the key', async () => {
    const r = await withRunner({ auth: { tokens: [{ token: 'a' }, { token: 'b' }] } });
    try {
      const a = await post(`${r.url}/execute`, run, { ...key('shared'), Authorization: 'Bearer a' });
      const b = await post(`${r.url}/execute`, { ...run, output_name: 'other' }, { ...key('shared'), Authorization: 'Bearer b' });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const start = await post(`${r.url}/start`, run, { ...key('shared'), Authorization: 'Bearer a' });
      expect(start.status).toBe(202);
      const startAgain = await post(`${r.url}/start`, run, { ...key('shared'), Authorization: 'Bearer a' });
      expect(startAgain.json.pipeline_run_id).toBe(start.json.pipeline_run_id);
      const bad = await post(`${r.url}/execute`, run, { 'Idempotency-Key': 'has space', Authorization: 'Bearer a' });
      expect(problemOf(bad)).toMatchObject({ code: 'request.invalid', params: { field: 'Idempotency-Key' } });
    } finally {
      await r.close();
    }
  });
});
