// Choosing and applying safe fixes (`mthds check --fix`): one per finding, overlapping and
// cross-file fixes left out, edits applied back to front.

import { describe, expect, it } from 'vitest';
import { applyEdits, chooseSafeFixes } from '../../../server/src/check/applyFixes.js';
import { makeFinding, type Fix } from '../../../server/src/check/finding.js';

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
