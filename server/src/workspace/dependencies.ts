// Dependency packages of a method tree, loaded from disk; the one place references to other
// packages are resolved (entry point: resolveDependencies). Nothing is ever fetched: a package that
// is not on disk is missing.
//
// An alias of `[dependencies]` names a local `path` or a package of the package store
// (`{store}/{address}/{version}/`, the layout the MTHDS package tools install into). Remote
// dependencies are transitive and selected by Minimum Version Selection over every constraint met
// on the way; a package reached again while it is being resolved is a cycle. Local paths are not
// transitive.
//
// An address-qualified reference (`address/name->domain.pipe`) names the package whose
// `package.address + "/" + package.name` is `address/name`, looked up where the real tools put
// packages, in this order: `path` dependencies; packages of the checked folders or workspace (a
// repository holding several packages); library folders (`-L`), searched recursively; installed
// methods in `.mthds/methods/<name>/` of the package root or any folder above it, then in
// `~/.mthds/methods/<name>/`; then the package store, newest version.
//
// Faults become findings on the manifest's dependency entry (or on the reference that names an
// address), each saying where the package was looked for: method.dependency_missing (not_found,
// no_matching_version, cycle) and method.dependency_invalid (a file of the dependency that is not
// UTF-8 or does not parse).
//
// Where the file system holds only the workspace (a browser, whose client sends the workspace's
// method files and its installed methods, `.mthds/methods/`), packages are looked for the same way
// in what it holds; what would be looked for in the package store or the home folder, and a path
// outside the workspace, is unreachable there: one mthdsls.client.packages_unreachable finding
// names it all, never a missing dependency.

import path from 'node:path';
import type { DependencyDecl, Manifest } from '../language/manifest.js';
import type { Bundle } from '../language/model.js';
import { prefixedRefs } from '../language/packageRefs.js';
import type { DependencyPackage, MethodTree } from '../language/tree.js';
import { newestVersion, selectMinimumVersion } from '../language/versions.js';
import { makeFinding, type Finding } from '../check/finding.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { buildManifest } from '../language/manifest.js';
import { parseToml } from '../syntax/document.js';
import type { Range } from '../syntax/types.js';
import { isDirectory, listTreeFiles, subfolders, walkFiles } from './discover.js';
import { loadTree, planPackage } from './load.js';
import type { FileSystem } from './fileSystem.js';

export interface DependencyOptions {
  /** Where packages are read from. */
  fs: FileSystem;
  /** The package store; default `$MTHDS_PACKAGES_DIR`, else `~/.mthds/packages`. */
  packagesDir?: string;
  /**
   * Whether `path` dependencies may be read. A runner checking the files of a request sets false:
   * it reads nothing outside the request but its own package store.
   */
  localPaths?: boolean;
  /** Packages already read (the language server keeps one across checks). */
  cache?: PackageCache;
  /**
   * How messages name the store: its path by default; a runner names it without a path (its
   * answers never show where its files are).
   */
  storeLabel?: string;
  /** Folders whose packages are the tree's siblings: the checked folders, the workspace folders. */
  workspace?: readonly string[];
  /** Library folders (`--library`, `-L`), searched recursively for packages. */
  libraries?: readonly string[];
  /** The home folder whose `.mthds/methods/` holds installed methods; default the file system's. */
  home?: string;
}

export function defaultPackagesDir(fs: FileSystem, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const fromEnv = env['MTHDS_PACKAGES_DIR'];
  return fromEnv !== undefined && fromEnv !== '' ? path.resolve(fromEnv) : path.join(fs.home() ?? '/', '.mthds', 'packages');
}

/**
 * The store folder of an address, or undefined when the address could leave the store
 * (`..`, `.`, empty or absolute segments, backslashes: addresses come from files under check) or
 * when a folder on its way is a symbolic link (a link could lead anywhere on the disk; the store
 * is what lies inside its folder). Version folders that are links are left out by `subfolders`.
 */
export function storeFolder(fs: FileSystem, store: string, address: string): string | undefined {
  if (address.includes('\\') || address.includes('\0')) return undefined;
  const segments = address.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  let folder = store;
  for (const segment of segments) {
    folder = path.join(folder, segment);
    const stat = fs.lstat(folder);
    // Not there: nothing is installed below it.
    if (stat === undefined) return path.join(store, ...segments);
    if (stat.kind === 'link') return undefined;
  }
  return folder;
}

