// Work made ahead at idle: it starts only once the messages queued meanwhile are handled and no
// check is due, runs in slices, and a change (cancel) or a newer start stops it at its next pause.

import { describe, expect, it } from 'vitest';
import { IdleWork } from '../../../server/src/lsp/idleWork.js';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** `n` steps of `ms` each, recording which ran. */
function* steps(ran: number[], n: number, ms: number): Generator<void, void> {
  for (let i = 0; i < n; i++) {
    spin(ms);
    ran.push(i);
    yield;
  }
}

describe('idle work', () => {
  it('runs every step, in slices that yield to the event loop', async () => {
    const ran: number[] = [];
    let pauses = 0;
    const work = new IdleWork(async () => {
      pauses += 1;
      await turn();
    }, 2);
    expect(await work.run(() => steps(ran, 20, 0.5), () => false)).toBe(true);
    expect(ran).toHaveLength(20);
    // One pause before the first step, then one per slice of 2 ms (10 ms of steps).
    expect(pauses).toBeGreaterThanOrEqual(4);
  });

  it('runs the slices of a given length when asked (a document just opened: shorter slices)', async () => {
    const ran: number[] = [];
    let pauses = 0;
    const work = new IdleWork(async () => {
      pauses += 1;
      await turn();
    }, 50);
    expect(await work.run(() => steps(ran, 20, 0.5), () => false, 0, 1)).toBe(true);
    expect(ran).toHaveLength(20);
    // 10 ms of steps in slices of 1 ms (two steps at most each): at least ten pauses, where the
    // constructor's 50 ms would have made one.
    expect(pauses).toBeGreaterThanOrEqual(10);
  });

  it('does not start while busy (a check due or running), and stops when it becomes busy', async () => {
    const ran: number[] = [];
    const work = new IdleWork(turn, 1);
    expect(await work.run(() => steps(ran, 5, 0), () => true)).toBe(false);
    expect(ran).toEqual([]);
    let busy = false;
    const running = work.run(() => steps(ran, 100, 0.5), () => busy);
    await turn();
    await turn();
    busy = true;
    expect(await running).toBe(false);
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.length).toBeLessThan(100);
  });

  it('is cancelled by a change at its next pause, and replaced by a newer start', async () => {
    const first: number[] = [];
    const work = new IdleWork(turn, 1);
    const running = work.run(() => steps(first, 100, 0.5), () => false);
    await turn();
    await turn();
    work.cancel();
    expect(await running).toBe(false);
    const stoppedAt = first.length;
    expect(stoppedAt).toBeLessThan(100);
    // A newer start stops the older one; only the newer runs on.
    const older: number[] = [];
    const newer: number[] = [];
    const a = work.run(() => steps(older, 100, 0.5), () => false);
    await turn();
    await turn();
    const b = work.run(() => steps(newer, 10, 0), () => false);
    expect(await a).toBe(false);
    expect(await b).toBe(true);
    expect(newer).toHaveLength(10);
    expect(first).toHaveLength(stoppedAt);
  });

  it('waits for a quiet delay when asked, and a change meanwhile cancels it before any step', async () => {
    const ran: number[] = [];
    const work = new IdleWork(turn, 1);
    const t0 = performance.now();
    expect(await work.run(() => steps(ran, 3, 0), () => false, 30)).toBe(true);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
    const later: number[] = [];
    const pending = work.run(() => steps(later, 3, 0), () => false, 30);
    await new Promise((r) => setTimeout(r, 5));
    work.cancel();
    expect(await pending).toBe(false);
    expect(later).toEqual([]);
  });
});
