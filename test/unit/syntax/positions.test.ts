import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeLineStarts, lineOfOffset, lineStartsAfterEdit, offsetToPosition, positionToOffset, rangeToLspRange } from '../../../server/src/syntax/positions.js';

describe('computeLineStarts', () => {
  it('splits on \\n, \\r\\n and a lone \\r, like LSP', () => {
    expect(computeLineStarts('')).toEqual([0]);
    expect(computeLineStarts('a\nb\n')).toEqual([0, 2, 4]);
    expect(computeLineStarts('a\r\nb\r\n')).toEqual([0, 3, 6]);
    expect(computeLineStarts('a\rb\r\nc\nd')).toEqual([0, 2, 5, 7]);
    expect(computeLineStarts('\r\r\n\n')).toEqual([0, 1, 3, 4]);
  });
});

describe('offsetToPosition / positionToOffset', () => {
  it('counts characters in UTF-16 code units (an emoji is 2)', () => {
    const text = 'a = "😀x"\nb = 1';
    const ls = computeLineStarts(text);
    expect(offsetToPosition(ls, text.indexOf('x'))).toEqual({ line: 0, character: 7 });
    expect(offsetToPosition(ls, text.indexOf('b'))).toEqual({ line: 1, character: 0 });
    expect(positionToOffset(ls, text, { line: 0, character: 7 })).toBe(text.indexOf('x'));
  });

  it('handles CRLF', () => {
    const text = 'a = 1\r\nbb = 2\r\n';
    const ls = computeLineStarts(text);
    expect(offsetToPosition(ls, text.indexOf('bb'))).toEqual({ line: 1, character: 0 });
    expect(offsetToPosition(ls, text.indexOf('2'))).toEqual({ line: 1, character: 5 });
    expect(offsetToPosition(ls, text.length)).toEqual({ line: 2, character: 0 });
    // Past the end of a line: clamped before its line break.
    expect(positionToOffset(ls, text, { line: 0, character: 99 })).toBe(5);
    expect(positionToOffset(ls, text, { line: 1, character: 99 })).toBe(text.indexOf('\r', 7));
  });

  it('treats a lone \\r as a line break', () => {
    const text = 'a = 1\rb = 2';
    const ls = computeLineStarts(text);
    expect(offsetToPosition(ls, text.indexOf('b'))).toEqual({ line: 1, character: 0 });
    expect(positionToOffset(ls, text, { line: 0, character: 50 })).toBe(5);
  });

  it('clamps out-of-range input', () => {
    const text = 'ab\ncd';
    const ls = computeLineStarts(text);
    expect(offsetToPosition(ls, -5)).toEqual({ line: 0, character: 0 });
    expect(positionToOffset(ls, text, { line: -1, character: 3 })).toBe(0);
    expect(positionToOffset(ls, text, { line: 7, character: 0 })).toBe(text.length);
    expect(positionToOffset(ls, text, { line: 1, character: -3 })).toBe(3);
  });

  it('round-trips every offset that is not inside a \\r\\n', () => {
    const text = 'x = "é😀"\r\n[t]\rk = 1\n\n# end';
    const ls = computeLineStarts(text);
    for (let o = 0; o <= text.length; o++) {
      if (text[o - 1] === '\r' && text[o] === '\n') continue;
      expect(positionToOffset(ls, text, offsetToPosition(ls, o))).toBe(o);
    }
  });

  it('lineOfOffset and rangeToLspRange', () => {
    const text = 'a\nbc\nd';
    const ls = computeLineStarts(text);
    expect(lineOfOffset(ls, 0)).toBe(0);
    expect(lineOfOffset(ls, 2)).toBe(1);
    expect(lineOfOffset(ls, 4)).toBe(1);
    expect(lineOfOffset(ls, 6)).toBe(2);
    expect(rangeToLspRange(ls, { start: 3, end: 6 })).toEqual({ start: { line: 1, character: 1 }, end: { line: 2, character: 1 } });
  });
});

describe('lineStartsAfterEdit', () => {
  it('gives the line starts computeLineStarts gives, for any edit of any text (line breaks of every kind at its edges)', () => {
    const text = fc.array(fc.constantFrom('a', '\n', '\r', '\r\n', ' '), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(6), text, (before, at, del, ins) => {
        const p = at % (before.length + 1);
        const after = before.slice(0, p) + ins + before.slice(p + del);
        let head = 0;
        const shorter = Math.min(before.length, after.length);
        while (head < shorter && before[head] === after[head]) head++;
        let tail = 0;
        while (tail < shorter - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
        expect(lineStartsAfterEdit(computeLineStarts(before), before.length, after, head, tail)).toEqual(computeLineStarts(after));
      }),
      { numRuns: 3000, seed: 16 },
    );
  });
});
