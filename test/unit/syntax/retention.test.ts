// A parse's result must not keep a map of its own: an object literal with a getter gets one per
// object in V8, in the old generation, and that map held the getter's closure and through it the
// whole tree of every dead parse as a root of each young-generation collection (measured: ~25 MB of
// dead trees survived each scavenge of a keystroke loop on a 2,000-line bundle, 0.5 MB after).
// Proxy that can be asserted without V8 natives: `lineStarts` is read through a getter shared by
// all results, not one defined on each of them.

import { describe, expect, it } from 'vitest';
import { parseToml } from '../../../server/src/syntax/document.js';
import { parseTomlSyntax } from '../../../server/src/syntax/parser.js';

const TEXT = 'a = 1\n[t]\nb = "x"\n';

describe('parse results share their shape', () => {
  it('parseToml: lineStarts is a shared getter, not an own accessor of each document', () => {
    const one = parseToml(TEXT);
    const two = parseToml(TEXT + 'c = 2\n');
    expect(Object.getOwnPropertyDescriptor(one, 'lineStarts')).toBeUndefined();
    expect(Object.getPrototypeOf(one)).toBe(Object.getPrototypeOf(two));
    expect(one.lineStarts).toEqual([0, 6, 10, 18]);
    expect(two.lineStarts).toEqual([0, 6, 10, 18, 24]);
    expect(one.lineStarts).toBe(one.lineStarts);
  });

  it('parseTomlSyntax: the same', () => {
    const one = parseTomlSyntax(TEXT);
    const two = parseTomlSyntax('x = [\n');
    expect(Object.getOwnPropertyDescriptor(one, 'lineStarts')).toBeUndefined();
    expect(Object.getPrototypeOf(one)).toBe(Object.getPrototypeOf(two));
    expect(one.lineStarts).toEqual([0, 6, 10, 18]);
    expect(two.errors.length).toBeGreaterThan(0);
    expect(two.lineStarts).toEqual([0, 6]);
  });
});
