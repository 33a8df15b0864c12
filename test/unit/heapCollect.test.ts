// heap.ts `collectNow`: a full collection on request, without a `gc` global in the process's own
// context (it is reached through a context of its own); and when the language server runs it at
// the end of start-up; `collectConcurrently`: V8's own marking asked for, and waited for.

import { describe, expect, it } from 'vitest';
import { collectConcurrently, collectNow, heapForBurst, LONG_LIVED_HEAP_GROWING_PERCENT, MARK_AT_LIMIT, MARK_NOW, MAX_COLLECTED_HEAP_BYTES, QUIET_BEFORE_COLLECT_MS, startupCollection, tuneHeap, type GcKind } from '../../server/src/heap.js';

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

describe('collectConcurrently', () => {
  /** A collector whose events the test sends. */
  function fakeCollector(): { flags: string[]; send: (kind: GcKind) => void; listening: () => boolean; collected: () => number; run: ReturnType<typeof collectConcurrently> } {
    const flags: string[] = [];
    let listener: ((kind: GcKind) => void) | undefined;
    let collected = 0;
    const run = collectConcurrently(
      (f) => void flags.push(f),
      (on) => {
        listener = on;
        return () => (listener = undefined);
      },
      () => (collected += 1) > 0,
    );
    return { flags, send: (kind) => listener?.(kind), listening: () => listener !== undefined, collected: () => collected, run };
  }

  it('asks V8 to mark now, sets the trigger back once marking has begun, and ends with the collection after it', async () => {
    const c = fakeCollector();
    expect(c.flags).toEqual([MARK_NOW]);
    // A collection ending that began before the call is not the one asked for.
    c.send('major');
    c.send('incremental');
    expect(c.flags).toEqual([MARK_NOW, MARK_AT_LIMIT]);
    let how: string | undefined;
    void c.run.end().then((h) => (how = h));
    await turn();
    expect(how).toBeUndefined();
    c.send('other');
    c.send('major');
    await turn();
    expect(how).toBe('concurrently');
    expect(c.collected()).toBe(0);
    expect(c.listening()).toBe(false);
    expect(c.flags.at(-1)).toBe(MARK_AT_LIMIT);
  });

  it('collects at once when it is ended before V8 began marking', async () => {
    const c = fakeCollector();
    await expect(c.run.end()).resolves.toBe('at once');
    expect(c.collected()).toBe(1);
    expect(c.listening()).toBe(false);
    expect(c.flags).toEqual([MARK_NOW, MARK_AT_LIMIT]);
    // Later events change nothing.
    c.send('incremental');
    c.send('major');
    expect(c.collected()).toBe(1);
  });

  it('is made by V8 concurrently in this Node, once the program allocates', async () => {
    const run = collectConcurrently();
    // V8 begins the marking asked for where the program allocates.
    let junk: string[][] = [];
    for (let i = 0; i < 200; i++) {
      junk.push(Array.from({ length: 5000 }, (_, k) => `${i}:${k}`));
      if (junk.length > 20) junk = junk.slice(1);
      await turn();
    }
    await expect(run.end()).resolves.toBe('concurrently');
  });
});