/** Installed versions of an address: the sub-folders of its store folder. */
function installedVersions(fs: FileSystem, store: string, address: string): string[] {
  const folder = storeFolder(fs, store, address);
  return folder ? subfolders(fs, folder) : [];
}

interface Loaded {
  tree: MethodTree;
  /** Files of the package that are not UTF-8 or do not parse, with the first fault of each. */
  faults: { file: string; message: string }[];
  /** The files' names, sizes and modification times when read (see PackageCache.validate). */
  stamp: string;
}

/** Names, sizes and modification times of a package's files: changes when any file does. */
function packageStamp(fs: FileSystem, dir: string): string {
  return listTreeFiles(fs, dir)
    .files.map((f) => {
      const s = fs.stat(f);
      return s !== undefined ? `${f}:${s.size}:${s.mtimeMs}` : `${f}:gone`;
    })
    .join('|');
}

/**
 * Packages read from disk, by folder. A change on disk below a folder forgets it (the language
 * server's watcher says so); with `validate`, each use compares the files' stamps instead, for
 * clients that watch no files.
 */
export class PackageCache {
  private readonly byDir = new Map<string, Loaded>();
  /** Packages found below a folder (workspace, library), by identity `address/name`. */
  private readonly indexes = new Map<string, { at: number; byIdentity: Map<string, string> }>();

  constructor(private readonly validate = false) {}

  /** The packages below `root` by identity; listed again after a change (or, validating, after 2 s). */
  packagesBelow(fs: FileSystem, root: string): Map<string, string> {
    const cached = this.indexes.get(root);
    if (cached && (!this.validate || Date.now() - cached.at < INDEX_TTL_MS)) return cached.byIdentity;
    const byIdentity = indexPackages(fs, root);
    this.indexes.set(root, { at: Date.now(), byIdentity });
    return byIdentity;
  }

  get(fs: FileSystem, dir: string): Loaded | undefined {
    const loaded = this.byDir.get(dir);
    if (loaded && this.validate && loaded.stamp !== packageStamp(fs, dir)) {
      this.byDir.delete(dir);
      return undefined;
    }
    return loaded;
  }

  set(dir: string, loaded: Loaded): void {
    this.byDir.set(dir, loaded);
  }

  /**
   * Forgets the packages holding `file`, and the package listings a manifest below them changes.
   * True when resolutions may change: a package held the file, or a manifest changed in a listed
   * folder or under `.mthds` (a package appeared, left or was renamed where lookups go).
   */
  forget(file: string): boolean {
    let found = false;
    for (const dir of this.byDir.keys()) {
      if (file === dir || file.startsWith(dir + path.sep)) {
        this.byDir.delete(dir);
        found = true;
      }
    }
    if (path.basename(file) === MANIFEST_FILE) {
      for (const root of this.indexes.keys()) {
        if (file.startsWith(root + path.sep)) {
          this.indexes.delete(root);
          found = true;
        }
      }
      if (file.split(path.sep).includes('.mthds')) found = true;
    }
    return found;
  }
}

const INDEX_TTL_MS = 2000;

/** Whether `dir` is one of `folders` or below one. */
function isInside(dir: string, folders: readonly string[]): boolean {
  return folders.some((folder) => dir === folder || dir.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep));
}

/** The identity references use for a package: `package.address + "/" + package.name`. */
export function packageIdentity(manifest: Manifest | undefined): string | undefined {
  const address = manifest?.address?.value;
  const name = manifest?.name?.value;
  return address !== undefined && name !== undefined ? `${address}/${name}` : undefined;
}

/** The manifest of a package folder, read on its own (no bundle is parsed). */
export function readManifest(fs: FileSystem, dir: string): Manifest | undefined {
  const file = path.join(dir, MANIFEST_FILE);
  const read = fs.readMethodFile(file);
  return read.ok ? buildManifest(file, parseToml(read.text)) : undefined;
}

/** Every package below `root` (nested ones too), by identity; the first in path order wins. */
function indexPackages(fs: FileSystem, root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of walkFiles(fs, root).files) {
    if (path.basename(file) !== MANIFEST_FILE) continue;
    const dir = path.dirname(file);
    const identity = packageIdentity(readManifest(fs, dir));
    if (identity !== undefined && !out.has(identity)) out.set(identity, dir);
  }
  return out;
}

