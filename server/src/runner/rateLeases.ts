// One rate-limit window per credential across the worker processes of `mthds serve --workers N`,
// without a round trip to the primary per request. The primary's RateLimiter hands a worker a
// lease: a share of what is left of the key's window, counted as used at once. The worker admits
// that many requests on its own, then asks again. When the window is spent and a worker asks, the
// primary first recalls what the other workers hold unused and hands that on, so that a credential
// is refused only once the whole limit was admitted, and never admitted past it (a worker that dies
// holding a lease only makes the window refuse early). A worker told that the window is spent
// refuses the key on its own until the window ends: nothing more can be granted in it.
//
// Before leases, every request of a rate-limited runner crossed the IPC channel twice (three
// processes' CPU for a counter).

import { RateLimiter, type Lease, type RateDecision } from './rateLimit.js';
import type { RateLimitBackend } from './sharedStores.js';

/** Primary side: leases of the primary's windows to the workers (`holder`: a worker's id). */
export class LeaseBroker {
  /** Per key, the workers handed part of its current window, with that window's end. */
  private readonly holders = new Map<string, Map<number, number>>();
  /** Per key, the lease being decided: a key's leases are decided one after the other. */
  private readonly busy = new Map<string, Promise<unknown>>();

  /**
   * `recall` asks a worker for what it holds unused of a key's lease (it holds nothing of it after
   * answering) and resolves with that count (0 when the worker is gone).
   */
  constructor(
    readonly limiter: RateLimiter,
    private readonly workers: () => number,
    private readonly recall: (holder: number, key: string) => Promise<number>,
  ) {}

  lease(holder: number, key: string): Promise<Lease> {
    const before = this.busy.get(key) ?? Promise.resolve();
    const decided = before.then(() => this.decide(holder, key));
    const settled = decided.catch(() => undefined);
    this.busy.set(key, settled);
    void settled.then(() => {
      if (this.busy.get(key) === settled) this.busy.delete(key);
    });
    return decided;
  }

  /** A worker gone: nothing is recalled from it any more. */
  forget(holder: number): void {
    for (const [key, held] of this.holders) {
      held.delete(holder);
      if (held.size === 0) this.holders.delete(key);
    }
  }

  private async decide(holder: number, key: string): Promise<Lease> {
    // Two parts per worker: a worker's lease leaves the others theirs, however the load is spread.
    const parts = 2 * Math.max(1, this.workers());
    let lease = this.limiter.lease(key, parts);
    if (lease.granted === 0) {
      const held = this.holders.get(key);
      const others = held ? [...held].filter(([h, end]) => h !== holder && end === lease.windowEnd).map(([h]) => h) : [];
      if (others.length > 0) {
        const returned = await Promise.all(others.map((h) => this.recall(h, key)));
        for (const h of others) held!.delete(h);
        this.limiter.giveBack(key, lease.windowEnd, returned.reduce((a, b) => a + b, 0));
        lease = this.limiter.lease(key, parts);
      }
    }
    if (lease.granted > 0) {
      let held = this.holders.get(key);
      if (!held) this.holders.set(key, (held = new Map()));
      held.set(holder, lease.windowEnd);
      this.prune();
    }
    return lease;
  }

  /** Keys whose windows ended hold nothing to recall. */
  private prune(): void {
    if (this.holders.size <= 10_000) return;
    const now = Date.now();
    for (const [key, held] of this.holders) {
      for (const [h, end] of held) if (end <= now) held.delete(h);
      if (held.size === 0) this.holders.delete(key);
    }
  }
}

interface Held {
  tokens: number;
  windowEnd: number;
  /** The window is spent: refused until it ends. */
  spent: boolean;
  /** The lease being asked for, with the checks waiting for it. */
  waiting?: Array<{ resolve: () => void; reject: (error: Error) => void }>;
}

/**
 * Worker side: admits from the leases it holds. `ask` sends a lease request to the primary; the
 * answer must come back through `receive` (synchronously where the message is read, so that a
 * recall read after it sees the lease) or `failed`.
 */
export class LeasedRateLimiter implements RateLimitBackend {
  private readonly held = new Map<string, Held>();

  constructor(
    readonly limit: number,
    readonly windowSeconds: number,
    private readonly ask: (key: string) => void,
  ) {}

  async check(key: string): Promise<RateDecision> {
    for (;;) {
      const now = Date.now();
      let h = this.held.get(key);
      if (h && h.waiting) {
        await new Promise<void>((resolve, reject) => h!.waiting!.push({ resolve, reject }));
        continue;
      }
      if (h && now < h.windowEnd) {
        if (h.tokens > 0) {
          h.tokens--;
          return { ok: true };
        }
        if (h.spent) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((h.windowEnd - now) / 1000)) };
      }
      if (!h) {
        h = { tokens: 0, windowEnd: 0, spent: false };
        this.held.set(key, h);
        this.prune(now);
      }
      h.waiting = [];
      const asked = new Promise<void>((resolve, reject) => h!.waiting!.push({ resolve, reject }));
      this.ask(key);
      await asked;
    }
  }

  /** The primary's answer to `ask`. */
  receive(key: string, lease: Lease): void {
    const h = this.held.get(key) ?? { tokens: 0, windowEnd: 0, spent: false };
    this.held.set(key, h);
    h.tokens = lease.granted;
    h.windowEnd = lease.windowEnd;
    h.spent = lease.granted === 0;
    this.wake(h);
  }

  /** The primary could not answer `ask`: the checks waiting for it fail. */
  failed(key: string, error: Error): void {
    const h = this.held.get(key);
    if (!h) return;
    const waiting = h.waiting ?? [];
    h.waiting = undefined;
    for (const w of waiting) w.reject(error);
  }

  /** The primary takes back what this worker holds unused of a key's lease: that count. */
  recall(key: string): number {
    const h = this.held.get(key);
    if (!h) return 0;
    const unused = h.tokens;
    h.tokens = 0;
    return unused;
  }

  private wake(h: Held): void {
    const waiting = h.waiting ?? [];
    h.waiting = undefined;
    for (const w of waiting) w.resolve();
  }

  private prune(now: number): void {
    if (this.held.size <= 10_000) return;
    for (const [key, h] of this.held) if (!h.waiting && now >= h.windowEnd) this.held.delete(key);
  }
}
