// A started run is read through whichever worker takes the connection: `mthds serve` with its
// default worker count (one per core; at least 2 forced here so that a one-core machine proves it
// too) keeps one run store in the primary. Every request below goes on a new connection, so that
// the cluster hands them to the workers in turn. Needs `npm run build` first.

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, HELLO, post, serveProcess } from './helpers.js';
import { SdkShapedClient } from './lifecycleClient.js';
import { freePort } from '../../helpers/ports.js';

const CLOSE = { Connection: 'close' };
const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };

/** A fetch over a new connection each time (what a client behind a load balancer sees). */
function freshConnectionFetch(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; headers: Headers; text(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...init.headers, Connection: 'close' };
    if (init.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(init.body));
    const req = http.request(url, { method: init.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: h, text: async () => text });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

let served: Awaited<ReturnType<typeof serveProcess>>;
const workers = Math.max(2, availableParallelism());

beforeAll(async () => {
  // No --workers on a machine of 2 cores or more: the default is what operators run.
  served = await serveProcess(['--no-warm-up', '--quiet', ...(availableParallelism() < 2 ? ['--workers', '2'] : [])], { MTHDS_MOCK_LATENCY_MS: '150' });
  // Every worker listens before the reads: otherwise they could all land on the first one.
  while (!served.stderr().includes('worker processes listen')) await new Promise((r) => setTimeout(r, 20));
}, 60_000);

afterAll(() => {
  served?.child.kill('SIGKILL');
});

describe(`started runs under mthds serve's default workers (${workers})`, () => {
  it('answers 100 status and results reads the same whichever worker takes them', async () => {
    expect(served.stderr()).toContain(`(${workers} worker processes)`);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const started = await post(`${served.url}/start`, run, CLOSE);
      expect(started.status).toBe(202);
      ids.push(started.json.pipeline_run_id);
    }
    // While they run: a status read of each on fresh connections, 5 times.
    const early = await Promise.all(ids.flatMap((id) => Array.from({ length: 5 }, () => get(`${served.url}/runs/${id}/status`, CLOSE))));
    expect(early.map((r) => r.status)).toEqual(early.map(() => 200));
    expect(new Set(early.map((r) => r.json.status)).size).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 1_000));
    const reads = await Promise.all(ids.flatMap((id) => [...Array.from({ length: 5 }, () => get(`${served.url}/runs/${id}/status`, CLOSE)), ...Array.from({ length: 5 }, () => get(`${served.url}/runs/${id}/results`, CLOSE))]));
    expect(reads).toHaveLength(100);
    expect(reads.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    for (const r of reads) expect(r.json.pipeline_run_id).toBeDefined();
    expect(reads.filter((r) => r.json.status !== undefined).every((r) => r.json.status === 'COMPLETED')).toBe(true);
  }, 60_000);

  it("serves the SDK's startAndWaitForResult sequence, each request on a new connection", async () => {
    const client = new SdkShapedClient(new URL(served.url).origin, undefined, freshConnectionFetch);
    for (let i = 0; i < 6; i++) {
      const result = await client.startAndWaitForResult(run, 20, 30_000);
      expect(result['main_stuff']).toMatchObject({ concept: 'native.Text', content: { text: expect.stringContaining('Ada') } });
    }
    expect(client.requests.filter((r) => r.startsWith('POST'))).toEqual(Array.from({ length: 6 }, () => 'POST /v1/start'));
    expect(client.requests.some((r) => /^GET \/v1\/runs\/.+\/results$/.test(r))).toBe(true);
  }, 60_000);

  it('answers an idempotent replay of /start with a run every worker can read', async () => {
    const first = await post(`${served.url}/start`, run, { ...CLOSE, 'Idempotency-Key': 'replayed-start' });
    expect(first.status).toBe(202);
    for (let i = 0; i < 6; i++) {
      const replay = await post(`${served.url}/start`, run, { ...CLOSE, 'Idempotency-Key': 'replayed-start' });
      expect(replay.status).toBe(202);
      expect(replay.json.pipeline_run_id).toBe(first.json.pipeline_run_id);
      // Two reads: connections go to the workers in turn, so one of them reaches another worker.
      for (let j = 0; j < 2; j++) expect((await get(`${served.url}/runs/${replay.json.pipeline_run_id}/status`, CLOSE)).status).toBe(200);
    }
  }, 30_000);

  it.runIf(process.platform === 'linux')('ends FAILED (mthdsls.run.abandoned) a run whose worker was killed, instead of RUNNING for ever', async () => {
    // A fixed port: with --port 0, workers forked after all others died would listen on a new one.
    const slow = await serveProcess(['--no-warm-up', '--quiet', '--workers', '2', '--port', String(await freePort())], { MTHDS_MOCK_LATENCY_MS: '60000' });
    try {
      while (!slow.stderr().includes('worker processes listen')) await new Promise((r) => setTimeout(r, 20));
      const id = (await post(`${slow.url}/start`, run, CLOSE)).json.pipeline_run_id as string;
      await new Promise((r) => setTimeout(r, 300));
      const pids = readFileSync(`/proc/${slow.child.pid}/task/${slow.child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      let status: any;
      // The workers forked again take seconds to start on busy cores: a bound for waiting, not a target.
      const deadline = Date.now() + 60_000;
      do {
        await new Promise((r) => setTimeout(r, 200));
        status = (await get(`${slow.url}/runs/${id}/status`, CLOSE).catch((e: Error) => ({ json: { error: e.message } }))).json;
      } while (status?.status !== 'FAILED' && Date.now() < deadline);
      expect(status, slow.stderr()).toMatchObject({ status: "FAILED", error: { code: "mthdsls.run.abandoned" } });
    } finally {
      slow.child.kill('SIGKILL');
    }
  }, 90_000);
});
