// Runs every rule over a method tree. Rules are grouped by family, one module each; a rule that
// needs a part that failed to parse simply finds nothing there, so one broken table never hides
// the findings of the others.

import { bundleOutline, fileKey, nameKey, recordingAccess, treeOfBundle, type MethodTree } from '../language/tree.js';
import type { Bundle } from '../language/model.js';
import { runSteps } from '../util/steps.js';
import type { CheckContext } from './context.js';
import { compareFindings, type Finding } from './finding.js';
import { checkConcepts } from './rules/concepts.js';
import { findTreeCycleSteps, reportCycles, cycleOutline, type CycleFact } from './rules/cycles.js';
import { checkIdentifiers } from './rules/identifiers.js';
import { checkLockFile } from './rules/lock.js';
import { checkManifest } from './rules/manifest.js';
import { checkMarkers } from './rules/markers.js';
import { checkBundleNames, checkDuplicates } from './rules/names.js';
import { checkReferences } from './rules/references.js';
import { checkBundleShape } from './rules/shape.js';
import { checkReferenceSyntax, checkTomlSyntax } from './rules/syntax.js';
import { checkFlows } from './rules/flow.js';
import { absentHandOffs, absentOf, pipeKey, redundantForceMarkers } from './rules/force.js';
import { checkModelReferences } from './rules/models.js';
import { checkPackageReferences } from './rules/packages.js';
import { checkDomainSignatures } from './rules/signatures.js';
import { checkOperatorKinds } from './rules/operators.js';
import { checkTemplateInputs } from './rules/templateInputs.js';
import { checkTemplateShorthands } from './rules/templates.js';

export { compareFindings, makeFinding, type Finding, type Fix, type Severity, type TextEdit } from './finding.js';

/**
 * What a check of a tree keeps for the next check of the same tree (the language server keeps one
 * per tree; see ARCHITECTURE.md, "Incremental analysis", for the invalidation rules). A check from
 * an empty cache is a check from scratch: both run the same code.
 */
export interface CheckCache {
  previous?: Previous;
  /** Counts checks: a unit not seen in the previous check may have missed a change. */
  generation: number;
  /** The bundle rules' findings per bundle version, with what they read. */
  byBundle: WeakMap<Bundle, Unit>;
  /** Name conflicts of each domain's tables. */
  duplicates: Map<string, Finding[]>;
  /** Signature agreement per domain, with what it read. */
  signatures: Map<string, Unit>;
  /** Cycles (by positions) and what may be absent per pipe, with each bundle's redundant markers. */
  graph?: { cycles: CycleFact[]; absent: Map<string, Set<string>>; force: Map<string, Finding[]> };
}

interface Previous {
  tree: MethodTree;
  byFile: Map<string, Bundle>;
  outline: string;
}

/** Findings and what computing them read of the tree. */
interface Unit {
  findings: Finding[];
  reads: Bundle[];
  names: string[];
  wide: boolean;
  /** The check that last found it valid. */
  generation: number;
}

export function createCheckCache(): CheckCache {
  return { generation: 0, byBundle: new WeakMap(), duplicates: new Map(), signatures: new Map() };
}

