// The package store over real HTTP: a symbolic link at any level of a lookup (an address segment,
// a version folder, a file) is never followed, so no method or dependency stored outside
// `packages_dir` runs; and no problem body carries a path of the runner's disk.

import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appBundle, appManifest, manifestText, SCORING_BUNDLE } from '../../helpers/packages.js';
import { HELLO, post, problemOf, withRunner, type Reply, type Runner } from './helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'mthds-store-links-'));
const store = path.join(root, 'store');
const outside = path.join(root, 'outside');

function write(base: string, address: string, version: string, files: Record<string, string>): string {
  const dir = path.join(base, ...address.split('/'), version);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const hello = (address: string, version: string): Record<string, string> => ({
  'METHODS.toml': manifestText('hello', address, version, 'main_pipe = "greet"\n\n[exports.hello]\npipes = ["greet"]\n'),
  'hello.mthds': HELLO,
});

// Outside the store: packages a link inside it points to.
write(outside, 'evil/hello', '1.0.0', hello('github.com/linked/hello', '1.0.0'));
const outsideScoring = write(outside, 'x', '1.0.0', {
  'METHODS.toml': manifestText('scoring', 'github.com/acme/scoring', '1.0.0', '\n[exports.scoring]\npipes = ["compute"]\n'),
  'scoring.mthds': SCORING_BUNDLE,
});
// An address segment that is a link: github.com/linked -> outside/evil.
mkdirSync(path.join(store, 'github.com'), { recursive: true });
symlinkSync(path.join(outside, 'evil'), path.join(store, 'github.com', 'linked'));
// A version folder that is a link.
mkdirSync(path.join(store, 'github.com', 'acme', 'vlink'), { recursive: true });
symlinkSync(path.join(outside, 'evil', 'hello', '1.0.0'), path.join(store, 'github.com', 'acme', 'vlink', '1.0.0'));
// A dependency reached through a linked version folder.
mkdirSync(path.join(store, 'github.com', 'acme', 'scoring'), { recursive: true });
symlinkSync(outsideScoring, path.join(store, 'github.com', 'acme', 'scoring', '1.0.0'));
write(store, 'github.com/acme/app', '1.0.0', {
  'METHODS.toml': appManifest('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'),
  'main.mthds': appBundle('lib->scoring.compute', 'lib->scoring.Score'),
});
// A dependency address through a linked segment.
write(store, 'github.com/acme/app2', '1.0.0', {
  'METHODS.toml': manifestText('app2', 'github.com/acme/app2', '1.0.0', 'main_pipe = "run"\n\n[dependencies]\nlib = { address = "github.com/linked/hello", version = "^1.0.0" }\n'),
  'main.mthds': appBundle('lib->hello.greet', 'Text'),
});
// A package holding a linked bundle, and a package with a broken dependency of its own.
const withLink = write(store, 'github.com/acme/haslink', '1.0.0', hello('github.com/acme/haslink', '1.0.0'));
symlinkSync(path.join(outside, 'evil', 'hello', '1.0.0', 'hello.mthds'), path.join(withLink, 'other.mthds'));
write(store, 'github.com/acme/broken', '1.0.0', {
  'METHODS.toml': manifestText('broken', 'github.com/acme/broken', '1.0.0', '\n[exports.broken]\npipes = ["compute"]\n'),
  'broken.mthds': 'domain = "broken"\n[pipe.compute\n',
});
write(store, 'github.com/acme/usesbroken', '1.0.0', {
  'METHODS.toml': appManifest('lib = { address = "github.com/acme/broken", version = "^1.0.0" }').replace('github.com/acme/app', 'github.com/acme/usesbroken').replace('name = "app"', 'name = "usesbroken"'),
  'main.mthds': appBundle('lib->broken.compute', 'Text'),
});

// A version folder whose manifest is a link to a manifest outside.
const linkedManifest = path.join(store, 'github.com', 'acme', 'mlink', '1.0.0');
mkdirSync(linkedManifest, { recursive: true });
writeFileSync(path.join(linkedManifest, 'hello.mthds'), HELLO);
symlinkSync(path.join(outside, 'evil', 'hello', '1.0.0', 'METHODS.toml'), path.join(linkedManifest, 'METHODS.toml'));

let runner: Runner;
beforeAll(async () => {
  runner = await withRunner({ packages_dir: store });
});
afterAll(async () => {
  await runner.close();
});

const ada = { name: { concept: 'Text', content: 'Ada' } };
const execute = (method_ref: string): Promise<Reply> => post(`${runner.url}/execute`, { method_ref, inputs: ada });
const validate = (method_ref: string): Promise<Reply> => post(`${runner.url}/validate`, { method_ref });

/** No path of the runner's disk anywhere in the answer. */
function expectNoServerPath(reply: Reply): void {
  expect(reply.text).not.toContain(root);
  expect(reply.text).not.toContain(tmpdir());
  expect(reply.text).not.toMatch(/"\/(tmp|home|root|var|usr|etc)\//);
}

describe('symbolic links in the package store', () => {
  it('does not follow a linked address segment (the method lies outside the store)', async () => {
    const r = await execute('github.com/linked/hello');
    expect(r.status).toBe(404);
    expect(problemOf(r)).toMatchObject({ code: 'method.not_found', params: { method_ref: 'github.com/linked/hello' } });
    expectNoServerPath(r);
    expect((await execute('github.com/linked/hello@^1.0.0')).status).toBe(404);
  });

  it('does not follow a linked version folder', async () => {
    const r = await execute('github.com/acme/vlink');
    expect(problemOf(r)).toMatchObject({ code: 'method.not_found' });
    expectNoServerPath(r);
  });

  it('does not take a version folder whose manifest is a link as installed', async () => {
    for (const ref of ['github.com/acme/mlink', 'github.com/acme/mlink@^1.0.0']) {
      const r = await execute(ref);
      expect(problemOf(r)).toMatchObject({ code: 'method.not_found' });
      expectNoServerPath(r);
    }
  });

  it('does not load a dependency through a linked version folder or address segment', async () => {
    for (const ref of ['github.com/acme/app', 'github.com/acme/app2']) {
      const r = await validate(ref);
      expect(r.status, r.text).toBe(200);
      expect(r.json.is_valid).toBe(false);
      const codes = r.json.validation_errors.map((e: { code: string }) => e.code);
      expect(codes).toContain('method.dependency_missing');
      expectNoServerPath(r);
      const run = await execute(ref);
      expect(run.status).toBe(422);
      expectNoServerPath(run);
    }
  });

  it('reports a linked file of an installed package without following it or naming server paths', async () => {
    const r = await validate('github.com/acme/haslink');
    expect(r.status).toBe(200);
    const items = [...(r.json.validation_errors ?? []), ...(r.json.warnings ?? [])];
    expect(items.some((e: { code: string; message: string }) => e.code === 'method.package_invalid' && e.message.includes('other.mthds'))).toBe(true);
    expectNoServerPath(r);
    const run = await execute('github.com/acme/haslink');
    expectNoServerPath(run);
  });

  it('names no server path when an installed dependency is broken', async () => {
    const v = await validate('github.com/acme/usesbroken');
    expect(v.status).toBe(200);
    expect(v.json.is_valid).toBe(false);
    expectNoServerPath(v);
    const r = await execute('github.com/acme/usesbroken');
    expect(r.status).toBe(422);
    const p = problemOf(r);
    expect(JSON.stringify(p.errors ?? [])).toContain('github.com/acme/broken');
    expectNoServerPath(r);
  });
});
