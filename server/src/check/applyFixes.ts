// Applying fixes to texts (`mthds check --fix`): the safe fix of each finding, leaving out a fix
// whose edits overlap an edit already taken (applying both would corrupt the text; a second pass
// on the re-checked text fixes what remains), and text edits applied back to front.

import type { Finding, Fix, TextEdit } from './finding.js';

export interface ChosenFix {
  finding: Finding;
  fix: Fix;
}

function overlaps(a: TextEdit, b: TextEdit): boolean {
  if (a.file !== b.file) return false;
  if (a.range.start < b.range.end && b.range.start < a.range.end) return true;
  // Two edits at one point (an insertion and anything starting there): their order is ambiguous.
  return a.range.start === b.range.start && (a.range.start === a.range.end || b.range.start === b.range.end);
}

/**
 * One safe fix per finding, in the findings' order, among those whose edits all lie in one file
 * `accept`s; a fix overlapping an edit already chosen is left for a later pass.
 */
export function chooseSafeFixes(findings: readonly Finding[], accept: (file: string) => boolean = () => true): ChosenFix[] {
  const chosen: ChosenFix[] = [];
  const taken: TextEdit[] = [];
  const seen = new Set<string>();
  for (const finding of findings) {
    const fix = finding.fix;
    if (!fix?.safe || fix.edits.length === 0) continue;
    const file = fix.edits[0]!.file;
    // A fix across files could be half written when one file changed concurrently: not applied.
    if (fix.edits.some((e) => e.file !== file) || !accept(file)) continue;
    // The same fix offered by two findings (one repair of two faults) is applied once.
    const signature = JSON.stringify(fix.edits.map((e) => [e.file, e.range.start, e.range.end, e.newText]));
    if (seen.has(signature)) continue;
    if (fix.edits.some((e) => taken.some((t) => overlaps(e, t)))) continue;
    seen.add(signature);
    taken.push(...fix.edits);
    chosen.push({ finding, fix });
  }
  return chosen;
}

/** The text with non-overlapping edits applied (offsets index the original text). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.range.start - a.range.start || b.range.end - a.range.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}
