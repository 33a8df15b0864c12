// A method tree: the bundles checked together (a package with its METHODS.toml, a folder, or a
// single file), its symbol tables per domain, and reference resolution within it.

import type { TomlDocument } from '../syntax/types.js';
import type { Bundle, ConceptDecl, PipeDecl } from './model.js';
import type { HostStructures } from './hostStructures.js';
import type { Manifest } from './manifest.js';
import type { ParsedRef } from './references.js';
import { getNative, type NativeConcept } from './spec/natives.js';
import { ObjectCache } from '../util/objectCache.js';
import { runSteps } from '../util/steps.js';

export interface DomainSymbols {
  concepts: Map<string, ConceptDecl[]>;
  pipes: Map<string, PipeDecl[]>;
}

export interface MethodTree {
  /** The folder the tree is rooted at (the manifest's folder, the folder given, or the file's folder). */
  root: string;
  manifest?: Manifest;
  bundles: Bundle[];
  /** Paths of every file of the tree, relative to the root with forward slashes (resource lookups). */
  files: ReadonlySet<string>;
  symbols: Map<string, DomainSymbols>;
  /** The lock file (`methods.lock`) beside the manifest, when there is one. */
  lock?: { file: string; doc: TomlDocument };
  /**
   * Loaded dependency packages, by the prefix references use: the alias declared in
   * `[dependencies]`, or the address of an address-qualified reference (`github.com/x/y->d.C`).
   */
  dependencies?: Map<string, DependencyPackage>;
  /**
   * Set for a package read from the package store (`{store}/{address}/{version}/`): its folder is
   * named after its version, not after the package.
   */
  installed?: { address: string; version: string };
  /** Structures the host program binds to description-only concepts (see hostStructures.ts). */
  hostStructures?: HostStructures;
}

/** A package this tree depends on, loaded (from a local path or the package store). */
export interface DependencyPackage {
  /** The alias, or the address for address-qualified references. */
  prefix: string;
  address?: string;
  /** The version loaded (store packages). */
  version?: string;
  tree: MethodTree;
}

// The tree each bundle was last assembled into: a reference is resolved in the tree of the bundle
// it is written in, so that a dependency's own references resolve in the dependency. Trees made
// from one another (a tree updated after an edit) share one home, so that an update registers only
// the bundles it changed; a bundle of the home of the tree it is resolved from resolves there.
interface Home {
  /** The latest tree of the home. */
  tree: MethodTree;
}
const homeOfBundle = new ObjectCache<Bundle, Home>('homeOfBundle');
const homeOfTree = new ObjectCache<MethodTree, Home>('homeOfTree');

// What resolution handed out while a check of one bundle ran: that bundle's findings depend on it
// (see check/index.ts, the per-bundle cache). `bundles`: the bundles whose declarations were
// handed out; `names`: the names looked up in the tree's tables, found or not (`c domain.Code`,
// `p domain.code`); `queries`: the names suggestions were looked for (among whole tables: a name
// declared or removed near one counts); `wide`: whole tables were listed otherwise, so any name counts.
export interface AccessLog {
  bundles: Set<Bundle>;
  names: Set<string>;
  queries: SuggestionQuery[];
  wide: boolean;
}

/** Suggestions looked for among the visible names of one kind, from a bundle of `domain`. */
export interface SuggestionQuery {
  kind: 'c' | 'p';
  domain: string | undefined;
  name: string;
}

let accessLog: AccessLog | undefined;

/**
 * Runs work done in steps, recording what of the tree each step is handed, and only that (the work
 * another caller does between two steps is not).
 */
export function* recordingAccessSteps<T>(steps: Generator<void, T>): Generator<void, { value: T } & AccessLog> {
  const log: AccessLog = { bundles: new Set(), names: new Set(), queries: [], wide: false };
  for (;;) {
    const step = recordingInto(log, () => steps.next());
    if (step.done) {
      mergeIntoCurrent(log);
      return { value: step.value, ...log };
    }
    yield;
  }
}

