// The state of an editor session, free of any protocol: what the editor and the disk tell (buffers
// opened, changed and closed, files changed on disk, folders and settings) turned into documents
// (workspace/documents.ts: buffers over disk, parses, the change log), one record per tree
// (workspace/treeRecords.ts) and the trees' checks (workspace/treeChecks.ts). This module decides
// which trees a change concerns and when a tree goes; the others hold the state and the work.
//
// Files are known by an identity: the absolute path of a file, or the URI of a document that is no
// file (an untitled buffer), which stands alone.

import path from 'node:path';
import type { HostStructures } from '../language/hostStructures.js';
import { LOCK_FILE, MANIFEST_FILE } from '../language/spec/manifest.js';
import { Documents, type FileId } from './documents.js';
import type { FileSystem } from './fileSystem.js';
import { isMethodFile, scanMethodFilesSteps } from './scan.js';
import { TreeChecks } from './treeChecks.js';
import { isFilePath, isWithin, TreeLocator, treeId, type TreeId } from './treeLocator.js';
import { TreeRecords, type TreeCheck } from './treeRecords.js';
import { runSteps } from '../util/steps.js';

export type { FileId } from './documents.js';
export type { TreeCheck } from './treeRecords.js';

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

/** What happened to a file on disk. */
export type DiskChange = 'created' | 'changed' | 'deleted';

export class Session {
  readonly locator: TreeLocator;
  private readonly documents: Documents;
  private readonly records = new TreeRecords();
  private readonly checks: TreeChecks;

  constructor(options: SessionOptions) {
    const validateDisk = options.validateDisk ?? false;
    // The documents hold the file system: every read of the session goes through them.
    this.documents = new Documents(options.fs, (file) => this.locator.locate(file).key, validateDisk);
    this.locator = new TreeLocator(this.documents.fs, options.folders ?? [], (file) => this.documents.isOpen(file));
    this.checks = new TreeChecks(this.documents, this.records, this.locator, {
      validateDisk,
      packagesDir: options.packagesDir,
      dependencyRecheckMs: options.dependencyRecheckMs ?? 2000,
      keepParsed: options.keepParsed ?? 32 * 2 ** 20,
    });
  }

  /** What the session reads files through (the documents' file system). */
  get fs(): FileSystem {
    return this.documents.fs;
  }

  // ---- documents -------------------------------------------------------------------------------

  isOpen(file: FileId): boolean {
    return this.documents.isOpen(file);
  }

  openFiles(): FileId[] {
    return this.documents.openFiles();
  }

  /** Opens or updates a buffer; returns its tree, now due for a check. */
  setDocument(file: FileId, text: string): TreeId {
    const wasOpen = this.documents.setBuffer(file, text);
    if (!wasOpen && path.basename(file) === MANIFEST_FILE && isFilePath(file) && !this.documents.onDisk(file)) this.structureChanged();
    const id = this.locator.locate(file);
    if (!wasOpen) this.documents.countOpen(file, id.key);
    const listing = this.records.register(id).listing;
    // A file the listing does not know (created while no watcher told us): list again.
    if (!wasOpen && listing && isFilePath(file) && !listing.members.has(file) && listing.manifest !== file && path.basename(file) !== LOCK_FILE) this.records.dropListing(id.key);
    this.records.markDirty(id.key);
    return id;
  }

  /**
   * Closes a buffer: the file on disk counts again. Returns the tree it was in, and whether that
   * tree is gone (a document that is no file, or a tree outside the workspace with nothing open).
   */
  closeDocument(file: FileId): { id: TreeId; dropped: boolean } {
    this.documents.closeBuffer(file);
    const id = this.locator.locate(file);
    if (path.basename(file) === MANIFEST_FILE && isFilePath(file) && !this.documents.onDisk(file)) this.structureChanged();
    const keep = id.kind !== 'single' && (this.inWorkspace(id) || this.hasOpenDocument(id.key));
    if (!keep) {
      this.checks.forgetTree(id.key);
      return { id, dropped: true };
    }
    this.records.markDirty(id.key);
    return { id, dropped: false };
  }

  /** A file changed on disk (a watcher told so). Returns true when the trees themselves changed. */
  diskChanged(file: string, change: DiskChange): boolean {
    this.documents.changed(file);
    if (this.checks.packages.forget(file)) {
      this.records.dropDependencies();
      this.markAllDirty();
    }
    // Installed methods are dependencies, never a tree of the workspace.
    if (file.split(path.sep).includes('.mthds')) return false;
    if (path.basename(file) === LOCK_FILE) {
      this.documents.dropParse(file);
      this.records.markDirty(this.locator.locate(file).key);
      return false;
    }
    if (!isMethodFile(file)) return false;
    if (!this.documents.isOpen(file)) this.documents.forgetParse(file, change === 'changed');
    if (path.basename(file) === MANIFEST_FILE && change !== 'changed') {
      this.structureChanged();
      return true;
    }
    const id = this.locator.locate(file);
    if (change !== 'changed') this.records.dropListing(id.key);
    if (change === 'created' && (this.locator.folderOf(file) !== undefined || this.records.has(id.key))) this.records.register(id);
    this.records.markDirty(id.key);
    return false;
  }

  /** Bundles changed on disk read and parsed ahead of their update, one step per file parsed (TreeChecks.preloadSteps). */
  *preloadSteps(files: Iterable<string>): Generator<void, void> {
    yield* this.checks.preloadSteps(files, (file) => this.locator.locate(file).root);
  }

