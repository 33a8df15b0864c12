// Runs every rule over a method tree. Rules are grouped by family, one module each; a rule that
// needs a part that failed to parse simply finds nothing there, so one broken table never hides
// the findings of the others.

import { bundleIndex, bundleOfFile, bundleOutline, fileKey, forgetUpdate, mainOf, nameKey, recordingAccessSteps, sameHome, treeUpdate, type BundleChange, type MethodTree, type SuggestionQuery } from '../language/tree.js';
import type { Bundle } from '../language/model.js';
import { runSteps } from '../util/steps.js';
import type { CheckContext } from './context.js';
import type { Finding } from './finding.js';
import { FAMILIES, FileFindings, ReadIndex, sourceKey } from './incremental.js';
import { checkConcepts } from './rules/concepts.js';
import { holdConsequences } from './consequences.js';
import { cycleOutline, findTreeCycleSteps, reportCycles, updateTreeCycleSteps, type CycleFact } from './rules/cycles.js';
import { checkIdentifiers } from './rules/identifiers.js';
import { checkLockFile } from './rules/lock.js';
import { checkManifest } from './rules/manifest.js';
import { checkMarkers } from './rules/markers.js';
import { checkBundleNames, checkDuplicates } from './rules/names.js';
import { checkReferences } from './rules/references.js';
import { checkBundleShape } from './rules/shape.js';
import { checkReferenceSyntax, checkTomlSyntax } from './rules/syntax.js';
import { checkFlows } from './rules/flow.js';
import { absentHandOffs, pipeKey, redundantForceMarkers } from './rules/force.js';
import { checkModelReferences } from './rules/models.js';
import { checkPackageReferences } from './rules/packages.js';
import { checkDomainSignatures } from './rules/signatures.js';
import { checkOperatorKinds } from './rules/operators.js';
import { checkTemplateInputsSteps } from './rules/templateInputs.js';
import { checkTemplateShorthands } from './rules/templates.js';
import { ObjectCache } from '../util/objectCache.js';
import { mayBeSuggested } from '../util/suggest.js';

export { compareFindings, makeFinding, type Finding, type Fix, type Severity, type TextEdit } from './finding.js';

/**
 * What a check of a tree keeps for the next check of the same tree (the language server keeps one
 * per tree; see ARCHITECTURE.md, "Incremental analysis", for the invalidation rules). A check from
 * an empty cache is a check from scratch: both run the same code.
 */
export interface CheckCache {
  /** The tree of the last finished check. */
  previous?: { tree: MethodTree; outline: string };
  /** The rules run per bundle (`b` + file) and per domain (signatures, `f` + domain), with what they read. */
  units: Map<string, Unit>;
  /** Which units read which files and names. */
  reads: ReadIndex;
  /** Every source's findings, and each file's list. */
  findings: FileFindings;
  /** Cycles (by positions) and what may be absent per pipe (`file#index`: name: how many hand-offs). */
  graph?: { cycles: CycleFact[]; absent: Map<string, Map<string, number>> };
  /** The keys of the extra findings last given. */
  extra: string[];
}

/** Findings and what computing them read of the tree. */
interface Unit {
  /** The bundle version checked (units of a bundle). */
  bundle?: Bundle;
  findings: Finding[];
  reads: Bundle[];
  names: string[];
  /** Whole tables were listed (any name changed makes the unit stale). */
  wide: boolean;
  /** Suggestions looked for among whole tables (a name changed near one makes the unit stale). */
  queries: SuggestionQuery[];
  /** What the graph rules read of the bundle (units of a bundle): read as the rules are, so the unit's reads cover them. */
  graph?: BundleGraph;
}

/** A bundle's part of the graph rules, without ranges. */
interface BundleGraph {
  /** Where each declaration's edges lead (`cycleOutline`). */
  edges: string;
  /** What its controllers may hand over absent: the callee (`file#index`) and the names. */
  handOffs: Array<[string, string[]]>;
}

function graphOf(tree: MethodTree, bundle: Bundle): BundleGraph {
  return { edges: cycleOutline(tree, bundle), handOffs: absentHandOffs(tree, bundle).map(({ target, names }) => [pipeKey(target, target.bundle.pipes.indexOf(target)), [...names]]) };
}

