// A safe fix is one whose result has no new error. The fixes chosen for a tree are applied in memory
// and the tree checked again; when an error appears that the tree did not have, the fixes are split
// in halves until the culprits are found, and those are rolled back (the others kept). One check of
// the whole tree (a copy, from scratch), or, with the trials of an earlier verdict on another version
// of the tree (FixTrials: the language server's fix-all), an update of the tree they checked last;
// each trial after it is an update of the tree checked last (updateTree), so its check follows what
// the fixes touch: the changed bundles, the units that read them or a name whose declarations
// changed (the language server runs this inside a code action request, on trees of thousands of
// bundles). `mthds check --fix` and the language server's fix-all
// both keep only what this keeps.

import { buildBundle } from '../language/buildBundle.js';
import { buildManifest } from '../language/manifest.js';
import type { Bundle } from '../language/model.js';
import { bundleIndex, buildSymbols, updateTree, updateTreeSteps, type MethodTree } from '../language/tree.js';
import { parseToml } from '../syntax/document.js';
import { applyEdits, type ChosenFix } from './applyFixes.js';
import type { Finding } from './finding.js';
import { checkTreeSteps, createCheckCache } from './index.js';
import { runSteps } from '../util/steps.js';

export interface FixVerdict {
  kept: ChosenFix[];
  /** Each fix rolled back, with an error it brought (the first). */
  rolledBack: Array<ChosenFix & { error: Finding }>;
}

/** How many findings the verdict goes through between two pauses of its steps. */
const FINDINGS_PER_STEP = 4000;

const errorKey = (f: Finding): string => `${f.code}\u0000${f.file}\u0000${f.message}`;

/**
 * The tree with some files' texts replaced. Unchanged bundles are copies (a bundle resolves its
 * references in the tree it was last assembled into: the copies resolve in this one), and the
 * original tree is left as it was.
 */
export function treeWithTexts(tree: MethodTree, texts: ReadonlyMap<string, string>): MethodTree {
  const bundles = tree.bundles.map((b) => {
    const text = texts.get(b.file);
    return text !== undefined && text !== b.doc.text ? buildBundle(b.file, parseToml(text)) : { ...b };
  });
  const trial: MethodTree = { ...tree, bundles, symbols: buildSymbols(bundles) };
  const manifestText = tree.manifest ? texts.get(tree.manifest.file) : undefined;
  if (tree.manifest && manifestText !== undefined && manifestText !== tree.manifest.doc.text) trial.manifest = buildManifest(tree.manifest.file, parseToml(manifestText));
  return trial;
}

/** The text the check saw of each file the tree read (bundles and manifest). */
export function treeTexts(tree: MethodTree): Map<string, string> {
  const texts = new Map<string, string>();
  for (const b of tree.bundles) texts.set(b.file, b.doc.text);
  if (tree.manifest) texts.set(tree.manifest.file, tree.manifest.doc.text);
  return texts;
}

/** The texts of the files fixes touch, with the fixes applied. */
function fixedTexts(tree: MethodTree, fixes: readonly ChosenFix[]): Map<string, string> {
  const original = treeTexts(tree);
  const byFile = new Map<string, ChosenFix['fix']['edits']>();
  for (const c of fixes) {
    for (const e of c.fix.edits) {
      const list = byFile.get(e.file);
      if (list) list.push(e);
      else byFile.set(e.file, [e]);
    }
  }
  const texts = new Map<string, string>();
  for (const [file, edits] of byFile) {
    const text = original.get(file);
    if (text !== undefined) texts.set(file, applyEdits(text, edits));
  }
  return texts;
}

/**
 * The trials of the last verdict, kept for the next (the language server keeps one for its
 * fix-all): when the next tree has the same files as the one they were made for (an update of it,
 * after edits or files changed on disk), its baseline is checked as an update of the tree they
 * checked last, following what changed, instead of the whole tree from scratch. One tree's worth
 * (a copy of its bundle list, a check cache) is held until the next verdict.
 */
export class FixTrials {
  private kept: TrialChecks | undefined;

  /** The kept trials moved to `tree`, else new ones; taken (a verdict running meanwhile makes its own). */
  take(tree: MethodTree): TrialChecks {
    const kept = this.kept;
    this.kept = undefined;
    return kept?.follow(tree) ? kept : new TrialChecks(tree);
  }

  give(trials: TrialChecks): void {
    this.kept = trials;
  }
}

