// Where an address-qualified reference (`address/name->domain.pipe`) finds its package, in order:
// path dependencies, sibling packages, library folders, .mthds/methods above the package, the home
// folder's .mthds/methods, the package store. Each place alone, the order between them, and the
// package listings forgotten when a manifest changes on disk.

import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTree } from '../../../server/src/check/index.js';
import { PackageCache, packageIdentity, resolveDependencies, type DependencyOptions } from '../../../server/src/workspace/dependencies.js';
import { listTreeFiles } from '../../../server/src/workspace/discover.js';
import { loadTree, planPackage } from '../../../server/src/workspace/load.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const DEPS = path.resolve(__dirname, '../../fixtures/dependencies');
const NO_HOME = path.join(DEPS, 'no-home');
const ADDRESS = 'github.com/acme/tools/textkit';

function resolve(app: string, options: Omit<DependencyOptions, 'fs'> = {}): { root: string | undefined; findings: ReturnType<typeof resolveDependencies>; errors: string[] } {
  const { tree } = loadTree(nodeFileSystem, planPackage(nodeFileSystem, app));
  const findings = resolveDependencies(tree, { fs: nodeFileSystem, home: NO_HOME, packagesDir: path.join(NO_HOME, 'packages'), ...options });
  const errors = [...findings, ...checkTree(tree)].filter((f) => f.severity === 'error').map((f) => f.code);
  return { root: tree.dependencies?.get(ADDRESS)?.tree.root, findings, errors };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('each place a package is looked up', () => {
  it('a path dependency', () => {
    expect(resolve(path.join(DEPS, 'path/app'))).toMatchObject({ root: path.join(DEPS, 'path/textkit'), errors: [] });
  });
  it('a sibling package of the workspace (and not the package itself)', () => {
    const app = path.join(DEPS, 'siblings/app');
    expect(resolve(app, { workspace: [path.join(DEPS, 'siblings')] })).toMatchObject({ root: path.join(DEPS, 'siblings/textkit') });
    expect(resolve(app).root).toBeUndefined();
  });
  it('a library folder, searched recursively', () => {
    expect(resolve(path.join(DEPS, 'library/app'), { libraries: [path.join(DEPS, 'library/lib')] })).toMatchObject({ root: path.join(DEPS, 'library/lib/vendor/textkit'), errors: [] });
  });
  it('.mthds/methods/<name>/ of a folder above the package', () => {
    expect(resolve(path.join(DEPS, 'installed/project/app'))).toMatchObject({ root: path.join(DEPS, 'installed/project/.mthds/methods/textkit'), errors: [] });
  });
  it('the home folder', () => {
    expect(resolve(path.join(DEPS, 'home/app'), { home: path.join(DEPS, 'home/user') })).toMatchObject({ root: path.join(DEPS, 'home/user/.mthds/methods/textkit'), errors: [] });
  });
  it('the package store, with the version found', () => {
    const { tree } = loadTree(nodeFileSystem, planPackage(nodeFileSystem, path.join(DEPS, 'store/app')));
    resolveDependencies(tree, { fs: nodeFileSystem, home: NO_HOME, packagesDir: path.join(DEPS, 'store/packages') });
    expect(tree.dependencies?.get(ADDRESS)).toMatchObject({ address: ADDRESS, version: '1.0.0' });
  });
  it('a runner (no local paths) looks only in its libraries and its store', () => {
    const r = resolve(path.join(DEPS, 'installed/project/app'), { localPaths: false });
    expect(r.root).toBeUndefined();
    expect(r.findings[0]!.message).not.toContain('.mthds/methods');
    expect(resolve(path.join(DEPS, 'library/app'), { localPaths: false, libraries: [path.join(DEPS, 'library/lib')] }).root).toBe(path.join(DEPS, 'library/lib/vendor/textkit'));
  });
  it('a folder of the right name holding another package is not it', () => {
    const base = mkdtempSync(path.join(tmpdir(), 'mthds-lookup-'));
    dirs.push(base);
    cpSync(path.join(DEPS, 'installed/project'), base, { recursive: true });
    const manifest = path.join(base, '.mthds/methods/textkit/METHODS.toml');
    writeFileSync(manifest, '[package]\nname = "textkit"\naddress = "github.com/other/tools"\nversion = "1.0.0"\ndescription = "d"\n');
    expect(resolve(path.join(base, 'app')).root).toBeUndefined();
  });
});

describe('the order of the places', () => {
  it('siblings before libraries before installed methods before the store', () => {
    const base = mkdtempSync(path.join(tmpdir(), 'mthds-order-'));
    dirs.push(base);
    cpSync(path.join(DEPS, 'installed/project'), path.join(base, 'repo'), { recursive: true });
    cpSync(path.join(DEPS, 'siblings/textkit'), path.join(base, 'repo/textkit'), { recursive: true });
    cpSync(path.join(DEPS, 'library/lib'), path.join(base, 'lib'), { recursive: true });
    const app = path.join(base, 'repo/app');
    const store = path.join(DEPS, 'store/packages');
    const all = { workspace: [path.join(base, 'repo')], libraries: [path.join(base, 'lib')], packagesDir: store };
    expect(resolve(app, all).root).toBe(path.join(base, 'repo/textkit'));
    expect(resolve(app, { ...all, workspace: [] }).root).toBe(path.join(base, 'lib/vendor/textkit'));
    expect(resolve(app, { ...all, workspace: [], libraries: [] }).root).toBe(path.join(base, 'repo/.mthds/methods/textkit'));
    rmSync(path.join(base, 'repo/.mthds'), { recursive: true });
    expect(resolve(app, { packagesDir: store }).root).toBe(path.join(store, ADDRESS, '1.0.0'));
  });
});

describe('package listings on disk', () => {
  it('a package appearing below a listed folder is found once its manifest change is told', () => {
    const base = mkdtempSync(path.join(tmpdir(), 'mthds-appear-'));
    dirs.push(base);
    cpSync(path.join(DEPS, 'siblings/app'), path.join(base, 'app'), { recursive: true });
    const cache = new PackageCache();
    const options = { cache, workspace: [base] };
    expect(resolve(path.join(base, 'app'), options).root).toBeUndefined();
    cpSync(path.join(DEPS, 'siblings/textkit'), path.join(base, 'textkit'), { recursive: true });
    expect(resolve(path.join(base, 'app'), options).root).toBeUndefined();
    expect(cache.forget(path.join(base, 'textkit/METHODS.toml'))).toBe(true);
    expect(resolve(path.join(base, 'app'), options).root).toBe(path.join(base, 'textkit'));
    // A manifest elsewhere changes no lookup; one under .mthds may (installed methods are not listed).
    expect(cache.forget(path.join(tmpdir(), 'elsewhere', 'METHODS.toml'))).toBe(false);
    expect(cache.forget(path.join(tmpdir(), 'p', '.mthds', 'methods', 'x', 'METHODS.toml'))).toBe(true);
  });
  it('files under .mthds are never part of a tree', () => {
    expect(listTreeFiles(nodeFileSystem, path.join(DEPS, 'installed/project/app')).files.map((f) => path.basename(f)).sort()).toEqual(['METHODS.toml', 'main.mthds']);
  });
  it('a package is known by its address and name', () => {
    const { tree } = loadTree(nodeFileSystem, planPackage(nodeFileSystem, path.join(DEPS, 'siblings/textkit')));
    expect(packageIdentity(tree.manifest)).toBe(ADDRESS);
  });
});
