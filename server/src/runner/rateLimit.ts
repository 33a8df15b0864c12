// Fixed-window request counting per credential (anonymous callers: per client address). The key
// table is bounded: expired windows are dropped first, then the oldest keys.
//
// Several serving processes count one window through leases (rateLeases.ts): the process holding
// the windows hands a worker a share of what is left of a key's window, counted at once, and takes
// back what the worker did not use.

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Requests of a key's current window handed to a worker: `granted` (0: the window is spent) until `windowEnd` (epoch ms). */
export interface Lease {
  granted: number;
  windowEnd: number;
  retryAfterSeconds: number;
}

/** The most a lease holds: a worker that stops receiving a key's requests keeps at most this many from the others until they are recalled. */
export const MAX_LEASE = 64;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowSeconds: number,
    private readonly maxKeys = 10_000,
  ) {}

  check(key: string, now = Date.now()): RateDecision {
    const w = this.window(key, now);
    if (w.count >= this.limit) return { ok: false, retryAfterSeconds: this.retryAfter(w, now) };
    w.count++;
    return { ok: true };
  }

  /**
   * Counts up to a `1 / parts` share of what is left of the key's window (at least one request
   * while any is left, at most MAX_LEASE) as used, for a worker to admit on its own.
   */
  lease(key: string, parts: number, now = Date.now()): Lease {
    const w = this.window(key, now);
    const left = this.limit - w.count;
    const granted = left <= 0 ? 0 : Math.min(left, MAX_LEASE, Math.max(1, Math.floor(left / parts)));
    w.count += granted;
    return { granted, windowEnd: w.start + this.windowSeconds * 1000, retryAfterSeconds: this.retryAfter(w, now) };
  }

  /** Takes back `count` requests of a lease that were not used, if its window still runs. */
  giveBack(key: string, windowEnd: number, count: number, now = Date.now()): void {
    const w = this.windows.get(key);
    if (!w || now >= windowEnd || w.start + this.windowSeconds * 1000 !== windowEnd) return;
    w.count = Math.max(0, w.count - count);
  }

  private window(key: string, now: number): { start: number; count: number } {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowSeconds * 1000) {
      w = { start: now, count: 0 };
      this.windows.delete(key);
      this.windows.set(key, w);
      this.prune(now);
    }
    return w;
  }

  private retryAfter(w: { start: number }, now: number): number {
    return Math.max(1, Math.ceil((w.start + this.windowSeconds * 1000 - now) / 1000));
  }

  private prune(now: number): void {
    if (this.windows.size <= this.maxKeys) return;
    const windowMs = this.windowSeconds * 1000;
    for (const [k, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(k);
    }
  }
}