function recordingInto<T>(log: AccessLog, fn: () => T): T {
  const outer = accessLog;
  accessLog = log;
  try {
    return fn();
  } finally {
    accessLog = outer;
  }
}

/** A recording nested in another counts in the outer one too. */
function mergeIntoCurrent(log: AccessLog): void {
  const outer = accessLog;
  if (!outer) return;
  for (const b of log.bundles) outer.bundles.add(b);
  for (const n of log.names) outer.names.add(n);
  outer.queries.push(...log.queries);
  if (log.wide) outer.wide = true;
}

/** Records that a declaration of `bundle` was read (no-op outside recordingAccessSteps). */
export function noteAccess(bundle: Bundle): void {
  accessLog?.bundles.add(bundle);
}

/** The key of a name in a tree's tables, as recorded and as compared between versions. */
export function nameKey(kind: 'c' | 'p', domain: string, code: string): string {
  return `${kind} ${domain}.${code}`;
}

function noteName(kind: 'c' | 'p', domain: string, code: string): void {
  accessLog?.names.add(nameKey(kind, domain, code));
}

/** The key of a file of the tree looked up (a resource), as recorded. */
export function fileKey(name: string): string {
  return `f ${name}`;
}

/** Whether a tree holds a file (relative to its root), recorded as read. */
export function treeHasFile(tree: MethodTree, name: string): boolean {
  accessLog?.names.add(fileKey(name));
  return tree.files.has(name);
}

/** Records that whole tables were listed, for suggestions near `query` when given: no-op outside recordingAccessSteps. */
export function noteWide(query?: SuggestionQuery): void {
  if (!accessLog) return;
  if (query) accessLog.queries.push(query);
  else accessLog.wide = true;
}

/** The tree a bundle was last assembled into. */
export function treeOfBundle(bundle: Bundle): MethodTree | undefined {
  return homeOfBundle.get(bundle)?.tree;
}

/**
 * Whether a bundle is one of a tree's (assembled or updated into it, or into a tree it was made
 * from): its references resolve there, and what a check reads of it is a read inside the tree.
 */
export function sameHome(tree: MethodTree, bundle: Bundle): boolean {
  const home = homeOfBundle.get(bundle);
  if (home === undefined) return false;
  const own = homeOfTree.get(tree);
  // A bundle assembled into another tree since (a check from scratch of the same files) is still one of this tree's.
  return home === own || (own !== undefined && bundleOfFile(tree, bundle.file) === bundle);
}

function homeOf(tree: MethodTree, from: Bundle): MethodTree {
  const home = homeOfBundle.get(from);
  if (!home) return tree;
  return sameHome(tree, from) ? tree : home.tree;
}

/**
 * Assembles a tree. With `previous` (the tree of the same files before an edit), the symbol tables
 * are patched where only bundles whose declarations kept their codes changed (see patchSymbols);
 * otherwise they are built again.
 */
export function createTree(root: string, bundles: Bundle[], manifest?: Manifest, files: ReadonlySet<string> = new Set(), previous?: MethodTree): MethodTree {
  return runSteps(createTreeSteps(root, bundles, manifest, files, previous));
}

/** `createTree` in steps (the symbol tables built a few bundles per step): a tree of thousands of bundles takes tens of ms. */
export function* createTreeSteps(root: string, bundles: Bundle[], manifest?: Manifest, files: ReadonlySet<string> = new Set(), previous?: MethodTree): Generator<void, MethodTree> {
  const changes = previous ? changesOf(previous, bundles) : undefined;
  const tree: MethodTree = { root, bundles, files, symbols: (previous && changes && (yield* patchSymbolsSteps(previous, changes))) ?? (yield* buildSymbolsSteps(bundles)) };
  if (manifest) tree.manifest = manifest;
  const home: Home = (previous && homeOfTree.get(previous)) ?? { tree };
  home.tree = tree;
  homeOfTree.set(tree, home);
  // At once (cheap): a check left unfinished must not leave a tree half registered.
  for (const bundle of bundles) homeOfBundle.set(bundle, home);
  return tree;
}

