// The run store in Redis: shared by every server and worker process of a queue. A run is a hash
// (`status`, `record` as JSON) so that the transitions can be checked atomically in Redis (a
// script reads the status and writes only from a non-terminal one); the result is a key of its
// own, read only by results reads. Terminal runs expire after the retention time.

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RunResultExecute } from '../runs.js';
import { DEFAULT_CLAIM_LEASE_MS, finishedRecord, isTerminal, runningRecord, type RunOutcome, type RunRecord, type RunStore } from './store.js';

// KEYS[1] the run hash; ARGV[1] status, ARGV[2] record JSON. Writes only over a non-terminal run
// (or none, when `ARGV[3]` is '1'), returns 1 when it wrote.
const TRANSITION = `
local current = redis.call('HGET', KEYS[1], 'status')
if current == false then
  if ARGV[3] ~= '1' then return 0 end
elseif current ~= 'PENDING' and current ~= 'RUNNING' then
  return 0
end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'record', ARGV[2])
return 1
`;

// KEYS[1] the run hash, KEYS[2] the result key; ARGV[1] status, ARGV[2] record, ARGV[3] result
// ('' for none), ARGV[4] retention seconds.
const FINISH = `
local current = redis.call('HGET', KEYS[1], 'status')
if current ~= 'PENDING' and current ~= 'RUNNING' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'record', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4]) end
return 1
`;

// KEYS[1] the callback key; ARGV[1] 'held:' + holder, ARGV[2] lease ms. Claims a free (or own)
// callback; never one delivered or held by another.
const CLAIM = `
local current = redis.call('GET', KEYS[1])
if current == false or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

// KEYS[1] the callback key; ARGV[1] 'held:' + holder. Drops the claim only if it is still this holder's.
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;

export interface RedisStoreOptions {
  retentionSeconds: number;
  /** Key prefix, so that several runners can share one Redis. */
  prefix?: string;
}

/** A Redis connection that fails commands at once while Redis is unreachable (no offline queue). */
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A command sent just as the connection drops would wait for the reconnection: answered
    // (failed) in bounded time instead, so that a request gets its 503 promptly.
    commandTimeout: 2_000,
    autoResendUnfulfilledCommands: false,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
}

/** Resolves once `redis` is connected, or after `ms` (commands then fail until it connects). */
export function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, ms);
    const onReady = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}

export class RedisRunStore implements RunStore {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisStoreOptions,
  ) {
    this.prefix = options.prefix ?? 'mthds:';
  }

  private key(runId: string): string {
    return `${this.prefix}run:${runId}`;
  }

  private async transition(record: RunRecord, create: boolean): Promise<boolean> {
    const wrote = await this.redis.eval(TRANSITION, 1, this.key(record.pipeline_run_id), record.status, JSON.stringify(record), create ? '1' : '0');
    return wrote === 1;
  }

  async create(record: RunRecord): Promise<void> {
    await this.transition(record, true);
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    const raw = await this.redis.hget(this.key(runId), 'record');
    return raw === null ? undefined : (JSON.parse(raw) as RunRecord);
  }

  async result(runId: string): Promise<RunResultExecute | undefined> {
    const raw = await this.redis.get(`${this.key(runId)}:result`);
    return raw === null ? undefined : (JSON.parse(raw) as RunResultExecute);
  }

  async begin(record: RunRecord, startedAt: string): Promise<{ started: boolean; record: RunRecord }> {
    // A run whose record was never written (the server stopped between queueing and storing)
    // is stored from its job.
    const current = (await this.get(record.pipeline_run_id)) ?? record;
    if (isTerminal(current.status)) return { started: false, record: current };
    const next = runningRecord(current, startedAt);
    if (await this.transition(next, true)) return { started: true, record: next };
    const now = await this.get(record.pipeline_run_id);
    return { started: false, record: now ?? current };
  }

  async finish(runId: string, outcome: RunOutcome): Promise<boolean> {
    const current = await this.get(runId);
    if (!current || isTerminal(current.status)) return false;
    const next = finishedRecord(current, outcome);
    const result = outcome.status === 'COMPLETED' ? JSON.stringify(outcome.result) : '';
    const wrote = await this.redis.eval(FINISH, 2, this.key(runId), `${this.key(runId)}:result`, next.status, JSON.stringify(next), result, String(this.options.retentionSeconds));
    return wrote === 1;
  }

  async claimCallback(runId: string, holder: string = randomUUID(), leaseMs = DEFAULT_CLAIM_LEASE_MS): Promise<boolean> {
    return (await this.redis.eval(CLAIM, 1, `${this.key(runId)}:callback`, `held:${holder}`, String(Math.max(1, Math.round(leaseMs))))) === 1;
  }

  async releaseCallback(runId: string, holder: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, `${this.key(runId)}:callback`, `held:${holder}`);
  }

  async deliveredCallback(runId: string): Promise<void> {
    await this.redis.set(`${this.key(runId)}:callback`, 'delivered', 'EX', this.options.retentionSeconds);
  }

  async callbackDelivered(runId: string): Promise<boolean> {
    return (await this.redis.get(`${this.key(runId)}:callback`)) === 'delivered';
  }

  async discard(runId: string): Promise<void> {
    await this.redis.del(this.key(runId));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

