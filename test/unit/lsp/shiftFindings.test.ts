// Findings of an older text carried over to the current one: moved past the edit, or left out
// when they touch it, so that every range holds in the current text.

import { describe, expect, it } from 'vitest';
import { makeFinding, type Finding } from '../../../server/src/check/finding.js';
import { changeBetween, shiftFindings, shiftRange } from '../../../server/src/lsp/shiftFindings.js';

const at = (text: string, word: string): { start: number; end: number } => {
  const start = text.indexOf(word);
  return { start, end: start + word.length };
};

describe('carrying findings over to the current text', () => {
  it('finds the one region two texts differ in', () => {
    expect(changeBetween('abc', 'abc')).toBeUndefined();
    expect(changeBetween('abcdef', 'abXYdef')).toEqual({ start: 2, oldEnd: 3, newEnd: 4 });
    expect(changeBetween('abc', 'xabc')).toEqual({ start: 0, oldEnd: 0, newEnd: 1 });
    expect(changeBetween('abc', 'ab')).toEqual({ start: 2, oldEnd: 3, newEnd: 2 });
  });

  it('finds it in long texts as a character-by-character comparison does, the edit anywhere', () => {
    // The reference: the common prefix, then the common suffix of what is left.
    const naive = (a: string, b: string): { start: number; oldEnd: number; newEnd: number } => {
      const shorter = Math.min(a.length, b.length);
      let start = 0;
      while (start < shorter && a[start] === b[start]) start++;
      let tail = 0;
      while (tail < shorter - start && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
      return { start, oldEnd: a.length - tail, newEnd: b.length - tail };
    };
    let seed = 7;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let round = 0; round < 300; round++) {
      // Repetitive text, so that a shifted block may compare equal by chance.
      const before = Array.from({ length: random(6000) }, () => 'ab\n'[random(3)]).join('');
      const at = random(before.length + 1);
      const removed = random(Math.min(3000, before.length - at) + 1);
      const inserted = Array.from({ length: random(3000) }, () => 'abx'[random(3)]).join('');
      const after = before.slice(0, at) + inserted + before.slice(at + removed);
      const found = changeBetween(before, after);
      if (before === after) expect(found).toBeUndefined();
      else expect(found).toEqual(naive(before, after));
    }
  });

  it('moves ranges after the change, keeps those before, and leaves out those touching it', () => {
    const change = { start: 10, oldEnd: 12, newEnd: 15 };
    expect(shiftRange({ start: 2, end: 5 }, change)).toEqual({ start: 2, end: 5 });
    expect(shiftRange({ start: 20, end: 25 }, change)).toEqual({ start: 23, end: 28 });
    expect(shiftRange({ start: 8, end: 10 }, change)).toBeUndefined();
    expect(shiftRange({ start: 12, end: 14 }, change)).toBeUndefined();
    expect(shiftRange({ start: 11, end: 11 }, change)).toBeUndefined();
  });

  it('moves findings, related locations and fixes, in the changed file only', () => {
    const before = 'domain = "d"\n[pipe.a]\ntype = "PipeLMM"\n[pipe.b]\ntype = "PipeFnuc"\n';
    const after = `# a note\n${before}`;
    const other = '/other.mthds';
    const wrong = (word: string, right: string): Finding =>
      makeFinding('method.pipe_type_invalid', { reason: 'unknown' }, '/a.mthds', at(before, word), {
        fix: { title: `use ${right}`, edits: [{ file: '/a.mthds', range: at(before, word), newText: right }], safe: true },
        related: [{ file: other, range: { start: 3, end: 4 }, message: 'elsewhere' }],
      });
    const first = wrong('PipeLMM', 'PipeLLM');
    const second = wrong('PipeFnuc', 'PipeFunc');
    const elsewhere = makeFinding('method.pipe_unresolved', { ref: 'x' }, other, { start: 3, end: 4 });
    const change = changeBetween(before, after)!;
    const carried = shiftFindings([first, second, elsewhere], new Map([['/a.mthds', change]]));
    // Both findings of the file are past the change: each range, and its fix's, reads the same word now.
    expect(carried.map((f) => (f.file === '/a.mthds' ? after.slice(f.range.start, f.range.end) : f.file))).toEqual(['PipeLMM', 'PipeFnuc', other]);
    expect(carried.map((f) => f.fix && after.slice(f.fix.edits[0]!.range.start, f.fix.edits[0]!.range.end))).toEqual(['PipeLMM', 'PipeFnuc', undefined]);
    expect(carried[0]!.related).toEqual(first.related);
    expect(carried[2]).toEqual(elsewhere);
    // Edits on both sides of a finding make one region: the finding is inside, and left out.
    const both = `# a note\n${before.replace('[pipe.b]', '[pipe.bb]')}`;
    expect(shiftFindings([first, second], new Map([['/a.mthds', changeBetween(before, both)!]])).map((f) => both.slice(f.range.start, f.range.end))).toEqual(['PipeFnuc']);
    // A finding the edit touches is left out; the originals are not changed.
    const typed = before.replace('PipeLMM', 'PipeLLM');
    const left = shiftFindings([first, second], new Map([['/a.mthds', changeBetween(before, typed)!]]));
    expect(left.map((f) => typed.slice(f.range.start, f.range.end))).toEqual(['PipeFnuc']);
    expect(before.slice(first.range.start, first.range.end)).toBe('PipeLMM');
  });

  it('drops a fix whose edit touches the change but keeps its finding', () => {
    const before = 'abc def ghi';
    const f = makeFinding('method.pipe_unresolved', { ref: 'ghi' }, '/a.mthds', at(before, 'ghi'), {
      fix: { title: 't', edits: [{ file: '/a.mthds', range: at(before, 'def'), newText: 'x' }], safe: true },
    });
    const after = before.replace('def', 'deff');
    const [moved] = shiftFindings([f], new Map([['/a.mthds', changeBetween(before, after)!]]));
    expect(after.slice(moved!.range.start, moved!.range.end)).toBe('ghi');
    expect(moved!.fix).toBeUndefined();
  });
});
