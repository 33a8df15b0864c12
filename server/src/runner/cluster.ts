// `mthds serve --workers N`: N processes (Node's cluster) accept the connections of one port. The
// state that must be one across them lives in the primary, which serves no HTTP: idempotency keys
// and rate-limit windows (sharedStores.ts), reached by the workers over the cluster's IPC channel.
// Rate limits cross it by leases (rateLeases.ts), not once per request.
// What stays per worker: runs in flight (each worker bounds its own by limits.max_runs_in_flight),
// request bodies in flight, the template caches and the /validate verdict cache (caches, not state).

import type { Worker } from 'node:cluster';
import type { Answer } from './http/respond.js';
import type { Admission } from './idempotency.js';
import type { Lease, RateLimiter } from './rateLimit.js';
import { LeaseBroker, LeasedRateLimiter } from './rateLeases.js';
import type { IdempotencyBackend, SharedStores } from './sharedStores.js';
import type { RunRecord, RunStore } from './lifecycle/store.js';
import { problemDocument } from './http/respond.js';
import { ulid } from './http/requestId.js';
import { Refusal } from './refusal.js';

/** Messages between a worker and the primary; `mthds` tells them from any other on the channel. */
export type StoreCall =
  | { mthds: 'store'; id: number; op: 'admit'; key: string; digest: string }
  | { mthds: 'store'; id: number; op: 'complete'; key: string; digest: string; answer: Answer }
  | { mthds: 'store'; id: number; op: 'abandon'; key: string }
  | { mthds: 'store'; id: number; op: 'lease'; key: string }
  | { mthds: 'store'; id: number; op: 'renew'; key: string; digest: string }
  | { mthds: 'store'; id: number; op: 'run'; method: RunStoreMethod; args: unknown[] };

/** The run store's calls a worker makes on the primary's store (all but `close`). */
export type RunStoreMethod = Exclude<keyof RunStore, 'close'>;
const RUN_STORE_METHODS: readonly RunStoreMethod[] = ['create', 'get', 'result', 'begin', 'finish', 'claimCallback', 'releaseCallback', 'deliveredCallback', 'callbackDelivered', 'discard'];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type CallBody = DistributiveOmit<StoreCall, 'mthds' | 'id'>;

export interface StoreReply {
  mthds: 'store-reply';
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

/** The primary takes back what a worker holds unused of a rate-limit lease (rateLeases.ts). */
export interface RecallMessage {
  mthds: 'recall';
  id: number;
  key: string;
}

export interface RecallReply {
  mthds: 'recall-reply';
  id: number;
  unused: number;
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

function isRecall(message: unknown): message is RecallMessage {
  return tagged(message, 'recall') && typeof (message as { key?: unknown }).key === 'string';
}

function isRecallReply(message: unknown): message is RecallReply {
  return tagged(message, 'recall-reply') && typeof (message as { unused?: unknown }).unused === 'number';
}

export function isListening(message: unknown): message is ListeningMessage {
  return tagged(message, 'listening') && typeof (message as { url?: unknown }).url === 'string';
}

/** How long the primary waits for a worker to give back a lease before counting it as used. */
const RECALL_TIMEOUT_MS = 2_000;

/** Primary side: the rate-limit leases of the workers (`attach` each worker as it is forked). */
export class PrimaryLeases {
  readonly broker: LeaseBroker;
  private readonly workers = new Map<number, Worker>();
  private readonly recalls = new Map<number, (unused: number) => void>();
  private next = 1;

  constructor(limiter: RateLimiter) {
    this.broker = new LeaseBroker(limiter, () => this.workers.size, (holder, key) => this.recall(holder, key));
  }

  attach(worker: Worker): void {
    this.workers.set(worker.id, worker);
    worker.on('message', (message: unknown) => {
      if (!isRecallReply(message)) return;
      this.recalls.get(message.id)?.(message.unused);
    });
    worker.on('exit', () => {
      this.workers.delete(worker.id);
      this.broker.forget(worker.id);
    });
  }

