// The guarded writer: an atomic replacement that keeps the mode, and never over a change made
// between the read and the write (method.changed_concurrently for `mthds check --fix`).

import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, lstatSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixTrees } from '../../../server/src/cli/checkFix.js';
import { loadTree, planTrees } from '../../../server/src/workspace/load.js';
import { readSnapshot, writeGuarded } from '../../../server/src/workspace/writeGuarded.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

function tempFile(name: string, content: string, mode = 0o644): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-write-'));
  const file = path.join(dir, name);
  writeFileSync(file, content);
  chmodSync(file, mode);
  return { dir, file };
}

describe('writeGuarded', () => {
  it('replaces the file, keeps its mode and leaves no temporary file', () => {
    const { dir, file } = tempFile('a.mthds', 'old\n', 0o640);
    const snapshot = readSnapshot(file);
    expect(writeGuarded(snapshot, 'new\n')).toEqual({ status: 'written' });
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(statSync(file).mode & 0o7777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['a.mthds']);
  });

  it('does not write when the file changed between the read and the write, and keeps the other change', () => {
    const { dir, file } = tempFile('a.mthds', 'old\n');
    const snapshot = readSnapshot(file);
    const result = writeGuarded(snapshot, 'fixed\n', { beforeCommit: () => writeFileSync(file, 'someone else\n') });
    expect(result).toEqual({ status: 'changed' });
    expect(readFileSync(file, 'utf8')).toBe('someone else\n');
    expect(readdirSync(dir)).toEqual(['a.mthds']);
  });

  it('counts a change of the same size, and a removal, as a change', () => {
    const { file } = tempFile('a.mthds', 'aaaa\n');
    expect(writeGuarded(readSnapshot(file), 'cccc\n', { beforeCommit: () => writeFileSync(file, 'bbbb\n') }).status).toBe('changed');
    expect(readFileSync(file, 'utf8')).toBe('bbbb\n');
    expect(writeGuarded(readSnapshot(file), 'cccc\n', { beforeCommit: () => rmSync(file) }).status).toBe('changed');
    expect(() => statSync(file)).toThrow();
  });

  it('writes through a symbolic link to its target, leaving the link a link', () => {
    const { dir, file } = tempFile('target.mthds', 'old\n');
    const link = path.join(dir, 'link.mthds');
    symlinkSync(file, link);
    expect(writeGuarded(readSnapshot(link), 'new\n').status).toBe('written');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('new\n');
  });

  it('reports a failure to stage the new content without touching the file', () => {
    const { dir, file } = tempFile('a.mthds', 'old\n');
    const snapshot = { ...readSnapshot(file), target: path.join(dir, 'missing-folder', 'a.mthds') };
    expect(writeGuarded(snapshot, 'new\n')).toMatchObject({ status: 'failed', message: expect.stringContaining('ENOENT') });
    expect(readFileSync(file, 'utf8')).toBe('old\n');
  });
});

describe('fixTrees (mthds check --fix) with a concurrent writer', () => {
  const BUNDLE = 'domain = "poems"\ndescription = "Poems"\n\n[pipe.write]\ntype = "PipeLLM"\ndescription = "Write"\ninputs = { topic = "Text", unused = "Text" }\noutput = "Text"\nprompt = "A poem about $topic."\n';

  it('reports method.changed_concurrently and leaves the file as the other writer made it', () => {
    const { dir, file } = tempFile('poem.mthds', BUNDLE);
    const { plans } = planTrees(nodeFileSystem, [dir]);
    const other = BUNDLE.replace('A poem', 'A sonnet');
    const outcome = fixTrees(plans, (plan) => loadTree(nodeFileSystem, plan).tree, { hooks: { beforeCommit: () => writeFileSync(file, other) } });
    expect(outcome.fixed).toEqual([]);
    expect(outcome.conflicts).toHaveLength(1);
    expect(outcome.conflicts[0]).toMatchObject({ code: 'method.changed_concurrently', severity: 'error', file, params: {} });
    expect(outcome.conflicts[0]!.message).toBe('A file the fix read was changed by someone else before the fix wrote it; nothing was overwritten.');
    expect(readFileSync(file, 'utf8')).toBe(other);
    expect(readdirSync(dir)).toEqual(['poem.mthds']);
  });

  it('applies the fix when nobody else writes, and finds nothing more on a second run', () => {
    const { dir, file } = tempFile('poem.mthds', `\uFEFF${BUNDLE}`);
    const { plans } = planTrees(nodeFileSystem, [dir]);
    const outcome = fixTrees(plans, (plan) => loadTree(nodeFileSystem, plan).tree);
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.fixed).toEqual([{ file, line: 7, column: 28, code: 'method.input_unused', title: 'Remove unused input `unused`' }]);
    // The byte order mark stays.
    expect(readFileSync(file, 'utf8')).toBe(`\uFEFF${BUNDLE.replace(', unused = "Text"', '')}`);
    expect(fixTrees(plans, (plan) => loadTree(nodeFileSystem, plan).tree).fixed).toEqual([]);
  });
});