/** Loads a package folder as a tree, the way the command line loads one. */
function loadPackage(fs: FileSystem, dir: string, cache: PackageCache): Loaded {
  const cached = cache.get(fs, dir);
  if (cached) return cached;
  const stamp = packageStamp(fs, dir);
  const { tree, findings } = loadTree(fs, planPackage(fs, dir));
  const faults: Loaded['faults'] = [];
  const seen = new Set<string>();
  for (const f of findings) {
    if (seen.has(f.file)) continue;
    seen.add(f.file);
    faults.push({ file: f.file, message: f.message });
  }
  const docs = [...tree.bundles.map((b) => ({ file: b.file, doc: b.doc })), ...(tree.manifest ? [{ file: tree.manifest.file, doc: tree.manifest.doc }] : [])];
  for (const { file, doc } of docs) {
    const first = doc.errors[0];
    if (first && !seen.has(file)) {
      seen.add(file);
      faults.push({ file, message: first.message });
    }
  }
  const loaded = { tree, faults, stamp };
  cache.set(dir, loaded);
  return loaded;
}

/**
 * Resolves the dependencies of a tree and attaches them (`tree.dependencies`); returns the
 * findings of the dependencies that cannot be found or loaded. A tree without a manifest may still
 * name packages by address.
 */
export function resolveDependencies(tree: MethodTree, options: DependencyOptions): Finding[] {
  const fs = options.fs;
  const reachable = fs.packagesReachable;
  /** What the file system cannot reach (reachable false): named in one finding. */
  const unreachable: AddressSite[] = [];
  // Where only the workspace is held there is no store (nor an environment to name it).
  const store = reachable ? (options.packagesDir ?? defaultPackagesDir(fs)) : '';
  const cache = options.cache ?? new PackageCache();
  const out: Finding[] = [];
  const deps = new Map<string, DependencyPackage>();
  const manifest = tree.manifest;

  const addLoaded = (prefix: string, loaded: Loaded, decl: { address?: string; version?: string }, anchor: { file: string; range: Range }): void => {
    const dep: DependencyPackage = { prefix, tree: loaded.tree };
    if (decl.address !== undefined) dep.address = decl.address;
    if (decl.version !== undefined) dep.version = decl.version;
    deps.set(prefix, dep);
    for (const fault of loaded.faults) {
      const f = makeFinding('method.dependency_invalid', { package: decl.address ?? prefix, finding: `${path.relative(loaded.tree.root, fault.file).split(path.sep).join('/')}: ${fault.message}` }, anchor.file, anchor.range, {
        related: [{ file: fault.file, range: { start: 0, end: 0 }, message: 'the file of the dependency' }],
      });
      // A runner names no folder of its disk (storeLabel set): where it looked is its own business.
      f.message = `${f.message} (the package found ${options.storeLabel !== undefined ? "among the packages of the runner" : `at ${loaded.tree.root}`})`;
      out.push(f);
    }
  };

  if (manifest) {
    const manifestDir = path.dirname(manifest.file);
    const remote: DependencyDecl[] = [];
    for (const decl of manifest.dependencies) {
      if (decl.path) {
        if (options.localPaths === false) {
          const f = makeFinding('method.dependency_missing', { kind: 'package', name: decl.alias, reason: 'not_found' }, manifest.file, decl.path.range);
          f.message = `${f.message} (a runner reads no local path; install the package in its store instead)`;
          out.push(f);
          continue;
        }
        const dir = path.resolve(manifestDir, decl.path.value);
        if (!isDirectory(fs, dir) && !reachable && !isInside(dir, options.workspace ?? [])) {
          unreachable.push({ address: decl.alias, file: manifest.file, range: decl.aliasRange });
          continue;
        }
        if (!isDirectory(fs, dir)) {
          const f = makeFinding('method.dependency_missing', { kind: 'package', name: decl.alias, reason: 'not_found' }, manifest.file, decl.path.range);
          f.message = `${f.message} (looked for the folder ${dir}: there is none)`;
          out.push(f);
          continue;
        }
        addLoaded(decl.alias, loadPackage(fs, dir, cache), { ...(decl.address ? { address: decl.address.value } : {}) }, { file: manifest.file, range: decl.aliasRange });
      } else if (decl.address && decl.version) {
        if (reachable) remote.push(decl);
        else unreachable.push({ address: decl.alias, file: manifest.file, range: decl.aliasRange });
      }
    }
    const selected = selectRemote(fs, manifest, remote, store, cache, out, options.storeLabel);
    for (const decl of remote) {
      const version = selected.get(decl.address!.value);
      if (version === undefined) continue;
      const dir = path.join(storeFolder(fs, store, decl.address!.value)!, version);
      addLoaded(decl.alias, loadPackage(fs, dir, cache), { address: decl.address!.value, version }, { file: manifest.file, range: decl.aliasRange });
    }
  }

  // Address-qualified references name a package without an alias: looked up in order (see top).
  const declaredByAddress = new Map<string, DependencyPackage>();
  for (const d of deps.values()) {
    if (d.address !== undefined && !declaredByAddress.has(d.address)) declaredByAddress.set(d.address, d);
    const identity = packageIdentity(d.tree.manifest);
    if (identity !== undefined && !declaredByAddress.has(identity)) declaredByAddress.set(identity, d);
  }
  for (const site of addressSites(tree.bundles)) {
    if (deps.has(site.address)) continue;
    const declared = declaredByAddress.get(site.address);
    if (declared) {
      deps.set(site.address, { ...declared, prefix: site.address });
      continue;
    }
    const found = findAddressed(tree, site.address, store, cache, options);
    if (found.dir !== undefined) {
      const decl = found.version !== undefined ? { address: site.address, version: found.version } : { address: site.address };
      addLoaded(site.address, loadPackage(fs, found.dir, cache), decl, { file: site.file, range: site.range });
      continue;
    }
    deps.set(site.address, { prefix: site.address, address: site.address, tree: MISSING });
    if (!reachable) {
      unreachable.push(site);
      continue;
    }
    const f = makeFinding('method.dependency_missing', { kind: 'package', name: site.address, reason: 'not_found' }, site.file, site.range);
    f.message = `${f.message} (looked in ${found.looked.join('; ')})`;
    out.push(f);
  }
  for (const [prefix, dep] of deps) if (dep.tree === MISSING) deps.delete(prefix);
  if (deps.size > 0) tree.dependencies = deps;
  const first = unreachable[0];
  if (first) out.push(makeFinding('mthdsls.client.packages_unreachable', { packages: [...new Set(unreachable.map((u) => u.address))] }, first.file, first.range, { severity: 'warning' }));
  return out;
}

