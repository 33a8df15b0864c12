import { describe, expect, it } from 'vitest';
import { runSlice, runSteps } from '../../../server/src/util/steps.js';

function* counting(n: number, seen: number[]): Generator<void, string> {
  for (let i = 0; i < n; i++) {
    seen.push(i);
    yield;
  }
  return `done after ${n}`;
}

describe('steps', () => {
  it('runSteps runs to the end', () => {
    const seen: number[] = [];
    expect(runSteps(counting(5, seen))).toBe('done after 5');
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('runSlice runs at least one step past its deadline, then leaves the rest for the next slice', () => {
    const seen: number[] = [];
    const steps = counting(3, seen);
    expect(runSlice(steps, 0)).toBeUndefined();
    expect(seen).toEqual([0]);
    expect(runSlice(steps, performance.now() + 60_000)).toEqual({ value: 'done after 3' });
    expect(seen).toEqual([0, 1, 2]);
  });

  it('runSlice gives what a generator returns at once, undefined included', () => {
    function* none(): Generator<void, undefined> {
      return undefined;
    }
    expect(runSlice(none(), 0)).toEqual({ value: undefined });
  });
});
