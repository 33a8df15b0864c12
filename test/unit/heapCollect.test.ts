// heap.ts `collectNow`: a full collection on request, without a `gc` global in the process's own
// context (it is reached through a context of its own); and when the language server runs it at
// the end of start-up.

import { describe, expect, it } from 'vitest';
import { collectNow, MAX_COLLECTED_HEAP_BYTES, QUIET_BEFORE_COLLECT_MS, startupCollection } from '../../server/src/heap.js';

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
