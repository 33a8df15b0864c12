// The state of an editor session, free of any protocol: the open documents (unsaved buffers win
// over disk), the files of each method tree on disk, the parsed documents (cached by their text, so
// a keystroke re-parses one document and reuses the others), and the latest check of each tree.
//
// Files are known by an identity: the absolute path of a file, or the URI of a document that is no
// file (an untitled buffer), which stands alone.

import path from 'node:path';
import { checkTreeFilesSteps, createCheckCache, type CheckCache, type TreeFindings } from '../check/index.js';
import { compareFindings, makeFinding, type Finding } from '../check/finding.js';
import { buildBundle } from '../language/buildBundle.js';
import { buildManifest, type Manifest } from '../language/manifest.js';
import type { Bundle } from '../language/model.js';
import { LOCK_FILE, MANIFEST_FILE } from '../language/spec/manifest.js';
import { bundleIndex, bundleOutline, createTreeSteps, treeUpdate, updateTreeSteps, type DependencyPackage, type MethodTree } from '../language/tree.js';
import { prefixedRefs } from '../language/packageRefs.js';
import { computeLineStarts } from '../syntax/positions.js';
import { parseToml } from '../syntax/document.js';
import type { TomlDocument } from '../syntax/types.js';
import { isBundlePath, listTreeFilesSteps } from './discover.js';
import { layoutFindings, refusedReadFinding, relativeTo, skippedFindings, unreadableFindings } from './load.js';
import type { RefusedRead } from './methodText.js';
import type { FileSystem } from './fileSystem.js';
import { PackageCache, resolveDependencies } from './dependencies.js';
import type { HostStructures } from '../language/hostStructures.js';
import { isMethodFile, listFolderFiles, scanMethodFilesSteps } from './scan.js';
import { isFilePath, isWithin, TreeLocator, treeId, type TreeId } from './treeLocator.js';
import { runSteps } from '../util/steps.js';
import { ObjectCache } from '../util/objectCache.js';

export type FileId = string;

export interface SessionOptions {
  /** What the session reads files through: the disk on the desktop, the client's files in a browser. */
  fs: FileSystem;
  /** Workspace folders (absolute paths). */
  folders?: readonly string[];
  /**
   * Re-validate cached disk files by their modification time before each check. Needed when the
   * client cannot tell about changes on disk (no file watcher); otherwise events are trusted.
   */
  validateDisk?: boolean;
  /** Where dependency packages are looked up (default: see defaultPackagesDir). */
  packagesDir?: string;
  /** With validateDisk, how long a dependency resolution is trusted before it is redone (ms). */
  dependencyRecheckMs?: number;
  /**
   * How much text (UTF-16 units) of trees without open documents stays parsed, so that opening a
   * document of a checked tree costs one parse, not the whole tree's (default 32 M: about 20,000
   * bundles of the average size). Beyond it, such trees keep only their findings.
   */
  keepParsed?: number;
}

/** The latest check of one tree. */
export interface TreeCheck {
  id: TreeId;
  /** The checked tree; dropped (with its parsed documents) when the tree holds no open buffer. */
  tree?: MethodTree;
  /**
   * Every file of the tree (bundles, then the manifest), each with its findings (maybe none). A
   * check of the same files updates the map of the previous check in place.
   */
  findings: Map<FileId, Finding[]>;
  /**
   * The files whose findings are not those of the previous check of the tree (then the same
   * files); undefined when any may differ.
   */
  changed?: ReadonlySet<FileId>;
}

/** What happened to a file on disk. */
export type DiskChange = 'created' | 'changed' | 'deleted';

interface ParsedFile {
  /** The text it was parsed from (open buffer), or the disk stamp it was read at. */
  text: string;
  stamp: string;
  readonly lineStarts: number[];
  /** The document parsed (none when parsing failed). */
  readonly doc?: TomlDocument;
  bundle?: Bundle;
  manifest?: Manifest;
  lock?: TomlDocument;
  /** A fault of the bytes on disk (not UTF-8, NUL byte), located in `text`. */
  fault?: { offset: number; message: string };
}

interface Unreadable {
  stamp: string;
  refusal: RefusedRead;
}

interface Listing {
  bundles: string[];
  /** The same files, for lookups. */
  members: Set<string>;
  manifest?: string;
  /** Every file name of the tree relative to its root (resource lookups). */
  names: Set<string>;
  /** Faults of the tree's layout (symbolic links, too many files, folders that cannot be read). */
  layout?: Finding[];
}

/** What the last check of a tree read, for the next one to read only what changed since. */
interface TreeState {
  /** The position in the session's change log when the check began. */
  seen: number;
  bundleFiles: readonly FileId[];
  manifestFile: FileId | undefined;
  names: Set<string>;
  /** The lock file beside the manifest. */
  lockFile?: FileId;
  /** The files read (each with a list of findings, maybe empty). */
  members: Set<FileId>;
  /** Faults of reading files, per file that has some. */
  faults: Map<FileId, Finding[]>;
  layout: readonly Finding[];
  /** The text size of the tree (UTF-16 units). */
  size: number;
}

interface DependencyMemo {
  manifest: Manifest | undefined;
  /** The bundles whose address-qualified references `addresses` lists. */
  bundles: readonly Bundle[];
  addresses: string;
  at: number;
  dependencies?: Map<string, DependencyPackage>;
  findings: Finding[];
}