/**
 * The fixes (chosen not to overlap, see chooseSafeFixes) that bring no error `baseline` (the
 * findings checkTree gives the tree as it is; checked here when not given) does not have; the
 * others rolled back. `keep`: trials of an earlier verdict to continue from (see FixTrials).
 */
export function keepHarmlessFixes(tree: MethodTree, baseline: readonly Finding[] | undefined, chosen: readonly ChosenFix[], keep?: FixTrials): FixVerdict {
  return runSteps(keepHarmlessFixesSteps(tree, baseline, chosen, keep));
}

/** `keepHarmlessFixes` in steps (its checks pause every few bundles): a caller serving requests runs it in slices. */
export function* keepHarmlessFixesSteps(tree: MethodTree, baseline: readonly Finding[] | undefined, chosen: readonly ChosenFix[], keep?: FixTrials): Generator<void, FixVerdict> {
  const verdict: FixVerdict = { kept: [], rolledBack: [] };
  if (chosen.length === 0) return verdict;
  const trials = keep ? keep.take(tree) : new TrialChecks(tree);
  // Given the tree's findings, new trials need not check the tree as it is: their first trial is
  // checked from scratch instead, which the baseline's check would have cost anyway, and the
  // trials keep the findings given (a later verdict follows them as usual). A document whose fixes
  // touch its whole tree (30,000 unused inputs) was otherwise checked twice: by its own check, then
  // as this baseline (0.3 s of the fix-all's 0.4 s).
  // Trials kept from an earlier verdict are brought to this version of the tree by their baseline's
  // check, whatever the caller gives: skipped, they stayed behind, and the next verdict made them
  // anew and checked its first trial from scratch (5,000 bundles: 240 ms instead of 7 ms).
  if (baseline !== undefined && trials.fresh()) trials.assumeBaseline(baseline);
  else {
    const checked = yield* trials.baselineSteps();
    baseline ??= checked;
  }
  yield;
  const before = new Map<string, number>();
  let n = 0;
  for (const f of baseline) {
    if (++n % FINDINGS_PER_STEP === 0) yield;
    if (f.severity === 'error') before.set(errorKey(f), (before.get(errorKey(f)) ?? 0) + 1);
  }
  /** The first error the fixes bring, if any. */
  function* newError(fixes: readonly ChosenFix[]): Generator<void, Finding | undefined> {
    const texts = fixedTexts(tree, fixes);
    yield;
    const after = new Map<string, number>();
    let seen = 0;
    for (const f of yield* trials.checkSteps(texts)) {
      if (++seen % FINDINGS_PER_STEP === 0) yield;
      if (f.severity !== 'error') continue;
      const key = errorKey(f);
      const n = (after.get(key) ?? 0) + 1;
      after.set(key, n);
      if (n > (before.get(key) ?? 0)) return f;
    }
    return undefined;
  }
  function* settle(group: readonly ChosenFix[], base: readonly ChosenFix[]): Generator<void, ChosenFix[]> {
    if (group.length === 0) return [];
    const error = yield* newError([...base, ...group]);
    if (!error) return [...group];
    if (group.length === 1) {
      verdict.rolledBack.push({ ...group[0]!, error });
      return [];
    }
    const mid = group.length >> 1;
    const left = yield* settle(group.slice(0, mid), base);
    return [...left, ...(yield* settle(group.slice(mid), [...base, ...left]))];
  }
  verdict.kept = yield* settle(chosen, []);
  // Given back only when every check ended (a verdict left unfinished may leave them half moved).
  keep?.give(trials);
  return verdict;
}

/**
 * The checks of a tree with some files' texts replaced, each an update of the tree checked before
 * it: the first (a copy of the tree, see treeWithTexts) is checked from scratch into a cache, and
 * each trial tree is made with updateTree from the last one checked (the files of the previous
 * trial go back to the copy's bundles, those of this one are parsed), so that the check of the
 * cache follows the change. A fix of the manifest changes what every bundle reads: that trial is
 * checked from scratch.
 */
class TrialChecks {
  private readonly cache = createCheckCache();
  private copy: MethodTree;
  private last: MethodTree;
  /** The files the last checked tree has other bundles of than the copy, by place. */
  private lastChanged = new Map<number, Bundle>();
  /** The bundles parsed of fixed texts, by file and text. */
  private readonly parsed = new Map<string, Bundle>();
  /** The findings of the copy, once checked. */
  private baseline: Finding[] | undefined;
  /** Copies of the bundles `tree` has other versions of than the copy, by place (see follow). */
  private moved: Map<number, Bundle> | undefined;