/** How many bundles a step of building symbol tables goes through. */
const BUNDLES_PER_STEP = 64;

/** A bundle replaced by another version of the same file, at its place in the tree's list. */
export interface BundleChange {
  index: number;
  before: Bundle;
  after: Bundle;
}

/** How a tree was made from the previous one by `updateTree` (what a check compares then). */
export interface TreeUpdate {
  previous: MethodTree;
  changes: readonly BundleChange[];
}

const updates = new ObjectCache<MethodTree, TreeUpdate>('updates');

/**
 * The tree of the same files as `previous` (same root, manifest and file list), where the bundles
 * at the given places are other versions: the bundle list is copied and only the changed bundles
 * are registered, so the cost follows the edit. The tree remembers how it was made (treeUpdate).
 */
export function updateTree(previous: MethodTree, replaced: ReadonlyArray<{ index: number; bundle: Bundle }>): MethodTree {
  return runSteps(updateTreeSteps(previous, replaced));
}

/** `updateTree` in steps (the symbol tables patched a few bundles per step): an update may change thousands. */
export function* updateTreeSteps(previous: MethodTree, replaced: ReadonlyArray<{ index: number; bundle: Bundle }>): Generator<void, MethodTree> {
  const bundles = previous.bundles.slice();
  const changes: BundleChange[] = [];
  for (const { index, bundle } of replaced) {
    const before = bundles[index]!;
    if (before === bundle) continue;
    bundles[index] = bundle;
    changes.push({ index, before, after: bundle });
  }
  const tree: MethodTree = { root: previous.root, bundles, files: previous.files, symbols: (yield* patchSymbolsSteps(previous, changes)) ?? (yield* buildSymbolsSteps(bundles)) };
  if (previous.manifest) tree.manifest = previous.manifest;
  let home = homeOfTree.get(previous);
  if (!home) homeOfTree.set(previous, (home = { tree: previous }));
  home.tree = tree;
  homeOfTree.set(tree, home);
  for (const c of changes) homeOfBundle.set(c.after, home);
  indexes.set(tree, bundleIndex(previous) as Map<string, number>);
  let mains = mainPipes.get(previous);
  if (mains) {
    const moved = changes.filter((c) => mainOf(c.before) !== mainOf(c.after));
    if (moved.length > 0) {
      mains = new Map(mains);
      for (const c of moved) {
        countMain(mains, c.before, -1);
        countMain(mains, c.after, 1);
      }
    }
    mainPipes.set(tree, mains);
  }
  // The previous tree was checked already: only the latest step is compared, never a chain.
  updates.delete(previous);
  updates.set(tree, { previous, changes });
  return tree;
}

/** How a tree was made from another by updateTree, until forgotten (a check has compared it). */
export function treeUpdate(tree: MethodTree): TreeUpdate | undefined {
  return updates.get(tree);
}

export function forgetUpdate(tree: MethodTree): void {
  updates.delete(tree);
}

// The place of each file in a tree's bundle list, made once per list of files (an updated tree
// has the files of the tree it was made from, in the same order).
const indexes = new ObjectCache<MethodTree, Map<string, number>>('indexes');

/** The place of each bundle file in `tree.bundles`. */
export function bundleIndex(tree: MethodTree): ReadonlyMap<string, number> {
  let index = indexes.get(tree);
  if (!index) {
    index = new Map();
    tree.bundles.forEach((b, i) => index!.set(b.file, i));
    indexes.set(tree, index);
  }
  return index;
}

/**
 * Gives `tree` the index of `from`, whose bundle list has the same files in the same order (a tree
 * with other versions of some bundles, made otherwise than by updateTree): not made again for it.
 */
export function shareBundleIndex(tree: MethodTree, from: MethodTree): void {
  indexes.set(tree, bundleIndex(from) as Map<string, number>);
}

/** The bundle of a file in a tree. */
export function bundleOfFile(tree: MethodTree, file: string): Bundle | undefined {
  const i = bundleIndex(tree).get(file);
  return i === undefined ? undefined : tree.bundles[i];
}

