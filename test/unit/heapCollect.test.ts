// heap.ts `collectNow`: a full collection on request, without a `gc` global in the process's own
// context (it is reached through a context of its own); and when the language server runs it at
// the end of start-up.

import { describe, expect, it } from 'vitest';
import { collectNow, heapForBurst, LONG_LIVED_HEAP_GROWING_PERCENT, MAX_COLLECTED_HEAP_BYTES, QUIET_BEFORE_COLLECT_MS, startupCollection, tuneHeap } from '../../server/src/heap.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('collectNow', () => {
  it('collects an object no longer referenced, and adds no global', async () => {
    const hadGc = 'gc' in globalThis;
    let held: object | undefined = { payload: new Array(1000).fill(1) };
    const ref = new WeakRef(held);
    held = undefined;
    // A WeakRef keeps its target until the end of the job that made or read it.
    await turn();
    expect(collectNow()).toBe(true);
    await turn();
    expect(ref.deref()).toBeUndefined();
    expect('gc' in globalThis).toBe(hadGc);
  });
});

describe('the collection at the end of start-up', () => {
  it('runs when no document changed for a second and the heap is within the bound', () => {
    expect(startupCollection(Infinity, 200 * 2 ** 20)).toBe('collect');
    expect(startupCollection(QUIET_BEFORE_COLLECT_MS, MAX_COLLECTED_HEAP_BYTES)).toBe('collect');
    expect(startupCollection(QUIET_BEFORE_COLLECT_MS - 1, 10 * 2 ** 20)).toBe('typing');
    expect(startupCollection(Infinity, MAX_COLLECTED_HEAP_BYTES + 1)).toBe('too large');
  });
});

describe('the heap during a burst of work', () => {
  it("leaves V8's own growth alone before start-up ends, then gives it for the burst and sets the long-lived factor back", () => {
    // Nothing in this file ran `tuneHeap` before (each test file has its own modules).
    const flags: string[] = [];
    const set = (f: string): void => void flags.push(f);
    heapForBurst(set)();
    expect(flags).toEqual([]);
    tuneHeap(set);
    const end = heapForBurst(set);
    expect(flags).toEqual([`--heap-growing-percent=${LONG_LIVED_HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0']);
    end();
    expect(flags.at(-1)).toBe(`--heap-growing-percent=${LONG_LIVED_HEAP_GROWING_PERCENT}`);
  });
});