/** How many kept results (cheap to reuse) the tree-wide phase of a check goes through per step. */
const KEPT_PER_STEP = 256;

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
  const ctx: CheckContext = { tree, out: [] };
  const outline = treeOutline(tree);
  const { delta, byFile } = yield* compare(cache, tree, outline);
  const fresh = delta.reset;
  const generation = cache.generation + 1;
  // Units found valid are stamped with this check's number; an unfinished check may have stamped
  // some already (they were valid against the same last finished check, so they still are).
  const valid = (unit: Unit | undefined): unit is Unit => {
    if (fresh || unit === undefined || (unit.generation !== cache.generation && unit.generation !== generation)) return false;
    if (!unit.reads.every((b) => byFile.get(b.file) === b)) return false;
    if (unit.wide && delta.symbols) return false;
    if (delta.names.size > 0 && unit.names.some((n) => delta.names.has(n))) return false;
    unit.generation = generation;
    return true;
  };
  const units = new Map<Bundle, Unit>();
  let work = 0;
  for (const bundle of tree.bundles) {
    const kept = cache.byBundle.get(bundle);
    if (valid(kept)) {
      for (const f of kept.findings) ctx.out.push(f);
      continue;
    }
    units.set(bundle, record(ctx, bundle, generation, () => checkBundle(ctx, bundle)));
    if (++work % bundlesPerStep === 0) yield;
  }
  // The rules over the whole tree, in a fixed order (findings at one place keep it). They pause
  // too (every `bundlesPerStep` domains or bundles computed, every `KEPT_PER_STEP` kept), so that
  // a check of a large tree never holds the message loop for the whole tree at once.
  let kept_ = 0;
  const duplicates = new Map<string, Finding[]>();
  for (const [domain, symbols] of tree.symbols) {
    let kept = fresh || delta.domains.has(domain) ? undefined : cache.duplicates.get(domain);
    if (!kept) {
      checkDuplicates(symbols, (kept = []));
      if (++work % bundlesPerStep === 0) yield;
    } else if (++kept_ % KEPT_PER_STEP === 0) yield;
    duplicates.set(domain, kept);
    for (const f of kept) ctx.out.push(f);
  }
  for (const bundle of tree.bundles) {
    for (const f of bundleNames(bundle)) ctx.out.push(f);
    if (++kept_ % KEPT_PER_STEP === 0) yield;
  }
  const kept = !fresh && delta.graphKept ? cache.graph : undefined;
  const cycles = kept?.cycles ?? (yield* findTreeCycleSteps(tree));
  let absent = kept?.absent;
  if (!absent) {
    absent = new Map<string, Set<string>>();
    for (const bundle of tree.bundles) {
      absentOf(tree, bundle, absent);
      if (++work % bundlesPerStep === 0) yield;
    }
  }
  const graph = { cycles, absent, force: new Map<string, Finding[]>() };
  reportCycles(ctx, graph.cycles, (file) => byFile.get(file)!);
  const signatures = new Map<string, Unit>();
  for (const [domain, symbols] of tree.symbols) {
    let unit = cache.signatures.get(domain);
    if (delta.domains.has(domain) || !valid(unit)) {
      unit = record(ctx, undefined, generation, () => checkDomainSignatures(ctx, symbols));
      if (++work % bundlesPerStep === 0) yield;
    } else {
      for (const f of unit.findings) ctx.out.push(f);
      if (++kept_ % KEPT_PER_STEP === 0) yield;
    }
    signatures.set(domain, unit);
  }
  for (const bundle of tree.bundles) {
    let markers = kept && !delta.bundles.has(bundle.file) ? kept.force.get(bundle.file) : undefined;
    if (!markers) {
      redundantForceMarkers(bundle, (pipe, index) => graph.absent.get(pipeKey(pipe, index)), (markers = []));
      if (++work % bundlesPerStep === 0) yield;
    } else if (++kept_ % KEPT_PER_STEP === 0) yield;
    graph.force.set(bundle.file, markers);
    for (const f of markers) ctx.out.push(f);
  }
  if (tree.manifest) {
    checkTomlSyntax(tree.manifest.file, tree.manifest.doc, ctx.out);
    checkManifest(tree, tree.manifest, ctx.out);
  }
  checkLockFile(tree, ctx.out);
  // Done: what this check found becomes what the next one starts from.
  if (fresh) cache.byBundle = new WeakMap();
  for (const [bundle, unit] of units) cache.byBundle.set(bundle, unit);
  cache.duplicates = duplicates;
  cache.signatures = signatures;
  cache.graph = graph;
  cache.generation = generation;
  cache.previous = { tree, byFile, outline };
  return ctx.out.sort(compareFindings);
}