  private recall(holder: number, key: string): Promise<number> {
    const worker = this.workers.get(holder);
    if (!worker || !worker.isConnected()) return Promise.resolve(0);
    const id = this.next++;
    return new Promise<number>((resolve) => {
      const done = (unused: number): void => {
        clearTimeout(timer);
        worker.off('exit', gone);
        this.recalls.delete(id);
        resolve(unused);
      };
      const gone = (): void => done(0);
      // A worker that does not answer keeps what it holds: the window only refuses early.
      const timer = setTimeout(() => done(0), RECALL_TIMEOUT_MS);
      worker.once('exit', gone);
      this.recalls.set(id, done);
      const message: RecallMessage = { mthds: 'recall', id, key };
      worker.send(message, undefined, {}, (error: Error | null) => {
        if (error) done(0);
      });
    });
  }
}

/**
 * Primary side: answers a worker's calls from the primary's stores. The runs a worker began and
 * did not finish end FAILED (mthdsls.run.abandoned) when it exits: the embedded queue runs them in
 * the worker, and nobody else would ever finish them.
 */
export function answerStoreCalls(worker: Worker, stores: SharedStores, leases: PrimaryLeases | undefined): void {
  const begun = new Map<string, number>();
  worker.on('exit', () => {
    const runs = stores.runs;
    if (!runs) return;
    for (const [runId, attempts] of begun) {
      const error = problemDocument(new Refusal('mthdsls.run.abandoned', { attempts }), ulid(), `/runs/${runId}`);
      void runs.finish(runId, { status: 'FAILED', finished_at: new Date().toISOString(), error }).catch(() => undefined);
    }
    begun.clear();
  });
  worker.on('message', (message: unknown) => {
    if (!isStoreCall(message)) return;
    void (async () => {
      let reply: StoreReply;
      try {
        const result = await perform(stores, leases, worker.id, message);
        if (message.op === 'run') track(begun, message, result);
        reply = { mthds: 'store-reply', id: message.id, ok: true, result };
      } catch (error) {
        reply = { mthds: 'store-reply', id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      if (worker.isConnected()) worker.send(reply);
    })();
  });
}

/** Which runs a worker has begun and not finished yet. */
function track(begun: Map<string, number>, call: Extract<StoreCall, { op: 'run' }>, result: unknown): void {
  if (call.method === 'begin') {
    const outcome = result as { started: boolean; record: RunRecord };
    if (outcome.started) begun.set(outcome.record.pipeline_run_id, outcome.record.attempts);
  } else if (call.method === 'finish' || call.method === 'discard') begun.delete(call.args[0] as string);
}

async function perform(stores: SharedStores, leases: PrimaryLeases | undefined, worker: number, call: StoreCall): Promise<unknown> {
  switch (call.op) {
    case 'admit':
      return stores.idempotency.admit(call.key, call.digest);
    case 'complete':
      return stores.idempotency.complete(call.key, call.digest, call.answer);
    case 'abandon':
      return stores.idempotency.abandon(call.key);
    case 'renew':
      return stores.idempotency.renew(call.key, call.digest);
    case 'run': {
      if (!stores.runs || !RUN_STORE_METHODS.includes(call.method)) throw new Error(`no run store call ${String(call.method)}`);
      const method = stores.runs[call.method] as (...args: unknown[]) => Promise<unknown>;
      return method.apply(stores.runs, call.args);
    }
    case 'lease':
      // No limit configured: the worker never asks, but an unlimited lease is the right answer.
      if (!leases) return { granted: Number.MAX_SAFE_INTEGER, windowEnd: Number.MAX_SAFE_INTEGER, retryAfterSeconds: 1 } satisfies Lease;
      return leases.broker.lease(worker, call.key);
  }
}

/** Worker side: the primary's stores, through this process's IPC channel. */
export function primaryStores(rateLimit: { limit: number; windowSeconds: number } | undefined): SharedStores {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 1;
  let limiter: LeasedRateLimiter | undefined;
  process.on('message', (message: unknown) => {
    if (isRecall(message)) {
      const reply: RecallReply = { mthds: 'recall-reply', id: message.id, unused: limiter?.recall(message.key) ?? 0 };
      if (process.send && process.connected) process.send(reply, undefined, {}, () => undefined);
      return;
    }
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
  /** Sends a call; its reply reaches `resolve` synchronously, where the message is read. */
  const send = (body: CallBody, resolve: (value: unknown) => void, reject: (error: Error) => void): void => {
    if (!process.send || !process.connected) {
      reject(new Error('the primary process is gone'));
      return;
    }
    const id = next++;
    waiting.set(id, { resolve, reject });
    // With a callback, a primary that is gone fails this call instead of an unhandled 'error'.
    process.send({ mthds: 'store', id, ...body }, undefined, {}, (error: Error | null) => {
      if (!error || !waiting.delete(id)) return;
      reject(new Error('the primary process is gone'));
    });
  };
  const call = <T>(body: CallBody): Promise<T> => new Promise<T>((resolve, reject) => send(body, resolve as (value: unknown) => void, reject));
  const idempotency: IdempotencyBackend = {
    admit: (key, digest) => call<Admission>({ op: 'admit', key, digest }),
    complete: (key, digest, answer) => call<void>({ op: 'complete', key, digest, answer }),
    abandon: (key) => call<void>({ op: 'abandon', key }),
    renew: (key, digest) => call<void>({ op: 'renew', key, digest }),
  };
  const run =
    <M extends RunStoreMethod>(method: M) =>
    (...args: Parameters<RunStore[M]>): ReturnType<RunStore[M]> =>
      call<Awaited<ReturnType<RunStore[M]>>>({ op: 'run', method, args }) as ReturnType<RunStore[M]>;
  const runs: RunStore = {
    create: run('create'),
    get: run('get'),
    result: run('result'),
    begin: run('begin'),
    finish: run('finish'),
    claimCallback: run('claimCallback'),
    releaseCallback: run('releaseCallback'),
    deliveredCallback: run('deliveredCallback'),
    callbackDelivered: run('callbackDelivered'),
    discard: run('discard'),
    // The primary's store outlives each worker.
    close: async () => undefined,
  };
  const stores: SharedStores = { idempotency, runs };
  if (rateLimit) {
    // The lease is taken in where its reply is read, before any recall read after it.
    const leased: LeasedRateLimiter = new LeasedRateLimiter(rateLimit.limit, rateLimit.windowSeconds, (key) =>
      send(
        { op: 'lease', key },
        (lease) => leased.receive(key, lease as Lease),
        (error) => leased.failed(key, error),
      ),
    );
    limiter = leased;
    stores.rateLimiter = leased;
  }
  return stores;
}

/**
 * The node flags of the workers: the primary's own (`process.execArgv`) and a young generation of
 * 32 MB semi-spaces (Node 20's grow to 16 MB), unless the operator set a size in the flags or in
 * NODE_OPTIONS (theirs is kept). A /validate verdict leaves ~0.65 MB of garbage, and a scavenge
 * copies what is still alive each time the young generation fills. With twice the room, bench:runner
 * (distinct 30-pipe bundles, 2 workers, 100 connections; --trace-gc-nvp) counted 49 % fewer
 * scavenges per request (0.049 → 0.025) and 17 % fewer bytes copied and promoted (survived 26.8 →
 * 22.3 kB, promoted 20.9 → 17.3 kB per request), for up to 48 MB more memory per worker; 64 MB
 * bought little more (21.0 and 16.7 kB). A flag set at run time (v8.setFlagsFromString) does not
 * reach the heap: it goes on the worker's command line.
 */
export function workerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const semiSpace = /^--max[-_]semi[-_]space[-_]size(=|$)/;
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((flag) => semiSpace.test(flag));
  return given ? [...execArgv] : [...execArgv, '--max-semi-space-size=32'];
}
