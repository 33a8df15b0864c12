// The runner client of the language server, against this runner over loopback, and against
// servers that misbehave: unreachable, too slow, bodies that are not JSON or of the wrong shape,
// and the bare {"detail": ...} bodies of other frameworks.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerClient } from '../../../server/src/protocol/client.js';
import { HELLO, withRunner, type Runner } from './helpers.js';

let runner: Runner;
beforeAll(async () => {
  runner = await withRunner({ auth: { tokens: [{ token: 'client-token' }] } });
});
afterAll(async () => {
  await runner.close();
});

/** A server answering every request with `handler`; its base URL includes /v1. */
async function fakeServer(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('RunnerClient against the runner', () => {
  const client = (): RunnerClient => new RunnerClient({ baseUrl: runner.url, token: 'client-token' });

  it('reads the version and the deck', async () => {
    const v = await client().version();
    expect(v).toMatchObject({ ok: true, status: 200, value: { protocol_version: '0.6.0' }, requestId: expect.any(String) });
    const m = await client().models('llm');
    expect(m.ok && m.value.models.every((x) => x.type === 'llm')).toBe(true);
    const bad = await client().models('judgment');
    expect(bad).toMatchObject({ ok: false, error: { kind: 'problem', status: 422, problem: { code: 'request.invalid', params: { field: 'type' } } } });
  });

  it('gets both verdicts of /validate as values, not errors', async () => {
    const valid = await client().validate({ mthds_contents: [HELLO] });
    expect(valid).toMatchObject({ ok: true, value: { is_valid: true, is_runnable: true } });
    const invalid = await client().validate({ mthds_contents: ['domain = "x" trailing'], mthds_sources: ['x.mthds'] });
    expect(invalid).toMatchObject({ ok: true, value: { is_valid: false, validation_errors: [{ code: 'method.syntax', source: 'x.mthds' }] } });
  });

  it('executes and starts runs', async () => {
    const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };
    const done = await client().execute(run, { idempotencyKey: 'client-1', requestId: 'editor-42' });
    expect(done).toMatchObject({ ok: true, status: 200, requestId: 'editor-42', value: { pipeline_run_id: expect.any(String), pipe_output: { working_memory: { root: expect.any(Object) } } } });
    const replay = await client().execute(run, { idempotencyKey: 'client-1' });
    expect(replay.ok && done.ok && replay.value.pipeline_run_id === done.value.pipeline_run_id).toBe(true);
    const started = await client().start(run);
    expect(started).toMatchObject({ ok: true, status: 202, value: { pipeline_run_id: expect.any(String) } });
  });

  it('returns problems as errors with the registry code and request id', async () => {
    const r = await client().execute({ mthds_contents: [HELLO] });
    expect(r).toMatchObject({ ok: false, error: { kind: 'problem', status: 422, problem: { code: 'input.missing', request_id: expect.any(String), type: expect.stringContaining('input.missing') } } });
    const noAuth = await new RunnerClient({ baseUrl: runner.url }).models();
    expect(noAuth).toMatchObject({ ok: false, error: { kind: 'problem', status: 401, problem: { code: 'auth.missing_credential' } } });
  });

  it('refuses base URLs it cannot use', () => {
    expect(() => new RunnerClient({ baseUrl: 'ftp://h/v1' })).toThrow(TypeError);
    expect(() => new RunnerClient({ baseUrl: 'http://u:p@h/v1' })).toThrow(TypeError);
    expect(() => new RunnerClient({ baseUrl: 'not a url' })).toThrow();
  });
});

describe('RunnerClient against misbehaving servers', () => {
  it('reports an unreachable runner', async () => {
    const s = await fakeServer((_q, r) => r.end());
    await s.close();
    const r = await new RunnerClient({ baseUrl: s.url }).version();
    expect(r).toMatchObject({ ok: false, error: { kind: 'unreachable', message: expect.stringContaining('ECONNREFUSED') } });
  });

  it('reports a timeout', async () => {
    const s = await fakeServer(() => {
      /* never answers */
    });
    try {
      const started = Date.now();
      const r = await new RunnerClient({ baseUrl: s.url, timeoutMs: 200 }).validate({ mthds_contents: [HELLO] });
      expect(r).toEqual({ ok: false, error: { kind: 'timeout', timeoutMs: 200 } });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await s.close();
    }
  });

  it('reports a body that is not JSON as bad_response, on errors and successes', async () => {
    const s = await fakeServer((req, res) => {
      if (req.url?.endsWith('/version')) res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>proxy</html>');
      else res.writeHead(502, { 'Content-Type': 'text/html' }).end('<html>Bad gateway</html>');
    });
    try {
      expect(await new RunnerClient({ baseUrl: s.url }).models()).toEqual({ ok: false, error: { kind: 'bad_response', status: 502, message: expect.any(String) } });
      expect(await new RunnerClient({ baseUrl: s.url }).version()).toMatchObject({ ok: false, error: { kind: 'bad_response', status: 200 } });
    } finally {
      await s.close();
    }
  });

  it('normalizes a bare {"detail": ...} body into a problem', async () => {
    const s = await fakeServer((_req, res) => res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"Not Found"}'));
    try {
      const r = await new RunnerClient({ baseUrl: s.url }).version();
      expect(r).toEqual({ ok: false, error: { kind: 'problem', status: 404, problem: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not Found' } } });
    } finally {
      await s.close();
    }
  });

  it('refuses 200 bodies of the wrong shape (an invalid verdict without errors, a verdict that is not an object)', async () => {
    let body = '{"is_valid": false, "is_runnable": false, "validation_errors": []}';
    const s = await fakeServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
    try {
      const client = new RunnerClient({ baseUrl: s.url });
      expect(await client.validate({ mthds_contents: ['x'] })).toMatchObject({ ok: false, error: { kind: 'bad_response', message: expect.stringContaining('at least one') } });
      body = '[1]';
      expect(await client.validate({ mthds_contents: ['x'] })).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
      body = '{"pipeline_run_id": 3}';
      expect(await client.start({ pipe_code: 'x' })).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
    } finally {
      await s.close();
    }
  });

  it('hands back the 202 of an /execute that went asynchronous, with its Location', async () => {
    const s = await fakeServer((_req, res) => res.writeHead(202, { 'Content-Type': 'application/json', Location: '/v1/runs/r-1' }).end('{"pipeline_run_id": "r-1"}'));
    try {
      const r = await new RunnerClient({ baseUrl: s.url }).execute({ pipe_code: 'x' });
      expect(r).toMatchObject({ ok: true, status: 202, value: { pipeline_run_id: 'r-1' }, location: '/v1/runs/r-1' });
    } finally {
      await s.close();
    }
  });
});
