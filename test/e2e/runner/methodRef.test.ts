// method_ref over real HTTP: installed methods of the runner's package store (by address, by
// address@constraint, by name), their dependencies, and bundles downloaded from a URL.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appBundle, appManifest, manifestText, SCORING_BUNDLE } from '../../helpers/packages.js';
import { get, HELLO, post, problemOf, withRunner, type Runner } from './helpers.js';

const store = mkdtempSync(path.join(tmpdir(), 'mthds-runner-store-'));

function install(address: string, version: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(store, ...address.split('/'), version, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

install('github.com/acme/scoring', '1.0.0', {
  'METHODS.toml': manifestText('scoring', 'github.com/acme/scoring', '1.0.0', '\n[exports.scoring]\npipes = ["compute"]\n'),
  'scoring.mthds': SCORING_BUNDLE,
});
install('github.com/acme/app', '1.0.0', {
  'METHODS.toml': appManifest('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'),
  'main.mthds': appBundle('lib->scoring.compute', 'lib->scoring.Score'),
});
install('github.com/acme/app', '2.0.0', {
  'METHODS.toml': appManifest('lib = { address = "github.com/acme/scoring", version = "^9.0.0" }'),
  'main.mthds': appBundle('lib->scoring.compute', 'lib->scoring.Score'),
});
install('github.com/acme/hello', '0.1.0', { 'METHODS.toml': manifestText('hello', 'github.com/acme/hello', '0.1.0', 'main_pipe = "greet"\n\n[exports.hello]\npipes = ["greet"]\n'), 'hello.mthds': HELLO });
install('github.com/other/hello', '0.3.0', { 'METHODS.toml': manifestText('hello', 'github.com/other/hello', '0.3.0', 'main_pipe = "greet"\n\n[exports.hello]\npipes = ["greet"]\n'), 'hello.mthds': HELLO });

let runner: Runner;
let strict: Runner;
let host: http.Server;
let hostUrl = '';
beforeAll(async () => {
  runner = await withRunner({ packages_dir: store, network: { allow_private: true } });
  strict = await withRunner({ packages_dir: store });
  host = http.createServer((req, res) => {
    if (req.url === '/hello.mthds') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(HELLO);
    } else if (req.url === '/broken') {
      res.writeHead(503);
      res.end('down');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await runner.close();
  await strict.close();
  await new Promise((resolve) => host.close(resolve));
  rmSync(store, { recursive: true, force: true });
});

describe('method_ref: installed methods', () => {
  it('runs an installed method by address@constraint, its dependency read from the store', async () => {
    const r = await post(`${runner.url}/execute`, { method_ref: 'github.com/acme/app@^1.0.0', inputs: { text: { concept: 'Text', content: { text: 'hi' } } } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ state: 'COMPLETED', main_stuff_name: 'score' });
  });

  it('validates by address: the newest version, whose dependency constraint nothing installed meets', async () => {
    const r = await post(`${runner.url}/validate`, { method_ref: 'github.com/acme/app' });
    expect(r.status).toBe(200);
    expect(r.json.is_valid).toBe(false);
    const item = r.json.validation_errors.find((e: { code: string }) => e.code === 'method.dependency_missing');
    expect(item).toMatchObject({ params: { kind: 'package', name: 'github.com/acme/scoring', reason: 'no_matching_version' } });
    // The same on a run: refused before anything runs.
    const run = await post(`${runner.url}/execute`, { method_ref: 'github.com/acme/app', inputs: { text: { concept: 'Text', content: { text: 'hi' } } } });
    expect(run.status).toBe(422);
    expect(problemOf(run).code).toBe('method.invalid');
  });

  it('answers method.not_found (404) for what is not installed', async () => {
    for (const ref of ['github.com/acme/missing', 'github.com/acme/app@^5.0.0', 'nothing_here', 'github.com/../../etc']) {
      const r = await post(`${runner.url}/validate`, { method_ref: ref });
      expect(r.status).toBe(404);
      expect(problemOf(r)).toMatchObject({ code: 'method.not_found', params: { method_ref: ref } });
    }
  });

  it('answers method.ambiguous (422) for a name several packages carry, and runs a unique one', async () => {
    const r = await post(`${runner.url}/execute`, { method_ref: 'hello', inputs: {} });
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'method.ambiguous', params: { method_ref: 'hello', candidates: ['github.com/acme/hello', 'github.com/other/hello'] } });
    const ok = await post(`${runner.url}/validate`, { method_ref: 'github.com/other/hello' });
    expect(ok.json.is_valid).toBe(true);
  });

  it('refuses a method_ref beside mthds_contents, of a wrong type, or of another scheme', async () => {
    expect(problemOf(await post(`${runner.url}/validate`, { method_ref: 'hello', mthds_contents: [HELLO] }))).toMatchObject({ code: 'request.invalid', params: { field: 'method_ref' } });
    expect(problemOf(await post(`${runner.url}/validate`, { method_ref: 42 }))).toMatchObject({ code: 'request.invalid', params: { field: 'method_ref' } });
    expect(problemOf(await post(`${runner.url}/validate`, { method_ref: 'git+ssh://github.com/acme/app' }))).toMatchObject({ code: 'request.unsupported', params: { field: 'method_ref' } });
  });

  it('announces the extension in /version', async () => {
    expect((await get(`${runner.url}/version`)).json.extensions).toContain('method_ref');
  });
});

describe('method_ref: URLs', () => {
  it('downloads a bundle and validates it', async () => {
    const r = await post(`${runner.url}/validate`, { method_ref: `${hostUrl}/hello.mthds` });
    expect(r.status).toBe(200);
    expect(r.json.is_valid).toBe(true);
  });

  it('answers method.fetch_failed (502, retryable) when the host fails or does not answer', async () => {
    for (const ref of [`${hostUrl}/broken`, `${hostUrl}/missing.mthds`, 'http://127.0.0.1:1/x.mthds']) {
      const r = await post(`${runner.url}/validate`, { method_ref: ref });
      expect(r.status).toBe(502);
      const p = problemOf(r);
      expect(p).toMatchObject({ code: 'method.fetch_failed', params: { method_ref: ref } });
    }
  });

  it('refuses loopback and private hosts unless the configuration allows them', async () => {
    const r = await post(`${strict.url}/validate`, { method_ref: `${hostUrl}/hello.mthds` });
    expect(r.status).toBeLessThan(500);
    expect(problemOf(r).code).toBe('mthdsls.security.address_refused');
  });
});
