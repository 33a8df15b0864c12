// Applying fixes to texts (`mthds check --fix`, the language server's fix-all): the safe fix of each
// finding, leaving out a fix whose edits overlap an edit already taken (applying both would corrupt
// the text; a second pass on the re-checked text fixes what remains), and text edits applied back
// to front.

import { isCause } from './consequences.js';
import type { Finding, Fix, TextEdit } from './finding.js';
import { runSteps } from '../util/steps.js';

export interface ChosenFix {
  finding: Finding;
  fix: Fix;
}

/**
 * The edits taken so far, asked whether an edit overlaps one of them, in O(log n) each. Two edits of
 * one file overlap when they share a character, or when they start at one point and one of them is
 * an insertion (their order is ambiguous). Every offset of the edits that may be asked about is
 * known in advance, so the offsets of each file are numbered in order; between two neighbours lies
 * a segment that any edit covers whole or not at all. Taken replacements mark their segments (each
 * marked once, found through a union-find of the next unmarked one), taken insertions their point;
 * Fenwick trees count the marks in a span.
 */
class TakenEdits {
  private readonly coords = new Map<string, { offsets: Float64Array; base: number }>();
  private readonly segments: Fenwick;
  private readonly points: Fenwick;
  /** For each segment, the next segment not yet marked (path-compressed). */
  private readonly next: Int32Array;

  constructor(edits: readonly TextEdit[]) {
    const byFile = new Map<string, number[]>();
    for (const e of edits) {
      let list = byFile.get(e.file);
      if (!list) byFile.set(e.file, (list = []));
      list.push(e.range.start, e.range.end);
    }
    let base = 0;
    for (const [file, list] of byFile) {
      const offsets = distinctSorted(list);
      this.coords.set(file, { offsets, base });
      base += offsets.length;
    }
    this.segments = new Fenwick(base);
    this.points = new Fenwick(base);
    this.next = new Int32Array(base + 1).map((_, i) => i);
  }

  private index(file: string, offset: number): number {
    const c = this.coords.get(file)!;
    let lo = 0;
    let hi = c.offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (c.offsets[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return c.base + lo;
  }

  overlaps(e: TextEdit): boolean {
    const i = this.index(e.file, e.range.start);
    if (e.range.start === e.range.end) return this.segments.sum(i, i) > 0 || this.points.sum(i, i) > 0;
    const j = this.index(e.file, e.range.end) - 1;
    return this.segments.sum(i, j) > 0 || this.points.sum(i, j) > 0;
  }

  take(e: TextEdit): void {
    const i = this.index(e.file, e.range.start);
    if (e.range.start === e.range.end) {
      if (this.points.sum(i, i) === 0) this.points.add(i);
      return;
    }
    const end = this.index(e.file, e.range.end);
    for (let k = this.find(i); k < end; k = this.find(k + 1)) {
      this.segments.add(k);
      this.next[k] = k + 1;
    }
  }

  private find(k: number): number {
    let root = k;
    while (this.next[root] !== root) root = this.next[root]!;
    while (this.next[k] !== root) {
      const up = this.next[k]!;
      this.next[k] = root;
      k = up;
    }
    return root;
  }
}

/** The distinct numbers of a list, ascending (a typed array sorts numbers without a comparator). */
function distinctSorted(list: readonly number[]): Float64Array {
  const sorted = Float64Array.from(list).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i]!;
  return sorted.subarray(0, n);
}

/** Counts by index: one added at a time, summed over a span. */
class Fenwick {
  private readonly tree: Int32Array;
  constructor(size: number) {
    this.tree = new Int32Array(size + 1);
  }
  add(index: number): void {
    for (let i = index + 1; i < this.tree.length; i += i & -i) this.tree[i]! += 1;
  }
  private prefix(count: number): number {
    let total = 0;
    for (let i = count; i > 0; i -= i & -i) total += this.tree[i]!;
    return total;
  }
  /** The count over indices first..last (0 when last < first). */
  sum(first: number, last: number): number {
    return last < first ? 0 : this.prefix(last + 1) - this.prefix(first);
  }
}

/** What makes two fixes the same fix: their edits (the title aside). */
export function fixSignature(fix: Fix): string {
  return JSON.stringify(fix.edits.map((e) => [e.file, e.range.start, e.range.end, e.newText]));
}

/**
 * One safe fix per finding, root causes first (consequences.ts), else in the findings' order, among those whose edits lie in files `accept`s
 * (and in one file, unless `acrossFiles`: written file by file, a fix across files could be half
 * written when one file changed concurrently); a fix any of whose edits overlaps an edit already
 * chosen is left for a later pass (applying both would corrupt the text); so the same fix offered
 * by two findings (one repair of two faults) is applied once, its edits overlapping their own. O(n log n) in the number of edits.
 * `mthds check --fix` and the language server's fix-all both choose with this.
 */
export function chooseSafeFixes(findings: readonly Finding[], accept: (file: string) => boolean = () => true, acrossFiles = false): ChosenFix[] {
  return runSteps(chooseSafeFixesSteps(findings, accept, acrossFiles));
}

/** How many findings the choice goes through between two pauses of its steps. */
const FINDINGS_PER_STEP = 4000;

/** `chooseSafeFixes` in steps (it pauses every few thousand findings): a caller serving requests runs it in slices. */
export function* chooseSafeFixesSteps(findings: readonly Finding[], accept: (file: string) => boolean = () => true, acrossFiles = false): Generator<void, ChosenFix[]> {
  // Root causes first (consequences.ts): where a cause's fix and another overlap, the cause's wins.
  const causes: Finding[] = [];
  const others: Finding[] = [];
  let n = 0;
  for (const f of findings) {
    if (++n % FINDINGS_PER_STEP === 0) yield;
    const fix = f.fix;
    if (!fix?.safe || fix.edits.length === 0) continue;
    const file = fix.edits[0]!.file;
    if (!fix.edits.every((e) => (acrossFiles || e.file === file) && accept(e.file))) continue;
    (isCause(f) ? causes : others).push(f);
  }
  const candidates = causes.length === 0 ? others : [...causes, ...others];
  const taken = new TakenEdits(candidates.flatMap((f) => f.fix!.edits));
  yield;
  const chosen: ChosenFix[] = [];
  for (const finding of candidates) {
    if (++n % FINDINGS_PER_STEP === 0) yield;
    const fix = finding.fix!;
    if (fix.edits.some((e) => taken.overlaps(e))) continue;
    for (const e of fix.edits) taken.take(e);
    chosen.push({ finding, fix });
  }
  return chosen;
}

/** The text with non-overlapping edits applied (offsets index the original text). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.range.start - a.range.start || b.range.end - a.range.end);
  // Edits apart from one another (the usual case, thousands for a fix-all): the text is made once,
  // from its pieces in order, instead of once per edit.
  let apart = true;
  for (let i = 1; i < sorted.length && apart; i++) apart = sorted[i]!.range.end <= sorted[i - 1]!.range.start;
  if (apart) {
    const pieces: string[] = [];
    let at = 0;
    for (let i = sorted.length - 1; i >= 0; i--) {
      const e = sorted[i]!;
      pieces.push(text.slice(at, e.range.start), e.newText);
      at = e.range.end;
    }
    pieces.push(text.slice(at));
    return pieces.join('');
  }
  // Overlapping edits: each applied to the text the later ones made, from the last to the first.
  let out = text;
  for (const e of sorted) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}
