// Runs on Redis with BullMQ. Servers (`mthds serve --queue URL`) store a run and add its job;
// workers (`mthds worker --queue URL`) take jobs up with their own concurrency. A worker that stops
// mid-run (SIGKILL) holds its job's lock no longer: after the stall timeout another worker takes
// the job up again (BullMQ's stalled-job check) and processRun records the attempt, or gives the
// run up past the configured attempts. Run ids are job ids, so a job is never queued twice.

import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { PreparedRun } from '../runs.js';
import { CallbackPending, processRun, pendingRecord, type ProcessDeps, type RunJob } from './process.js';
import { storeUnavailable, type RunQueue } from './queue.js';
import type { IdempotencyLimits } from '../idempotency.js';
import { RedisIdempotency } from './redisIdempotency.js';
import { connectRedis, RedisRunStore, whenReady } from './redisStore.js';

export const QUEUE_NAME = 'mthds-runs';

export interface QueueSettings {
  /** redis://HOST:PORT */
  url: string;
  retentionSeconds: number;
  /** How long a worker may stay silent before its run is taken up again (BullMQ's lock). */
  stallMs: number;
  maxAttempts: number;
}

/** BullMQ's connection for a URL: its own clients (a worker's blocking one must wait forever). */
function bullConnection(url: string): { url: string; maxRetriesPerRequest: null; enableOfflineQueue: boolean } {
  return { url, maxRetriesPerRequest: null, enableOfflineQueue: true };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export class RedisQueue implements RunQueue {
  readonly kind = 'redis';
  readonly store: RedisRunStore;
  private readonly queue: Queue;

  private constructor(
    private readonly redis: Redis,
    private readonly settings: QueueSettings,
  ) {
    this.store = new RedisRunStore(redis, { retentionSeconds: settings.retentionSeconds });
    this.queue = new Queue(QUEUE_NAME, { connection: bullConnection(settings.url) });
    // Connection faults are answered per request (503, degraded reads); never an unhandled error.
    this.queue.on('error', () => {});
  }

  static async open(settings: QueueSettings): Promise<RedisQueue> {
    const redis = connectRedis(settings.url, 'mthds-server');
    redis.on('error', () => {});
    await whenReady(redis, 5_000);
    return new RedisQueue(redis, settings);
  }

  async submit(job: RunJob, _prepared: PreparedRun): Promise<void> {
    try {
      await this.store.create(pendingRecord(job));
    } catch {
      throw storeUnavailable();
    }
    try {
      await withTimeout(
        this.queue.add('run', job, {
          jobId: job.runId,
          // A worker that could not record its run (Redis blinked) tries again rather than leaving it RUNNING,
          // and a callback not accepted yet is posted again (1 s, 2 s, ... about 4 minutes in all).
          attempts: 9,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: { age: this.settings.retentionSeconds },
          removeOnFail: { age: this.settings.retentionSeconds },
        }),
        5_000,
      );
    } catch {
      await this.store.discard(job.runId).catch(() => undefined);
      throw storeUnavailable();
    }
  }

  /** Idempotency keys on this queue's Redis. */
  idempotency(limits: IdempotencyLimits): RedisIdempotency {
    return new RedisIdempotency(this.redis, limits);
  }

  async healthy(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    // BullMQ waits for Redis to close cleanly: not past a few seconds when Redis is gone.
    await withTimeout(this.queue.close(), 3_000).catch(() => undefined);
    await this.store.close();
  }
}

export interface RunWorker {
  close(): Promise<void>;
}

/** How often an outage that goes on is logged again (a line a second helps nobody). */
const OUTAGE_LOG_EVERY_MS = 30_000;

/**
 * The log of a connection that fails: its first failure at once, then one line per
 * OUTAGE_LOG_EVERY_MS with how many failures it hid, and one line when it is back.
 */
export class OutageLog {
  private since: number | undefined;
  private lastLine = 0;
  private hidden = 0;

  constructor(
    private readonly log: (line: string) => void,
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  failed(message: string): void {
    const now = this.now();
    if (this.since === undefined) {
      this.since = now;
      this.lastLine = now;
      this.log(`${this.what} unreachable: ${message}`);
      return;
    }
    if (now - this.lastLine < OUTAGE_LOG_EVERY_MS) {
      this.hidden++;
      return;
    }
    this.log(`${this.what} still unreachable after ${Math.round((now - this.since) / 1000)} s: ${message} (${this.hidden} more failures since the last line)`);
    this.lastLine = now;
    this.hidden = 0;
  }

  recovered(): void {
    if (this.since === undefined) return;
    this.log(`${this.what} reachable again after ${Math.round((this.now() - this.since) / 1000)} s`);
    this.since = undefined;
    this.hidden = 0;
  }
}

/**
 * BullMQ's lock and stalled-job check for a stall timeout: a lock lasts 2/3 of it and is renewed
 * every 1/3; the check runs every 1/3. A job is moved back once it was seen at one check and has no
 * lock at the next, so a killed worker's run is taken up at most lockDuration + stalledInterval =
 * `stallMs` after the kill (with both set to `stallMs`, it was up to twice that).
 */
export function stallSettings(stallMs: number): { lockDuration: number; stalledInterval: number } {
  return { lockDuration: Math.max(1, Math.round((stallMs * 2) / 3)), stalledInterval: Math.max(1, Math.floor(stallMs / 3)) };
}

/**
 * Takes runs from the queue until closed. `concurrency`: runs at once in this process. Closing
 * waits for the runs in hand (a deployment's SIGTERM loses nothing). Resolves once Redis answers
 * (it waits for it; the outage log says so).
 */
export async function startRunWorker(settings: QueueSettings, concurrency: number, deps: Omit<ProcessDeps, 'store' | 'maxAttempts' | 'retryUndelivered'>): Promise<RunWorker> {
  const log = deps.config.log;
  const outage = new OutageLog(log, `Redis at ${redactUrl(settings.url)}`);
  const redis = connectRedis(settings.url, 'mthds-worker');
  redis.on('error', (error: Error) => outage.failed(error.message));
  redis.on('ready', () => outage.recovered());
  while (!(await whenReady(redis, 5_000))) {
    // Logged by the outage log; the worker is not ready until Redis answers.
  }
  const store = new RedisRunStore(redis, { retentionSeconds: settings.retentionSeconds });
  const processDeps: ProcessDeps = { ...deps, store, maxAttempts: settings.maxAttempts, retryUndelivered: true };
  const controller = new AbortController();
  const worker = new Worker<RunJob>(
    QUEUE_NAME,
    async (job: Job<RunJob>) => {
      const runId = job.data.runId;
      const started = Date.now();
      log(`run ${runId}: taken up${job.attemptsMade > 0 ? ` (job attempt ${job.attemptsMade + 1})` : ''}`);
      let record;
      try {
        record = await processRun(job.data, processDeps, controller.signal, undefined, (error) => log(`run ${runId}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
      } catch (error) {
        log(`run ${runId}: ${error instanceof CallbackPending ? error.message : `not recorded (${error instanceof Error ? error.message : String(error)}); the queue takes it up again`}`);
        throw error;
      }
      log(`run ${runId}: ${record?.status ?? 'unknown'} in ${Date.now() - started} ms${record ? ` (attempt ${record.attempts})` : ''}${record?.error ? `: ${record.error.code}` : ''}`);
    },
    {
      connection: bullConnection(settings.url),
      concurrency,
      ...stallSettings(settings.stallMs),
      // Attempts are counted by processRun (in the run's record); BullMQ must never fail a
      // stalled job itself, or its run would stay RUNNING.
      maxStalledCount: settings.maxAttempts + 100,
    },
  );
  worker.on('error', (error) => outage.failed(error.message));
  worker.on('stalled', (jobId) => log(`run ${jobId}: its worker went silent; taken up again`));
  await worker.waitUntilReady();
  return {
    async close() {
      // The runs in hand finish first, unless Redis is gone (they could not be recorded anyway).
      if (redis.status === 'ready') await worker.close();
      else await withTimeout(worker.close(true), 3_000).catch(() => undefined);
      controller.abort();
      await store.close();
    },
  };
}

/** A Redis URL for a log line: without its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'the configured URL';
  }
}