export class Session {
  readonly fs: FileSystem;
  readonly locator: TreeLocator;
  private readonly open = new Map<FileId, string>();
  /** Per open file, the order it was opened in and the tree it was in then (see openTrees). */
  private readonly openSeq = new Map<FileId, number>();
  private opened = 0;
  /** How many open files each tree has: undefined when trees may have regrouped (made again when asked). */
  private openCounts: Map<string, number> | undefined;
  private readonly openKeys = new Map<FileId, string>();
  private readonly parsed = new Map<FileId, ParsedFile | Unreadable>();
  /**
   * The last parse of each file changed on disk since, until it is read again: the next parse
   * takes over its statements before and after the changed stretch (parseToml's `previous`), so an
   * update of many files makes, and the collector copies, only what changed.
   */
  private readonly previousParse = new Map<FileId, TomlDocument>();
  private readonly listings = new Listings();
  /** Trees whose listing was made while a change dropped listings: the next check lists again. */
  private readonly relist = new Set<string>();
  private readonly trees = new Map<string, TreeId>();
  private readonly dirty = new DirtyTrees();
  private readonly results = new Map<string, TreeCheck>();
  private readonly validateDisk: boolean;
  private packagesDir: string | undefined;
  private libraries: string[] = [];
  private hostStructures: HostStructures | undefined;
  /** Dependency packages read from disk, shared by the trees that use them. */
  private readonly packages: PackageCache;
  /** The last dependency resolution of each tree (see dependenciesOf). */
  private readonly dependencyMemo = new Map<string, DependencyMemo>();
  private readonly dependencyRecheckMs: number;
  /** Per-bundle findings kept between checks of a tree (check/index.ts). */
  private readonly checkCaches = new Map<string, CheckCache>();
  /** The text size of each checked tree whose parsed files are kept. */
  private readonly treeSizes = new Map<string, number>();
  private readonly keepParsed: number;
  private readonly checkCounts = new Map<string, number>();
  /** How many checks have ended, of any tree. */
  private totalChecks = 0;
  /** What the last check of each tree read (see checkSteps). */
  private readonly states = new Map<string, TreeState>();
  /**
   * Files whose text or presence may have changed, in order: a tree's next check reads again the
   * files logged since its last check began. Bounded: past the bound it starts again, and trees
   * checked before are read whole.
   */
  private changeLog: FileId[] = [];
  private changeStart = 0;

  constructor(options: SessionOptions) {
    this.fs = options.fs;
    this.locator = new TreeLocator(options.fs, options.folders ?? [], (file) => this.open.has(file));
    this.validateDisk = options.validateDisk ?? false;
    this.packagesDir = options.packagesDir;
    this.packages = new PackageCache(this.validateDisk);
    this.dependencyRecheckMs = options.dependencyRecheckMs ?? 2000;
    this.keepParsed = options.keepParsed ?? 32 * 2 ** 20;
  }

  // ---- documents -------------------------------------------------------------------------------

  isOpen(file: FileId): boolean {
    return this.open.has(file);
  }

  openFiles(): FileId[] {
    return [...this.open.keys()];
  }

  /** Opens or updates a buffer; returns its tree, now due for a check. */
  setDocument(file: FileId, text: string): TreeId {
    const wasOpen = this.open.has(file);
    this.open.set(file, text);
    if (!wasOpen) this.openSeq.set(file, ++this.opened);
    this.changed(file);
    if (!wasOpen && path.basename(file) === MANIFEST_FILE && isFilePath(file) && !this.fs.exists(file)) this.structureChanged();
    const id = this.locator.locate(file);
    if (!wasOpen && this.openCounts) {
      this.openKeys.set(file, id.key);
      this.openCounts.set(id.key, (this.openCounts.get(id.key) ?? 0) + 1);
    }
    this.trees.set(id.key, id);
    const listing = this.listings.get(id.key);
    // A file the listing does not know (created while no watcher told us): list again.
    if (!wasOpen && listing && isFilePath(file) && !listing.members.has(file) && listing.manifest !== file && path.basename(file) !== LOCK_FILE) this.listings.delete(id.key);
    this.dirty.add(id.key);
    return id;
  }

  /**
   * Closes a buffer: the file on disk counts again. Returns the tree it was in, and whether that
   * tree is gone (a document that is no file, or a tree outside the workspace with nothing open).
   */
  closeDocument(file: FileId): { id: TreeId; dropped: boolean } {
    if (this.open.delete(file)) this.forgetOpen(file);
    // The buffer's parse is the previous version of the file's (most often the same text, saved).
    this.forgetParse(file, true);
    this.changed(file);
    const id = this.locator.locate(file);
    if (path.basename(file) === MANIFEST_FILE && isFilePath(file) && !this.fs.exists(file)) this.structureChanged();
    const keep = id.kind !== 'single' && (this.inWorkspace(id) || this.hasOpenDocument(id.key));
    if (!keep) {
      this.forgetTree(id.key);
      return { id, dropped: true };
    }
    this.dirty.add(id.key);
    return { id, dropped: false };
  }