/** Runs a rule, keeping its findings and what it read. */
function record(ctx: CheckContext, self: Bundle | undefined, generation: number, run: () => void): Unit {
  const start = ctx.out.length;
  const { bundles, names, wide } = recordingAccess(run);
  // Reads in dependency packages are covered by the outline (their trees' identities).
  const reads: Bundle[] = [];
  for (const b of bundles) if (b !== self && treeOfBundle(b) === ctx.tree) reads.push(b);
  return { findings: ctx.out.slice(start), reads, names: [...names], wide, generation };
}

/** What changed since the previous check of the tree. */
interface Delta {
  /** Everything kept is void (the tree's outline changed). */
  reset: boolean;
  /** Files whose bundle is new, gone or another version. */
  bundles: Set<string>;
  /** Domains those bundles declare (or declared) in. */
  domains: Set<string>;
  /** Names whose list of declarations (by file) differs, and files of the tree come or gone (`f path`). */
  names: Set<string>;
  /** A declared name changed (what lists every name, as suggestions do, is stale). */
  symbols: boolean;
  /** The cycles and markers found before still hold (ranges apart). */
  graphKept: boolean;
}

/** Pauses (yields) every few changed bundles or names: a large update compares many. */
function* compare(cache: CheckCache, tree: MethodTree, outline: string): Generator<void, { delta: Delta; byFile: Map<string, Bundle> }> {
  const prev = cache.previous;
  const delta: Delta = { reset: false, bundles: new Set(), domains: new Set(), names: new Set(), symbols: false, graphKept: false };
  const before = prev?.tree.bundles ?? [];
  const sameOrder = before.length === tree.bundles.length && tree.bundles.every((b, i) => before[i]!.file === b.file);
  const pairs: Array<[Bundle | undefined, Bundle | undefined]> = [];
  let byFile: Map<string, Bundle>;
  if (prev && sameOrder) {
    // The same files in the same order: the previous index, patched where versions changed.
    byFile = new Map(prev.byFile);
    tree.bundles.forEach((b, i) => {
      if (before[i] === b) return;
      pairs.push([before[i], b]);
      byFile.set(b.file, b);
    });
  } else {
    byFile = new Map();
    for (const b of tree.bundles) byFile.set(b.file, b);
    if (prev) {
      for (const [file, b] of byFile) {
        const old = prev.byFile.get(file);
        if (old !== b) pairs.push([old, b]);
      }
      for (const [file, old] of prev.byFile) if (!byFile.has(file)) pairs.push([old, undefined]);
    }
  }
  if (!prev || prev.outline !== outline || prev.tree.root !== tree.root) {
    delta.reset = true;
    return { delta, byFile };
  }
  // Files came or went: a rule that looked one up (resources) is stale.
  if (prev.tree.files !== tree.files) {
    for (const f of tree.files) if (!prev.tree.files.has(f)) delta.names.add(fileKey(f));
    for (const f of prev.tree.files) if (!tree.files.has(f)) delta.names.add(fileKey(f));
  }
  // Bundles that stay keep their order (files were added or removed around them): only the names
  // of the added and removed bundles may have another list of declarations.
  const kept = sameOrder || sameRelativeOrder(before, tree.bundles, prev.byFile, byFile);
  // Each name's key, with its parts (a domain may hold dots: the key is never split again).
  const keys = new Map<string, NamePart>();
  const addKey = (kind: 'c' | 'p', domain: string, code: string): void => {
    keys.set(nameKey(kind, domain, code), { kind, domain, code });
  };
  let work = 0;
  for (const [old, now] of pairs) {
    if (++work % KEPT_PER_STEP === 0) yield;
    for (const b of [old, now]) {
      if (!b) continue;
      delta.bundles.add(b.file);
      const domain = b.domain?.value;
      if (domain === undefined) continue;
      delta.domains.add(domain);
      for (const c of b.concepts) addKey('c', domain, c.code);
      for (const p of b.pipes) addKey('p', domain, p.code);
    }
    // Main pipes are read across bundles (what a package makes public).
    if ((old?.mainPipe ?? now?.mainPipe) && (old?.mainPipe?.value !== now?.mainPipe?.value || old?.domain?.value !== now?.domain?.value)) {
      delta.reset = true;
      return { delta, byFile };
    }
  }
  if (!kept) {
    // Bundles moved: every name's list may have changed, and every domain's order.
    for (const [domain, t] of [...tree.symbols, ...prev.tree.symbols]) {
      delta.domains.add(domain);
      for (const code of t.concepts.keys()) addKey('c', domain, code);
      for (const code of t.pipes.keys()) addKey('p', domain, code);
    }
  }
  for (const [key, name] of keys) {
    if (++work % KEPT_PER_STEP === 0) yield;
    if (declarers(prev.tree, name) === declarers(tree, name)) continue;
    delta.names.add(key);
    delta.symbols = true;
  }
  delta.graphKept = sameOrder && !delta.symbols;
  for (const [old, now] of delta.graphKept ? pairs : []) {
    if (old === undefined || now === undefined || digestOf(prev.tree, old) !== digestOf(tree, now)) {
      delta.graphKept = false;
      break;
    }
    if (++work % 16 === 0) yield;
  }
  return { delta, byFile };
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
function sameRelativeOrder(before: readonly Bundle[], now: readonly Bundle[], beforeFiles: ReadonlyMap<string, Bundle>, nowFiles: ReadonlyMap<string, Bundle>): boolean {
  let j = 0;
  for (const b of now) {
    if (!beforeFiles.has(b.file)) continue;
    while (j < before.length && !nowFiles.has(before[j]!.file)) j++;
    if (j >= before.length || before[j]!.file !== b.file) return false;
    j++;
  }
  return true;
}

// What the graph rules see of a bundle version in a tree, computed once. Kept by tree, then by
// bundle: an entry never keeps a tree alive (a tree holds every bundle version it was made of).
const digests = new WeakMap<MethodTree, WeakMap<Bundle, string>>();

/**
 * What the cycle and force-marker rules see of a bundle in a tree, without ranges: its
 * declarations, where its edges lead, what its controllers may hand over absent, and its output
 * markers. Kept per bundle version with the tree it was computed in.
 */
function digestOf(tree: MethodTree, bundle: Bundle): string {
  let ofTree = digests.get(tree);
  if (!ofTree) digests.set(tree, (ofTree = new WeakMap()));
  const kept = ofTree.get(bundle);
  if (kept !== undefined) return kept;
  const handOffs = absentHandOffs(tree, bundle)
    .map(({ target, names }) => `${pipeKey(target, target.bundle.pipes.indexOf(target))}:${[...names].sort().join(',')}`)
    .join(';');
  const markers = bundle.pipes.map((p) => p.output?.io?.marker ?? '').join(',');
  const digest = `${bundleOutline(bundle)}\n${cycleOutline(tree, bundle)}\n${handOffs}\n${markers}`;
  ofTree.set(bundle, digest);
  return digest;
}

/** A bundle's own name conflicts (pure: kept per bundle version). */
const ownNames = new WeakMap<Bundle, Finding[]>();
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
function checkBundle(ctx: CheckContext, bundle: Bundle): void {
  checkTomlSyntax(bundle.file, bundle.doc, ctx.out);
  checkReferenceSyntax(bundle, ctx.out);
  checkBundleShape(bundle, ctx.out);
  checkIdentifiers(bundle, ctx.out);
  checkMarkers(bundle, ctx.out);
  checkConcepts(bundle, ctx.out);
  checkReferences(ctx, bundle);
  checkTemplateShorthands(bundle, ctx.out);
  checkTemplateInputs(ctx, bundle);
  checkOperatorKinds(ctx, bundle);
  checkFlows(ctx, bundle);
  checkModelReferences(ctx, bundle);
  checkPackageReferences(ctx, bundle);
}

/** What every bundle's rules may see of the tree without resolving a declaration. */
function treeOutline(tree: MethodTree): string {
  const parts: string[] = [String(idOf(tree.manifest))];
  for (const [prefix, dep] of tree.dependencies ?? []) parts.push(`${prefix}=${idOf(dep.tree)}`);
  return parts.join('\n');
}

// Identities of objects that only matter by identity in the outline (manifests, dependency trees).
const ids = new WeakMap<object, number>();
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
