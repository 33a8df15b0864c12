// The state of a runner that must be one across the processes serving it: idempotency keys (one
// key stands for one request, whichever process receives it), rate-limit windows (a limit is per
// credential, not per process) and started runs (a run is read through any process). A single process keeps them in its own memory (IdempotencyStore,
// RateLimiter); the workers of `mthds serve --workers N` reach the primary's over IPC
// (runner/cluster.ts); a store shared by several hosts plugs in by implementing these interfaces.

import type { Answer } from './http/respond.js';
import { IdempotencyStore, type Admission } from './idempotency.js';
import { RateLimiter, type RateDecision } from './rateLimit.js';
import type { ResolvedConfig } from './config.js';
import type { RunStore } from './lifecycle/store.js';

export interface IdempotencyBackend {
  /** Decides what to do with a request; a 'new' admission reserves the key until complete/abandon. */
  admit(key: string, digest: string): Admission | Promise<Admission>;
  complete(key: string, digest: string, answer: Answer): void | Promise<void>;
  /** Forgets a key whose request failed on the runner's side, so that it can be repeated. */
  abandon(key: string): void | Promise<void>;
  /** Extends the short lease of a key whose request is still running (IN_FLIGHT_LEASE_MS). */
  renew(key: string, digest: string): void | Promise<void>;
}

export interface RateLimitBackend {
  readonly limit: number;
  readonly windowSeconds: number;
  check(key: string): RateDecision | Promise<RateDecision>;
}

export interface SharedStores {
  idempotency: IdempotencyBackend;
  /** Absent: no rate limit configured. */
  rateLimiter?: RateLimitBackend;
  /** The store of started runs; absent: the process keeps its own (the embedded queue's). */
  runs?: RunStore;
}

/** The stores of one process, in its memory. */
export function localStores(config: ResolvedConfig): SharedStores {
  const stores: SharedStores = { idempotency: new IdempotencyStore(config.idempotency) };
  if (config.rateLimit) stores.rateLimiter = new RateLimiter(config.rateLimit.limit, config.rateLimit.windowSeconds);
  return stores;
}
