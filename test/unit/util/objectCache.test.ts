import { describe, expect, it } from 'vitest';
import { ObjectCache } from '../../../server/src/util/objectCache.js';

describe('ObjectCache', () => {
  it('keeps a value per key object, as a WeakMap does', () => {
    const cache = new ObjectCache<object, number>('test');
    const a = { x: 1 };
    const b = { x: 1 };
    expect(cache.get(a)).toBeUndefined();
    expect(cache.has(a)).toBe(false);
    cache.set(a, 1).set(b, 2);
    expect(cache.get(a)).toBe(1);
    expect(cache.get(b)).toBe(2);
    cache.set(a, 3);
    expect(cache.get(a)).toBe(3);
    expect(cache.delete(a)).toBe(true);
    expect(cache.has(a)).toBe(false);
    expect(cache.delete(a)).toBe(false);
  });

  it('two caches on one key do not see each other', () => {
    const one = new ObjectCache<object, string>('one');
    const two = new ObjectCache<object, string>('two');
    const k = {};
    one.set(k, 'a');
    expect(two.get(k)).toBeUndefined();
    two.set(k, 'b');
    expect(one.get(k)).toBe('a');
  });

  it('leaves the key equal to what it was (hidden: not enumerable, not serialized)', () => {
    const cache = new ObjectCache<object, number[]>('test');
    const k = { name: 'b', items: [1, 2] };
    cache.set(k, [9]);
    expect(k).toEqual({ name: 'b', items: [1, 2] });
    expect(Object.keys(k)).toEqual(['name', 'items']);
    expect(JSON.stringify(k)).toBe('{"name":"b","items":[1,2]}');
    expect({ ...k }).toEqual({ name: 'b', items: [1, 2] });
  });

  it('stores the value on the key itself, so it dies with the key (no table of its own)', () => {
    const cache = new ObjectCache<object, string>('test');
    const k = {};
    cache.set(k, 'v');
    const own = Object.getOwnPropertySymbols(k);
    expect(own).toHaveLength(1);
    expect(Object.getOwnPropertyDescriptor(k, own[0]!)?.value).toBe('v');
  });

  it('falls back to a weak table for frozen keys', () => {
    const cache = new ObjectCache<object, string | undefined>('test');
    const frozen = Object.freeze({ a: 1 });
    cache.set(frozen, 'f');
    expect(cache.get(frozen)).toBe('f');
    expect(cache.has(frozen)).toBe(true);
    expect(cache.delete(frozen)).toBe(true);
    expect(cache.get(frozen)).toBeUndefined();
  });
});