  /** A file changed on disk (a watcher told so). Returns true when the trees themselves changed. */
  diskChanged(file: string, change: DiskChange): boolean {
    this.changed(file);
    if (this.packages.forget(file)) {
      this.dependencyMemo.clear();
      this.markAllDirty();
    }
    // Installed methods are dependencies, never a tree of the workspace.
    if (file.split(path.sep).includes('.mthds')) return false;
    if (path.basename(file) === LOCK_FILE) {
      if (!this.open.has(file)) this.parsed.delete(file);
      const id = this.locator.locate(file);
      if (this.trees.has(id.key)) this.dirty.add(id.key);
      return false;
    }
    if (!isMethodFile(file)) return false;
    if (!this.open.has(file)) this.forgetParse(file, change === 'changed');
    if (path.basename(file) === MANIFEST_FILE && change !== 'changed') {
      this.structureChanged();
      return true;
    }
    const id = this.locator.locate(file);
    if (change !== 'changed') this.listings.delete(id.key);
    if (change === 'created' && (this.locator.folderOf(file) !== undefined || this.trees.has(id.key))) this.trees.set(id.key, id);
    if (this.trees.has(id.key)) this.dirty.add(id.key);
    return false;
  }

  /** A manifest appeared or disappeared: every grouping may change. */
  private structureChanged(): void {
    this.locator.invalidate();
    this.openCounts = undefined;
    this.listings.clear();
    for (const key of this.trees.keys()) this.dirty.add(key);
  }

  /** Changes the package store (a setting): every tree is due for a check. */
  setPackagesDir(dir: string | undefined): void {
    if (dir === this.packagesDir) return;
    this.packagesDir = dir;
    this.dependencyMemo.clear();
    this.markAllDirty();
  }

  /** Changes the library folders searched for packages (a setting): every tree is due for a check. */
  setLibraries(dirs: readonly string[]): void {
    if (dirs.join('\n') === this.libraries.join('\n')) return;
    this.libraries = [...dirs];
    this.dependencyMemo.clear();
    this.markAllDirty();
  }

  getLibraries(): readonly string[] {
    return this.libraries;
  }

  /** Changes the structures the host binds to description-only concepts (a setting). */
  setHostStructures(structures: HostStructures | undefined): void {
    if (structures === this.hostStructures) return;
    this.hostStructures = structures;
    this.checkCaches.clear();
    this.markAllDirty();
  }

  /**
   * Attaches a tree's dependencies, resolving them again (store listings, package stamps) only
   * when what they depend on changed: the manifest, the address-qualified references, a package
   * on disk (watcher), or, for clients that watch no files, after dependencyRecheckMs.
   */
  private dependenciesOf(key: string, tree: MethodTree): Finding[] {
    const memo = this.dependencyMemo.get(key);
    const addresses = memo && sameAddresses(memo.bundles, tree) ? memo.addresses : tree.bundles.map(addressRefs).filter((a) => a !== '').join('\n');
    if (memo) memo.bundles = tree.bundles;
    const fresh = !this.validateDisk || Date.now() - (memo?.at ?? 0) < this.dependencyRecheckMs;
    if (memo && fresh && memo.manifest === tree.manifest && memo.addresses === addresses) {
      if (memo.dependencies) tree.dependencies = memo.dependencies;
      return memo.findings;
    }
    const findings = resolveDependencies(tree, { fs: this.fs, cache: this.packages, workspace: this.getFolders(), libraries: this.libraries, ...(this.packagesDir !== undefined ? { packagesDir: this.packagesDir } : {}) });
    const entry: DependencyMemo = { manifest: tree.manifest, bundles: tree.bundles, addresses, at: Date.now(), findings };
    if (tree.dependencies) entry.dependencies = tree.dependencies;
    this.dependencyMemo.set(key, entry);
    return findings;
  }

  // ---- workspace -------------------------------------------------------------------------------

  setFolders(folders: readonly string[]): void {
    this.locator.setFolders(folders);
    this.openCounts = undefined;
    this.listings.clear();
    // The workspace folders' packages are siblings in dependency resolution.
    this.dependencyMemo.clear();
  }

  getFolders(): readonly string[] {
    return this.locator.getFolders();
  }

  /**
   * Finds every tree of the workspace folders and of the open documents, forgetting trees that
   * are gone; all of them are due for a check. Returns the trees, workspace order.
   */
  scanWorkspace(limit?: number): TreeId[] {
    return runSteps(this.scanWorkspaceSteps(limit)).trees;
  }

  /**
   * scanWorkspace in steps: the folders are walked first (at most `limit` files each; the folders
   * that hold more are returned), and the session changes only at the last step, so that a walk
   * left at a pause (the folder set changed again meanwhile) leaves nothing behind.
   */
  *scanWorkspaceSteps(limit?: number): Generator<void, { trees: TreeId[]; truncated: string[] }> {
    const folders = [...this.locator.getFolders()];
    this.locator.invalidate();
    const found = new Map<string, TreeId>();
    const truncated: string[] = [];
    for (const folder of folders) {
      const scan = yield* scanMethodFilesSteps(this.fs, folder, limit);
      if (scan.truncated) truncated.push(folder);
      for (const file of scan.files) {
        const id = this.locator.locate(file);
        if (!found.has(id.key)) found.set(id.key, id);
      }
      // A folder that cannot be listed is a tree of its own (reported as unreadable), unless a
      // package holds it: the package's layout reports it then.
      for (const { dir } of scan.unreadable) {
        if (this.locator.packageRootOf(dir) !== undefined) continue;
        const id = treeId('folder', dir);
        if (!found.has(id.key)) found.set(id.key, id);
      }
    }
    this.openCounts = undefined;
    this.listings.clear();
    for (const file of this.open.keys()) {
      const id = this.locator.locate(file);
      if (!found.has(id.key)) found.set(id.key, id);
    }
    for (const key of [...this.trees.keys()]) if (!found.has(key)) this.forgetTree(key);
    this.trees.clear();
    for (const [key, id] of found) {
      this.trees.set(key, id);
      this.dirty.add(key);
    }
    return { trees: [...found.values()], truncated };
  }

