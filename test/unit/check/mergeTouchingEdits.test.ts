// Touching edits merged (the fix-all's edit, lsp/codeActions.ts): applied, the merged edits give
// the text the edits gave, whatever the safe fixes chosen; adjacent removals become one edit.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits, chooseSafeFixes } from '../../../server/src/check/applyFixes.js';
import { mergeTouchingEdits } from '../../../server/src/check/edits.js';
import { makeFinding, type TextEdit } from '../../../server/src/check/finding.js';

const textOf = (edits: readonly TextEdit[], texts: Record<string, string>, file: string): string =>
  applyEdits(
    texts[file]!,
    edits.filter((e) => e.file === file),
  );

describe('mergeTouchingEdits', () => {
  it('makes adjacent removals one edit, and keeps apart what does not touch', () => {
    const edits: TextEdit[] = [
      { file: 'a', range: { start: 4, end: 6 }, newText: '' },
      { file: 'a', range: { start: 0, end: 2 }, newText: '' },
      { file: 'a', range: { start: 2, end: 4 }, newText: 'x' },
      { file: 'a', range: { start: 8, end: 9 }, newText: '' },
      { file: 'b', range: { start: 9, end: 10 }, newText: '' },
    ];
    expect(mergeTouchingEdits(edits)).toEqual([
      { file: 'a', range: { start: 0, end: 6 }, newText: 'x' },
      { file: 'a', range: { start: 8, end: 9 }, newText: '' },
      { file: 'b', range: { start: 9, end: 10 }, newText: '' },
    ]);
  });

  it('gives the text the chosen fixes give, in every file (random fixes, insertions, two files)', () => {
    const edit = fc.record({ file: fc.constantFrom('a', 'b'), start: fc.nat({ max: 30 }), length: fc.oneof(fc.constant(0), fc.nat({ max: 6 })), newText: fc.constantFrom('', 'x', 'yz') });
    fc.assert(
      fc.property(fc.array(fc.array(edit, { minLength: 1, maxLength: 2 }), { maxLength: 40 }), (fixes) => {
        const texts = { a: 'abcdefghijklmnopqrstuvwxyz0123456789', b: '0123456789abcdefghijklmnopqrstuvwxyz' };
        const findings = fixes.map((edits) =>
          makeFinding('method.input_unused', { pipe: 'p', variables: ['x'] }, 'a', { start: 0, end: 1 }, {
            fix: { title: 't', safe: true, edits: edits.map((e) => ({ file: e.file, range: { start: e.start, end: Math.min(e.start + e.length, 36) }, newText: e.newText })) },
          }),
        );
        const chosen = chooseSafeFixes(findings, () => true, true).flatMap((c) => c.fix.edits);
        const merged = mergeTouchingEdits(chosen);
        expect(merged.length).toBeLessThanOrEqual(chosen.length);
        for (const file of ['a', 'b']) expect(textOf(merged, texts, file)).toBe(textOf(chosen, texts, file));
      }),
      { numRuns: 1000 },
    );
  });
});
