// `mthds serve --library DIR / -L DIR --structures FILE` as a process: /validate and /execute find a
// package named by address in a library folder, and take the structures the host binds to
// description-only concepts; a config file names both relative to itself.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { post, serveProcess } from './helpers.js';

const REPO = path.resolve(__dirname, '../../..');
const DEPS = path.join(REPO, 'test/fixtures/dependencies');
const RULES = path.join(REPO, 'test/fixtures/rules');
const APP = readFileSync(path.join(DEPS, 'library/app/main.mthds'), 'utf8');
const HOST = readFileSync(path.join(RULES, 'host/combined.mthds'), 'utf8');
const EMPTY = path.join(DEPS, 'no-home');

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

async function serve(args: string[]): Promise<string> {
  const { child, url } = await serveProcess(args, { HOME: EMPTY, MTHDS_PACKAGES_DIR: path.join(EMPTY, 'packages') });
  children.push(child);
  return url;
}

const codes = (json: { validation_errors?: Array<{ error_code?: string; code?: string; type?: string }> }): string[] => (json.validation_errors ?? []).map((e) => e.error_code ?? e.code ?? e.type ?? '?');

describe('mthds serve with library folders and a structures file', () => {
  it('without them, the package is missing and the parallel output has only the field text', async () => {
    const url = await serve([]);
    const app = await post(`${url}/validate`, { mthds_contents: [APP] });
    expect(app.json.is_valid).toBe(false);
    expect(JSON.stringify(app.json)).toContain('dependency_missing');
    const host = await post(`${url}/validate`, { mthds_contents: [HOST] });
    expect(host.json.is_valid).toBe(false);
    expect(JSON.stringify(host.json)).toContain('wiring_invalid');
  });

  it('-L and --structures on the command line', async () => {
    const url = await serve(['-L', path.join(DEPS, 'library/lib'), '--structures', path.join(RULES, 'host/structures.toml')]);
    const app = await post(`${url}/validate`, { mthds_contents: [APP] });
    expect(app.json, JSON.stringify(codes(app.json))).toMatchObject({ is_valid: true });
    const host = await post(`${url}/validate`, { mthds_contents: [HOST] });
    expect(host.json).toMatchObject({ is_valid: true });
    const run = await post(`${url}/execute`, { mthds_contents: [HOST], pipe_code: 'both', inputs: { doc: { concept: 'Text', content: 'A short text' } } });
    expect(run.status, run.text).toBe(200);
    const main = run.json.pipe_output.working_memory.root[run.json.main_stuff_name];
    expect(main.concept).toBe('host_demo.Combined');
    expect(Object.keys(main.content).sort()).toEqual(['length_result', 'tone_result']);
  });

  it('runs a pipe whose output is the native Markdown, and passes it where Text is read', async () => {
    const url = await serve([]);
    const markdown = readFileSync(path.join(RULES, 'markdown.mthds'), 'utf8');
    const run = await post(`${url}/execute`, { mthds_contents: [markdown], pipe_code: 'notes_then_short', inputs: { topic: { concept: 'Text', content: 'tides' } } });
    expect(run.status, run.text).toBe(200);
    const root = run.json.pipe_output.working_memory.root;
    expect(root.notes.concept).toBe('native.Markdown');
    expect(typeof root.notes.content.text).toBe('string');
    expect(root.short.concept).toBe('native.Text');
  });

  it('libraries and structures of a config file, relative to it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-serve-lib-'));
    const config = path.join(dir, 'runner.toml');
    writeFileSync(config, `libraries = [${JSON.stringify(path.relative(dir, path.join(DEPS, 'library/lib')))}]\nstructures = ${JSON.stringify(path.relative(dir, path.join(RULES, 'host/structures.toml')))}\n`);
    const url = await serve(['--config', config]);
    expect((await post(`${url}/validate`, { mthds_contents: [APP] })).json.is_valid).toBe(true);
    expect((await post(`${url}/validate`, { mthds_contents: [HOST] })).json.is_valid).toBe(true);
  });
});
