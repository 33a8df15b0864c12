// The line diff behind formatting edits: applying its hunks gives the new text, its edits are a
// shortest script (checked against the textbook longest common subsequence), and its memory does
// not grow with the distance (a document of blank lines once took gigabytes).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines, splitLines, type LineHunk } from '../../../server/src/format/diff.js';
import { applyEdits, formatEdits, formatText } from '../../../server/src/format/index.js';

function applyHunks(a: readonly string[], hunks: readonly LineHunk[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const h of hunks) {
    expect(h.start).toBeGreaterThanOrEqual(at);
    expect(h.end).toBeGreaterThanOrEqual(h.start);
    out.push(...a.slice(at, h.start), ...h.lines);
    at = h.end;
  }
  return [...out, ...a.slice(at)];
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    prev = row;
  }
  return prev[b.length]!;
}

describe('diffLines', () => {
  const lines = fc.array(fc.constantFrom('a\n', 'b\n', 'c\n', '\n', 'x = 1\n'), { maxLength: 40 });

  it('gives hunks that turn a into b, with as few lines changed as possible (random texts)', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const hunks = diffLines(a, b)!;
        expect(applyHunks(a, hunks)).toEqual(b);
        const changed = hunks.reduce((n, h) => n + (h.end - h.start) + h.lines.length, 0);
        expect(changed).toBe(a.length + b.length - 2 * lcsLength(a, b));
        // Hunks are separate: two touching hunks would be one.
        for (let i = 1; i < hunks.length; i++) expect(hunks[i]!.start).toBeGreaterThan(hunks[i - 1]!.end);
      }),
      { numRuns: 400, seed: 20261125 },
    );
  });

  it('gives up past its cost bound, and not before', () => {
    const a = Array.from({ length: 300 }, (_, i) => `a${i}\n`);
    const b = Array.from({ length: 300 }, (_, i) => `b${i}\n`);
    expect(diffLines(a, b, 100)).toBeUndefined();
    expect(applyHunks(a, diffLines(a, b, 600)!)).toEqual(b);
  });

  it('gives formatting edits that yield the formatted text (random documents, whole and by range)', () => {
    const line = fc.constantFrom('a=1', 'bb = "x"', 'c  =  [1,2]', '', '# note', '[t]', '[t.u]', 'key_long={ x = 1 }', '  d= true');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.nat(), fc.nat(), (lines, x, y) => {
        const text = `domain = "demo"\n${lines.join('\n')}\n`;
        const formatted = formatText(text);
        if (!formatted.ok) return;
        const all = formatEdits(text);
        expect(all.ok && applyEdits(text, all.edits)).toBe(formatted.text);
        // A range keeps a subset of the edits: applied, still text the formatter accepts.
        const start = x % (text.length + 1);
        const part = formatEdits(text, {}, { start, end: Math.min(text.length, start + (y % 40)) });
        if (part.ok) expect(formatText(applyEdits(text, part.edits)).ok).toBe(true);
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });

  it('formats 100,000 blank lines into edits that give the formatted text', () => {
    const text = `domain = "demo"\n${'\n'.repeat(100_000)}description = "x"\n${'\n'.repeat(50_000)}`;
    const formatted = formatText(text);
    expect(formatted.ok).toBe(true);
    const edits = formatEdits(text);
    expect(edits.ok && applyEdits(text, edits.edits)).toBe(formatted.ok && formatted.text);
  });

  it('diffs two long texts differing everywhere in little memory (a whole-document edit past the bound)', () => {
    const a = splitLines(Array.from({ length: 100_000 }, (_, i) => `k${i}=${i}\n`).join(''));
    const b = a.map((l) => l.replace('=', ' = '));
    const before = process.memoryUsage().arrayBuffers;
    expect(diffLines(a, b)).toBeUndefined();
    // The old diff kept a copy of its work array per step: gigabytes here.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
  });
});