/** The bundles changed from `previous` (same files, same order), or undefined when the files differ. */
function changesOf(previous: MethodTree, bundles: readonly Bundle[]): BundleChange[] | undefined {
  const old = previous.bundles;
  if (old.length !== bundles.length) return undefined;
  const changes: BundleChange[] = [];
  for (let i = 0; i < bundles.length; i++) {
    const before = old[i]!;
    const after = bundles[i]!;
    if (before === after) continue;
    if (before.file !== after.file) return undefined;
    changes.push({ index: i, before, after });
  }
  return changes;
}

/** The symbol tables of `bundles`, patched from those of `previous` when it can (see patchSymbols). */
export function symbolsOf(bundles: readonly Bundle[], previous?: MethodTree): Map<string, DomainSymbols> {
  const changes = previous ? changesOf(previous, bundles) : undefined;
  return (previous && changes && patchSymbols(previous, changes)) ?? buildSymbols(bundles);
}

export function buildSymbols(bundles: readonly Bundle[]): Map<string, DomainSymbols> {
  return runSteps(buildSymbolsSteps(bundles));
}

function* buildSymbolsSteps(bundles: readonly Bundle[]): Generator<void, Map<string, DomainSymbols>> {
  const symbols = new Map<string, DomainSymbols>();
  let work = 0;
  for (const bundle of bundles) {
    if (++work % BUNDLES_PER_STEP === 0) yield;
    const domain = bundle.domain?.value;
    if (domain === undefined) continue;
    let table = symbols.get(domain);
    if (!table) {
      table = { concepts: new Map(), pipes: new Map() };
      symbols.set(domain, table);
    }
    for (const concept of bundle.concepts) push(table.concepts, concept.code, concept);
    for (const pipe of bundle.pipes) push(table.pipes, pipe.code, pipe);
  }
  return symbols;
}

/** What a bundle declares, in order: equal outlines give equal symbol tables, object for object. */
export function bundleOutline(bundle: Bundle): string {
  let outline = outlines.get(bundle);
  if (outline === undefined) {
    outline = [bundle.file, bundle.domain?.value ?? '', bundle.mainPipe?.value ?? '', bundle.concepts.map((c) => c.code).join(','), bundle.pipes.map((p) => `${p.code}${p.typeless ? '?' : ''}`).join(',')].join('\t');
    outlines.set(bundle, outline);
  }
  return outline;
}

const outlines = new ObjectCache<Bundle, string>('outlines');

/**
 * The symbol tables after `changes` (other versions of the same files, in place), from those of
 * the previous tree: a bundle that declares the same codes in the same order has its declarations
 * swapped; a domain where declarations changed, or that a bundle left or joined, is made again
 * from its bundles, in tree order. Tables are copied on write (the previous tree keeps its own)
 * and come in the order buildSymbols gives them (by the first bundle of each domain).
 * Undefined when a changed bundle is another file (the tables are then built again).
 */
function patchSymbols(previous: MethodTree, changes: readonly BundleChange[]): Map<string, DomainSymbols> | undefined {
  return runSteps(patchSymbolsSteps(previous, changes));
}

