// Runs on Redis with BullMQ. Servers (`mthds serve --queue URL`) store a run and add its job;
// workers (`mthds worker --queue URL`) take jobs up with their own concurrency. A worker that stops
// mid-run (SIGKILL) holds its job's lock no longer: after the stall timeout another worker takes
// the job up again (BullMQ's stalled-job check) and processRun records the attempt, or gives the
// run up past the configured attempts. Run ids are job ids, so a job is never queued twice.

import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { PreparedRun } from '../runs.js';
import { processRun, pendingRecord, type ProcessDeps, type RunJob } from './process.js';
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
          // A worker that could not record its run (Redis blinked) tries again rather than leaving it RUNNING.
          attempts: 5,
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

  /** Idempotency keys on this queue's Redis; a reservation outlives a request by `inFlightSeconds` at most. */
  idempotency(limits: IdempotencyLimits, inFlightSeconds: number): RedisIdempotency {
    return new RedisIdempotency(this.redis, limits, inFlightSeconds);
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

/**
 * Takes runs from the queue until closed. `concurrency`: runs at once in this process. Closing
 * waits for the runs in hand (a deployment's SIGTERM loses nothing).
 */
export async function startRunWorker(settings: QueueSettings, concurrency: number, deps: Omit<ProcessDeps, 'store' | 'maxAttempts'>): Promise<RunWorker> {
  const redis = connectRedis(settings.url, 'mthds-worker');
  redis.on('error', () => {});
  await whenReady(redis, 5_000);
  const store = new RedisRunStore(redis, { retentionSeconds: settings.retentionSeconds });
  const processDeps: ProcessDeps = { ...deps, store, maxAttempts: settings.maxAttempts };
  const controller = new AbortController();
  const worker = new Worker<RunJob>(
    QUEUE_NAME,
    async (job: Job<RunJob>) => {
      await processRun(job.data, processDeps, controller.signal, undefined, (error) => deps.config.log(`run ${job.data.runId}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
    },
    {
      connection: bullConnection(settings.url),
      concurrency,
      lockDuration: settings.stallMs,
      stalledInterval: settings.stallMs,
      // Attempts are counted by processRun (in the run's record); BullMQ must never fail a
      // stalled job itself, or its run would stay RUNNING.
      maxStalledCount: settings.maxAttempts + 100,
    },
  );
  worker.on('error', (error) => deps.config.log(`worker: ${error.message}`));
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
