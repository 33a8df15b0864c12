// heap.ts `collectNow`: a full collection on request, without a `gc` global in the process's own
// context (it is reached through a context of its own).

import { describe, expect, it } from 'vitest';
import { collectNow } from '../../server/src/heap.js';

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
