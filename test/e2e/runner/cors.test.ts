// Cross-origin access of `mthds serve` (the built CLI as a process, real HTTP on loopback): the
// preflight of an allowed origin (no token needed for it), of an origin not allowed (nothing
// allowed, nothing run), the headers of actual answers, problems included, auth still enforced on
// the actual request, the same from every worker process, origins from a config file and the
// environment, bad origins refused at start, and no CORS header at all by default.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { HELLO, problemOf, request, serveProcess, type Reply } from './helpers.js';

const TOKEN = 'cors-secret';
const VSCODE = 'https://vscode.dev';
const CDN = 'https://v--1etn2pi73v74vnspogot0atvvustoe9d1.vscode-cdn.net';
const EVIL = 'https://evil.example';
const EXECUTE = { pipe_code: 'greet', mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };

type Served = Awaited<ReturnType<typeof serveProcess>>;

/** A preflight as a browser sends it before a POST of JSON with a bearer token. */
const preflight = (url: string, origin: string, extra: Record<string, string> = {}): Promise<Reply> =>
  request(url, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type', Connection: 'close', ...extra } });

function expectAllowed(reply: Reply, origin: string): void {
  expect(reply.headers['access-control-allow-origin']).toBe(origin);
  expect(reply.headers['vary']).toBe('Origin');
  expect(reply.headers['access-control-allow-credentials']).toBeUndefined();
}

function expectNoAllowHeaders(reply: Reply): void {
  for (const name of Object.keys(reply.headers)) expect(name.startsWith('access-control-allow-') || name === 'access-control-expose-headers').toBe(false);
}

describe('mthds serve --allow-origin, with tokens and two worker processes', () => {
  let served: Served;
  let url: string;
  let origin: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-cors-'));
    const config = path.join(dir, 'runner.toml');
    // One origin from the file, one from the environment, one from the command line: all three count.
    writeFileSync(config, '[cors]\nallow_origins = ["https://*.vscode-cdn.net"]\nmax_age_seconds = 120\n\n[rate_limit]\nlimit = 40\nwindow_seconds = 600\n');
    served = await serveProcess(['--workers', '2', '--no-warm-up', '--config', config, '--allow-origin', VSCODE], { MTHDS_RUNNER_TOKENS: TOKEN, MTHDS_RUNNER_ALLOW_ORIGINS: ' https://github.dev , ' });
    url = served.url;
    origin = new URL(url).origin;
  }, 60_000);

  afterAll(async () => {
    served?.child.kill('SIGTERM');
    await served?.exited;
  });

  it('answers the preflight of an allowed origin on every route without a token', async () => {
    for (const route of [`${url}/execute`, `${url}/validate`, `${url}/start`, `${url}/models`, `${url}/version`, `${url}/runs/01ABC/status`, `${origin}/health`, `${url}/no-such-route`]) {
      const r = await preflight(route, VSCODE);
      expect(r.status, route).toBe(204);
      expect(r.text).toBe('');
      expectAllowed(r, VSCODE);
      expect(r.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
      expect(r.headers['access-control-allow-headers']!.toLowerCase().split(', ')).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-request-id']));
      expect(r.headers['access-control-max-age']).toBe('120');
    }
    // From each source of origins: the file's pattern, the environment, the command line.
    expectAllowed(await preflight(`${url}/execute`, CDN), CDN);
    expectAllowed(await preflight(`${url}/execute`, 'https://github.dev'), 'https://github.dev');
    const privateNetwork = await preflight(`${url}/validate`, CDN, { 'Access-Control-Request-Private-Network': 'true' });
    expect(privateNetwork.headers['access-control-allow-private-network']).toBe('true');
  });

  it('allows nothing to the preflight of another origin, and runs nothing', async () => {
    for (const other of [EVIL, 'https://vscode.dev.evil.example', 'https://vscode-cdn.net', 'http://vscode.dev', 'null']) {
      const r = await preflight(`${url}/execute`, other, { 'Access-Control-Request-Private-Network': 'true' });
      expect(r.status, other).toBe(204);
      expect(r.headers['vary']).toBe('Origin');
      expectNoAllowHeaders(r);
    }
    // So far only preflights reached the runner (the tests below send the first POST): each was
    // answered 204 by itself, none went on to a route.
    await new Promise((resolve) => setTimeout(resolve, 250)); // the request log is written in 50 ms batches
    const log = served.stderr();
    expect(log).toMatch(/ OPTIONS \/v1\/execute 204 /);
    expect(log).not.toMatch(/ (POST|GET) \//);
  });

  it('answers an allowed origin with its result and the headers a client reads', async () => {
    const r = await request(`${url}/execute`, { method: 'POST', body: EXECUTE, headers: { Origin: CDN, Authorization: `Bearer ${TOKEN}`, 'Idempotency-Key': 'cors-1', Connection: 'close' } });
    expect(r.status).toBe(200);
    expect(r.json.pipe_output).toBeDefined();
    expectAllowed(r, CDN);
    expect(r.headers['access-control-expose-headers']!.split(', ')).toEqual(expect.arrayContaining(['Location', 'Retry-After', 'X-Request-ID', 'Idempotent-Replayed', 'WWW-Authenticate']));
    // A replay of the idempotency store carries them as well.
    const replay = await request(`${url}/execute`, { method: 'POST', body: EXECUTE, headers: { Origin: CDN, Authorization: `Bearer ${TOKEN}`, 'Idempotency-Key': 'cors-1', Connection: 'close' } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expectAllowed(replay, CDN);
    const start = await request(`${url}/start`, { method: 'POST', body: EXECUTE, headers: { Origin: VSCODE, Authorization: `Bearer ${TOKEN}`, Connection: 'close' } });
    expect(start.status).toBe(202);
    expect(start.headers['location']).toMatch(/^\/v1\/runs\//);
    expectAllowed(start, VSCODE);
  });

  it('still requires the token on the actual request, and the problem is readable by the page', async () => {
    const missing = await request(`${url}/execute`, { method: 'POST', body: EXECUTE, headers: { Origin: VSCODE, Connection: 'close' } });
    expect(missing.status).toBe(401);
    expect(problemOf(missing).code).toBe('auth.missing_credential');
    expectAllowed(missing, VSCODE);
    const wrong = await request(`${url}/models`, { headers: { Origin: VSCODE, Authorization: 'Bearer nope', Connection: 'close' } });
    expect(wrong.status).toBe(401);
    expectAllowed(wrong, VSCODE);
  });

  it('puts the headers on every problem: 404, 405, 413, 422', async () => {
    const headers = { Origin: VSCODE, Authorization: `Bearer ${TOKEN}`, Connection: 'close' };
    const notFound = await request(`${url}/nope`, { headers });
    expect(notFound.status).toBe(404);
    const notAllowed = await request(`${url}/execute`, { headers });
    expect(notAllowed.status).toBe(405);
    // An OPTIONS that is no preflight (no Access-Control-Request-Method) is refused as before.
    const plainOptions = await request(`${url}/execute`, { method: 'OPTIONS', headers });
    expect(plainOptions.status).toBe(405);
    const invalid = await request(`${url}/execute`, { method: 'POST', body: { pipe_code: 42 }, headers });
    expect(invalid.status).toBe(422);
    const tooLarge = await request(`${url}/validate`, { method: 'POST', body: { mthds_contents: ['x'.repeat(17 * 1024 * 1024)] }, headers });
    expect(tooLarge.status).toBe(413);
    for (const r of [notFound, notAllowed, plainOptions, invalid, tooLarge]) {
      expect(problemOf(r).status).toBe(r.status);
      expectAllowed(r, VSCODE);
    }
  });

  it('answers another origin without the allow headers (the browser withholds the answer)', async () => {
    const r = await request(`${url}/version`, { headers: { Origin: EVIL, Connection: 'close' } });
    expect(r.status).toBe(200);
    expect(r.headers['vary']).toBe('Origin');
    expectNoAllowHeaders(r);
    // Without an Origin (not a browser's cross-origin request): no allow headers either.
    const plain = await request(`${url}/version`, { headers: { Connection: 'close' } });
    expectNoAllowHeaders(plain);
  });

  it('is the same from both worker processes, and a 429 carries the headers', async () => {
    // New connections go round-robin to the two workers.
    const replies = await Promise.all(Array.from({ length: 12 }, () => preflight(`${url}/execute`, VSCODE)));
    for (const r of replies) expectAllowed(r, VSCODE);
    const gets = await Promise.all(Array.from({ length: 12 }, () => request(`${url}/version`, { headers: { Origin: VSCODE, Connection: 'close' } })));
    for (const r of gets) expectAllowed(r, VSCODE);
    // Preflights are not counted by the rate limit (40 in the window): spend the rest with real requests.
    let limited: Reply | undefined;
    for (let i = 0; i < 50 && !limited; i++) {
      const r = await request(`${url}/models`, { headers: { Origin: VSCODE, Authorization: `Bearer ${TOKEN}`, Connection: 'close' } });
      if (r.status === 429) limited = r;
    }
    expect(limited).toBeDefined();
    expect(problemOf(limited!).code).toBe('account.rate_limited');
    expect(limited!.headers['retry-after']).toMatch(/^\d+$/);
    expectAllowed(limited!, VSCODE);
    // Still no token needed for a preflight, and none counted.
    expect((await preflight(`${url}/models`, VSCODE)).status).toBe(204);
  });
});

describe('mthds serve without --allow-origin', () => {
  it('sends no CORS header and refuses OPTIONS as before', async () => {
    const { child, url, exited } = await serveProcess(['--workers', '1', '--no-warm-up']);
    try {
      const pre = await preflight(`${url}/execute`, VSCODE);
      expect(pre.status).toBe(405);
      expect(problemOf(pre).code).toBe('request.method_not_allowed');
      const r = await request(`${url}/version`, { headers: { Origin: VSCODE } });
      expect(r.status).toBe(200);
      expect(r.headers['vary']).toBeUndefined();
      expectNoAllowHeaders(r);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('mthds serve with bad origins', () => {
  it('refuses to start, naming each value and what to write (exit status 2)', async () => {
    const bad = await runCli(['serve', '--port', '0', '--workers', '1', '--no-warm-up', '--allow-origin', 'https://vscode.dev/', '--allow-origin', 'null']);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('cors.allow_origins[0]: "https://vscode.dev/" is not an origin as browsers send it (scheme://host[:port], no path, no trailing slash): did you mean https://vscode.dev?');
    expect(bad.stderr).toContain('cors.allow_origins[1]: "null" cannot be allowed');
  });

  it('refuses * on a runner without tokens, with one worker or several', async () => {
    for (const workers of ['1', '2']) {
      const r = await runCli(['serve', '--port', '0', '--workers', workers, '--no-warm-up', '--allow-origin', '*'], { env: { MTHDS_RUNNER_TOKENS: '' } });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/cors\.allow_origins\[0\]: "\*" needs bearer tokens/);
    }
  });

  it('warns at start when named origins reach an anonymous runner', async () => {
    const { child, exited, stderr } = await serveProcess(['--workers', '1', '--no-warm-up', '--allow-origin', VSCODE], { MTHDS_RUNNER_TOKENS: '' });
    child.kill('SIGTERM');
    await exited;
    expect(stderr()).toMatch(/warning: cors\.allow_origins lets browser pages call this runner, which has no bearer tokens/);
  });
});