export function createCheckCache(): CheckCache {
  return { units: new Map(), reads: new ReadIndex(), findings: new FileFindings(), extra: [] };
}

/** The findings of a check per file. */
export interface TreeFindings {
  /** The sorted findings of each file that has some (the cache's: the next check changes it). */
  byFile: ReadonlyMap<string, readonly Finding[]>;
  /** The files whose list is not the previous check's; undefined when unknown (no previous check). */
  changed?: ReadonlySet<string>;
}

/** How many kept results (cheap to reuse) the tree-wide phase of a check goes through per step. */
const KEPT_PER_STEP = 256;
/** How many names `namesDelta` compares per step. */
const NAMES_PER_STEP = 32;

const NO_EXTRA: ReadonlyMap<string, readonly Finding[]> = new Map();

/** Every finding of a tree, sorted by file and position. */
export function checkTree(tree: MethodTree, cache: CheckCache = createCheckCache()): Finding[] {
  return runSteps(checkTreeSteps(tree, cache));
}

/**
 * The check of a tree in steps: it pauses (yields) after every `bundlesPerStep` bundles it checks, so that a caller can
 * serve other work in between, and returns the findings. The cache is changed only when the last
 * step is done: a check left unfinished (a newer version came) leaves the cache as it was.
 */
export function* checkTreeSteps(tree: MethodTree, cache: CheckCache, bundlesPerStep = 16): Generator<void, Finding[]> {
  const { byFile } = yield* checkTreeFilesSteps(tree, cache, NO_EXTRA, bundlesPerStep);
  const out: Finding[] = [];
  for (const file of [...byFile.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) for (const f of byFile.get(file)!) out.push(f);
  return out;
}

/**
 * The check of a tree in steps, its findings per file with the files whose findings changed.
 * `extra` are findings made before the check (layout, reading, dependencies), by source in the
 * order they come (they come first among equal findings). After an edit made with `updateTree`
 * from the tree of the previous check, the work follows the edit: the changed bundles, the units
 * that read them or a name whose declarations changed, their domains, and the files whose
 * findings these touch.
 */
export function* checkTreeFilesSteps(tree: MethodTree, cache: CheckCache, extra: ReadonlyMap<string, readonly Finding[]> = NO_EXTRA, bundlesPerStep = 16): Generator<void, TreeFindings> {
  const outline = treeOutline(tree);
  const prev = cache.previous;
  const update = treeUpdate(tree);
  const incremental = prev !== undefined && update?.previous === prev.tree && prev.outline === outline && prev.tree.root === tree.root && prev.tree.files === tree.files;
  const delta = incremental ? yield* deltaOf(prev.tree, tree, update.changes) : yield* compare(cache, tree, outline);
  const fresh = delta.reset;
  const partial = incremental && !fresh;
  const current = (b: Bundle): boolean => bundleOfFile(tree, b.file) === b;
  const valid = (unit: Unit | undefined, bundle?: Bundle): unit is Unit => {
    if (fresh || unit === undefined || unit.bundle !== bundle) return false;
    if (!unit.reads.every(current)) return false;
    if (suggestionsStale(unit, delta)) return false;
    if (delta.names.size > 0 && unit.names.some((n) => delta.names.has(n))) return false;
    return true;
  };
  // The new findings of every source computed (all of them unless partial) and the units run.
  const staged = new Map<string, readonly Finding[]>();
  const units = new Map<string, Unit | undefined>();
  let work = 0;
  let kept_ = 0;
  const recheck = function* (bundle: Bundle): Generator<void, void> {
    let graph: BundleGraph | undefined;
    const unit = yield* recordSteps(tree, bundle, function* (ctx) {
      yield* checkBundleSteps(ctx, bundle);
      graph = graphOf(tree, bundle);
    });
    unit.graph = graph;
    units.set(sourceKey(FAMILIES.bundle, bundle.file), unit);
    staged.set(sourceKey(FAMILIES.bundle, bundle.file), unit.findings);
  };
  // Domains whose signature agreement is due (beside those of the changed bundles).
  const signaturesDue = new Set<string>();
  if (partial) {
    const due = new Set<string>();
    const add = (keys: ReadonlySet<string> | undefined): void => {
      for (const k of keys ?? []) due.add(k);
    };
    for (const c of update.changes) {
      due.add(sourceKey(FAMILIES.bundle, c.after.file));
      add(cache.reads.readersOfFile(c.after.file));
    }
    for (const n of delta.names) add(cache.reads.readersOfName(n));
    if (delta.symbols) for (const key of cache.reads.wide) if (suggestionsStale(cache.units.get(key), delta)) due.add(key);
    for (const key of due) {
      if (key[0] === FAMILIES.signatures) {
        signaturesDue.add(key.slice(1));
        continue;
      }
      const bundle = bundleOfFile(tree, key.slice(1));
      if (!bundle) continue;
      yield* recheck(bundle);
      if (++work % bundlesPerStep === 0) yield;
    }
  } else {
    for (const bundle of tree.bundles) {
      const kept = cache.units.get(sourceKey(FAMILIES.bundle, bundle.file));
      if (valid(kept, bundle)) {
        units.set(sourceKey(FAMILIES.bundle, bundle.file), kept);
        staged.set(sourceKey(FAMILIES.bundle, bundle.file), kept.findings);
        if (++kept_ % KEPT_PER_STEP === 0) yield;
        continue;
      }
      yield* recheck(bundle);
      if (++work % bundlesPerStep === 0) yield;
    }
  }
  // The rules over the whole tree, in a fixed order (findings at one place keep it). They pause
  // too (every `bundlesPerStep` domains or bundles computed, every `KEPT_PER_STEP` kept), so that
  // a check of a large tree never holds the message loop for the whole tree at once.
  for (const domain of partial ? delta.domains : tree.symbols.keys()) {
    const key = sourceKey(FAMILIES.duplicates, domain);
    const symbols = tree.symbols.get(domain);
    if (!symbols) staged.set(key, []);
    else if (fresh || delta.domains.has(domain)) {
      const found: Finding[] = [];
      checkDuplicates(symbols, found);
      staged.set(key, found);
      if (++work % bundlesPerStep === 0) yield;
    } else {
      staged.set(key, cache.findings.get(key));
      if (++kept_ % KEPT_PER_STEP === 0) yield;
    }
  }
  for (const bundle of partial ? update.changes.map((c) => c.after) : tree.bundles) {
    staged.set(sourceKey(FAMILIES.names, bundle.file), bundleNames(bundle));
    if (++kept_ % KEPT_PER_STEP === 0) yield;
  }
  // The graph rules follow the units run: a bundle's edges and hand-offs are read with its rules.
  const before = fresh ? undefined : cache.graph;
  let counts = before?.absent ?? new Map<string, Map<string, number>>();
  // What may be absent per pipe, where this check changed it (committed at the end).
  const absentPatch = new Map<string, Map<string, number>>();
  const absentAt = (key: string): Map<string, number> | undefined => absentPatch.get(key) ?? counts.get(key);
  const forceDue = new Set<string>(delta.bundles);
  let cycles: CycleFact[];
  if (before && delta.sameOrder) {
    const dirty = new Set<string>();
    const touch = (key: string): Map<string, number> => {
      let patched = absentPatch.get(key);
      if (!patched) absentPatch.set(key, (patched = new Map(counts.get(key))));
      return patched;
    };
    for (const [key, unit] of units) {
      const old = cache.units.get(key);
      if (key[0] !== FAMILIES.bundle || !unit?.graph || old === unit) continue;
      if (old?.graph?.edges !== unit.graph.edges) dirty.add(key.slice(1));
      countHandOffs(old?.graph?.handOffs ?? [], -1, touch);
      countHandOffs(unit.graph.handOffs, 1, touch);
      if (++kept_ % KEPT_PER_STEP === 0) yield;
    }
    for (const [key, patched] of absentPatch) {
      const old = counts.get(key);
      if ((old?.size ?? 0) !== patched.size || [...patched.keys()].some((n) => !old!.has(n))) forceDue.add(key.slice(0, key.lastIndexOf('#')));
    }
    cycles = dirty.size === 0 ? before.cycles : yield* updateTreeCycleSteps(tree, before.cycles, dirty);
  } else {
    // Every bundle's unit is at hand (kept or run): what may be absent is summed from them.
    counts = new Map();
    for (const bundle of tree.bundles) {
      countHandOffs(units.get(sourceKey(FAMILIES.bundle, bundle.file))?.graph?.handOffs ?? [], 1, (target) => {
        let c = counts.get(target);
        if (!c) counts.set(target, (c = new Map()));
        return c;
      });
      if (++kept_ % KEPT_PER_STEP === 0) yield;
    }
    cycles = yield* findTreeCycleSteps(tree);
  }
  const cycleCtx: CheckContext = { tree, out: [] };
  reportCycles(cycleCtx, cycles, (file) => bundleOfFile(tree, file)!);
  staged.set(sourceKey(FAMILIES.cycles), cycleCtx.out);
  for (const domain of partial ? new Set([...delta.domains, ...signaturesDue]) : tree.symbols.keys()) {
    const key = sourceKey(FAMILIES.signatures, domain);
    const symbols = tree.symbols.get(domain);
    let unit = cache.units.get(key);
    if (!symbols) {
      units.set(key, undefined);
      staged.set(key, []);
      continue;
    }
    if (partial || delta.domains.has(domain) || !valid(unit)) {
      unit = record(tree, undefined, (ctx) => checkDomainSignatures(ctx, symbols));
      if (++work % bundlesPerStep === 0) yield;
    } else if (++kept_ % KEPT_PER_STEP === 0) yield;
    units.set(key, unit);
    staged.set(key, unit.findings);
  }
  // The markers of a bundle change with the bundle or with what may be absent at its pipes.
  const incrementalGraph = before !== undefined && delta.sameOrder;
  for (const bundle of partial ? [...forceDue].flatMap((f) => bundleOfFile(tree, f) ?? []) : tree.bundles) {
    const key = sourceKey(FAMILIES.force, bundle.file);
    if (!partial && incrementalGraph && !forceDue.has(bundle.file)) {
      staged.set(key, cache.findings.get(key));
      if (++kept_ % KEPT_PER_STEP === 0) yield;
      continue;
    }
    const markers: Finding[] = [];
    redundantForceMarkers(bundle, (pipe, index) => absentAt(pipeKey(pipe, index)), markers);
    staged.set(key, markers);
    if (++work % bundlesPerStep === 0) yield;
  }
  // The manifest's rules read the manifest (in the outline), the lock file and the names declared.
  if (partial && !delta.symbols && tree.lock === prev.tree.lock && tree.installed === prev.tree.installed) staged.set(sourceKey(FAMILIES.manifest), cache.findings.get(sourceKey(FAMILIES.manifest)));
  else {
    const last: Finding[] = [];
    if (tree.manifest) {
      checkTomlSyntax(tree.manifest.file, tree.manifest.doc, last);
      checkManifest(tree, tree.manifest, last);
    }
    checkLockFile(tree, last);
    staged.set(sourceKey(FAMILIES.manifest), last);
  }
  for (const [key, findings] of extra) staged.set(sourceKey(FAMILIES.extra, key), findings);
  for (const key of cache.extra) if (!extra.has(key)) staged.set(sourceKey(FAMILIES.extra, key), []);

  // Done: what this check found becomes what the next one starts from.
  if (!partial) {
    // Every source was computed: those that found nothing this time are gone.
    for (const key of [...cache.findings.keys()]) if (!staged.has(key)) staged.set(key, []);
    cache.units = new Map();
    cache.reads = new ReadIndex();
  }
  for (const [key, unit] of units) {
    const old = cache.units.get(key);
    if (old === unit) continue;
    if (old) cache.reads.remove(key, filesOf(old), old.names);
    if (unit) {
      cache.units.set(key, unit);
      cache.reads.add(key, filesOf(unit), unit.names, unit.wide || unit.queries.length > 0);
    } else cache.units.delete(key);
  }
  for (const [key, findings] of staged) cache.findings.set(key, findings);
  const changed = cache.findings.assemble(ranker(tree, extra));
  for (const [key, patched] of absentPatch) {
    if (patched.size > 0) counts.set(key, patched);
    else counts.delete(key);
  }
  cache.graph = { cycles, absent: counts };
  cache.extra = [...extra.keys()];
  cache.previous = { tree, outline };
  forgetUpdate(tree);
  return prev ? { byFile: cache.findings.byFile, changed } : { byFile: cache.findings.byFile };
}

/** Adds (1) or takes back (-1) a bundle's hand-offs in the counts of what may be absent at each pipe (`at` gives a pipe's counts). */
function countHandOffs(handOffs: ReadonlyArray<[string, string[]]>, by: 1 | -1, at: (target: string) => Map<string, number>): void {
  for (const [target, names] of handOffs) {
    const counts = at(target);
    for (const n of names) {
      const left = (counts.get(n) ?? 0) + by;
      if (left > 0) counts.set(n, left);
      else counts.delete(n);
    }
  }
}

function filesOf(unit: Unit): string[] {
  return unit.reads.map((b) => b.file);
}

/** The order of sources of one family as a check from scratch reports them (see FileFindings). */
function ranker(tree: MethodTree, extra: ReadonlyMap<string, readonly Finding[]>): (key: string) => number {
  let domains: Map<string, number> | undefined;
  let extras: Map<string, number> | undefined;
  return (key) => {
    const id = key.slice(1);
    switch (key[0]) {
      case FAMILIES.bundle:
      case FAMILIES.names:
      case FAMILIES.force:
        return bundleIndex(tree).get(id) ?? -1;
      case FAMILIES.duplicates:
      case FAMILIES.signatures:
        if (!domains) {
          domains = new Map();
          for (const d of tree.symbols.keys()) domains.set(d, domains.size);
        }
        return domains.get(id) ?? -1;
      case FAMILIES.extra:
        if (!extras) {
          extras = new Map();
          for (const k of extra.keys()) extras.set(k, extras.size);
        }
        return extras.get(id) ?? -1;
      default:
        return 0;
    }
  };
}

/** Runs a rule, keeping its findings and what it read. */
function record(tree: MethodTree, self: Bundle | undefined, run: (ctx: CheckContext) => void): Unit {
  return runSteps(
    recordSteps(tree, self, function* (ctx) {
      run(ctx);
    }),
  );
}

/** `record` of work done in steps. */
function* recordSteps(tree: MethodTree, self: Bundle | undefined, run: (ctx: CheckContext) => Generator<void, void>): Generator<void, Unit> {
  const ctx: CheckContext = { tree, out: [] };
  const { bundles, names, wide, queries } = yield* recordingAccessSteps(run(ctx));
  // Reads in dependency packages are covered by the outline (their trees' identities).
  const reads: Bundle[] = [];
  for (const b of bundles) if (b !== self && sameHome(tree, b)) reads.push(b);
  const unit: Unit = { findings: ctx.out, reads, names: [...names], wide, queries };
  if (self) unit.bundle = self;
  return unit;
}

/** What changed since the previous check of the tree. */
interface Delta {
  /** Everything kept is void (the tree's outline changed). */
  reset: boolean;
  /** Files whose bundle is new, gone or another version. */
  bundles: Set<string>;
  /** Domains those bundles declare (or declared) in. */
  domains: Set<string>;
  /** Names whose list of declarations (by file) differs, files of the tree come or gone (`f path`), main pipes named or no longer (`m domain.code`). */
  names: Set<string>;
  /** A declared name changed (what lists every name, as suggestions do, may be stale). */
  symbols: boolean;
  /** The declared names among `names`. */
  declared: NamePart[];
  /** The tree has the files of the previous one in the same order (a declaration keeps its position). */
  sameOrder: boolean;
}

function emptyDelta(): Delta {
  return { reset: false, bundles: new Set(), domains: new Set(), names: new Set(), symbols: false, declared: [], sameOrder: true };
}

/** What changed from the tree of the previous check to one made from it by updateTree. */
function* deltaOf(before: MethodTree, tree: MethodTree, changes: readonly BundleChange[]): Generator<void, Delta> {
  const delta = emptyDelta();
  const pairs = changes.map((c): [Bundle, Bundle] => [c.before, c.after]);
  return yield* namesDelta(delta, before, tree, pairs, true, true);
}

/** Pauses (yields) every few changed bundles or names: a large update compares many. */
function* compare(cache: CheckCache, tree: MethodTree, outline: string): Generator<void, Delta> {
  const prev = cache.previous;
  const delta = emptyDelta();
  if (!prev || prev.outline !== outline || prev.tree.root !== tree.root) {
    delta.reset = true;
    return delta;
  }
  const before = prev.tree.bundles;
  const sameOrder = before.length === tree.bundles.length && tree.bundles.every((b, i) => before[i]!.file === b.file);
  const pairs: Array<[Bundle | undefined, Bundle | undefined]> = [];
  const beforeFiles = bundleIndex(prev.tree);
  const nowFiles = bundleIndex(tree);
  if (sameOrder) {
    tree.bundles.forEach((b, i) => {
      if (before[i] !== b) pairs.push([before[i], b]);
    });
  } else {
    for (const b of tree.bundles) {
      const old = bundleOfFile(prev.tree, b.file);
      if (old !== b) pairs.push([old, b]);
    }
    for (const old of before) if (!nowFiles.has(old.file)) pairs.push([old, undefined]);
  }
  // Files came or went: a rule that looked one up (resources) is stale.
  if (prev.tree.files !== tree.files) {
    for (const f of tree.files) if (!prev.tree.files.has(f)) delta.names.add(fileKey(f));
    for (const f of prev.tree.files) if (!tree.files.has(f)) delta.names.add(fileKey(f));
  }
  // Bundles that stay keep their order (files were added or removed around them): only the names
  // of the added and removed bundles may have another list of declarations.
  const kept = sameOrder || sameRelativeOrder(before, tree.bundles, beforeFiles, nowFiles);
  return yield* namesDelta(delta, prev.tree, tree, pairs, kept, sameOrder);
}

/** The names, domains and graph facts the changed bundles (old and new versions) touch. */
function* namesDelta(delta: Delta, before: MethodTree, tree: MethodTree, pairs: ReadonlyArray<[Bundle | undefined, Bundle | undefined]>, kept: boolean, sameOrder: boolean): Generator<void, Delta> {
  // Each name's key, with its parts (a domain may hold dots: the key is never split again).
  const keys = new Map<string, NamePart>();
  const addKey = (kind: 'c' | 'p', domain: string, code: string): void => {
    keys.set(nameKey(kind, domain, code), { kind, domain, code });
  };
  // A step per changed bundle and per few names (the caller slices by time: a bundle's cost varies).
  let work = 0;
  for (const [old, now] of pairs) {
    yield;
    // A version that declares what the one before it did, in the same order, leaves every list of
    // declarations as it was (the symbol tables swap its declarations in place): the common edit,
    // typing in a prompt or a description, compares no name.
    const sameNames = old !== undefined && now !== undefined && bundleOutline(old) === bundleOutline(now);
    for (const b of [old, now]) {
      if (!b) continue;
      delta.bundles.add(b.file);
      const domain = b.domain?.value;
      if (domain === undefined) continue;
      delta.domains.add(domain);
      if (sameNames) continue;
      for (const c of b.concepts) addKey('c', domain, c.code);
      for (const p of b.pipes) addKey('p', domain, p.code);
    }
    // Main pipes are read across bundles (what a package makes public): those who asked about them are stale.
    const [was, is] = [old && mainOf(old), now && mainOf(now)];
    if (was !== is) for (const key of [was, is]) if (key !== undefined) delta.names.add(key);
  }
  if (!kept) {
    // Bundles moved: every name's list may have changed, and every domain's order.
    for (const [domain, t] of [...tree.symbols, ...before.symbols]) {
      delta.domains.add(domain);
      for (const code of t.concepts.keys()) addKey('c', domain, code);
      for (const code of t.pipes.keys()) addKey('p', domain, code);
    }
  }
  for (const [key, name] of keys) {
    if (++work % NAMES_PER_STEP === 0) yield;
    if (declarers(before, name) === declarers(tree, name)) continue;
    delta.names.add(key);
    delta.declared.push(name);
    delta.symbols = true;
  }
  delta.sameOrder = sameOrder;
  return delta;
}

/**
 * Whether a unit's suggestions may have changed: it listed whole tables, or a name declared or
 * removed could be a suggestion for a name it asked about (as seen from the asking bundle's domain:
 * its own codes bare, the others qualified). A missing unit is stale.
 */
function suggestionsStale(unit: Unit | undefined, delta: Delta): boolean {
  if (!unit) return true;
  if (!delta.symbols) return false;
  if (unit.wide) return true;
  for (const q of unit.queries) {
    for (const n of delta.declared) {
      if (n.kind !== q.kind) continue;
      if (mayBeSuggested(q.name, n.domain === q.domain ? n.code : `${n.domain}.${n.code}`)) return true;
    }
  }
  return false;
}

interface NamePart {
  kind: 'c' | 'p';
  domain: string;
  code: string;
}

/** Who declares a name, in order (file, and for pipes whether a signature). */
function declarers(tree: MethodTree, { kind, domain, code }: NamePart): string {
  const t = tree.symbols.get(domain);
  if (!t) return '';
  if (kind === 'c') return (t.concepts.get(code) ?? []).map((d) => d.bundle.file).join('\n');
  return (t.pipes.get(code) ?? []).map((d) => `${d.bundle.file}${d.typeless ? '?' : ''}`).join('\n');
}

/** Whether the bundles present in both lists come in the same order in both. */
function sameRelativeOrder(before: readonly Bundle[], now: readonly Bundle[], beforeFiles: ReadonlyMap<string, unknown>, nowFiles: ReadonlyMap<string, unknown>): boolean {
  let j = 0;
  for (const b of now) {
    if (!beforeFiles.has(b.file)) continue;
    while (j < before.length && !nowFiles.has(before[j]!.file)) j++;
    if (j >= before.length || before[j]!.file !== b.file) return false;
    j++;
  }
  return true;
}

/** A bundle's own name conflicts (pure: kept per bundle version). */
const ownNames = new ObjectCache<Bundle, Finding[]>('ownNames');
function bundleNames(bundle: Bundle): Finding[] {
  let kept = ownNames.get(bundle);
  if (!kept) {
    kept = [];
    checkBundleNames(bundle, kept);
    ownNames.set(bundle, kept);
  }
  return kept;
}

/** The rules of one bundle (they may read other bundles' declarations through resolution). */
/**
 * Past this size (UTF-16 units of its text) a bundle's check pauses between its rules: each rule
 * over a bundle of hundreds of KB (30,000 inputs in one pipe, thousands of pipes) takes up to tens of
 * ms, and the whole check of one bundle would be one step (0.1-0.15 s) that other requests wait
 * behind. Smaller bundles are checked in one go, as their pauses would only cost.
 */
export const PAUSED_BUNDLE_CHARS = 64 * 1024;

function* checkBundleSteps(ctx: CheckContext, bundle: Bundle): Generator<void, void> {
  const large = bundle.doc.text.length > PAUSED_BUNDLE_CHARS;
  checkTomlSyntax(bundle.file, bundle.doc, ctx.out);
  checkReferenceSyntax(bundle, ctx.out);
  checkBundleShape(bundle, ctx.out);
  if (large) yield;
  checkIdentifiers(bundle, ctx.out);
  checkMarkers(bundle, ctx.out);
  checkConcepts(bundle, ctx.out, ctx.tree.hostStructures);
  if (large) yield;
  checkReferences(ctx, bundle);
  checkTemplateShorthands(bundle, ctx.out);
  yield* checkTemplateInputsSteps(ctx, bundle);
  checkOperatorKinds(ctx, bundle);
  checkFlows(ctx, bundle);
  if (large) yield;
  checkModelReferences(ctx, bundle);
  checkPackageReferences(ctx, bundle);
  if (large) yield;
  // A consequence's fix is no longer safe while its cause stands in the same pipe.
  const held = holdConsequences(ctx.out, bundle);
  if (held !== ctx.out) ctx.out.splice(0, ctx.out.length, ...held);
}

/** What every bundle's rules may see of the tree without resolving a declaration. */
function treeOutline(tree: MethodTree): string {
  const parts: string[] = [String(idOf(tree.manifest))];
  for (const [prefix, dep] of tree.dependencies ?? []) parts.push(`${prefix}=${idOf(dep.tree)}`);
  return parts.join('\n');
}

// Identities of objects that only matter by identity in the outline (manifests, dependency trees).
const ids = new ObjectCache<object, number>('ids');
let nextId = 1;
function idOf(o: object | undefined): number {
  if (!o) return 0;
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = nextId++));
  return id;
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
