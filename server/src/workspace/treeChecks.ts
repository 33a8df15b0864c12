// The checks of an editor session's trees: listing a tree's files, planning a check (only the
// files changed since the last one, when nothing else changed), assembling the tree from the
// documents, resolving its dependencies, checking it, and releasing the parses of trees without an
// open document when they exceed their budget. Each check writes into its tree's record
// (workspace/treeRecords.ts) and reads files through the documents (workspace/documents.ts).

import path from 'node:path';
import { checkTreeFilesSteps, createCheckCache, type TreeFindings } from '../check/index.js';
import { compareFindings, makeFinding, type Finding } from '../check/finding.js';
import type { HostStructures } from '../language/hostStructures.js';
import type { Bundle } from '../language/model.js';
import { prefixedRefs } from '../language/packageRefs.js';
import { LOCK_FILE, MANIFEST_FILE } from '../language/spec/manifest.js';
import { bundleIndex, bundleOutline, createTreeSteps, treeUpdate, updateTreeSteps, type MethodTree } from '../language/tree.js';
import { ObjectCache } from '../util/objectCache.js';
import { runSteps } from '../util/steps.js';
import { PackageCache, resolveDependencies } from './dependencies.js';
import { isBundlePath, listTreeFilesSteps } from './discover.js';
import { RELEASED_PER_STEP, type Documents, type FileId, type FileKind, type ParsedFile } from './documents.js';
import { layoutFindings, relativeTo, skippedFindings, unreadableFindings } from './load.js';
import { listFolderFiles } from './scan.js';
import type { Listing, TreeCheck, TreeRead, TreeRecords } from './treeRecords.js';
import { isFilePath, type TreeId, type TreeLocator } from './treeLocator.js';

export interface TreeCheckOptions {
  validateDisk: boolean;
  packagesDir: string | undefined;
  dependencyRecheckMs: number;
  keepParsed: number;
}

/** How many files a check in steps parses between two pauses. */
const PARSES_PER_STEP = 8;
/**
 * How many bundles a check in steps checks between two pauses: a bundle's rules take up to a
 * millisecond or two on a loaded machine, and a step runs to its end whatever the slice's clock says.
 */
const BUNDLES_CHECKED_PER_STEP = 4;

/** The findings of a file with none (shared: a list is never changed once made). */
const NO_FINDINGS: Finding[] = [];

export class TreeChecks {
  private readonly validateDisk: boolean;
  private readonly dependencyRecheckMs: number;
  private readonly keepParsed: number;
  /** Where dependency packages are looked up (a setting). */
  packagesDir: string | undefined;
  /** The library folders searched for packages (a setting). */
  libraries: string[] = [];
  /** The structures the host binds to description-only concepts (a setting). */
  hostStructures: HostStructures | undefined;
  /** Dependency packages read from disk, shared by the trees that use them. */
  readonly packages: PackageCache;
  /** How many checks have ended, of any tree. */
  private totalChecks = 0;

  constructor(
    private readonly documents: Documents,
    private readonly records: TreeRecords,
    private readonly locator: TreeLocator,
    options: TreeCheckOptions,
  ) {
    this.validateDisk = options.validateDisk;
    this.packagesDir = options.packagesDir;
    this.dependencyRecheckMs = options.dependencyRecheckMs;
    this.keepParsed = options.keepParsed;
    this.packages = new PackageCache(this.validateDisk);
  }

  /**
   * Everything kept for a tree goes with it (a folder removed, the last document of a tree outside
   * the workspace closed): its record, and the parses of its files that are not open.
   */
  forgetTree(key: string, files: Iterable<FileId> = this.records.get(key)?.check?.findings.keys() ?? []): void {
    this.documents.forgetFiles(files);
    this.records.delete(key);
  }

  // ---- listing ---------------------------------------------------------------------------------

  private listing(id: TreeId): Listing {
    return this.records.get(id.key)?.listing ?? runSteps(this.listingSteps(id));
  }

