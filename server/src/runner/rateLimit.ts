// Fixed-window request counting per credential (anonymous callers: per client address). The key
// table is bounded: expired windows are dropped first, then the oldest keys.

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowSeconds: number,
    private readonly maxKeys = 10_000,
  ) {}

  check(key: string, now = Date.now()): RateDecision {
    const windowMs = this.windowSeconds * 1000;
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 };
      this.windows.delete(key);
      this.windows.set(key, w);
      this.prune(now);
    }
    if (w.count >= this.limit) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)) };
    w.count++;
    return { ok: true };
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