  /**
   * Everything kept for a tree goes with it (a folder removed, the last document of a tree outside
   * the workspace closed): its check and findings, what the check read, its check cache, its
   * dependency resolution, listing and counts, and the parses of its files that are not open.
   */
  private forgetTree(key: string, files: Iterable<FileId> = this.results.get(key)?.findings.keys() ?? []): void {
    for (const file of files) {
      if (this.open.has(file)) continue;
      this.parsed.delete(file);
      this.previousParse.delete(file);
    }
    this.trees.delete(key);
    this.results.delete(key);
    this.states.delete(key);
    this.checkCaches.delete(key);
    this.dependencyMemo.delete(key);
    this.dirty.delete(key);
    this.listings.delete(key);
    this.relist.delete(key);
    this.treeSizes.delete(key);
    this.checkCounts.delete(key);
  }

  /** How many entries the session keeps per tree and per file (a test counts that a tree leaves none). */
  kept(): { trees: number; results: number; states: number; checkCaches: number; dependencyMemos: number; dirty: number; listings: number; treeSizes: number; checkCounts: number; parsed: number; previousParses: number } {
    return {
      trees: this.trees.size,
      results: this.results.size,
      states: this.states.size,
      checkCaches: this.checkCaches.size,
      dependencyMemos: this.dependencyMemo.size,
      dirty: Math.max(this.dirty.size, this.dirty.marked),
      listings: this.listings.size,
      treeSizes: this.treeSizes.size,
      checkCounts: this.checkCounts.size,
      parsed: this.parsed.size,
      previousParses: this.previousParse.size,
    };
  }

  treeIds(): TreeId[] {
    return [...this.trees.values()];
  }

  hasTree(key: string): boolean {
    return this.trees.has(key);
  }

  treeOf(file: FileId): TreeId {
    return this.locator.locate(file);
  }

  isDirty(key: string): boolean {
    return this.dirty.has(key);
  }

  dirtyTrees(): TreeId[] {
    return [...this.dirty].map((k) => this.trees.get(k)).filter((t): t is TreeId => t !== undefined);
  }

  /** Marks every tree due for a check (settings changed, or disk may have changed unseen). */
  markAllDirty(): void {
    for (const key of this.trees.keys()) this.dirty.add(key);
  }

  private inWorkspace(id: TreeId): boolean {
    return id.kind !== 'single' && this.locator.getFolders().some((f) => isWithin(f, id.root));
  }

  // ---- trees -------------------------------------------------------------------------------------

  private listing(id: TreeId): Listing {
    return this.listings.get(id.key) ?? runSteps(this.listingSteps(id));
  }

  /** Lists a tree's files in steps (a folder read, or a few hundred of its entries, per step: walkFilesSteps). */
  private *listingSteps(id: TreeId): Generator<void, Listing> {
    const drops = this.listings.drops;
    let listing: Listing;
    if (id.kind === 'package') {
      const found = yield* listTreeFilesSteps(this.fs, id.root);
      const manifest = path.join(id.root, MANIFEST_FILE);
      const bundles = found.files.filter(isBundlePath);
      listing = { bundles, members: new Set(bundles), names: new Set(found.files.map((f) => relativeTo(id.root, f))) };
      if (this.fs.exists(manifest)) {
        yield;
        listing.manifest = manifest;
        listing.layout = layoutFindings(this.fs, id.root, manifest, found);
      }
    } else if (id.kind === 'folder') {
      const { bundles, names, unreadable, links, special } = listFolderFiles(this.fs, id.root);
      listing = { bundles, members: new Set(bundles), names: new Set(names) };
      const layout = [...(unreadable ? unreadableFindings(id.root, [unreadable]) : []), ...skippedFindings(this.fs, id.root, { links: links ?? [], special: special ?? [] })];
      if (layout.length > 0) listing.layout = layout;
    } else {
      listing = { bundles: [], members: new Set(), names: new Set() };
    }
    this.listings.set(id.key, listing);
    // A change told between its steps (a file created or deleted) may be missing: only the check
    // under way uses it, the next lists again.
    if (this.listings.drops !== drops) this.relist.add(id.key);
    return listing;
  }

  /** The files of a tree: bundles (disk and open buffers), then the manifest. */
  members(id: TreeId): { bundles: FileId[]; manifest?: FileId; names: Set<string> } {
    if (id.kind === 'single') return { bundles: [id.root], names: new Set() };
    const listing = this.listing(id);
    // The listing's own lists unless open documents add to them (the common case: they do not).
    let bundles = listing.bundles;
    let manifest = listing.manifest;
    let names = listing.names;
    for (const file of this.open.keys()) {
      if (!isFilePath(file) || this.locator.locate(file).key !== id.key) continue;
      if (path.basename(file) === MANIFEST_FILE) {
        if (path.dirname(file) === id.root) manifest = file;
      } else if (path.basename(file) === LOCK_FILE) {
        continue;
      } else if (!listing.members.has(file) && !bundles.includes(file)) {
        // Any other open document the session was given is a bundle (its language says so).
        if (bundles === listing.bundles) {
          bundles = [...bundles];
          names = new Set(names);
        }
        bundles.push(file);
        names.add(relativeTo(id.root, file));
      }
    }
    return manifest !== undefined ? { bundles, manifest, names } : { bundles, names };
  }

