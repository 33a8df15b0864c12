// The run lifecycle reads on the embedded runner (no queue), over loopback HTTP: status and results
// of a started run, 202 with Retry-After while it runs, 409 naming the status of a run that ended
// otherwise, 404 for an unknown id and for another credential's run, /health at the origin, the
// retention of finished runs, and the exact request sequence the mthds-js SDK follows a run with.

import { describe, expect, it } from 'vitest';
import { get, HELLO, post, problemOf, withRunner } from './helpers.js';
import { SdkShapedClient } from './lifecycleClient.js';

const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };
const tokens = { auth: { tokens: [{ token: 'alice-token', name: 'alice' }, { token: 'bob-token', name: 'bob' }] } };
const alice = { Authorization: 'Bearer alice-token' };
const bob = { Authorization: 'Bearer bob-token' };

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('run lifecycle reads (embedded runner)', () => {
  it('reads a started run: RUNNING with 202 and Retry-After, then COMPLETED with its result', async () => {
    const r = await withRunner({ models: { mock_latency_ms: 400 } });
    try {
      const started = await post(`${r.url}/start`, run);
      expect(started.status).toBe(202);
      const id = started.json.pipeline_run_id as string;
      expect(started.headers['location']).toBe(`/v1/runs/${id}/status`);
      const running = await get(`${r.url}/runs/${id}/results`);
      expect(running.status).toBe(202);
      expect(running.headers['retry-after']).toBe('1');
      const status = await get(`${r.url}/runs/${id}/status`);
      expect(status.json).toMatchObject({ pipeline_run_id: id, status: expect.stringMatching(/^(PENDING|RUNNING)$/), created_at: started.json.created_at, finished_at: null, degraded: false });
      expect(status.json.owner).toBeUndefined();
      const done = await until(() => get(`${r.url}/runs/${id}/status`), (s) => s.json.status === 'COMPLETED');
      expect(done.json).toMatchObject({ status: 'COMPLETED', attempts: 1, finished_at: expect.any(String), degraded: false });
      const results = await get(`${r.url}/runs/${id}/results`);
      expect(results.status).toBe(200);
      expect(results.json).toMatchObject({ pipeline_run_id: id, main_stuff: { concept: 'native.Text', content: { text: expect.stringContaining('Ada') } }, pipe_output: { working_memory: { root: { main_stuff: { concept: 'native.Text' } } } } });
    } finally {
      await r.close();
    }
  });

  it('answers 409 naming the status of a run that failed, with the problem in its status record', async () => {
    const r = await withRunner();
    try {
      const bundle = HELLO.replace('prompt = "Say hello to $name."', 'prompt = "{{ name|format(\'yaml\') }}"');
      const id = (await post(`${r.url}/start`, { ...run, mthds_contents: [bundle] })).json.pipeline_run_id as string;
      const status = await until(() => get(`${r.url}/runs/${id}/status`), (s) => s.json.status !== 'RUNNING' && s.json.status !== 'PENDING');
      expect(status.json).toMatchObject({ status: 'FAILED', error: { code: 'mthdsls.pipe.template_render_failed' } });
      const results = await get(`${r.url}/runs/${id}/results`);
      expect(results.status).toBe(409);
      expect(problemOf(results)).toMatchObject({ code: 'mthdsls.run.not_completed', params: { run_id: id, status: 'FAILED' }, detail: `Run ${id} finished with status FAILED; no result available.` });
    } finally {
      await r.close();
    }
  });

  it('shows a run only to the credential that started it, and 404s unknown ids', async () => {
    const r = await withRunner(tokens);
    try {
      const id = (await post(`${r.url}/start`, run, alice)).json.pipeline_run_id as string;
      expect((await get(`${r.url}/runs/${id}/status`, alice)).status).toBe(200);
      for (const path of ['status', 'results']) {
        const other = await get(`${r.url}/runs/${id}/${path}`, bob);
        expect(problemOf(other)).toMatchObject({ status: 404, code: 'mthdsls.run.not_found', params: { run_id: id } });
        expect(problemOf(await get(`${r.url}/runs/01UNKNOWN/${path}`, alice))).toMatchObject({ status: 404, code: 'mthdsls.run.not_found' });
        // Auth applies as on the other routes.
        expect(problemOf(await get(`${r.url}/runs/${id}/${path}`)).code).toBe('auth.missing_credential');
      }
      expect(problemOf(await post(`${r.url}/runs/${id}/status`, {}, alice))).toMatchObject({ code: 'request.method_not_allowed' });
      expect(problemOf(await get(`${r.url}/runs/a%2Fb/status`, alice)).code).toBe('request.not_found');
    } finally {
      await r.close();
    }
  });

  it('forgets finished runs after the configured retention', async () => {
    const r = await withRunner({ runs: { retention_seconds: 1 } });
    try {
      const id = (await post(`${r.url}/start`, run)).json.pipeline_run_id as string;
      await until(() => get(`${r.url}/runs/${id}/status`), (s) => s.json.status === 'COMPLETED');
      await new Promise((res) => setTimeout(res, 1_200));
      expect(problemOf(await get(`${r.url}/runs/${id}/results`)).code).toBe('mthdsls.run.not_found');
    } finally {
      await r.close();
    }
  });

  it('serves /health at the origin, whatever the base path, without credentials', async () => {
    const r = await withRunner({ ...tokens, base_path: '/api/v2' });
    try {
      const origin = new URL(r.url).origin;
      const health = await get(`${origin}/health`);
      expect(health.status).toBe(200);
      expect(health.json).toMatchObject({ status: 'ok', queue: 'embedded' });
      expect((await get(`${r.url}/health`)).status).toBe(404);
    } finally {
      await r.close();
    }
  });

  it('is followed by the SDK request sequence: version, start, results polled to the output', async () => {
    const r = await withRunner({ ...tokens, models: { mock_latency_ms: 150 } });
    try {
      const client = new SdkShapedClient(new URL(r.url).origin, 'alice-token');
      expect(await client.health()).toMatchObject({ status: 'ok' });
      const result = await client.startAndWaitForResult({ pipe_code: 'greet', ...run, output_name: undefined });
      expect(result['main_stuff'] ?? result['pipe_output']).toMatchObject({ concept: 'native.Text', content: { text: expect.stringContaining('Ada') } });
      const id = result['pipeline_run_id'] as string;
      expect(client.requests[0]).toBe('GET /health');
      expect(client.requests.slice(1, 3)).toEqual(['GET /v1/version', 'POST /v1/start']);
      expect(client.requests.slice(3).every((line) => line === `GET /v1/runs/${id}/results`)).toBe(true);
      expect(client.requests.length).toBeGreaterThan(4); // polled at least once while running
      expect((await client.getRunStatus(id)).status).toBe('COMPLETED');
      // The SDK takes only "pipelex-api" for a runner without these routes; ours names them too.
      const version = await get(`${r.url}/version`);
      expect(version.json.implementation).not.toBe('pipelex-api');
      expect(version.json.extensions).toContain('run_lifecycle');
    } finally {
      await r.close();
    }
  });
});
