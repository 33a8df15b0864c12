// What an editor session keeps per method tree, as one record per tree: its latest check and
// findings, what that check read, the check cache, the dependency resolution, the listing of its
// files, its size and its count of checks, and whether it is due for a check. A tree that goes is
// one delete; the parses of its files live in the documents (workspace/documents.ts), shared.

import type { CheckCache } from '../check/index.js';
import type { Finding } from '../check/finding.js';
import type { Manifest } from '../language/manifest.js';
import type { Bundle } from '../language/model.js';
import type { DependencyPackage, MethodTree } from '../language/tree.js';
import type { FileId } from './documents.js';
import type { TreeId } from './treeLocator.js';

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

/** The files of a tree on disk, as last listed. */
export interface Listing {
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
export interface TreeRead {
  /** The position in the change log when the check began. */
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

/** The last dependency resolution of a tree, and what it depended on. */
export interface DependencyMemo {
  manifest: Manifest | undefined;
  /** The bundles whose address-qualified references `addresses` lists. */
  bundles: readonly Bundle[];
  addresses: string;
  at: number;
  dependencies?: Map<string, DependencyPackage>;
  findings: Finding[];
}

/** Everything kept for one tree. */
export class TreeRecord {
  /** The latest check. */
  check: TreeCheck | undefined;
  /** What the latest check read. */
  read: TreeRead | undefined;
  /** Per-bundle findings kept between checks (check/index.ts). */
  checkCache: CheckCache | undefined;
  dependencies: DependencyMemo | undefined;
  listing: Listing | undefined;
  /** The listing was made while a change dropped listings: the next check lists again. */
  relist = false;
  /** The text size of the tree at its latest check. */
  size: number | undefined;
  /** How many checks have ended. */
  checks = 0;
  /** When due for a check, the count of markings at its latest (0: not due). */
  mark = 0;
  /** When due for a check, the count of markings when it became due (the order of dirtyTrees). */
  dirtySince = 0;

  constructor(public id: TreeId) {}
}

/** The records of the trees the session knows, in the order they were found. */
export class TreeRecords {
  private records = new Map<string, TreeRecord>();
  private markings = 0;
  /** How many times listings were dropped (a listing made in steps meanwhile may miss a change). */
  listingDrops = 0;

  get(key: string): TreeRecord | undefined {
    return this.records.get(key);
  }

  has(key: string): boolean {
    return this.records.has(key);
  }

  keys(): IterableIterator<string> {
    return this.records.keys();
  }

  values(): IterableIterator<TreeRecord> {
    return this.records.values();
  }

  ids(): TreeId[] {
    return [...this.records.values()].map((r) => r.id);
  }

  /** The record of a tree, made when the tree is new. */
  register(id: TreeId): TreeRecord {
    let record = this.records.get(id.key);
    if (record) record.id = id;
    else this.records.set(id.key, (record = new TreeRecord(id)));
    return record;
  }

  /** Makes `ids` the trees, in their order, each due for a check (the others must be gone already). */
  replaceAll(ids: Iterable<TreeId>): void {
    const records = new Map<string, TreeRecord>();
    for (const id of ids) {
      const record = this.records.get(id.key) ?? new TreeRecord(id);
      record.id = id;
      records.set(id.key, record);
    }
    this.records = records;
    for (const key of records.keys()) this.markDirty(key);
  }

  /** Drops everything kept for a tree. */
  delete(key: string): boolean {
    return this.records.delete(key);
  }

  // ---- due for a check -------------------------------------------------------------------------

  /** Marks a known tree due for a check. */
  markDirty(key: string): void {
    const record = this.records.get(key);
    if (!record) return;
    if (record.mark === 0) record.dirtySince = this.markings + 1;
    record.mark = ++this.markings;
  }

  markAllDirty(): void {
    for (const key of this.records.keys()) this.markDirty(key);
  }

  isDirty(key: string): boolean {
    return (this.records.get(key)?.mark ?? 0) > 0;
  }

  /** Changes when the tree is marked again (a check compares it at its end). */
  markOf(key: string): number {
    return this.records.get(key)?.mark ?? 0;
  }

  /** The tree is checked: no longer due, unless marked again since `mark`. */
  checked(key: string, mark: number): void {
    const record = this.records.get(key);
    if (record && record.mark === mark) record.mark = 0;
  }

  /** The trees due for a check, in the order they became due. */
  dirtyTrees(): TreeId[] {
    return [...this.records.values()].filter((r) => r.mark > 0).sort((a, b) => a.dirtySince - b.dirtySince).map((r) => r.id);
  }

  // ---- listings and caches ---------------------------------------------------------------------

  /** The tree's files may have come or gone: list them again. */
  dropListing(key: string): void {
    this.listingDrops += 1;
    const record = this.records.get(key);
    if (record) record.listing = undefined;
  }

  /** Trees may have regrouped: list every one again. */
  dropListings(): void {
    this.listingDrops += 1;
    for (const record of this.records.values()) record.listing = undefined;
  }

  dropDependencies(): void {
    for (const record of this.records.values()) record.dependencies = undefined;
  }

  dropCheckCaches(): void {
    for (const record of this.records.values()) record.checkCache = undefined;
  }

  /** How many trees keep each part of their record (a test counts that a tree leaves none). */
  kept(): { trees: number; results: number; states: number; checkCaches: number; dependencyMemos: number; dirty: number; listings: number; treeSizes: number; checkCounts: number } {
    const count = (has: (r: TreeRecord) => boolean): number => [...this.records.values()].filter(has).length;
    return {
      trees: this.records.size,
      results: count((r) => r.check !== undefined),
      states: count((r) => r.read !== undefined),
      checkCaches: count((r) => r.checkCache !== undefined),
      dependencyMemos: count((r) => r.dependencies !== undefined),
      dirty: count((r) => r.mark > 0),
      listings: count((r) => r.listing !== undefined),
      treeSizes: count((r) => r.size !== undefined),
      checkCounts: count((r) => r.checks > 0),
    };
  }
}