function* patchSymbolsSteps(previous: MethodTree, changes: readonly BundleChange[]): Generator<void, Map<string, DomainSymbols> | undefined> {
  for (const { before, after } of changes) if (before.file !== after.file) return undefined;
  if (changes.length === 0) return previous.symbols;
  let symbols = new Map(previous.symbols);
  const copied = new Set<string>();
  const remade = new Set<string>();
  let members: Map<string, number[]> | undefined;
  let work = 0;
  for (const { index, before: a, after: b } of changes) {
    if (++work % CHANGES_PER_STEP === 0) yield;
    const domain = b.domain?.value;
    const was = a.domain?.value;
    if (domain !== was) {
      // The bundle moves: both domains are made again, and their places may change.
      members ??= new Map(domainMembers(previous));
      for (const [d, add] of [[was, false], [domain, true]] as const) {
        if (d === undefined) continue;
        remade.add(d);
        const list = (members.get(d) ?? []).filter((i) => i !== index);
        if (add) list.splice(sortedIndex(list, index), 0, index);
        if (list.length > 0) members.set(d, list);
        else members.delete(d);
      }
      continue;
    }
    if (domain === undefined || remade.has(domain)) continue;
    if (bundleOutline(a) !== bundleOutline(b)) {
      remade.add(domain);
      continue;
    }
    let table = symbols.get(domain)!;
    if (!copied.has(domain)) {
      copied.add(domain);
      table = { concepts: new Map(table.concepts), pipes: new Map(table.pipes) };
      symbols.set(domain, table);
    }
    a.concepts.forEach((c, i) => swap(table.concepts, c.code, c, b.concepts[i]!));
    a.pipes.forEach((p, i) => swap(table.pipes, p.code, p, b.pipes[i]!));
  }
  for (const domain of remade) {
    if (members && !members.has(domain)) symbols.delete(domain);
    else symbols.set(domain, yield* remadeDomain(previous, domain, changes));
  }
  if (members) {
    // In the order of each domain's first bundle, as buildSymbols adds them.
    const order = [...symbols.keys()];
    if (order.some((d, i) => i > 0 && members!.get(order[i - 1]!)![0]! > members!.get(d)![0]!)) {
      order.sort((x, y) => members!.get(x)![0]! - members!.get(y)![0]!);
      symbols = new Map(order.map((d) => [d, symbols.get(d)!]));
    }
    membersOf.set(symbols, members);
  } else {
    const kept = membersOf.get(previous.symbols);
    if (kept) membersOf.set(symbols, kept);
  }
  return symbols;
}

// The places in the bundle list of each domain's bundles, ascending, by symbol tables (made when a
// bundle first changes domain, then patched with the tables).
const membersOf = new ObjectCache<Map<string, DomainSymbols>, Map<string, number[]>>('domainMembers');

function domainMembers(tree: MethodTree): Map<string, number[]> {
  let members = membersOf.get(tree.symbols);
  if (!members) {
    members = new Map();
    tree.bundles.forEach((b, i) => {
      const d = b.domain?.value;
      if (d === undefined) return;
      const list = members!.get(d);
      if (list) list.push(i);
      else members!.set(d, [i]);
    });
    membersOf.set(tree.symbols, members);
  }
  return members;
}

