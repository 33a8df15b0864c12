// Data-flow parity with the reference runtime, from the outside: every bundle of
// test/fixtures/parity/ (one per runtime check, its first line naming the registry code the
// runtime's refusal maps to, or `none`) gets the same verdict from `mthds check` as a process, the
// language server over stdio, and the runner over loopback HTTP (`/validate`, `/execute`, `/start`):
// a static refusal and a run can never disagree. docs/dev/runtime-parity.md lists the checks.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClient, tempWorkspace, uriOf, type LspClient } from './lsp/harness.js';
import { post, problemOf, withRunner, type Runner } from './runner/helpers.js';
import { runCli } from '../helpers/cli.js';

const REPO = path.resolve(__dirname, '../..');
const FIXTURES = path.join(REPO, 'test/fixtures/parity');

interface Fixture {
  name: string;
  file: string;
  text: string;
  /** The registry code the runtime's refusal maps to; undefined for a method the runtime accepts. */
  expected?: string;
}

const fixtures: Fixture[] = readdirSync(FIXTURES)
  .filter((n) => n.endsWith('.mthds'))
  .sort()
  .map((name) => {
    const file = path.join(FIXTURES, name);
    const text = readFileSync(file, 'utf8');
    const stated = /^# expect: (\S+)/.exec(text)?.[1];
    if (stated === undefined) throw new Error(`${name} states no expected code on its first line`);
    return { name, file, text, ...(stated === 'none' ? {} : { expected: stated }) };
  });

/** Error codes by file name, from `mthds check --format json` as a process. */
function cliCodes(args: string[]): { status: number | null; byFile: Map<string, string[]> } {
  const r = runCli(['check', '--format', 'json', ...args]);
  const report = JSON.parse(r.stdout) as { findings: Array<{ file: string; code: string; severity: string }> };
  const byFile = new Map<string, string[]>();
  for (const f of report.findings) if (f.severity === 'error') byFile.set(path.basename(f.file), [...(byFile.get(path.basename(f.file)) ?? []), f.code]);
  return { status: r.status, byFile };
}

describe('data-flow parity fixtures', () => {
  it('cover both verdicts, and the table of runtime checks lists each of them', () => {
    expect(fixtures.filter((f) => f.expected).length).toBeGreaterThan(15);
    expect(fixtures.filter((f) => !f.expected).length).toBeGreaterThan(3);
    const table = readFileSync(path.join(REPO, 'docs/dev/runtime-parity.md'), 'utf8');
    for (const f of fixtures) expect(table, f.name).toContain(`test/fixtures/parity/${f.name}`);
  });

  it('mthds check gives each its expected code, and only that one', () => {
    const { status, byFile } = cliCodes(['--no-dry-run', FIXTURES]);
    expect(status).toBe(1);
    const got = fixtures.map((f) => [f.name, [...new Set(byFile.get(f.name) ?? [])]]);
    expect(got).toEqual(fixtures.map((f) => [f.name, f.expected ? [f.expected] : []]));
  });

  it('mthds check passes the methods the runtime accepts, their dry run included', () => {
    for (const f of fixtures.filter((x) => !x.expected)) {
      const { status, byFile } = cliCodes([f.file]);
      expect([f.name, status, byFile.get(f.name) ?? []]).toEqual([f.name, 0, []]);
    }
  });
});

describe('the language server publishes the same codes', () => {
  let client: LspClient | undefined;
  afterAll(async () => client?.shutdown());

  it('for every fixture of a workspace checked at start-up', async () => {
    const ws = tempWorkspace({}, { parity: FIXTURES });
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const got = fixtures.map((f) => {
      const published = client!.diagnostics.get(uriOf(path.join(ws, 'parity', f.name))) ?? { diagnostics: [] };
      return [f.name, [...new Set(published.diagnostics.filter((d) => d.severity === 1).map((d) => String(d.code)))]];
    });
    expect(got).toEqual(fixtures.map((f) => [f.name, f.expected ? [f.expected] : []]));
  });
});

describe('the runner refuses the same methods before running anything', () => {
  let runner: Runner;
  beforeAll(async () => {
    runner = await withRunner();
  });
  afterAll(async () => runner.close());

  it('/validate: invalid with the code, valid for the others', async () => {
    for (const f of fixtures) {
      const r = await post(`${runner.url}/validate`, { mthds_contents: [f.text], mthds_sources: [f.name] });
      expect(r.status, f.name).toBe(200);
      const codes = [...new Set(((r.json.validation_errors ?? []) as Array<{ code: string }>).map((e) => e.code))];
      expect([f.name, r.json.is_valid, codes]).toEqual([f.name, !f.expected, f.expected ? [f.expected] : []]);
    }
  });

  it('/execute and /start: 422 method.invalid carrying the code, whatever the inputs', async () => {
    for (const f of fixtures.filter((x) => x.expected)) {
      for (const route of ['execute', 'start']) {
        const r = await post(`${runner.url}/${route}`, { mthds_contents: [f.text], mthds_sources: [f.name], inputs: {} });
        expect([f.name, route, r.status]).toEqual([f.name, route, 422]);
        const problem = problemOf(r);
        expect(problem.code).toBe('method.invalid');
        expect([f.name, [...new Set(problem.errors!.map((e) => e.code))]]).toEqual([f.name, [f.expected]]);
      }
    }
  });
});
