// `mthds serve` as a process: the URL on the first line of stdout (--port 0), a config file,
// usage errors, and a graceful stop on SIGTERM / SIGINT.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELLO, get, post, serveProcess } from './helpers.js';

const REPO = path.resolve(__dirname, '../../..');
const BIN = path.join(REPO, 'server/bin/mthds.js');

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

  it('exits 2 on usage and configuration errors', () => {
    const run = (args: string[]): { status: number | null; stderr: string } => {
      const r = spawnSync(process.execPath, [BIN, 'serve', ...args], { cwd: REPO, encoding: 'utf8', timeout: 10_000 });
      return { status: r.status, stderr: r.stderr };
    };
    expect(run(['--port', 'eighty'])).toMatchObject({ status: 2, stderr: expect.stringContaining('--port') });
    expect(run(['--bogus'])).toMatchObject({ status: 2 });
    expect(run(['--config', '/no/such/file.json'])).toMatchObject({ status: 2, stderr: expect.stringContaining('cannot read') });
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-serve-'));
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ rate_limit: { limit: -1, window_seconds: 60 } }));
    expect(run(['--config', bad, '--port', '0'])).toMatchObject({ status: 2, stderr: expect.stringContaining('rate_limit.limit') });
    const help = spawnSync(process.execPath, [BIN, 'serve', '--help'], { cwd: REPO, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: mthds serve');
  });
});