  private changed(file: FileId): void {
    this.changeLog.push(file);
    if (this.changeLog.length > CHANGE_LOG_MAX) {
      this.changeStart += this.changeLog.length;
      this.changeLog = [];
    }
  }

  /** Checks a tree now (whatever its state) and keeps the result. */
  check(id: TreeId): TreeCheck {
    return runSteps(this.checkSteps(id));
  }

  /** How many checks of a tree have ended (a check in steps that sees this change is stale). */
  checksOf(key: string): number {
    return this.checkCounts.get(key) ?? 0;
  }

  /**
   * A check of a tree in steps (parsing files, then checking bundles, a few at a time); the tree is
   * due again at the end when it was marked while the check ran. Left unfinished, it changes
   * nothing but the parsed files it read. When only files of the tree changed since its last check
   * (typing), the tree is updated from that check's and only those files are read again.
   */
  *checkSteps(id: TreeId): Generator<void, TreeCheck> {
    this.trees.set(id.key, id);
    const mark = this.dirty.mark(id.key);
    const seen = this.changeStart + this.changeLog.length;
    const last = this.results.get(id.key);
    if (this.relist.delete(id.key)) this.listings.delete(id.key);
    // Listing the tree's files again (files came or went) takes steps of its own.
    if (id.kind !== 'single' && !this.listings.has(id.key)) {
      yield* this.listingSteps(id);
      yield;
    }
    const plan = yield* this.updatePlan(id, last);
    let tree: MethodTree;
    let state: TreeState;
    if (plan && last?.tree) {
      tree = yield* updateTreeSteps(last.tree, plan.replaced);
      if (last.tree.lock) tree.lock = last.tree.lock;
      state = plan.state;
    } else ({ tree, state } = yield* this.assemble(id, last?.tree));
    state.seen = seen;
    if (this.hostStructures) tree.hostStructures = this.hostStructures;
    this.treeSizes.set(id.key, state.size);
    yield;
    const dependencies = id.kind !== 'single' ? this.dependenciesOf(id.key, tree) : NO_FINDINGS;
    yield;
    // Findings made before the check, in the order they come: the layout, faults of reading, dependencies.
    const extra = new Map<string, readonly Finding[]>();
    if (state.layout.length > 0) extra.set('layout', state.layout);
    for (const [file, faults] of state.faults) extra.set(`read ${file}`, faults);
    if (dependencies.length > 0) extra.set('dependencies', dependencies);
    let checked: TreeFindings;
    try {
      let cache = this.checkCaches.get(id.key);
      if (!cache) this.checkCaches.set(id.key, (cache = createCheckCache()));
      checked = yield* checkTreeFilesSteps(tree, cache, extra, BUNDLES_CHECKED_PER_STEP);
    } catch (error) {
      // What the cache kept may be half updated: the next check starts afresh.
      this.checkCaches.delete(id.key);
      // A rule that throws must not take the editor down: report it on the first file instead.
      const first = state.bundleFiles[0] ?? state.manifestFile;
      const byFile = new Map<string, Finding[]>();
      const all = [...extra.values()].flat();
      if (first !== undefined) all.push(makeFinding('method.syntax', { finding: `internal error while checking: ${error instanceof Error ? error.message : String(error)}` }, first, { start: 0, end: 0 }));
      for (const f of all) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
      for (const list of byFile.values()) list.sort(compareFindings);
      checked = { byFile };
    }
    let result: TreeCheck;
    if (plan && last && checked.changed) {
      // The same files: the previous check's lists, where they changed (the previous result is done with them).
      const findings = last.findings;
      for (const file of checked.changed) {
        const list = checked.byFile.get(file);
        if (list) findings.set(file, list as Finding[]);
        else if (state.members.has(file)) findings.set(file, NO_FINDINGS);
        else findings.delete(file);
      }
      result = { id, tree, findings, changed: checked.changed };
    } else {
      const findings = new Map<FileId, Finding[]>();
      for (const file of state.members) findings.set(file, NO_FINDINGS);
      for (const [file, list] of checked.byFile) findings.set(file, list as Finding[]);
      result = { id, tree, findings };
    }
    this.totalChecks += 1;
    // The tree went while it was checked (its folder removed): what the check made goes too.
    if (!this.trees.has(id.key)) {
      this.forgetTree(id.key, result.findings.keys());
      return result;
    }
    this.states.set(id.key, state);
    this.results.set(id.key, result);
    this.checkCounts.set(id.key, this.checksOf(id.key) + 1);
    if (this.dirty.mark(id.key) === mark) this.dirty.delete(id.key);
    return result;
  }

