// Findings of an older text carried over to the current one. While a document's check is pending
// (typing, or behind a large update), requests that need its findings (code actions, diagnostic
// pulls) answer from the latest finished check: its findings are moved past the region where the
// texts differ, and those touching that region are left out (the edit may have fixed or changed
// them), so every range given is exact for the current text.

import type { Finding, Fix, RelatedLocation, TextEdit } from '../check/finding.js';
import type { Range } from '../syntax/types.js';

/** Where two texts differ: `[start, oldEnd)` of the old text became `[start, newEnd)` of the new. */
export interface TextChange {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** The length of the blocks `changeBetween` compares whole (UTF-16 units). */
const BLOCK = 1024;

/** The one region two texts differ in (common prefix and suffix apart); undefined when equal. */
export function changeBetween(before: string, after: string): TextChange | undefined {
  if (before === after) return undefined;
  const shorter = Math.min(before.length, after.length);
  // Blocks compared as strings first (a native comparison), then characters in the block that
  // differs: this runs once per change, never hot, and a loop of charCodeAt over a 0.5 MB text ran
  // as bytecode for tens of ms.
  let start = 0;
  while (start + BLOCK <= shorter && before.slice(start, start + BLOCK) === after.slice(start, start + BLOCK)) start += BLOCK;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (tail + BLOCK <= shorter - start && before.slice(before.length - tail - BLOCK, before.length - tail) === after.slice(after.length - tail - BLOCK, after.length - tail)) tail += BLOCK;
  while (tail < shorter - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  return { start, oldEnd: before.length - tail, newEnd: after.length - tail };
}

/** A range of the old text in the new one; undefined when it touches the changed region. */
export function shiftRange(range: Range, change: TextChange): Range | undefined {
  if (range.end < change.start) return range;
  if (range.start > change.oldEnd) {
    const delta = change.newEnd - change.oldEnd;
    return { start: range.start + delta, end: range.end + delta };
  }
  return undefined;
}

/**
 * The findings in the current texts of the files in `changes` (by file): ranges, related locations
 * and fix edits moved; a finding touching a change left out, as are a related location or a fix
 * (an alternative) with an edit touching one. Findings of unchanged files come back as they were.
 */
export function shiftFindings(findings: readonly Finding[], changes: ReadonlyMap<string, TextChange>): Finding[] {
  if (changes.size === 0) return [...findings];
  const move = (file: string, range: Range): Range | undefined => {
    const change = changes.get(file);
    return change ? shiftRange(range, change) : range;
  };
  const moveFix = (fix: Fix): Fix | undefined => {
    const edits: TextEdit[] = [];
    for (const e of fix.edits) {
      const range = move(e.file, e.range);
      if (!range) return undefined;
      edits.push(range === e.range ? e : { ...e, range });
    }
    return { ...fix, edits };
  };
  const out: Finding[] = [];
  for (const f of findings) {
    const range = move(f.file, f.range);
    if (!range) continue;
    const moved: Finding = { ...f, range };
    delete moved.related;
    delete moved.fix;
    delete moved.alternatives;
    const related: RelatedLocation[] = [];
    for (const r of f.related ?? []) {
      const at = move(r.file, r.range);
      if (at) related.push(at === r.range ? r : { ...r, range: at });
    }
    if (related.length > 0) moved.related = related;
    const fix = f.fix && moveFix(f.fix);
    if (fix) moved.fix = fix;
    const alternatives = (f.alternatives ?? []).map(moveFix).filter((a): a is Fix => a !== undefined);
    if (alternatives.length > 0) moved.alternatives = alternatives;
    out.push(moved);
  }
  return out;
}
