import { describe, expect, it } from 'vitest';
import { runInSlices, runSlice, runSteps } from '../../../server/src/util/steps.js';

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

  it('runSlice also ends at the first pause where `enough` holds', () => {
    const seen: number[] = [];
    const steps = counting(5, seen);
    expect(runSlice(steps, performance.now() + 60_000, () => seen.length >= 2)).toBeUndefined();
    expect(seen).toEqual([0, 1]);
  });

  it('runSlice gives what a generator returns at once, undefined included', () => {
    function* none(): Generator<void, undefined> {
      return undefined;
    }
    expect(runSlice(none(), 0)).toEqual({ value: undefined });
  });

  it('runInSlices pauses between slices and gives what the steps returned; a throwing step rejects', async () => {
    const seen: number[] = [];
    let pauses = 0;
    const pause = async (): Promise<void> => {
      pauses += 1;
    };
    // Slices of 0 ms: one step each, so three steps are three slices with a pause after each but the last.
    expect(await runInSlices(counting(3, seen), 0, pause)).toBe('done after 3');
    expect(seen).toEqual([0, 1, 2]);
    expect(pauses).toBe(3);
    function* failing(): Generator<void, never> {
      yield;
      throw new Error('step failed');
    }
    await expect(runInSlices(failing(), 0, pause)).rejects.toThrow('step failed');
  });
});
