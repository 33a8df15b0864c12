// A folder whose entries cannot be read holds unknown bundles: it is a finding
// (method.package_invalid, reason folder_unreadable) for the command line's trees and the editor's
// workspace scan alike, never a silent skip. The folder read fails through the walkers' seam
// (`folderReads`): these tests run as root here, and root reads a folder whatever its mode (the
// real mode 000 is exercised as another user by test/e2e/cli-unreadable.test.ts).

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTree, planTrees } from '../../../server/src/workspace/load.js';
import { Session } from '../../../server/src/workspace/session.js';
import { checkTree } from '../../../server/src/check/index.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';
const CLEAN = 'domain = "d"\ndescription = "Clean"\n\n[concept.Note]\ndescription = "A note"\n';
const BROKEN = 'domain = "d"\n[pipe.go\n';

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-unreadable-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** Makes every read of these folders fail as a folder of mode 000 does for its non-owner. */
function lock(...locked: string[]): void {
  const real = nodeFileSystem.readFolder.bind(nodeFileSystem);
  vi.spyOn(nodeFileSystem, 'readFolder').mockImplementation((dir: string) => {
    if (locked.includes(path.resolve(dir))) throw Object.assign(new Error(`EACCES: permission denied, scandir '${dir}'`), { code: 'EACCES' });
    return real(dir);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every finding of every tree the command line would check for `paths`. */
function cliFindings(paths: string[]): Array<{ code: string; params: Record<string, unknown>; file: string; message: string }> {
  const { plans } = planTrees(nodeFileSystem, paths);
  return plans.flatMap((plan) => {
    const { tree, findings } = loadTree(nodeFileSystem, plan);
    return [...findings, ...checkTree(tree)];
  });
}

describe('an unreadable folder', () => {
  it('is a finding of the folder tree that holds it (no package)', () => {
    const ws = workspace({ 'ok/clean.mthds': CLEAN, 'locked/broken.mthds': BROKEN });
    lock(path.join(ws, 'locked'));
    const found = cliFindings([ws]).filter((f) => f.code === 'method.package_invalid');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ params: { reason: 'folder_unreadable', path: 'locked' }, file: path.join(ws, 'locked') });
    expect(found[0]!.message).toContain('permission denied');
  });

  it('is a finding of the package that holds it', () => {
    const ws = workspace({ 'METHODS.toml': MANIFEST, 'clean.mthds': CLEAN, 'deep/locked/broken.mthds': BROKEN });
    lock(path.join(ws, 'deep', 'locked'));
    const found = cliFindings([ws]).filter((f) => f.params['reason'] === 'folder_unreadable');
    expect(found.map((f) => [f.code, f.params])).toEqual([['method.package_invalid', { reason: 'folder_unreadable', path: 'deep/locked' }]]);
  });

  it('is a finding when it is the folder given, and when it holds the only bundle', () => {
    const ws = workspace({ 'locked/broken.mthds': BROKEN });
    lock(path.join(ws, 'locked'));
    expect(cliFindings([ws]).map((f) => f.params)).toEqual([{ reason: 'folder_unreadable', path: 'locked' }]);
    expect(cliFindings([path.join(ws, 'locked')]).map((f) => f.params)).toEqual([{ reason: 'folder_unreadable', path: '.' }]);
  });

  it('is reported by the editor session’s workspace scan, outside and inside a package', () => {
    const ws = workspace({ 'ok/clean.mthds': CLEAN, 'locked/broken.mthds': BROKEN, 'pkg/METHODS.toml': MANIFEST, 'pkg/clean.mthds': CLEAN, 'pkg/inner/broken.mthds': BROKEN });
    lock(path.join(ws, 'locked'), path.join(ws, 'pkg', 'inner'));
    const session = new Session({ fs: nodeFileSystem, folders: [ws] });
    const findings = session.scanWorkspace().flatMap((id) => [...session.check(id).findings.entries()].flatMap(([file, list]) => list.map((f) => ({ file, code: f.code, params: f.params }))));
    const unreadable = findings.filter((f) => f.params['reason'] === 'folder_unreadable');
    expect(unreadable).toHaveLength(2);
    expect(unreadable).toEqual(
      expect.arrayContaining([
        { file: path.join(ws, 'locked'), code: 'method.package_invalid', params: { reason: 'folder_unreadable', path: '.' } },
        { file: path.join(ws, 'pkg', 'inner'), code: 'method.package_invalid', params: { reason: 'folder_unreadable', path: 'inner' } },
      ]),
    );
  });
});
