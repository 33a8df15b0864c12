// Every example of the registry is checked the way `mthds check` checks a folder (load, the
// dependencies a manifest names, checkTree, the function modules it is given with --functions,
// then the dry run when no error is left), and an example of a code only a run raises is also run
// on the built-in runner: the fault raises its code and nothing else, the fixed file raises nothing
// at all.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTree, type Finding } from '../../../server/src/check/index.js';
import { checkEnvironment } from '../../../server/src/check/rules/functions.js';
import { allEntries, exampleCodes, exampleOf, noExampleReason, type CodeExample } from '../../../server/src/registry/index.js';
import { dryRunAfterChecks } from '../../../server/src/runner/dryRun.js';
import { loadFunctionRegistry } from '../../../server/src/runner/functions.js';
import { startRunner } from '../../../server/src/runner/index.js';
import { resolveDependencies } from '../../../server/src/workspace/dependencies.js';
import { loadTree, planTrees } from '../../../server/src/workspace/load.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';
import { treeFileReader } from '../../../server/src/workspace/treeFiles.js';

const base = mkdtempSync(path.join(tmpdir(), 'mthds-examples-'));
let runner: Awaited<ReturnType<typeof startRunner>> | undefined;
beforeAll(async () => {
  // The built-in runner as the language server starts it (mock provider), for the examples a run shows.
  if (exampleCodes().some((c) => exampleOf(c)!.run)) runner = await startRunner({ port: 0, log: () => {}, env: {} });
});
afterAll(async () => {
  await runner?.close();
  rmSync(base, { recursive: true, force: true });
});

/** What a run of the example's bundles says: nothing when it completes, else the codes of its refusal. */
async function runFolder(example: CodeExample, files: ReadonlyArray<{ path: string; text: string }>): Promise<Array<{ code: string; message: string }>> {
  const run = example.run!;
  // The bundles of the package folder, as an editor or an agent sends them.
  const contents = files.filter((f) => f.path.endsWith('.mthds') && !f.path.startsWith('../')).map((f) => f.text);
  const reply = await fetch(`${runner!.url}/execute`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pipe_code: run.pipe, mthds_contents: contents, inputs: run.inputs }) });
  const body = (await reply.json()) as { code?: string; detail?: string; errors?: Array<{ code: string; detail?: string }>; state?: string };
  if (reply.status === 200 && body.state === 'COMPLETED') return [];
  const items = body.code === 'method.invalid' && body.errors ? body.errors : [{ code: body.code ?? `HTTP ${reply.status}`, detail: body.detail }];
  return items.map((e) => ({ code: e.code, message: e.detail ?? '' }));
}

let folders = 0;

/** The findings of the folder holding `file` (with `text`) and the example's context. */
async function checkFolder(example: CodeExample, text: string): Promise<Array<Pick<Finding, 'code' | 'message'>>> {
  const root = path.join(base, String(folders++));
  // A package folder is named after its package.
  const manifestText = example.file === 'METHODS.toml' ? text : example.context?.find((f) => f.path === 'METHODS.toml')?.text;
  const name = manifestText === undefined ? 'method' : /^name = "([^"]+)"/m.exec(manifestText)?.[1] ?? 'method';
  const dir = path.join(root, name);
  for (const f of [...(example.context ?? []), { path: example.file, text }]) {
    const file = path.join(dir, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.text);
  }
  const { plans, problems } = planTrees(nodeFileSystem, [dir]);
  expect(problems).toEqual([]);
  expect(plans).toHaveLength(1);
  const { tree, findings } = loadTree(nodeFileSystem, plans[0]!);
  findings.push(...resolveDependencies(tree, { fs: nodeFileSystem, packagesDir: path.join(root, 'store') }));
  const all = [...findings, ...checkTree(tree)];
  if (example.functions) {
    const registry = await loadFunctionRegistry(example.functions.map((f) => path.join(dir, f)));
    expect(registry.catalog.importFaults).toEqual([]);
    all.push(...checkEnvironment(tree, registry.catalog, treeFileReader(nodeFileSystem, tree)));
  }
  all.push(...(await dryRunAfterChecks(tree, all)));
  const run = example.run ? await runFolder(example, [...(example.context ?? []), { path: example.file, text }]) : [];
  return [...all, ...run];
}

const describeFinding = (f: Pick<Finding, 'code' | 'message'>): string => `${f.code} ${f.message}`;

describe('the examples of the registry', () => {
  it('exist only for registry codes of the method family', () => {
    const method = new Set(allEntries().filter((e) => e.family === 'method').map((e) => e.code));
    expect(exampleCodes().filter((c) => !method.has(c))).toEqual([]);
    // The method codes without one: no file raises them (a request, a download, a race, an
    // envelope, a guard behind a rule), each with its reason, which docs/errors.md prints.
    const without = allEntries().filter((e) => e.family === 'method' && exampleOf(e.code) === undefined).map((e) => e.code);
    expect(without).toEqual(['method.invalid', 'method.not_found', 'method.ambiguous', 'method.fetch_failed', 'method.mock_unsatisfiable', 'method.changed_concurrently']);
    for (const code of without) expect(noExampleReason(code), code).toMatch(/^[A-Z].{20,200}\.$/);
    // A reason is never given for a code that has an example.
    expect(allEntries().filter((e) => exampleOf(e.code) !== undefined && noExampleReason(e.code) !== undefined).map((e) => e.code)).toEqual([]);
    expect(exampleOf('method.nothing')).toBeUndefined();
    expect(exampleOf('toString')).toBeUndefined();
  });

  describe.each(exampleCodes())('%s', (code) => {
    const example = exampleOf(code)!;
    it('the fault raises exactly its code', async () => {
      const found = await checkFolder(example, example.fault);
      expect(found.length, 'no finding').toBeGreaterThan(0);
      expect(found.filter((f) => f.code !== code).map(describeFinding)).toEqual([]);
    });
    it('the fixed file raises nothing', async () => {
      expect((await checkFolder(example, example.fixed)).map(describeFinding)).toEqual([]);
    });
    it('has a summary and a fixed file that differs', () => {
      expect(example.fixed).not.toBe(example.fault);
      expect(example.context?.map((f) => f.path) ?? []).not.toContain(example.file);
      expect(example.summary.length).toBeGreaterThan(0);
    });
  });
});
