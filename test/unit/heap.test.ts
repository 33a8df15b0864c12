// The language server's collection when idle (server/src/heap.ts): after the heap grew, once the
// event loop has been idle long enough, one collection that gives the committed heap back; none
// while the event loop is busy, and none again until the heap grows again.

import v8 from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { startIdleCollection } from '../../server/src/heap.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const committed = (): number => v8.getHeapStatistics().total_heap_size;

/** Makes the committed heap grow by tens of MB, all of it garbage once this returns. */
function burst(): number {
  let garbage: Array<{ i: number; s: string }> | undefined = [];
  for (let i = 0; i < 600_000; i++) garbage.push({ i, s: `item ${i}` });
  const n = garbage.length;
  garbage = undefined;
  return n;
}

/** Keeps the event loop busy (a check in slices does so) for `ms`. */
async function busyFor(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const slice = performance.now() + 15;
    while (performance.now() < slice);
    await new Promise((r) => setImmediate(r));
  }
}

type Collected = { before: number; after: number; ms: number };
let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('idle collection', () => {
  it('gives back the heap a burst of work grew, once the event loop has been idle', async () => {
    const collected: Collected[] = [];
    stop = startIdleCollection({ sampleMs: 20, idleMs: 100, growth: 0.1, onCollected: (r) => collected.push(r) });
    const start = committed();
    burst();
    expect(committed()).toBeGreaterThan(start * 1.1);
    for (let t = 0; t < 100 && collected.length === 0; t++) await sleep(20);
    expect(collected).toHaveLength(1);
    expect(collected[0]!.after).toBeLessThan(collected[0]!.before * 0.8);
    expect(committed()).toBeLessThan(collected[0]!.before * 0.8);
    // The heap has not grown since: no other collection, however long the process stays idle.
    await sleep(500);
    expect(collected).toHaveLength(1);
  });

  it('never collects while the event loop is busy', async () => {
    const collected: Collected[] = [];
    stop = startIdleCollection({ sampleMs: 20, idleMs: 100, growth: 0.1, onCollected: (r) => collected.push(r) });
    burst();
    await busyFor(600);
    expect(collected).toHaveLength(0);
    for (let t = 0; t < 100 && collected.length === 0; t++) await sleep(20);
    expect(collected).toHaveLength(1);
  });

  it('does not collect when the heap has not grown', async () => {
    const collected: Collected[] = [];
    stop = startIdleCollection({ sampleMs: 20, idleMs: 100, growth: 0.1, onCollected: (r) => collected.push(r) });
    await sleep(600);
    expect(collected).toHaveLength(0);
  });
});
