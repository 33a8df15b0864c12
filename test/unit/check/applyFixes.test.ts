// Choosing and applying safe fixes (`mthds check --fix`): one per finding, overlapping and
// cross-file fixes left out, edits applied back to front.

import { describe, expect, it } from 'vitest';
import { applyEdits, chooseSafeFixes } from '../../../server/src/check/applyFixes.js';
import fc from 'fast-check';
import { makeFinding, type Finding, type Fix, type TextEdit } from '../../../server/src/check/finding.js';

const fix = (file: string, start: number, end: number, newText: string, safe = true): Fix => ({ title: `edit ${start}`, edits: [{ file, range: { start, end }, newText }], safe });
const finding = (f: Fix | undefined) => makeFinding('method.input_unused', { pipe: 'p', inputs: ['x'] }, 'a.mthds', { start: 0, end: 1 }, f ? { fix: f } : {});

describe('chooseSafeFixes', () => {
  it('takes the safe fix of each finding, in order, skipping unsafe ones and overlaps', () => {
    const chosen = chooseSafeFixes([finding(fix('a.mthds', 0, 3, 'x')), finding(fix('a.mthds', 2, 5, 'y')), finding(fix('a.mthds', 5, 6, '', false)), finding(fix('a.mthds', 6, 8, 'z')), finding(undefined)]);
    expect(chosen.map((c) => c.fix.edits[0]!.newText)).toEqual(['x', 'z']);
  });

  it('treats two insertions at one point as overlapping, and one repeated fix once', () => {
    expect(chooseSafeFixes([finding(fix('a.mthds', 4, 4, 'x')), finding(fix('a.mthds', 4, 6, 'y'))])).toHaveLength(1);
    expect(chooseSafeFixes([finding(fix('a.mthds', 1, 2, 'x')), finding(fix('a.mthds', 1, 2, 'x'))])).toHaveLength(1);
  });

  it('leaves out fixes across files and files not accepted', () => {
    const across: Fix = { title: 't', safe: true, edits: [{ file: 'a.mthds', range: { start: 0, end: 1 }, newText: '' }, { file: 'b.mthds', range: { start: 0, end: 1 }, newText: '' }] };
    expect(chooseSafeFixes([finding(across)])).toEqual([]);
    expect(chooseSafeFixes([finding(fix('b.mthds', 0, 1, ''))], (file) => file === 'a.mthds')).toEqual([]);
  });
});

describe('applyEdits', () => {
  it('applies edits given in any order against the original offsets', () => {
    expect(applyEdits('abcdef', [{ file: 'a', range: { start: 0, end: 1 }, newText: 'XX' }, { file: 'a', range: { start: 4, end: 6 }, newText: '' }, { file: 'a', range: { start: 2, end: 2 }, newText: '-' }])).toBe('XXb-cd');
  });
});

/** The choice as it was first written (quadratic): the oracle of the property below. */
function chooseByScan(findings: readonly Finding[], acrossFiles: boolean): Fix[] {
  const overlaps = (a: TextEdit, b: TextEdit): boolean =>
    a.file === b.file && ((a.range.start < b.range.end && b.range.start < a.range.end) || (a.range.start === b.range.start && (a.range.start === a.range.end || b.range.start === b.range.end)));
  const taken: TextEdit[] = [];
  const seen = new Set<string>();
  const chosen: Fix[] = [];
  for (const f of findings) {
    const fix = f.fix;
    if (!fix?.safe || fix.edits.length === 0) continue;
    if (!acrossFiles && fix.edits.some((e) => e.file !== fix.edits[0]!.file)) continue;
    const signature = JSON.stringify(fix.edits.map((e) => [e.file, e.range.start, e.range.end, e.newText]));
    if (seen.has(signature) || fix.edits.some((e) => taken.some((t) => overlaps(e, t)))) continue;
    seen.add(signature);
    taken.push(...fix.edits);
    chosen.push(fix);
  }
  return chosen;
}

describe('chooseSafeFixes against a plain scan', () => {
  const edit = fc.record({ file: fc.constantFrom('a.mthds', 'b.mthds'), start: fc.nat({ max: 40 }), length: fc.oneof(fc.constant(0), fc.nat({ max: 8 })), newText: fc.constantFrom('', 'x') });
  const aFix = fc.record({ safe: fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }), edits: fc.array(edit, { minLength: 0, maxLength: 3 }) });
  it('chooses exactly the fixes a pairwise scan chooses (random fixes, insertions, several files)', () => {
    fc.assert(
      fc.property(fc.array(aFix, { maxLength: 60 }), fc.boolean(), (fixes, acrossFiles) => {
        const findings = fixes.map((f, i) =>
          finding({ title: `f${i}`, safe: f.safe, edits: f.edits.map((e) => ({ file: e.file, range: { start: e.start, end: e.start + e.length }, newText: e.newText })) }),
        );
        expect(chooseSafeFixes(findings, () => true, acrossFiles).map((c) => c.fix)).toEqual(chooseByScan(findings, acrossFiles));
      }),
      { numRuns: 500, seed: 20261125 },
    );
  });
});

describe('applyEdits, made in one pass', () => {
  // The definition: each edit applied to the text the later ones made, from the last to the first.
  const oneByOne = (text: string, edits: TextEdit[]): string => {
    let out = text;
    for (const e of [...edits].sort((a, b) => b.range.start - a.range.start || b.range.end - a.range.end)) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
    return out;
  };

  it('gives what applying the edits one by one gives, apart, touching, inserted at one place or overlapping', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), fc.string({ maxLength: 4 })), { maxLength: 12 }),
        (text, raw) => {
          const edits = raw.map(([at, length, newText]) => {
            const start = at % (text.length + 1);
            return { file: 'f', range: { start, end: Math.min(text.length, start + length) }, newText };
          });
          expect(applyEdits(text, edits)).toBe(oneByOne(text, edits));
        },
      ),
      { seed: 5, numRuns: 3000 },
    );
  });
});
