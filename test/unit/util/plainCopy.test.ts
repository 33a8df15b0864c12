// plainCopy: the copy a spread makes, member for member, whatever the value holds.

import { describe, expect, it } from 'vitest';
import { plainCopy } from '../../../server/src/util/plainCopy.js';

describe('plainCopy', () => {
  it('copies own enumerable members in order, symbols included, as a spread does', () => {
    const sym = Symbol('s');
    const source: Record<string | symbol, unknown> = { b: 1, a: { deep: true }, 2: 'two', 1: 'one', [sym]: 'sym' };
    Object.defineProperty(source, 'hidden', { value: 1, enumerable: false });
    const copy = plainCopy(source);
    expect(copy).not.toBe(source);
    expect(Reflect.ownKeys(copy)).toEqual(Reflect.ownKeys({ ...source }));
    expect(copy['a']).toBe(source['a']);
    expect(copy[sym]).toBe('sym');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('keeps an own __proto__ member as a member, never as the prototype', () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "text": "x"}') as Record<string, unknown>;
    const copy = plainCopy(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Reflect.ownKeys(copy)).toEqual(['__proto__', 'text']);
  });
});
