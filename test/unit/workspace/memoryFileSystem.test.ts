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

describe('dependencies installed in the workspace, where nothing else can be read', () => {
  const FIXTURE = path.resolve(__dirname, '../../fixtures/dependencies/installed/project');
  const APP = '/ws/app/main.mthds';
  /** The fixture's project (an app and the textkit methods installed in `.mthds/methods/`) in memory under /ws. */
  function installedInMemory(options: { installed: boolean }): MemoryFileSystem {
    const fs = new MemoryFileSystem();
    const copy = (dir: string, rel: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (!options.installed && relPath.startsWith('.mthds/methods/textkit')) continue;
        if (entry.isDirectory()) copy(path.join(dir, entry.name), relPath);
        else fs.write(`/ws/${relPath}`, readFileSync(path.join(dir, entry.name), 'utf8'));
      }
    };
    copy(FIXTURE, '');
    return fs;
  }
  const findingsOf = (fs: MemoryFileSystem): ReturnType<Session['check']>['findings'] => {
    const session = new Session({ fs, folders: ['/ws'] });
    const id = session.scanWorkspace().find((t) => t.root === '/ws/app')!;
    return session.check(id).findings;
  };

  it('resolve a reference by address as on the desktop: no unreachable warning, and a wrong pipe of the package is an error', () => {
    const fs = installedInMemory({ installed: true });
    const codes = [...findingsOf(fs).values()].flat().map((f) => f.code);
    expect(codes).not.toContain('mthdsls.client.packages_unreachable');
    expect(codes).not.toContain('method.dependency_missing');
    expect(codes.filter((c) => !c.startsWith('mthdsls.lint'))).toEqual([]);
    // The package was really read: a pipe it does not export is refused.
    fs.write(APP, readFileSync(path.join(FIXTURE, 'app/main.mthds'), 'utf8').replace('textkit.digest', 'textkit.internal_helper'));
    const refused = [...findingsOf(fs).values()].flat().filter((f) => f.severity === 'error');
    expect(refused.map((f) => f.code)).toHaveLength(1);
    expect(refused[0]!.file).toBe(APP);
  });

  it('say a package installed nowhere in the workspace is unreachable (the home folder and the store are out of reach), never missing', () => {
    const all = [...findingsOf(installedInMemory({ installed: false })).values()].flat();
    expect(all.map((f) => f.code)).not.toContain('method.dependency_missing');
    const unreachable = all.filter((f) => f.code === 'mthdsls.client.packages_unreachable');
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0]).toMatchObject({ file: APP, severity: 'warning', params: { packages: ['github.com/acme/tools/textkit'] } });
    expect(all.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('read a path dependency inside the workspace; one outside it is unreachable, one missing inside it is missing', () => {
    const PATH_FIXTURE = path.resolve(__dirname, '../../fixtures/dependencies/path');
    const text = (rel: string): string => readFileSync(path.join(PATH_FIXTURE, rel), 'utf8');
    const codesWith = (dep: string): string[] => {
      const fs = new MemoryFileSystem([
        ['/ws/app/METHODS.toml', text('app/METHODS.toml').replace('"../textkit"', `"${dep}"`)],
        ['/ws/app/main.mthds', text('app/main.mthds')],
        ['/ws/textkit/METHODS.toml', text('textkit/METHODS.toml')],
        ['/ws/textkit/textkit.mthds', text('textkit/textkit.mthds')],
      ]);
      return [...findingsOf(fs).values()].flat().filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.code);
    };
    expect(codesWith('../textkit')).toEqual([]);
    expect(codesWith('../../elsewhere/textkit')).toEqual(['mthdsls.client.packages_unreachable']);
    expect(codesWith('../nothing')).toEqual(['method.dependency_missing']);
  });
});