/** Where `value` goes in an ascending list. */
function sortedIndex(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many changed bundles a step of patching the symbol tables swaps in. */
const CHANGES_PER_STEP = 32;

/** A domain's tables made again from its bundles after `changes`, as buildSymbols makes them. */
function* remadeDomain(previous: MethodTree, domain: string, changes: readonly BundleChange[]): Generator<void, DomainSymbols> {
  const table = previous.symbols.get(domain);
  const byFile = new Map<string, Bundle>();
  for (const list of [...(table?.concepts.values() ?? []), ...(table?.pipes.values() ?? [])]) for (const d of list) byFile.set(d.bundle.file, d.bundle);
  for (const { after } of changes) {
    if (after.domain?.value === domain) byFile.set(after.file, after);
    else byFile.delete(after.file);
  }
  const places = bundleIndex(previous);
  const bundles = [...byFile.values()].sort((a, b) => places.get(a.file)! - places.get(b.file)!);
  yield;
  return (yield* buildSymbolsSteps(bundles)).get(domain) ?? { concepts: new Map(), pipes: new Map() };
}

function swap<T>(map: Map<string, T[]>, key: string, from: T, to: T): void {
  const list = map.get(key)!;
  const copy = list.slice();
  copy[copy.indexOf(from)] = to;
  map.set(key, copy);
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// Per-bundle indexes, built once per bundle object (a bundle is rebuilt when its text changes).
const localConceptIndex = new ObjectCache<Bundle, Map<string, ConceptDecl>>('localConceptIndex');
const localPipeIndex = new ObjectCache<Bundle, Map<string, PipeDecl[]>>('localPipeIndex');

function localConcept(bundle: Bundle, code: string): ConceptDecl | undefined {
  let index = localConceptIndex.get(bundle);
  if (!index) {
    index = new Map();
    for (const c of bundle.concepts) if (!index.has(c.code)) index.set(c.code, c);
    localConceptIndex.set(bundle, index);
  }
  return index.get(code);
}

function localPipes(bundle: Bundle, code: string): PipeDecl[] | undefined {
  let index = localPipeIndex.get(bundle);
  if (!index) {
    index = new Map();
    for (const p of bundle.pipes) push(index, p.code, p);
    localPipeIndex.set(bundle, index);
  }
  return index.get(code);
}

export type ConceptResolution =
  | { kind: 'native'; native: NativeConcept }
  | { kind: 'concept'; decl: ConceptDecl }
  /** Lives in a dependency package that is not loaded here. */
  | { kind: 'external'; prefix: string }
  | { kind: 'unresolved' };

/** Resolves a concept reference from a bundle (language reference §3.5). */
export function resolveConcept(tree: MethodTree, from: Bundle, ref: Pick<ParsedRef, 'prefix' | 'domain' | 'code'>): ConceptResolution {
  tree = homeOf(tree, from);
  if (ref.prefix !== undefined) {
    const dep = tree.dependencies?.get(ref.prefix);
    if (!dep) return { kind: 'external', prefix: ref.prefix };
    const decl = lookupIn(dep.tree, ref.domain, ref.code, (s) => s.concepts)?.[0];
    return decl ? { kind: 'concept', decl } : { kind: 'unresolved' };
  }
  if (ref.domain === 'native') {
    const native = getNative(ref.code);
    return native ? { kind: 'native', native } : { kind: 'unresolved' };
  }
  if (ref.domain === undefined) {
    const native = getNative(ref.code);
    if (native) return { kind: 'native', native };
    const local = localConcept(from, ref.code);
    if (local) return { kind: 'concept', decl: local };
  }
  const domain = ref.domain ?? from.domain?.value;
  if (domain === undefined) return { kind: 'unresolved' };
  noteName('c', domain, ref.code);
  const decl = tree.symbols.get(domain)?.concepts.get(ref.code)?.[0];
  if (!decl) return { kind: 'unresolved' };
  noteAccess(decl.bundle);
  return { kind: 'concept', decl };
}

export type PipeResolution = { kind: 'pipe'; decl: PipeDecl } | { kind: 'external'; prefix: string } | { kind: 'unresolved' };

/**
 * Resolves a pipe reference (§4.4). A signature and its implementation share a code: the concrete
 * declaration wins so that navigation lands on the implementation.
 */
export function resolvePipe(tree: MethodTree, from: Bundle, ref: Pick<ParsedRef, 'prefix' | 'domain' | 'code'>): PipeResolution {
  tree = homeOf(tree, from);
  if (ref.prefix !== undefined) {
    const dep = tree.dependencies?.get(ref.prefix);
    if (!dep) return { kind: 'external', prefix: ref.prefix };
    const decls = lookupIn(dep.tree, ref.domain, ref.code, (s) => s.pipes);
    return decls && decls.length > 0 ? { kind: 'pipe', decl: preferConcrete(decls) } : { kind: 'unresolved' };
  }
  if (ref.domain === undefined) {
    const local = localPipes(from, ref.code);
    if (local && local.length > 0) return { kind: 'pipe', decl: preferConcrete(local) };
  }
  const domain = ref.domain ?? from.domain?.value;
  if (domain === undefined) return { kind: 'unresolved' };
  noteName('p', domain, ref.code);
  const decls = tree.symbols.get(domain)?.pipes.get(ref.code);
  if (!decls || decls.length === 0) return { kind: 'unresolved' };
  for (const d of decls) noteAccess(d.bundle);
  return { kind: 'pipe', decl: preferConcrete(decls) };
}

/** A declaration of a dependency: `alias->domain.Code`, or `alias->Code` when one domain has it. */
function lookupIn<T>(tree: MethodTree, domain: string | undefined, code: string, table: (s: DomainSymbols) => Map<string, T[]>): T[] | undefined {
  if (domain !== undefined) {
    const symbols = tree.symbols.get(domain);
    return symbols ? table(symbols).get(code) : undefined;
  }
  const found = [...tree.symbols.values()].map((s) => table(s).get(code)).filter((d) => d !== undefined);
  return found.length === 1 ? found[0] : undefined;
}

/** The dependency a prefix (alias or address) names, seen from a bundle. */
export function resolveDependency(tree: MethodTree, from: Bundle, prefix: string): DependencyPackage | undefined {
  return homeOf(tree, from).dependencies?.get(prefix);
}

export interface DependencyCandidate {
  /** The qualified reference to write: `alias->domain.Code`. */
  qualified: string;
  dependency: DependencyPackage;
}

/**
 * Where a bare code that does not resolve in its own package is declared among the loaded
 * dependencies (pipes: only those the dependency makes public). Feeds method.ref_ambiguous and
 * the suggestion to qualify a reference.
 */
export function findInDependencies(tree: MethodTree, from: Bundle, code: string, kind: 'concepts' | 'pipes'): DependencyCandidate[] {
  const home = homeOf(tree, from);
  const out: DependencyCandidate[] = [];
  for (const [prefix, dep] of home.dependencies ?? []) {
    if (prefix !== dep.prefix) continue;
    for (const [domain, table] of dep.tree.symbols) {
      if (!table[kind].has(code)) continue;
      if (kind === 'pipes' && !isPublicPipe(dep.tree, domain, code)) continue;
      out.push({ qualified: `${prefix}->${domain}.${code}`, dependency: dep });
    }
  }
  return out;
}

/**
 * Whether another package may call a pipe: exported in the manifest's `[exports]`, or a bundle's
 * `main_pipe`; a package without a manifest or without `[exports]` keeps nothing private.
 */
export function isPublicPipe(tree: MethodTree, domain: string, code: string): boolean {
  const manifest = tree.manifest;
  if (!manifest || manifest.exports.length === 0) return true;
  if (manifest.exports.some((e) => e.domain === domain && e.pipes.some((p) => p.value === code))) return true;
  return isMainPipe(tree, domain, code);
}

// The main pipes of a tree's bundles (`domain.code`, with how many bundles name it), made once per
// tree and patched by an update.
const mainPipes = new ObjectCache<MethodTree, Map<string, number>>('mainPipes');

/** The key of a main pipe as recorded (a check that asked whether a pipe is one reads it). */
export function mainKey(domain: string, code: string): string {
  return `m ${domain}.${code}`;
}

/** Whether a bundle of the tree names the pipe its `main_pipe`. */
export function isMainPipe(tree: MethodTree, domain: string, code: string): boolean {
  accessLog?.names.add(mainKey(domain, code));
  let mains = mainPipes.get(tree);
  if (!mains) {
    mains = new Map();
    for (const b of tree.bundles) countMain(mains, b, 1);
    mainPipes.set(tree, mains);
  }
  return mains.has(`${domain}.${code}`);
}

function countMain(mains: Map<string, number>, bundle: Bundle, by: 1 | -1): void {
  if (!bundle.mainPipe) return;
  const key = `${bundle.domain?.value ?? ''}.${bundle.mainPipe.value}`;
  const n = (mains.get(key) ?? 0) + by;
  if (n > 0) mains.set(key, n);
  else mains.delete(key);
}

/** The main pipe a bundle names, as `isMainPipe` keys it. */
export function mainOf(bundle: Bundle): string | undefined {
  return bundle.mainPipe ? mainKey(bundle.domain?.value ?? '', bundle.mainPipe.value) : undefined;
}

function preferConcrete(decls: readonly PipeDecl[]): PipeDecl {
  return decls.find((d) => !d.typeless) ?? decls[0]!;
}