/**
 * Where a package named by address is: the first place of the lookup order that holds it, and the
 * places looked in (for the finding when none does).
 */
function findAddressed(tree: MethodTree, address: string, store: string, cache: PackageCache, options: DependencyOptions): { dir?: string; version?: string; looked: string[] } {
  const looked: string[] = [];
  const own = path.resolve(tree.root);
  const local = options.localPaths !== false;
  const inFolders = (roots: readonly string[], what: string): string | undefined => {
    if (roots.length === 0) return undefined;
    // A runner names its folders without their paths (its answers never show where its files are).
    looked.push(options.storeLabel !== undefined ? `the runner's ${what.replace(/^the /, '')}` : `${what} ${roots.join(', ')}`);
    for (const root of roots) {
      const dir = cache.packagesBelow(options.fs, path.resolve(root)).get(address);
      if (dir !== undefined && dir !== own) return dir;
    }
    return undefined;
  };
  const name = address.split('/').at(-1) ?? '';
  const installed = (folder: string): string | undefined => {
    const dir = path.join(folder, '.mthds', 'methods', name);
    return isDirectory(options.fs, dir) && packageIdentity(readManifest(options.fs, dir)) === address ? dir : undefined;
  };
  if (local && tree.manifest?.dependencies.some((d) => d.path)) looked.push('the path dependencies of the manifest');
  const sibling = local ? inFolders(options.workspace ?? [], 'the packages under') : undefined;
  if (sibling !== undefined) return { dir: sibling, looked };
  const library = inFolders(options.libraries ?? [], 'the library folders');
  if (library !== undefined) return { dir: library, looked };
  const byName = local && tree.root !== '' && /^[A-Za-z0-9._-]+$/.test(name) && name !== '.' && name !== '..';
  if (byName) {
    looked.push(`.mthds/methods/${name} in ${own} and every folder above it`);
    for (let current = own; ; current = path.dirname(current)) {
      const dir = installed(current);
      if (dir !== undefined) return { dir, looked };
      if (path.dirname(current) === current) break;
    }
  }
  // The home folder and the package store: out of reach where only the workspace is held.
  if (!options.fs.packagesReachable) return { looked };
  if (byName) {
    const home = options.home ?? options.fs.home() ?? '/';
    looked.push(path.join(home, '.mthds', 'methods', name));
    const dir = installed(home);
    if (dir !== undefined) return { dir, looked };
  }
  looked.push(`the package store ${options.storeLabel ?? store}`);
  const folder = storeFolder(options.fs, store, address);
  const version = folder ? newestVersion(installedVersions(options.fs, store, address)) : undefined;
  if (folder && version !== undefined) return { dir: path.join(folder, version), version, looked };
  return { looked };
}

