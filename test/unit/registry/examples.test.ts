// Every example of the registry is checked the way `mthds check` checks a folder (load, the
// dependencies a manifest names, checkTree, then the dry run when no error is left): the fault
// raises its code and nothing else, the fixed file raises nothing at all.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTree, type Finding } from '../../../server/src/check/index.js';
import { allEntries, exampleCodes, exampleOf, type CodeExample } from '../../../server/src/registry/index.js';
import { dryRunAfterChecks } from '../../../server/src/runner/dryRun.js';
import { resolveDependencies } from '../../../server/src/workspace/dependencies.js';
import { loadTree, planTrees } from '../../../server/src/workspace/load.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const base = mkdtempSync(path.join(tmpdir(), 'mthds-examples-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let folders = 0;

/** The findings of the folder holding `file` (with `text`) and the example's context. */
async function checkFolder(example: CodeExample, text: string): Promise<Finding[]> {
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
  return [...all, ...(await dryRunAfterChecks(tree, all))];
}

const describeFinding = (f: Finding): string => `${f.code} ${f.message}`;

describe('the examples of the registry', () => {
  it('exist only for registry codes of the method family', () => {
    const method = new Set(allEntries().filter((e) => e.family === 'method').map((e) => e.code));
    expect(exampleCodes().filter((c) => !method.has(c))).toEqual([]);
    // The method codes without one: the language reference shows none, and they come from a
    // runner, the dry run, the function modules or a dependency's own files.
    expect(allEntries().filter((e) => e.family === 'method' && exampleOf(e.code) === undefined).map((e) => e.code)).toEqual([
      'method.invalid',
      'method.not_found',
      'method.ambiguous',
      'method.fetch_failed',
      'method.dependency_invalid',
      'method.not_runnable',
      'method.function_invalid',
      'method.mock_unsatisfiable',
      'method.changed_concurrently',
    ]);
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