  /** Lists a tree's files in steps (a folder read, or a few hundred of its entries, per step: walkFilesSteps). */
  private *listingSteps(id: TreeId): Generator<void, Listing> {
    const drops = this.records.listingDrops;
    let listing: Listing;
    if (id.kind === 'package') {
      const found = yield* listTreeFilesSteps(this.documents.fs, id.root);
      const manifest = path.join(id.root, MANIFEST_FILE);
      const bundles = found.files.filter(isBundlePath);
      listing = { bundles, members: new Set(bundles), names: new Set(found.files.map((f) => relativeTo(id.root, f))) };
      if (this.documents.onDisk(manifest)) {
        yield;
        listing.manifest = manifest;
        listing.layout = layoutFindings(this.documents.fs, id.root, manifest, found);
      }
    } else if (id.kind === 'folder') {
      const { bundles, names, unreadable, links, special } = listFolderFiles(this.documents.fs, id.root);
      listing = { bundles, members: new Set(bundles), names: new Set(names) };
      const layout = [...(unreadable ? unreadableFindings(id.root, [unreadable]) : []), ...skippedFindings(this.documents.fs, id.root, { links: links ?? [], special: special ?? [] })];
      if (layout.length > 0) listing.layout = layout;
    } else {
      listing = { bundles: [], members: new Set(), names: new Set() };
    }
    // Kept for a tree the session knows; a tree it does not is listed again when asked.
    const record = this.records.get(id.key);
    if (record) {
      record.listing = listing;
      // A change told between its steps (a file created or deleted) may be missing: only the check
      // under way uses it, the next lists again.
      if (this.records.listingDrops !== drops) record.relist = true;
    }
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
    for (const file of this.documents.openFiles()) {
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

  // ---- checking --------------------------------------------------------------------------------

  /** The latest check of a tree, when it has been checked. */
  lastCheck(key: string): TreeCheck | undefined {
    return this.records.get(key)?.check;
  }

  /** The current check of the tree of `file`: checked now when due. */
  currentCheck(file: FileId): TreeCheck {
    const id = this.locator.locate(file);
    const last = this.lastCheck(id.key);
    if (last?.tree && !this.records.isDirty(id.key)) return last;
    return this.check(id);
  }

  /** Checks a tree now (whatever its state) and keeps the result. */
  check(id: TreeId): TreeCheck {
    return runSteps(this.checkSteps(id));
  }

  /**
   * A check of a tree in steps (parsing files, then checking bundles, a few at a time); the tree is
   * due again at the end when it was marked while the check ran. Left unfinished, it changes
   * nothing but the parsed files it read (and the tree's listing). When only files of the tree
   * changed since its last check (typing), the tree is updated from that check's and only those
   * files are read again. Between steps the tree may go (its record with it) or come back (a new
   * record): what the check keeps goes to the record of its tree when it keeps it, never elsewhere.
   */
  *checkSteps(id: TreeId): Generator<void, TreeCheck> {
    const started = this.records.register(id);
    const mark = started.mark;
    const seen = this.documents.logPosition();
    const last = started.check;
    if (started.relist) {
      started.relist = false;
      this.records.dropListing(id.key);
    }
    // Listing the tree's files again (files came or went) takes steps of its own.
    if (id.kind !== 'single' && !started.listing) {
      yield* this.listingSteps(id);
      yield;
    }
    const plan = yield* this.updatePlan(id, last);
    let tree: MethodTree;
    let read: TreeRead;
    if (plan && last?.tree) {
      tree = yield* updateTreeSteps(last.tree, plan.replaced);
      if (last.tree.lock) tree.lock = last.tree.lock;
      read = plan.read;
    } else ({ tree, read } = yield* this.assemble(id, last?.tree));
    read.seen = seen;
    if (this.hostStructures) tree.hostStructures = this.hostStructures;
    const sized = this.records.get(id.key);
    if (sized) sized.size = read.size;
    yield;
    const dependencies = id.kind !== 'single' ? this.dependenciesOf(id.key, tree) : NO_FINDINGS;
    yield;
    // Findings made before the check, in the order they come: the layout, faults of reading, dependencies.
    const extra = new Map<string, readonly Finding[]>();
    if (read.layout.length > 0) extra.set('layout', read.layout);
    for (const [file, faults] of read.faults) extra.set(`read ${file}`, faults);
    if (dependencies.length > 0) extra.set('dependencies', dependencies);
    let checked: TreeFindings;
    const cached = this.records.get(id.key);
    try {
      let cache = cached?.checkCache;
      if (!cache) {
        cache = createCheckCache();
        if (cached) cached.checkCache = cache;
      }
      checked = yield* checkTreeFilesSteps(tree, cache, extra, BUNDLES_CHECKED_PER_STEP);
    } catch (error) {
      // What the cache kept may be half updated: the next check starts afresh.
      const now = this.records.get(id.key);
      if (now) now.checkCache = undefined;
      // A rule that throws must not take the editor down: report it on the first file instead.
      const first = read.bundleFiles[0] ?? read.manifestFile;
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
        else if (read.members.has(file)) findings.set(file, NO_FINDINGS);
        else findings.delete(file);
      }
      result = { id, tree, findings, changed: checked.changed };
    } else {
      const findings = new Map<FileId, Finding[]>();
      for (const file of read.members) findings.set(file, NO_FINDINGS);
      for (const [file, list] of checked.byFile) findings.set(file, list as Finding[]);
      result = { id, tree, findings };
    }
    this.totalChecks += 1;
    const record = this.records.get(id.key);
    // The tree went while it was checked (its folder removed): what the check made goes too.
    if (!record) {
      this.forgetTree(id.key, result.findings.keys());
      return result;
    }
    record.read = read;
    record.check = result;
    record.checks += 1;
    this.records.checked(id.key, mark);
    return result;
  }

  /**
   * How the tree of the last check becomes the current one when only some of its bundle files
   * changed (their new versions, by place; a step per file parsed), or undefined when more
   * changed: files come or gone, the manifest or the lock file, a file that does not parse to a
   * bundle, disk to be re-validated.
   */
  private *updatePlan(id: TreeId, last: TreeCheck | undefined): Generator<void, { replaced: Array<{ index: number; bundle: Bundle }>; read: TreeRead } | undefined> {
    const before = this.records.get(id.key)?.read;
    if (!before || !last?.tree || this.validateDisk || id.kind === 'single') return undefined;
    const changes = this.documents.changedSince(before.seen);
    if (!changes) return undefined;
    const members = this.members(id);
    if (!sameList(members.bundles, before.bundleFiles) || members.manifest !== before.manifestFile || !sameSet(members.names, before.names)) return undefined;
    const index = bundleIndex(last.tree);
    const listed = this.listing(id).members;
    const replaced: Array<{ index: number; bundle: Bundle }> = [];
    const next: TreeRead = { ...before, faults: new Map(before.faults) };
    for (const file of new Set(changes)) {
      if (file === before.manifestFile || file === before.lockFile) return undefined;
      const i = index.get(file);
      if (i === undefined) {
        if (listed.has(file) || before.members.has(file)) return undefined;
        continue;
      }
      const faults: Finding[] = [];
      const parses = this.documents.parses;
      const parsed = this.documents.load(file, 'bundle', id.root, faults);
      if (!parsed?.bundle) return undefined;
      // One step per file parsed (a file read again unchanged costs little): the caller slices by time.
      if (this.documents.parses !== parses) yield;
      if (faults.length > 0) next.faults.set(file, faults);
      else next.faults.delete(file);
      const old = last.tree.bundles[i]!;
      if (parsed.bundle === old) continue;
      next.size += parsed.bundle.doc.text.length - old.doc.text.length;
      replaced.push({ index: i, bundle: parsed.bundle });
      // Read in this file's step rather than for all the changed files when dependencies are
      // resolved and the symbol tables patched.
      addressRefs(parsed.bundle);
      bundleOutline(parsed.bundle);
    }
    return { replaced, read: next };
  }

  /**
   * Reads and parses bundles changed on disk before the update that checks them runs, one step per
   * file parsed: a branch switch told file by file keeps its update waiting for the burst to end,
   * and what is read meanwhile is parsed once (`Documents.load` keeps a parse until its file
   * changes again), so the update then checks instead of reading. Open files (their buffers are
   * what is checked) and installed methods (never a tree of the workspace) are left.
   */
  *preloadSteps(files: Iterable<FileId>, rootOf: (file: FileId) => string): Generator<void, void> {
    for (const file of files) {
      if (!isBundlePath(file) || this.documents.isOpen(file) || file.split(path.sep).includes('.mthds')) continue;
      const parses = this.documents.parses;
      const parsed = this.documents.load(file, 'bundle', rootOf(file), []);
      if (parsed?.bundle) {
        addressRefs(parsed.bundle);
        bundleOutline(parsed.bundle);
      }
      if (this.documents.parses !== parses) yield;
    }
  }

  /** Reads (or reuses) every file of a tree and assembles it, in steps (a few files parsed per step). */
  private *assemble(id: TreeId, previous: MethodTree | undefined): Generator<void, { tree: MethodTree; read: TreeRead }> {
    const { bundles: bundleFiles, manifest: manifestFile, names } = this.members(id);
    const read: TreeRead = { seen: 0, bundleFiles, manifestFile, names, members: new Set(), faults: new Map(), layout: id.kind !== 'single' ? (this.listing(id).layout ?? NO_FINDINGS) : NO_FINDINGS, size: 0 };
    const load = (file: FileId, kind: FileKind): ParsedFile | undefined => {
      const faults: Finding[] = [];
      const parsed = this.documents.load(file, kind, id.root, faults);
      if (faults.length > 0) read.faults.set(file, faults);
      if (parsed !== undefined) read.members.add(file);
      return parsed;
    };
    const bundles: Bundle[] = [];
    let parses = this.documents.parses;
    for (const file of bundleFiles) {
      const parsed = load(file, 'bundle');
      if (this.documents.parses - parses >= PARSES_PER_STEP) {
        parses = this.documents.parses;
        yield;
      }
      if (parsed === undefined) continue;
      read.size += parsed.text.length;
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
      read.lockFile = lockFile;
      if (this.documents.isOpen(lockFile) || this.documents.onDisk(lockFile)) {
        const lock = load(lockFile, 'lock');
        if (lock?.lock) tree.lock = { file: lockFile, doc: lock.lock };
        else read.members.delete(lockFile);
      }
    }
    return { tree, read };
  }

  /**
   * Attaches a tree's dependencies, resolving them again (store listings, package stamps) only
   * when what they depend on changed: the manifest, the address-qualified references, a package
   * on disk (watcher), or, for clients that watch no files, after dependencyRecheckMs.
   */
  private dependenciesOf(key: string, tree: MethodTree): Finding[] {
    const memo = this.records.get(key)?.dependencies;
    const addresses = memo && sameAddresses(memo.bundles, tree) ? memo.addresses : tree.bundles.map(addressRefs).filter((a) => a !== '').join('\n');
    if (memo) memo.bundles = tree.bundles;
    const fresh = !this.validateDisk || Date.now() - (memo?.at ?? 0) < this.dependencyRecheckMs;
    if (memo && fresh && memo.manifest === tree.manifest && memo.addresses === addresses) {
      if (memo.dependencies) tree.dependencies = memo.dependencies;
      return memo.findings;
    }
    const findings = resolveDependencies(tree, { fs: this.documents.fs, cache: this.packages, workspace: this.locator.getFolders(), libraries: this.libraries, ...(this.packagesDir !== undefined ? { packagesDir: this.packagesDir } : {}) });
    const record = this.records.get(key);
    if (record) {
      record.dependencies = { manifest: tree.manifest, bundles: tree.bundles, addresses, at: Date.now(), findings };
      if (tree.dependencies) record.dependencies.dependencies = tree.dependencies;
    }
    return findings;
  }

  // ---- releasing -------------------------------------------------------------------------------

  /**
   * Drops the parsed documents of one tree that holds no open buffer (its findings are kept), so a
   * workspace check holds one tree at a time rather than the whole workspace.
   */
  releaseTree(key: string): void {
    if (this.documents.hasOpenDocument(key) || this.keptSize() <= this.keepParsed) return;
    runSteps(this.releaseSteps(key));
  }

  /** The text size of the trees whose parsed files are kept. */
  private keptSize(): number {
    let total = 0;
    for (const record of this.records.values()) if (record.check?.tree) total += record.size ?? 0;
    return total;
  }

  private *releaseSteps(key: string): Generator<void, void> {
    const result = this.lastCheck(key);
    if (!result) return;
    yield* this.documents.forgetFilesSteps(result.findings.keys());
    // A newer check of the tree, or a document of it opened between the steps: the tree stays.
    const record = this.records.get(key);
    if (!record || record.check !== result || this.documents.hasOpenDocument(key)) return;
    delete result.tree;
    record.checkCache = undefined;
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
    const openTrees = new Set(this.documents.openFiles().map((f) => this.locator.locate(f).key));
    let kept = this.keptSize();
    // The checks as they are now: a tree checked again or gone between the steps stays as it is.
    for (const [record, result] of [...this.records.values()].map((r) => [r, r.check] as const)) {
      if (kept <= this.keepParsed) break;
      const key = record.id.key;
      if (openTrees.has(key) || keep(key) || !result?.tree || this.records.get(key)?.check !== result) continue;
      kept -= record.size ?? 0;
      yield* this.releaseSteps(key);
    }
    // Parsed files of no kept tree (trees gone, files moved).
    let n = 0;
    const live = new Set<FileId>();
    for (const record of this.records.values()) {
      if (!record.check?.tree) continue;
      for (const file of record.check.findings.keys()) {
        live.add(file);
        if (++n % RELEASED_PER_STEP === 0) yield;
      }
    }
    // A check that ends meanwhile may have read files the set misses: the next release sees them.
    const checks = this.totalChecks;
    yield* this.documents.keepOnlySteps(live, n, () => this.totalChecks !== checks);
  }
}

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
