// The layout rules of packages on disk: symbolic links and the file limit.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listTreeFiles, walkFiles } from '../../../server/src/workspace/discover.js';
import { layoutFindings, MAX_PACKAGE_FILES, planPackage } from '../../../server/src/workspace/load.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function pkg(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-layout-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'pkg', 'sub'), { recursive: true });
  writeFileSync(path.join(dir, 'pkg', 'METHODS.toml'), '[package]\n');
  writeFileSync(path.join(dir, 'pkg', 'a.mthds'), 'domain = "a"\n');
  writeFileSync(path.join(dir, 'outside.mthds'), 'domain = "outside"\n');
  return dir;
}

describe('package layout', () => {
  it('lists symbolic links (file and folder) without following them', () => {
    const dir = pkg();
    symlinkSync(path.join(dir, 'outside.mthds'), path.join(dir, 'pkg', 'sub', 'b.mthds'));
    symlinkSync(dir, path.join(dir, 'pkg', 'up'));
    const listing = listTreeFiles(nodeFileSystem, path.join(dir, 'pkg'));
    expect(listing.files.map((f) => path.basename(f))).toEqual(['METHODS.toml', 'a.mthds']);
    expect(listing.links.map((l) => path.relative(dir, l)).sort()).toEqual([path.join('pkg', 'sub', 'b.mthds'), path.join('pkg', 'up')]);
    const plan = planPackage(nodeFileSystem, path.join(dir, 'pkg'));
    expect(plan.layout?.map((f) => f.params)).toEqual([
      { reason: 'symlink', path: 'sub/b.mthds' },
      { reason: 'symlink', path: 'up' },
    ]);
  });

  it('reports a package past the file limit on its manifest', () => {
    const dir = pkg();
    for (let i = 0; i < 5; i++) writeFileSync(path.join(dir, 'pkg', `f${i}.txt`), '');
    const walk = walkFiles(nodeFileSystem, path.join(dir, 'pkg'), { limit: 3 });
    expect(walk.files).toHaveLength(3);
    expect(walk.truncated).toBe(true);
    const findings = layoutFindings(nodeFileSystem, path.join(dir, 'pkg'), path.join(dir, 'pkg', 'METHODS.toml'), { ...walk, links: [] });
    expect(findings.map((f) => [f.code, f.params])).toEqual([['method.package_invalid', { reason: 'too_many_files', limit: MAX_PACKAGE_FILES }]]);
    expect(walkFiles(nodeFileSystem, path.join(dir, 'pkg'), { limit: 100 }).truncated).toBe(false);
    expect(planPackage(nodeFileSystem, path.join(dir, 'pkg')).layout).toBeUndefined();
  });

  it('reports names that differ only by letter case', () => {
    const dir = pkg();
    writeFileSync(path.join(dir, 'pkg', 'A.mthds'), 'domain = "a"\n');
    expect(planPackage(nodeFileSystem, path.join(dir, 'pkg')).layout?.map((f) => f.params)).toEqual([{ reason: 'clashing_names', path: 'a.mthds' }]);
  });
});