  /**
   * How the tree of the last check becomes the current one when only some of its bundle files
   * changed (their new versions, by place; a step per file parsed), or undefined when more
   * changed: files come or gone, the manifest or the lock file, a file that does not parse to a
   * bundle, disk to be re-validated.
   */
  private *updatePlan(id: TreeId, last: TreeCheck | undefined): Generator<void, { replaced: Array<{ index: number; bundle: Bundle }>; state: TreeState } | undefined> {
    const state = this.states.get(id.key);
    if (!state || !last?.tree || this.validateDisk || id.kind === 'single' || state.seen < this.changeStart) return undefined;
    const members = this.members(id);
    if (!sameList(members.bundles, state.bundleFiles) || members.manifest !== state.manifestFile || !sameSet(members.names, state.names)) return undefined;
    const index = bundleIndex(last.tree);
    const listed = this.listing(id).members;
    const replaced: Array<{ index: number; bundle: Bundle }> = [];
    const next: TreeState = { ...state, faults: new Map(state.faults) };
    for (const file of new Set(this.changeLog.slice(state.seen - this.changeStart))) {
      if (file === state.manifestFile || file === state.lockFile) return undefined;
      const i = index.get(file);
      if (i === undefined) {
        if (listed.has(file) || state.members.has(file)) return undefined;
        continue;
      }
      const faults: Finding[] = [];
      const parses = parseCount;
      const parsed = this.load(file, 'bundle', id, faults);
      if (!parsed?.bundle) return undefined;
      // One step per file parsed (a file read again unchanged costs little): the caller slices by time.
      if (parseCount !== parses) yield;
      if (faults.length > 0) next.faults.set(file, faults);
      else next.faults.delete(file);
      const before = last.tree.bundles[i]!;
      if (parsed.bundle === before) continue;
      next.size += parsed.bundle.doc.text.length - before.doc.text.length;
      replaced.push({ index: i, bundle: parsed.bundle });
      // Read in this file's step rather than for all the changed files when dependencies are
      // resolved and the symbol tables patched.
      addressRefs(parsed.bundle);
      bundleOutline(parsed.bundle);
    }
    return { replaced, state: next };
  }

  /** Reads (or reuses) every file of a tree and assembles it, in steps (a few files parsed per step). */
  private *assemble(id: TreeId, previous: MethodTree | undefined): Generator<void, { tree: MethodTree; state: TreeState }> {
    const { bundles: bundleFiles, manifest: manifestFile, names } = this.members(id);
    const state: TreeState = { seen: 0, bundleFiles, manifestFile, names, members: new Set(), faults: new Map(), layout: id.kind !== 'single' ? (this.listing(id).layout ?? NO_FINDINGS) : NO_FINDINGS, size: 0 };
    const load = (file: FileId, kind: FileKind): ParsedFile | undefined => {
      const faults: Finding[] = [];
      const parsed = this.load(file, kind, id, faults);
      if (faults.length > 0) state.faults.set(file, faults);
      if (parsed !== undefined) state.members.add(file);
      return parsed;
    };
    const bundles: Bundle[] = [];
    let parses = parseCount;
    for (const file of bundleFiles) {
      const parsed = load(file, 'bundle');
      if (parseCount - parses >= PARSES_PER_STEP) {
        parses = parseCount;
        yield;
      }
      if (parsed === undefined) continue;
      state.size += parsed.text.length;
      if (!parsed.bundle) continue;
      bundles.push(parsed.bundle);
      // Read now, a few files per step, rather than all at once when dependencies are resolved.
      addressRefs(parsed.bundle);
    }
    const manifest = manifestFile !== undefined ? load(manifestFile, 'manifest')?.manifest : undefined;
    // Assembling the tree, resolving dependencies and checking are steps of their own.
    yield;
    const tree = yield* createTreeSteps(id.kind === 'single' ? '' : id.root, bundles, manifest, names, previous);
    if (manifestFile !== undefined && manifest) {
      // The lock file beside the manifest (its buffer when open), checked with the tree.
      const lockFile = path.join(path.dirname(manifestFile), LOCK_FILE);
      state.lockFile = lockFile;
      if (this.open.has(lockFile) || this.fs.exists(lockFile)) {
        const lock = load(lockFile, 'lock');
        if (lock?.lock) tree.lock = { file: lockFile, doc: lock.lock };
        else state.members.delete(lockFile);
      }
    }
    return { tree, state };
  }

  /** The latest check of a tree, when it has been checked. */
  lastCheck(key: string): TreeCheck | undefined {
    return this.results.get(key);
  }

  /** The current check of the tree of `file`: checked now when due. */
  currentCheck(file: FileId): TreeCheck {
    const id = this.locator.locate(file);
    const last = this.results.get(id.key);
    if (last?.tree && !this.dirty.has(id.key)) return last;
    return this.check(id);
  }

  // ---- texts ---------------------------------------------------------------------------------------

  /** The current text of a file (its buffer, else what was last read from disk). */
  textOf(file: FileId): string | undefined {
    const buffer = this.open.get(file);
    if (buffer !== undefined) return buffer;
    const parsed = this.parsed.get(file);
    if (parsed && 'text' in parsed) return parsed.text;
    if (!isFilePath(file)) return undefined;
    const read = this.fs.readMethodFile(file);
    return read.ok ? read.text : undefined;
  }

  /** Line starts of a file's current text (for converting offsets). */
  lineStartsOf(file: FileId): number[] {
    const parsed = this.parsed.get(file);
    if (parsed && 'lineStarts' in parsed && (!this.open.has(file) || parsed.text === this.open.get(file))) return parsed.lineStarts;
    return computeLineStarts(this.textOf(file) ?? '');
  }

  /**
   * True when a buffer of the tree is open (its parsed files are worth keeping). Counted per tree,
   * not by locating every open file at each call: thousands of documents opened at once would
   * otherwise cost a pass over all of them per check.
   */
  hasOpenDocument(key: string): boolean {
    if (!this.openCounts) {
      this.openCounts = new Map();
      this.openKeys.clear();
      for (const file of this.open.keys()) {
        const k = this.locator.locate(file).key;
        this.openKeys.set(file, k);
        this.openCounts.set(k, (this.openCounts.get(k) ?? 0) + 1);
      }
    }
    return (this.openCounts.get(key) ?? 0) > 0;
  }