// A placeholder while collecting address sites, so that each missing address is reported once.
const MISSING: MethodTree = { root: '', bundles: [], files: new Set(), symbols: new Map() };

/**
 * Minimum Version Selection over the remote dependency graph. Selections are recomputed from the
 * root until they stop changing, so that constraints of a version no longer selected drop out.
 */
function selectRemote(fs: FileSystem, manifest: Manifest, roots: readonly DependencyDecl[], store: string, cache: PackageCache, out: Finding[], storeLabel = store): Map<string, string> {
  const selection = new Map<string, string>();
  const failed = new Map<string, { reason: 'not_found' | 'no_matching_version' | 'cycle'; via: DependencyDecl; address: string }>();
  const own = manifest.address?.value;
  for (let round = 0; round < 32; round++) {
    const constraints = new Map<string, string[]>();
    const via = new Map<string, DependencyDecl>();
    failed.clear();
    const visit = (address: string, constraint: string, root: DependencyDecl, stack: readonly string[]): void => {
      if (stack.includes(address)) {
        if (!failed.has(root.alias)) failed.set(root.alias, { reason: 'cycle', via: root, address });
        return;
      }
      const list = constraints.get(address) ?? [];
      list.push(constraint);
      constraints.set(address, list);
      if (!via.has(address)) via.set(address, root);
      const version = selection.get(address);
      if (version === undefined) return;
      const sub = loadPackage(fs, path.join(storeFolder(fs, store, address)!, version), cache).tree.manifest;
      for (const d of sub?.dependencies ?? []) {
        if (d.path || !d.address || !d.version) continue;
        visit(d.address.value, d.version.value, root, [...stack, address]);
      }
    };
    for (const decl of roots) visit(decl.address!.value, decl.version!.value, decl, own !== undefined ? [own] : []);
    const next = new Map<string, string>();
    for (const [address, list] of constraints) {
      const root = via.get(address)!;
      const versions = storeFolder(fs, store, address) ? installedVersions(fs, store, address) : [];
      if (versions.length === 0) {
        if (!failed.has(root.alias)) failed.set(root.alias, { reason: 'not_found', via: root, address });
        continue;
      }
      const version = selectMinimumVersion(versions, list);
      if (version === undefined) {
        if (!failed.has(root.alias)) failed.set(root.alias, { reason: 'no_matching_version', via: root, address });
        continue;
      }
      next.set(address, version);
    }
    const stable = next.size === selection.size && [...next].every(([a, v]) => selection.get(a) === v);
    selection.clear();
    for (const [a, v] of next) selection.set(a, v);
    if (stable) break;
  }
  for (const { reason, via, address } of failed.values()) {
    const direct = address === via.address!.value;
    const range = reason === 'no_matching_version' && direct ? via.version!.range : via.aliasRange;
    const f = makeFinding('method.dependency_missing', { kind: 'package', name: address, reason }, manifest.file, range);
    const why =
      reason === 'not_found'
        ? `not installed in the package store ${storeLabel}`
        : reason === 'no_matching_version'
          ? `versions installed in the package store ${storeLabel}: ${installedVersions(fs, store, address).join(', ') || 'none'}`
          : `${address} depends on itself through ${via.alias}`;
    f.message = `${f.message} (${direct ? why : `needed by ${via.alias}: ${why}`})`;
    out.push(f);
    // A dependency whose graph failed is not loaded: its references stay unresolved, not wrong.
    selection.delete(via.address!.value);
  }
  return selection;
}

interface AddressSite {
  address: string;
  file: string;
  range: Range;
}

/** The first reference naming each package address (`github.com/x/y->domain.Code`), per bundle. */
function addressSites(bundles: readonly Bundle[]): AddressSite[] {
  const out: AddressSite[] = [];
  for (const bundle of bundles) {
    const seen = new Set<string>();
    for (const { prefix, range } of prefixedRefs(bundle)) {
      if (!prefix.includes('/') || seen.has(prefix)) continue;
      seen.add(prefix);
      out.push({ address: prefix, file: bundle.file, range });
    }
  }
  return out;
}