  /** A manifest appeared or disappeared: every grouping may change. */
  private structureChanged(): void {
    this.locator.invalidate();
    this.documents.regroup();
    this.records.dropListings();
    this.markAllDirty();
  }

  // ---- settings --------------------------------------------------------------------------------

  /** Changes the package store (a setting): every tree is due for a check. */
  setPackagesDir(dir: string | undefined): void {
    if (dir === this.checks.packagesDir) return;
    this.checks.packagesDir = dir;
    this.records.dropDependencies();
    this.markAllDirty();
  }

  /** Changes the library folders searched for packages (a setting): every tree is due for a check. */
  setLibraries(dirs: readonly string[]): void {
    if (dirs.join('\n') === this.checks.libraries.join('\n')) return;
    this.checks.libraries = [...dirs];
    this.records.dropDependencies();
    this.markAllDirty();
  }

  getLibraries(): readonly string[] {
    return this.checks.libraries;
  }

  /** Changes the structures the host binds to description-only concepts (a setting). */
  setHostStructures(structures: HostStructures | undefined): void {
    if (structures === this.checks.hostStructures) return;
    this.checks.hostStructures = structures;
    this.records.dropCheckCaches();
    this.markAllDirty();
  }

  // ---- workspace -------------------------------------------------------------------------------

  setFolders(folders: readonly string[]): void {
    this.locator.setFolders(folders);
    this.documents.regroup();
    this.records.dropListings();
    // The workspace folders' packages are siblings in dependency resolution.
    this.records.dropDependencies();
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
    this.documents.regroup();
    this.records.dropListings();
    for (const file of this.documents.openFiles()) {
      const id = this.locator.locate(file);
      if (!found.has(id.key)) found.set(id.key, id);
    }
    for (const key of [...this.records.keys()]) if (!found.has(key)) this.checks.forgetTree(key);
    this.records.replaceAll(found.values());
    return { trees: [...found.values()], truncated };
  }

  /** How many entries the session keeps per tree and per file (a test counts that a tree leaves none). */
  kept(): ReturnType<TreeRecords['kept']> & ReturnType<Documents['kept']> {
    return { ...this.records.kept(), ...this.documents.kept() };
  }

  treeIds(): TreeId[] {
    return this.records.ids();
  }

  hasTree(key: string): boolean {
    return this.records.has(key);
  }

  treeOf(file: FileId): TreeId {
    return this.locator.locate(file);
  }

  isDirty(key: string): boolean {
    return this.records.isDirty(key);
  }

  dirtyTrees(): TreeId[] {
    return this.records.dirtyTrees();
  }

  /** Marks every tree due for a check (settings changed, or disk may have changed unseen). */
  markAllDirty(): void {
    this.records.markAllDirty();
  }

  private inWorkspace(id: TreeId): boolean {
    return id.kind !== 'single' && this.locator.getFolders().some((f) => isWithin(f, id.root));
  }

  // ---- trees -------------------------------------------------------------------------------------

  /** The files of a tree: bundles (disk and open buffers), then the manifest. */
  members(id: TreeId): { bundles: FileId[]; manifest?: FileId; names: Set<string> } {
    return this.checks.members(id);
  }

  /** Checks a tree now (whatever its state) and keeps the result. */
  check(id: TreeId): TreeCheck {
    return this.checks.check(id);
  }

  /** How many checks of a tree have ended (a check in steps that sees this change is stale). */
  checksOf(key: string): number {
    return this.records.get(key)?.checks ?? 0;
  }

  /** A check of a tree in steps (see TreeChecks.checkSteps). */
  checkSteps(id: TreeId): Generator<void, TreeCheck> {
    return this.checks.checkSteps(id);
  }

  /** The latest check of a tree, when it has been checked. */
  lastCheck(key: string): TreeCheck | undefined {
    return this.checks.lastCheck(key);
  }

  /** The current check of the tree of `file`: checked now when due. */
  currentCheck(file: FileId): TreeCheck {
    return this.checks.currentCheck(file);
  }

  // ---- texts ---------------------------------------------------------------------------------------

  /** The current text of a file (its buffer, else what was last read from disk). */
  textOf(file: FileId): string | undefined {
    return this.documents.textOf(file);
  }

  /** Line starts of a file's current text (for converting offsets). */
  lineStartsOf(file: FileId): number[] {
    return this.documents.lineStartsOf(file);
  }

  /** True when a buffer of the tree is open (its parsed files are worth keeping). */
  hasOpenDocument(key: string): boolean {
    return this.documents.hasOpenDocument(key);
  }

  /** The open files among `files` (`count` of them), in the order they were opened; by the shorter way. */
  openAmong(files: Iterable<FileId>, count: number, has: (file: FileId) => boolean): FileId[] {
    return this.documents.openAmong(files, count, has);
  }

  // ---- releasing ---------------------------------------------------------------------------------

  /** Drops the parsed documents of one tree that holds no open buffer when past the budget (its findings are kept). */
  releaseTree(key: string): void {
    this.checks.releaseTree(key);
  }

  /** Drops the parsed documents of trees that hold no open buffer, past the budget (their findings are kept). */
  releaseClosedTrees(keep: (key: string) => boolean = () => false): void {
    this.checks.releaseClosedTrees(keep);
  }

  /** releaseClosedTrees in steps (a few hundred files each), for a caller that yields between them. */
  releaseClosedTreesSteps(keep: (key: string) => boolean = () => false): Generator<void, void> {
    return this.checks.releaseClosedTreesSteps(keep);
  }
}