  private forgetOpen(file: FileId): void {
    this.openSeq.delete(file);
    const key = this.openKeys.get(file);
    this.openKeys.delete(file);
    if (this.openCounts && key !== undefined) {
      const left = (this.openCounts.get(key) ?? 1) - 1;
      if (left > 0) this.openCounts.set(key, left);
      else this.openCounts.delete(key);
    } else this.openCounts = undefined;
  }

  /** The open files among `files` (`count` of them), in the order they were opened; by the shorter way. */
  openAmong(files: Iterable<FileId>, count: number, has: (file: FileId) => boolean): FileId[] {
    if (count >= this.open.size) return [...this.open.keys()].filter(has);
    const found: FileId[] = [];
    for (const file of files) if (this.open.has(file)) found.push(file);
    return found.sort((a, b) => this.openSeq.get(a)! - this.openSeq.get(b)!);
  }

  /**
   * Drops the parsed documents of one tree that holds no open buffer (its findings are kept), so a
   * workspace check holds one tree at a time rather than the whole workspace.
   */
  releaseTree(key: string): void {
    if (this.hasOpenDocument(key) || this.keptSize() <= this.keepParsed) return;
    this.release(key);
  }

  /** The text size of the trees whose parsed files are kept. */
  private keptSize(): number {
    let total = 0;
    for (const [key, result] of this.results) if (result.tree) total += this.treeSizes.get(key) ?? 0;
    return total;
  }

  private release(key: string): void {
    runSteps(this.releaseSteps(key));
  }

  private *releaseSteps(key: string): Generator<void, void> {
    const result = this.results.get(key);
    if (!result) return;
    let n = 0;
    for (const file of result.findings.keys()) {
      if (++n % RELEASED_PER_STEP === 0) yield;
      if (this.open.has(file)) continue;
      this.parsed.delete(file);
      this.previousParse.delete(file);
    }
    // A newer check of the tree, or a document of it opened between the steps: the tree stays.
    if (this.results.get(key) !== result || this.hasOpenDocument(key)) return;
    delete result.tree;
    this.checkCaches.delete(key);
  }

  /**
   * Drops the parsed documents of trees that hold no open buffer: their findings are kept, and they
   * are parsed again only when checked again. Bounds memory on large workspaces.
   */
  releaseClosedTrees(keep: (key: string) => boolean = () => false): void {
    runSteps(this.releaseClosedTreesSteps(keep));
  }

  /** releaseClosedTrees in steps (a few hundred files each), for a caller that yields between them. */
  *releaseClosedTreesSteps(keep: (key: string) => boolean = () => false): Generator<void, void> {
    const openTrees = new Set(this.openFiles().map((f) => this.locator.locate(f).key));
    let kept = this.keptSize();
    for (const [key, result] of [...this.results]) {
      if (kept <= this.keepParsed) break;
      if (openTrees.has(key) || keep(key) || !result.tree || this.results.get(key) !== result) continue;
      kept -= this.treeSizes.get(key) ?? 0;
      yield* this.releaseSteps(key);
    }
    // Parsed files of no kept tree (trees gone, files moved).
    let n = 0;
    const live = new Set<FileId>();
    for (const result of this.results.values()) {
      if (!result.tree) continue;
      for (const file of result.findings.keys()) {
        live.add(file);
        if (++n % RELEASED_PER_STEP === 0) yield;
      }
    }
    // A check that ends meanwhile may have read files the set misses: the next release sees them.
    const checks = this.totalChecks;
    const sweeps: Array<[Map<FileId, unknown>, (file: FileId) => boolean]> = [
      [this.parsed, (file) => this.open.has(file) || live.has(file)],
      [this.previousParse, (file) => live.has(file)],
    ];
    for (const [files, stays] of sweeps) {
      for (const file of files.keys()) {
        if (++n % RELEASED_PER_STEP === 0) {
          yield;
          if (this.totalChecks !== checks) return;
        }
        if (!stays(file)) files.delete(file);
      }
    }
  }

  /** Drops the parse of a file that is not open, kept as the previous version of the next when `keep`. */
  private forgetParse(file: FileId, keep: boolean): void {
    const parsed = keep ? this.parsed.get(file) : undefined;
    const doc = parsed && 'doc' in parsed ? parsed.doc : undefined;
    if (doc) this.previousParse.set(file, doc);
    else this.previousParse.delete(file);
    this.parsed.delete(file);
  }

  /** Parses (or reuses) one file; undefined when it is gone from disk. Faults become findings. */
  private load(file: FileId, kind: FileKind, id: TreeId, out: Finding[]): ParsedFile | undefined {
    const buffer = this.open.get(file);
    let cached = this.parsed.get(file);
    if (buffer !== undefined) {
      if (!cached || !('lineStarts' in cached) || cached.stamp !== 'open' || cached.text !== buffer) {
        cached = parse(file, buffer, 'open', kind);
        this.parsed.set(file, cached);
      }
      return cached;
    }
    if (cached && cached.stamp.startsWith('open')) cached = undefined;
    if (cached && this.validateDisk && cached.stamp !== diskStamp(this.fs, file)) {
      this.forgetParse(file, true);
      cached = undefined;
    }
    if (!cached) {
      const previous = this.previousParse.get(file);
      this.previousParse.delete(file);
      if (!this.fs.exists(file)) {
        this.parsed.delete(file);
        return undefined;
      }
      const stamp = this.validateDisk ? diskStamp(this.fs, file) : 'disk';
      const read = this.fs.readMethodFile(file);
      if (!read.ok) cached = { stamp, refusal: read };
      else {
        cached = parse(file, read.text, stamp, kind, previous);
        if ('fault' in read) cached.fault = { offset: read.fault.offset, message: read.fault.message };
      }
      this.parsed.set(file, cached);
    }
    if (!('lineStarts' in cached)) {
      out.push(refusedReadFinding(id.root, file, cached.refusal));
      return { text: '', stamp: cached.stamp, lineStarts: [0] };
    }
    if (cached.fault) out.push(makeFinding('method.syntax', { finding: cached.fault.message }, file, { start: cached.fault.offset, end: cached.fault.offset + 1 }));
    return cached;
  }
}

