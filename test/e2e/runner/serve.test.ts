// `mthds serve` as a process: the URL on the first line of stdout (--port 0), a config file,
// usage errors, and a graceful stop on SIGTERM / SIGINT.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeOpenAI, chatCompletion } from './fakeOpenAI.js';
import { HELLO, get, post, receiver, request, serveProcess } from './helpers.js';
import { runCli } from '../../helpers/cli.js';


const serve = serveProcess;

describe('mthds serve', () => {
  it('prints the bound URL, serves the protocol and stops gracefully on SIGTERM', async () => {
    const { child, url, exited } = await serve([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect((await get(`${url}/version`)).json.protocol_version).toBe('0.6.0');
    const r = await post(`${url}/execute`, { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } });
    expect(r.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('reads a TOML config file (tokens, base path) and stops on SIGINT', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-serve-'));
    const config = path.join(dir, 'runner.toml');
    writeFileSync(config, 'base_path = "/api"\n\n[[auth.tokens]]\ntoken = "from-file"\nname = "ops"\n\n[limits]\nmax_files = 2\n');
    const { child, url, exited } = await serve(['--config', config], { MTHDS_RUNNER_TOKENS: 'from-env' });
    expect(url).toMatch(/\/api$/);
    expect((await get(`${url}/models`)).status).toBe(401);
    expect((await get(`${url}/models`, { Authorization: 'Bearer from-file' })).status).toBe(200);
    expect((await get(`${url}/models`, { Authorization: 'Bearer from-env' })).status).toBe(200);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('logs one line per request to stderr: method, path, status, duration, request id, User-Agent', async () => {
    const { child, url, exited, stderr } = await serve([]);
    const ok = await get(`${url}/version`, { 'User-Agent': 'mthds-js/0.28.1 (test)' });
    const missing = await request(`${url}/nope?secret=1`, { method: 'DELETE', headers: { 'X-Request-ID': 'trace-42' } });
    expect(missing.status).toBe(404);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = stderr().split('\n').filter((l) => / \/v1\//.test(l));
    expect(lines).toHaveLength(2);
    const [first, second] = lines as [string, string];
    expect(first).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z GET /v1/version 200 \\d+\\.\\dms ${ok.headers['x-request-id']} "mthds-js/0\\.28\\.1 \\(test\\)"$`));
    // The query string is the caller's: it is not logged.
    expect(second).toMatch(/ DELETE \/v1\/nope 404 \d+\.\dms trace-42 -$/);
  });

  it('logs no request lines with --quiet', async () => {
    const { child, url, exited, stderr } = await serve(['--quiet']);
    expect((await get(`${url}/version`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr()).toContain('listening on');
    expect(stderr()).not.toMatch(/\/v1\/version/);
  });

  it('on SIGTERM cancels an accepted /start run and delivers its callback before exiting', async () => {
    const slow = await startFakeOpenAI(() => ({ json: chatCompletion('late'), delayMs: 30_000 }));
    const cb = await receiver();
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-serve-'));
    const config = path.join(dir, 'runner.json');
    writeFileSync(config, JSON.stringify({ callbacks: { allow_private: true }, models: { providers: [{ name: 'slow', base_url: slow.url, models: [{ name: 'slow-llm', type: 'llm' }] }] } }));
    const { child, url, exited } = await serve(['--quiet', '--config', config]);
    const started = await post(`${url}/start`, { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } }, callback_url: cb.url });
    expect(started.status).toBe(202);
    // The run is under way (its model call is waiting on the slow provider).
    while (slow.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    const got = await cb.next();
    expect(got.body).toMatchObject({
      pipeline_run_id: started.json.pipeline_run_id,
      status: 'FAILED',
      error: { code: 'mthdsls.run.cancelled', params: { reason: 'shutdown' }, error_domain: expect.any(String), retryable: expect.any(Boolean), user_action: { kind: expect.any(String) } },
    });
    expect(await exited).toBe(0);
    await cb.close();
    await slow.close();
  });

  it('exits 2 on usage and configuration errors', () => {
    const run = (args: string[]): { status: number | null; stderr: string } => {
      const r = runCli(['serve', ...args], { timeout: 10_000 });
      return { status: r.status, stderr: r.stderr };
    };
    expect(run(['--port', 'eighty'])).toMatchObject({ status: 2, stderr: expect.stringContaining('--port') });
    expect(run(['--bogus'])).toMatchObject({ status: 2 });
    expect(run(['--config', '/no/such/file.json'])).toMatchObject({ status: 2, stderr: expect.stringContaining('cannot read') });
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-serve-'));
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ rate_limit: { limit: -1, window_seconds: 60 } }));
    expect(run(['--config', bad, '--port', '0'])).toMatchObject({ status: 2, stderr: expect.stringContaining('rate_limit.limit') });
    const help = runCli(['serve', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: mthds serve');
    expect(help.stdout).toContain('--quiet');
  });
});
