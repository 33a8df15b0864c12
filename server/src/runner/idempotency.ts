// Idempotency keys (the Idempotency-Key header on /execute and /start): one key stands for one
// request. The store remembers, per key, the digest of the body and the answer, bounded in entries
// (least recently used evicted) and in time (TTL). An answer too large to keep leaves only its
// digest behind, so that a replay is refused (request.already_executed) rather than run twice.
// A key in flight is held by a short lease its request renews while it runs (IN_FLIGHT_LEASE_MS):
// a request whose process died, or whose answer told the client to retry without freeing the key
// (the store itself was unreachable), leaves the key free again within the lease, never for the
// whole TTL.

import type { Answer } from './http/respond.js';

type Entry =
  | { digest: string; state: 'in_flight'; expiresAt: number }
  | { digest: string; state: 'done'; expiresAt: number; answer?: Answer };

export type Admission =
  | { kind: 'new' }
  | { kind: 'replay'; answer: Answer }
  | { kind: 'conflict' }
  | { kind: 'in_flight' }
  | { kind: 'already_executed' };

/** How long a key in flight stays reserved without its request renewing it. */
export const IN_FLIGHT_LEASE_MS = 5_000;
/** How often a request in flight renews its key (a few renewals fit in one lease). */
export const IN_FLIGHT_RENEW_MS = 1_500;

export interface IdempotencyLimits {
  maxEntries: number;
  ttlSeconds: number;
  maxAnswerBytes: number;
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly limits: IdempotencyLimits) {}

  /** Decides what to do with a request; a 'new' admission reserves the key until complete/abandon. */
  admit(key: string, digest: string, now = Date.now()): Admission {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= now) this.entries.delete(key);
    else if (entry) {
      // Touch: most recently used last.
      this.entries.delete(key);
      this.entries.set(key, entry);
      if (entry.digest !== digest) return { kind: 'conflict' };
      if (entry.state === 'in_flight') return { kind: 'in_flight' };
      return entry.answer ? { kind: 'replay', answer: entry.answer } : { kind: 'already_executed' };
    }
    this.entries.set(key, { digest, state: 'in_flight', expiresAt: now + IN_FLIGHT_LEASE_MS });
    this.evict();
    return { kind: 'new' };
  }

  complete(key: string, digest: string, answer: Answer, now = Date.now()): void {
    const keep = Buffer.byteLength(answer.body) <= this.limits.maxAnswerBytes;
    const entry: Entry = { digest, state: 'done', expiresAt: now + this.limits.ttlSeconds * 1000 };
    if (keep) entry.answer = answer;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.evict();
  }

  /** Extends the lease of a key still in flight for this body (nothing else changes). */
  renew(key: string, digest: string, now = Date.now()): void {
    const entry = this.entries.get(key);
    if (entry?.state === 'in_flight' && entry.digest === digest && entry.expiresAt > now) entry.expiresAt = now + IN_FLIGHT_LEASE_MS;
  }

  /** Forgets a key whose request failed on the runner's side, so that it can be repeated. */
  abandon(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private evict(): void {
    for (const k of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries) break;
      this.entries.delete(k);
    }
  }
}
