// `mthds serve --workers N`: N processes (Node's cluster) accept the connections of one port. The
// state that must be one across them lives in the primary, which serves no HTTP: idempotency keys
// and rate-limit windows (sharedStores.ts), reached by the workers over the cluster's IPC channel.
// What stays per worker: runs in flight (each worker bounds its own by limits.max_runs_in_flight),
// request bodies in flight, the template caches and the /validate verdict cache (caches, not state).

import type { Worker } from 'node:cluster';
import type { Answer } from './http/respond.js';
import type { Admission } from './idempotency.js';
import type { RateDecision } from './rateLimit.js';
import type { IdempotencyBackend, RateLimitBackend, SharedStores } from './sharedStores.js';

/** Messages between a worker and the primary; `mthds` tells them from any other on the channel. */
export type StoreCall =
  | { mthds: 'store'; id: number; op: 'admit'; key: string; digest: string }
  | { mthds: 'store'; id: number; op: 'complete'; key: string; digest: string; answer: Answer }
  | { mthds: 'store'; id: number; op: 'abandon'; key: string }
  | { mthds: 'store'; id: number; op: 'rate'; key: string };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type CallBody = DistributiveOmit<StoreCall, 'mthds' | 'id'>;

export interface StoreReply {
  mthds: 'store-reply';
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

/** A worker tells the primary the URL it serves. */
export interface ListeningMessage {
  mthds: 'listening';
  url: string;
}

function tagged(message: unknown, tag: string): boolean {
  return typeof message === 'object' && message !== null && (message as { mthds?: unknown }).mthds === tag;
}

function isStoreCall(message: unknown): message is StoreCall {
  return tagged(message, 'store');
}

function isStoreReply(message: unknown): message is StoreReply {
  return tagged(message, 'store-reply');
}

export function isListening(message: unknown): message is ListeningMessage {
  return tagged(message, 'listening') && typeof (message as { url?: unknown }).url === 'string';
}

/** Primary side: answers a worker's calls from the primary's stores. */
export function answerStoreCalls(worker: Worker, stores: SharedStores): void {
  worker.on('message', (message: unknown) => {
    if (!isStoreCall(message)) return;
    void (async () => {
      let reply: StoreReply;
      try {
        reply = { mthds: 'store-reply', id: message.id, ok: true, result: await perform(stores, message) };
      } catch (error) {
        reply = { mthds: 'store-reply', id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      if (worker.isConnected()) worker.send(reply);
    })();
  });
}

async function perform(stores: SharedStores, call: StoreCall): Promise<unknown> {
  switch (call.op) {
    case 'admit':
      return stores.idempotency.admit(call.key, call.digest);
    case 'complete':
      return stores.idempotency.complete(call.key, call.digest, call.answer);
    case 'abandon':
      return stores.idempotency.abandon(call.key);
    case 'rate':
      if (!stores.rateLimiter) return { ok: true } satisfies RateDecision;
      return stores.rateLimiter.check(call.key);
  }
}

/** Worker side: the primary's stores, through this process's IPC channel. */
export function primaryStores(rateLimit: { limit: number; windowSeconds: number } | undefined): SharedStores {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 1;
  process.on('message', (message: unknown) => {
    if (!isStoreReply(message)) return;
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new Error(`the primary's store failed: ${message.error ?? 'unknown error'}`));
  });
  process.on('disconnect', () => {
    for (const pending of waiting.values()) pending.reject(new Error('the primary process is gone'));
    waiting.clear();
  });
  const call = <T>(body: CallBody): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!process.send || !process.connected) {
        reject(new Error('the primary process is gone'));
        return;
      }
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // With a callback, a primary that is gone fails this call instead of an unhandled 'error'.
      process.send({ mthds: 'store', id, ...body }, undefined, {}, (error: Error | null) => {
        if (!error || !waiting.delete(id)) return;
        reject(new Error('the primary process is gone'));
      });
    });
  const idempotency: IdempotencyBackend = {
    admit: (key, digest) => call<Admission>({ op: 'admit', key, digest }),
    complete: (key, digest, answer) => call<void>({ op: 'complete', key, digest, answer }),
    abandon: (key) => call<void>({ op: 'abandon', key }),
  };
  const stores: SharedStores = { idempotency };
  if (rateLimit) {
    const limiter: RateLimitBackend = { limit: rateLimit.limit, windowSeconds: rateLimit.windowSeconds, check: (key) => call<RateDecision>({ op: 'rate', key }) };
    stores.rateLimiter = limiter;
  }
  return stores;
}
