import { describe, expect, it, vi } from 'vitest';
import { lazy } from '../../../server/src/util/lazy.js';

describe('lazy', () => {
  it('makes nothing until asked, then makes the value once, even when it is undefined', () => {
    const make = vi.fn(() => ({ slots: 20_000 }));
    const value = lazy(make);
    expect(make).not.toHaveBeenCalled();
    const first = value();
    expect(value()).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
    const none = vi.fn(() => undefined);
    const empty = lazy(none);
    empty();
    empty();
    expect(none).toHaveBeenCalledTimes(1);
  });
});
