// Rate limits across worker processes by leases: the primary's windows handed out in shares, taken
// back when another worker needs them. The workers and the primary talk through ordered channels
// here (one message per event-loop turn, in order), as over the cluster's IPC channel.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeaseBroker, LeasedRateLimiter } from '../../../server/src/runner/rateLeases.js';
import { MAX_LEASE, RateLimiter } from '../../../server/src/runner/rateLimit.js';

/** `workers` leased limiters over one primary; `asks[i]`: lease requests worker i sent. */
function cluster(limit: number, windowSeconds: number, workers: number) {
  const limiter = new RateLimiter(limit, windowSeconds);
  const deliver = (fn: () => void): void => void setImmediate(fn);
  const asks = new Array<number>(workers).fill(0);
  const recalls = new Array<number>(workers).fill(0);
  const alive = new Array<boolean>(workers).fill(true);
  const ws: LeasedRateLimiter[] = [];
  const broker = new LeaseBroker(
    limiter,
    () => alive.filter(Boolean).length,
    (holder, key) =>
      new Promise<number>((resolve) => {
        if (!alive[holder]) return resolve(0);
        recalls[holder]!++;
        deliver(() => {
          const unused = ws[holder]!.recall(key);
          deliver(() => resolve(unused));
        });
      }),
  );
  for (let i = 0; i < workers; i++) {
    ws.push(
      new LeasedRateLimiter(limit, windowSeconds, (key) => {
        asks[i]!++;
        deliver(() => void broker.lease(i, key).then((lease) => deliver(() => ws[i]!.receive(key, lease))));
      }),
    );
  }
  const kill = (i: number): void => {
    alive[i] = false;
    broker.forget(i);
  };
  return { limiter, ws, asks, recalls, kill };
}

/** A deterministic sequence in [0, n). */
function picks(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

async function admitted(decisions: Array<Promise<{ ok: boolean }>>): Promise<number> {
  return (await Promise.all(decisions)).filter((d) => d.ok).length;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RateLimiter leases', () => {
  it('hands a share of what is left, at least one while any is left, at most MAX_LEASE, counted at once', () => {
    const limiter = new RateLimiter(100, 10);
    expect(limiter.lease('k', 4, 0)).toEqual({ granted: 25, windowEnd: 10_000, retryAfterSeconds: 10 });
    expect(limiter.lease('k', 4, 1000).granted).toBe(18); // floor(75 / 4)
    for (let i = 0; i < 20; i++) limiter.lease('k', 4, 2000);
    expect(limiter.check('k', 2000).ok).toBe(false);
    expect(limiter.lease('k', 4, 2000)).toEqual({ granted: 0, windowEnd: 10_000, retryAfterSeconds: 8 });
    expect(new RateLimiter(10_000, 10).lease('k', 2, 0).granted).toBe(MAX_LEASE);
    expect(new RateLimiter(3, 10).lease('k', 8, 0).granted).toBe(1);
  });

  it('takes back what was not used, only within the lease window', () => {
    const limiter = new RateLimiter(4, 10);
    const lease = limiter.lease('k', 1, 0);
    expect(lease.granted).toBe(4);
    limiter.giveBack('k', lease.windowEnd, 3, 5000);
    expect(limiter.lease('k', 1, 5000).granted).toBe(3);
    // A lease of an ended window gives nothing back to the next one.
    const later = limiter.lease('k', 1, 12_000);
    expect(later.granted).toBe(4);
    limiter.giveBack('k', lease.windowEnd, 4, 12_500);
    expect(limiter.lease('k', 1, 12_500).granted).toBe(0);
  });
});

describe('leased rate limits across workers', () => {
  it('admits exactly the limit per window however the requests are spread, and crosses to the primary far less than once per request', async () => {
    for (const [limit, workers, requests, seed] of [
      [12, 3, 40, 1],
      [1000, 2, 1500, 2],
      [7, 4, 7, 3],
      [300, 8, 900, 4],
    ] as const) {
      const c = cluster(limit, 600, workers);
      const pick = picks(seed);
      // Arrivals in bursts: some checks wait on a lease being asked for.
      const decisions: Array<Promise<{ ok: boolean }>> = [];
      for (let i = 0; i < requests; i++) {
        decisions.push(c.ws[pick(workers)]!.check('cred'));
        if (pick(5) === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await admitted(decisions)).toBe(Math.min(limit, requests));
      if (limit >= 300) expect(c.asks.reduce((a, b) => a + b, 0)).toBeLessThan(limit / 4);
    }
  });

  it('recalls what an idle worker holds, so that the busy one reaches the limit', async () => {
    const c = cluster(40, 600, 2);
    // Worker 0 takes a lease (a quarter of the window) and uses one request of it.
    expect((await c.ws[0]!.check('cred')).ok).toBe(true);
    // Worker 1 alone receives the rest.
    const rest = await admitted(Array.from({ length: 60 }, () => c.ws[1]!.check('cred')));
    expect(rest).toBe(39);
    expect(c.recalls[0]).toBeGreaterThan(0);
    // Worker 0 gave its lease back: the window is spent for it too.
    expect((await c.ws[0]!.check('cred')).ok).toBe(false);
  });

  it('keeps keys apart, refuses with the time left, and refuses without asking once the window is spent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const c = cluster(3, 10, 2);
    expect(await admitted([0, 1, 0, 1, 0].map((i) => c.ws[i]!.check('a')))).toBe(3);
    expect(await admitted([0, 1].map((i) => c.ws[i]!.check('b')))).toBe(2);
    vi.setSystemTime(1_004_200);
    const asked = c.asks.reduce((a, b) => a + b, 0);
    expect(await c.ws[0]!.check('a')).toEqual({ ok: false, retryAfterSeconds: 6 });
    expect(await c.ws[1]!.check('a')).toEqual({ ok: false, retryAfterSeconds: 6 });
    expect(c.asks.reduce((a, b) => a + b, 0)).toBe(asked);
    // The next window admits the limit again.
    vi.setSystemTime(1_010_000);
    expect(await admitted([1, 0, 1, 0].map((i) => c.ws[i]!.check('a')))).toBe(3);
  });

  it('never admits past the limit when a worker holding a lease is gone (it only refuses early)', async () => {
    const c = cluster(20, 600, 2);
    expect((await c.ws[0]!.check('cred')).ok).toBe(true);
    c.kill(0);
    const rest = await admitted(Array.from({ length: 40 }, () => c.ws[1]!.check('cred')));
    // Worker 0 held a lease of 5 (20 / 4), one used: the other 4 are lost with it.
    expect(rest).toBe(15);
  });

  it('fails the waiting checks when the primary cannot answer', async () => {
    let fail: (() => void) | undefined;
    const w: LeasedRateLimiter = new LeasedRateLimiter(5, 10, (key) => {
      fail = () => w.failed(key, new Error('the primary process is gone'));
    });
    const checks = [w.check('k'), w.check('k')];
    await new Promise((resolve) => setImmediate(resolve));
    fail!();
    for (const check of checks) await expect(check).rejects.toThrow('the primary process is gone');
  });
});