  constructor(private tree: MethodTree) {
    this.copy = treeWithTexts(tree, new Map());
    this.last = this.copy;
  }

  /**
   * Moves these trials (their baseline checked) to `tree`, another version of the tree they were
   * made for: the same root, files, manifest, lock, dependencies and host structures, bundles of
   * the same files in the same order (some of them other versions). False when it is not.
   */
  follow(tree: MethodTree): boolean {
    const from = this.tree;
    if (this.baseline === undefined) return false;
    if (tree === from) return true;
    if (tree.root !== from.root || tree.files !== from.files || tree.manifest !== from.manifest || tree.lock !== from.lock || tree.dependencies !== from.dependencies || tree.installed !== from.installed || tree.hostStructures !== from.hostStructures || tree.bundles.length !== from.bundles.length) return false;
    const moved = new Map<number, Bundle>();
    for (let i = 0; i < tree.bundles.length; i++) {
      const before = from.bundles[i]!;
      const after = tree.bundles[i]!;
      if (before === after) continue;
      if (before.file !== after.file) return false;
      // A copy, as treeWithTexts makes (the bundle resolves in the trees it is updated into).
      moved.set(i, { ...after });
    }
    this.tree = tree;
    this.moved = moved;
    this.baseline = undefined;
    this.parsed.clear();
    return true;
  }

  /** Whether nothing was checked nor moved yet (see assumeBaseline). */
  fresh(): boolean {
    return this.baseline === undefined && this.moved === undefined && this.last === this.copy;
  }

  /**
   * Takes `findings` (what checkTree gives the tree as it is) as the copy's baseline without
   * checking it: the cache stays empty, so the first trial is checked from scratch and the cache
   * then follows the trials, as after a checked baseline. Only for fresh trials.
   */
  assumeBaseline(findings: readonly Finding[]): void {
    this.baseline = [...findings];
  }

  /**
   * The findings of the tree as it is (the copy), checked into the cache: first. Moved to another
   * version of the tree (follow), the copy is the last tree checked updated to it, and its check
   * follows what changed.
   */
  *baselineSteps(): Generator<void, Finding[]> {
    const moved = this.moved;
    if (moved !== undefined) {
      const replaced: Array<{ index: number; bundle: Bundle }> = [];
      for (const index of this.lastChanged.keys()) if (!moved.has(index)) replaced.push({ index, bundle: this.copy.bundles[index]! });
      for (const [index, bundle] of moved) replaced.push({ index, bundle });
      const copy = yield* updateTreeSteps(this.last, replaced);
      for (const key of Object.keys(this.tree) as Array<keyof MethodTree>) if (!(key in copy)) Object.assign(copy, { [key]: this.tree[key] });
      this.baseline = yield* checkTreeSteps(copy, this.cache);
      this.copy = copy;
      this.last = copy;
      this.lastChanged = new Map();
      this.moved = undefined;
    }
    return (this.baseline ??= yield* checkTreeSteps(this.copy, this.cache));
  }

  *checkSteps(texts: ReadonlyMap<string, string>): Generator<void, Finding[]> {
    const manifest = this.tree.manifest;
    if (manifest && texts.has(manifest.file) && texts.get(manifest.file) !== manifest.doc.text) return yield* checkTreeSteps(treeWithTexts(this.tree, texts), createCheckCache());
    const places = bundleIndex(this.copy);
    const changed = new Map<number, Bundle>();
    for (const [file, text] of texts) {
      const at = places.get(file);
      if (at === undefined || this.copy.bundles[at]!.doc.text === text) continue;
      const key = `${file}\u0000${text}`;
      let bundle = this.parsed.get(key);
      if (!bundle) this.parsed.set(key, (bundle = buildBundle(file, parseToml(text))));
      changed.set(at, bundle);
    }
    const replaced: Array<{ index: number; bundle: Bundle }> = [];
    for (const index of this.lastChanged.keys()) if (!changed.has(index)) replaced.push({ index, bundle: this.copy.bundles[index]! });
    for (const [index, bundle] of changed) replaced.push({ index, bundle });
    const trial = updateTree(this.last, replaced);
    // updateTree carries the root, files and manifest: the rest of the tree (lock, dependencies, host structures) as the copy has it.
    for (const key of Object.keys(this.copy) as Array<keyof MethodTree>) if (!(key in trial)) Object.assign(trial, { [key]: this.copy[key] });
    const findings = yield* checkTreeSteps(trial, this.cache);
    this.last = trial;
    this.lastChanged = changed;
    return findings;
  }
}
