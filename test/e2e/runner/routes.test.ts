// The protocol surface over real HTTP: routes under the base path, /version and /models, unknown
// routes and methods, request ids, and the shape of every problem document.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, problemOf, request, withRunner, type Runner } from './helpers.js';

let runner: Runner;
beforeAll(async () => {
  runner = await withRunner();
});
afterAll(async () => {
  await runner.close();
});

describe('routes', () => {
  it('serves under /v1 by default and reports protocol 0.6.0 on /version', async () => {
    expect(runner.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const r = await get(`${runner.url}/version`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json).toMatchObject({ protocol_version: '0.6.0', runner_version: expect.any(String), blob_store: false });
  });

  it('lists the deck on /models and filters it by type', async () => {
    const all = await get(`${runner.url}/models`);
    expect(all.status).toBe(200);
    expect(all.json.models.map((m: { type: string }) => m.type).sort()).toEqual(['extract', 'img_gen', 'llm', 'search']);
    for (const m of all.json.models) expect(m).toMatchObject({ name: expect.any(String), type: expect.any(String) });
    const llm = await get(`${runner.url}/models?type=llm`);
    expect(llm.status).toBe(200);
    expect(llm.json.models.length).toBeGreaterThan(0);
    expect(llm.json.models.every((m: { type: string }) => m.type === 'llm')).toBe(true);
  });

  it.each(['not-a-real-category', 'judgment', ''])('refuses ?type=%s with request.invalid on field type', async (type) => {
    const r = await get(`${runner.url}/models?type=${type}`);
    expect(r.status).toBe(422);
    const p = problemOf(r);
    expect(p).toMatchObject({ code: 'request.invalid', status: 422, params: { field: 'type' }, instance: '/v1/models' });
  });

  it('refuses a repeated type parameter', async () => {
    const r = await get(`${runner.url}/models?type=llm&type=extract`);
    expect(problemOf(r)).toMatchObject({ code: 'request.invalid', params: { field: 'type' } });
  });

  it.each(['/v1/nope', '/v1/execute/', '/execute', '/v2/version', '/', '/v1'])('answers %s with request.not_found', async (path) => {
    const origin = new URL(runner.url).origin;
    const r = await get(`${origin}${path}`);
    expect(r.status).toBe(404);
    const p = problemOf(r);
    expect(p.code).toBe('request.not_found');
    expect(p.type).toBe('https://mthds.ai/errors/request.not_found');
  });

  it.each([
    ['GET', '/execute', 'POST'],
    ['PUT', '/start', 'POST'],
    ['DELETE', '/validate', 'POST'],
    ['POST', '/models', 'GET, HEAD'],
    ['POST', '/version', 'GET, HEAD'],
  ])('answers %s %s with request.method_not_allowed and Allow', async (method, route, allow) => {
    const r = await request(`${runner.url}${route}`, { method });
    expect(r.status).toBe(405);
    expect(r.headers['allow']).toBe(allow);
    expect(problemOf(r).code).toBe('request.method_not_allowed');
  });

  it('echoes a well-formed X-Request-ID on successes and errors, body request_id included', async () => {
    const ok = await get(`${runner.url}/version`, { 'X-Request-ID': 'inbound-correlation-303' });
    expect(ok.headers['x-request-id']).toBe('inbound-correlation-303');
    const bad = await get(`${runner.url}/nowhere`, { 'X-Request-ID': 'inbound-correlation-303' });
    expect(bad.headers['x-request-id']).toBe('inbound-correlation-303');
    expect(problemOf(bad).request_id).toBe('inbound-correlation-303');
  });

  it.each(['has spaces in it', 'x'.repeat(129), 'semi;colon'])('replaces a malformed X-Request-ID (%s)', async (id) => {
    const r = await post(`${runner.url}/validate`, {}, { 'X-Request-ID': id });
    const generated = r.headers['x-request-id'] as string;
    expect(generated).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(problemOf(r).request_id).toBe(generated);
  });

  it('puts X-Request-ID on every answer', async () => {
    for (const r of [await get(`${runner.url}/version`), await get(`${runner.url}/models`), await post(`${runner.url}/execute`, {}), await request(`${runner.url}/start`, { method: 'GET' })]) {
      expect(r.headers['x-request-id']).toEqual(expect.any(String));
    }
  });

  it('builds every problem as RFC 7807 with the registry members', async () => {
    const r = await post(`${runner.url}/execute`, {});
    expect(r.headers['content-type']).toBe('application/problem+json');
    const p = problemOf(r);
    expect(p).toMatchObject({ type: expect.stringMatching(/^https:\/\//), title: expect.any(String), status: r.status, detail: expect.any(String), code: expect.any(String), params: expect.any(Object), instance: '/v1/execute' });
    expect(r.headers['retry-after']).toBeUndefined();
  });

  it('answers HEAD on the discovery routes', async () => {
    const r = await request(`${runner.url}/version`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });
});

describe('base path', () => {
  it('is configurable, and empty means the origin root', async () => {
    const custom = await withRunner({ base_path: '/api/mthds' });
    try {
      expect(custom.url).toMatch(/\/api\/mthds$/);
      expect((await get(`${custom.url}/version`)).status).toBe(200);
      expect((await get(`${new URL(custom.url).origin}/v1/version`)).status).toBe(404);
    } finally {
      await custom.close();
    }
    const root = await withRunner({ base_path: '' });
    try {
      expect((await get(`${root.url}/version`)).status).toBe(200);
    } finally {
      await root.close();
    }
  });
});
