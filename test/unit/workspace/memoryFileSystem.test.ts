// The in-memory file system (what the browser's language server reads from) gives the session and
// the walks what the disk gives them: the same trees, the same findings, the same refusals.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';
import { Session } from '../../../server/src/workspace/session.js';
import { loadTree, planTrees } from '../../../server/src/workspace/load.js';
import { scanMethodFiles } from '../../../server/src/workspace/scan.js';
import { checkTree } from '../../../server/src/check/index.js';
import type { FileSystem } from '../../../server/src/workspace/fileSystem.js';

const EXAMPLES = path.resolve(__dirname, '../../../examples');

/** The examples folder copied into memory under /ws. */
function examplesInMemory(): MemoryFileSystem {
  const fs = new MemoryFileSystem();
  for (const dir of readdirSync(EXAMPLES)) for (const name of readdirSync(path.join(EXAMPLES, dir))) fs.write(`/ws/${dir}/${name}`, readFileSync(path.join(EXAMPLES, dir, name), 'utf8'));
  return fs;
}

/** code@file:start for every finding of every tree below `root`, files relative to it. */
function checked(fs: FileSystem, root: string): string[] {
  const out: string[] = [];
  for (const plan of planTrees(fs, [root]).plans) {
    const { tree, findings } = loadTree(fs, plan);
    for (const f of [...findings, ...checkTree(tree)]) out.push(`${f.code}@${path.relative(root, f.file)}:${f.range.start}`);
  }
  return out.sort();
}

describe('the in-memory file system', () => {
  it('implies folders from files, lists them and forgets what is removed', () => {
    const fs = new MemoryFileSystem([['/a/b/c.mthds', 'x'], ['/a/d.mthds', 'y']]);
    expect(fs.readFolder('/a').map((e) => `${e.name}:${e.kind}`).sort()).toEqual(['b:directory', 'd.mthds:file']);
    expect(fs.stat('/a/b')?.kind).toBe('directory');
    expect(fs.exists('/a/b/c.mthds')).toBe(true);
    fs.remove('/a/b/c.mthds');
    expect(fs.exists('/a/b')).toBe(false);
    expect(fs.readFolder('/a').map((e) => e.name)).toEqual(['d.mthds']);
    expect(() => fs.readFolder('/nowhere')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => fs.readFolder('/a/d.mthds')).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it('refuses and flags files as the disk reads do', () => {
    const fs = new MemoryFileSystem([['/p/nul.mthds', 'domain = "d"\u0000'], ['/p/big.mthds', 'x'.repeat(16 * 1024 * 1024 + 1)]]);
    expect(fs.readMethodFile('/p/missing.mthds')).toEqual({ ok: false, kind: 'missing', message: 'does not exist' });
    expect(fs.readMethodFile('/p')).toEqual({ ok: false, kind: 'directory', message: 'is a directory' });
    expect(fs.readMethodFile('/p/big.mthds')).toMatchObject({ ok: false, kind: 'too_large' });
    expect(fs.readMethodFile('/p/nul.mthds')).toMatchObject({ ok: true, fault: { kind: 'binary', offset: 12 } });
  });

  it('gives the same trees and findings as the disk for the examples', () => {
    expect(checked(examplesInMemory(), '/ws')).toEqual(checked(nodeFileSystem, EXAMPLES));
    expect(checked(nodeFileSystem, EXAMPLES).some((f) => f.startsWith('method.'))).toBe(true);
  });

  it('lists the method files of a folder as the disk scan does', () => {
    const rel = (files: string[], root: string): string[] => files.map((f) => path.relative(root, f));
    expect(rel(scanMethodFiles(examplesInMemory(), '/ws').files, '/ws')).toEqual(rel(scanMethodFiles(nodeFileSystem, EXAMPLES).files, EXAMPLES));
  });

  it('an unreadable folder is a finding, not an empty folder', () => {
    const fs = examplesInMemory();
    fs.markUnreadable('/ws/invoices');
    const scan = scanMethodFiles(fs, '/ws');
    expect(scan.unreadable).toEqual([{ dir: '/ws/invoices', message: 'cannot be read (permission denied)' }]);
  });

  it('a session over it resolves a reference to another file of the package, and loses it when that file goes', () => {
    const fs = examplesInMemory();
    const session = new Session({ fs, folders: ['/ws'] });
    const ids = session.scanWorkspace();
    const pkg = ids.find((id) => id.root === '/ws/invoices')!;
    expect(pkg.kind).toBe('package');
    const codes = (file: string): string[] => (session.check(pkg).findings.get(file) ?? []).map((f) => f.code);
    expect(codes('/ws/invoices/check.mthds')).toEqual([]);
    fs.remove('/ws/invoices/concepts.mthds');
    session.diskChanged('/ws/invoices/concepts.mthds', 'deleted');
    expect(codes('/ws/invoices/check.mthds')).toContain('method.concept_unresolved');
  });
});

describe('dependencies where no package can be read', () => {
  const MANIFEST = '[package]\nname = "app"\naddress = "github.com/acme/app"\nversion = "1.0.0"\ndescription = "An app"\n\n[dependencies]\nlib = { address = "github.com/acme/scoring", version = "^1.0.0" }\n';
  const BUNDLE = 'domain = "app"\ndescription = "Uses the library"\n\n[pipe.go]\ntype = "PipeSequence"\ndescription = "Go"\noutput = "Text"\nsteps = [{ pipe = "lib->scoring.compute", result = "r" }]\n';

  it('are one finding naming them, on the manifest, never unresolved references', () => {
    const fs = new MemoryFileSystem([['/ws/app/METHODS.toml', MANIFEST], ['/ws/app/main.mthds', BUNDLE]]);
    const session = new Session({ fs, folders: ['/ws'] });
    const [id] = session.scanWorkspace();
    const all = [...session.check(id!).findings.values()].flat();
    const unreachable = all.filter((f) => f.code === 'mthdsls.client.packages_unreachable');
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0]).toMatchObject({ file: '/ws/app/METHODS.toml', severity: 'warning', params: { packages: ['lib'] } });
    expect(unreachable[0]!.message).toContain('lib');
    expect(all.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual([]);
  });

  it('say nothing for a tree that names no package', () => {
    const fs = examplesInMemory();
    const session = new Session({ fs, folders: ['/ws'] });
    const codes = session.scanWorkspace().flatMap((id) => [...session.check(id).findings.values()].flat().map((f) => f.code));
    expect(codes).not.toContain('mthdsls.client.packages_unreachable');
  });
});