type FileKind = 'bundle' | 'manifest' | 'lock';

/** How many file changes the session logs before it starts again (trees are then read whole). */
const CHANGE_LOG_MAX = 4096;
/** How many files releasing parsed documents in steps goes through between two pauses. */
const RELEASED_PER_STEP = 512;
/** How many files a check in steps parses between two pauses. */
const PARSES_PER_STEP = 8;
/**
 * How many bundles a check in steps checks between two pauses: a bundle's rules take up to a
 * millisecond or two on a loaded machine, and a step runs to its end whatever the slice's clock says.
 */
const BUNDLES_CHECKED_PER_STEP = 4;
let parseCount = 0;

/** The listings of the trees, counting the drops (a listing made in steps meanwhile may miss a change). */
class Listings extends Map<string, Listing> {
  drops = 0;

  override delete(key: string): boolean {
    this.drops += 1;
    return super.delete(key);
  }

  override clear(): void {
    this.drops += 1;
    super.clear();
  }
}

/** The trees due for a check, each marked with a count of the times it was made due. */
class DirtyTrees extends Set<string> {
  private readonly marks = new Map<string, number>();
  private counter = 0;

  override add(key: string): this {
    this.marks.set(key, ++this.counter);
    return super.add(key);
  }

  override delete(key: string): boolean {
    this.marks.delete(key);
    return super.delete(key);
  }

  /** Changes when the tree is marked again. */
  mark(key: string): number {
    return this.marks.get(key) ?? 0;
  }

  /** How many trees have a mark kept. */
  get marked(): number {
    return this.marks.size;
  }
}

/** The findings of a file with none (shared: a list is never changed once made). */
const NO_FINDINGS: Finding[] = [];

/** Whether two lists of files are the same (the same list, unless open documents add to the listing). */
function sameList(a: readonly FileId[], b: readonly FileId[]): boolean {
  return a === b || (a.length === b.length && a.every((x, i) => x === b[i]));
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** Whether a tree's bundles have the same address-qualified references as `before`. */
function sameAddresses(before: readonly Bundle[], tree: MethodTree): boolean {
  const now = tree.bundles;
  if (before === now) return true;
  // Made from the tree of `before`: only the changed bundles may differ.
  const update = treeUpdate(tree);
  if (update?.previous.bundles === before) return update.changes.every((c) => addressRefs(c.before) === addressRefs(c.after));
  if (before.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) {
    const a = before[i]!;
    const b = now[i]!;
    if (a !== b && (a.file !== b.file || addressRefs(a) !== addressRefs(b))) return false;
  }
  return true;
}

const addressRefsOf = new ObjectCache<Bundle, string>('addressRefsOf');

/** A bundle's address-qualified references (what dependency resolution depends on), per version. */
function addressRefs(b: Bundle): string {
  let refs = addressRefsOf.get(b);
  if (refs === undefined) {
    refs = prefixedRefs(b).filter((r) => r.prefix.includes('/')).map((r) => `${b.file}:${r.prefix}@${r.range.start}`).join('\n');
    addressRefsOf.set(b, refs);
  }
  return refs;
}

/**
 * A file parsed. Its line starts are the document's, computed when first asked for (to place a
 * finding or answer a request): most files of a large tree never need them, and an update parsing
 * a thousand files would otherwise keep an array per file that young-generation collections copy.
 * A class, not a literal with a getter (a map per object, see heap.ts).
 */
class ParsedText implements ParsedFile {
  bundle?: Bundle;
  manifest?: Manifest;
  lock?: TomlDocument;
  fault?: { offset: number; message: string };

  constructor(
    readonly text: string,
    readonly stamp: string,
    readonly doc: TomlDocument,
  ) {}

  get lineStarts(): number[] {
    return this.doc.lineStarts;
  }
}

function parse(file: FileId, text: string, stamp: string, kind: FileKind, previous?: TomlDocument): ParsedFile {
  parseCount += 1;
  try {
    const doc = parseToml(text, previous);
    const parsed = new ParsedText(text, stamp, doc);
    if (kind === 'bundle') parsed.bundle = buildBundle(file, doc);
    else if (kind === 'manifest') parsed.manifest = buildManifest(file, doc);
    else parsed.lock = doc;
    return parsed;
  } catch (error) {
    // The syntax layer never throws by contract; should it ever, the editor gets a finding, not a crash.
    const message = `the document could not be parsed (${error instanceof Error ? error.message : String(error)})`;
    return { text, stamp, lineStarts: computeLineStarts(text), fault: { offset: 0, message } };
  }
}

function diskStamp(fs: FileSystem, file: string): string {
  const s = fs.stat(file);
  return s !== undefined ? `disk:${s.mtimeMs}:${s.size}` : 'disk:missing';
}
