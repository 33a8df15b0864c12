// Idempotency keys in Redis, for runners on a queue: a key sent to one server process is known to
// every other one and survives restarts. Same decisions as the in-memory store (idempotency.ts): a
// key is reserved with SET NX; a reservation left by a process that died frees itself after
// `inFlightSeconds`, a completed answer is kept `ttlSeconds`.

import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Answer } from '../http/respond.js';
import type { Admission, IdempotencyLimits } from '../idempotency.js';
import type { IdempotencyBackend } from '../sharedStores.js';
import { storeUnavailable } from './queue.js';

interface Stored {
  digest: string;
  state: 'in_flight' | 'done';
  answer?: Answer;
}

export class RedisIdempotency implements IdempotencyBackend {
  constructor(
    private readonly redis: Redis,
    private readonly limits: IdempotencyLimits,
    private readonly inFlightSeconds: number,
    private readonly prefix = 'mthds:',
  ) {}

  private key(key: string): string {
    return `${this.prefix}idem:${createHash('sha256').update(key).digest('hex')}`;
  }

  async admit(key: string, digest: string): Promise<Admission> {
    try {
      const reserved: Stored = { digest, state: 'in_flight' };
      if ((await this.redis.set(this.key(key), JSON.stringify(reserved), 'EX', this.inFlightSeconds, 'NX')) === 'OK') return { kind: 'new' };
      const raw = await this.redis.get(this.key(key));
      // Expired between the two commands: try once more.
      if (raw === null) return this.admit(key, digest);
      const entry = JSON.parse(raw) as Stored;
      if (entry.digest !== digest) return { kind: 'conflict' };
      if (entry.state === 'in_flight') return { kind: 'in_flight' };
      return entry.answer ? { kind: 'replay', answer: entry.answer } : { kind: 'already_executed' };
    } catch {
      throw storeUnavailable();
    }
  }

  async complete(key: string, digest: string, answer: Answer): Promise<void> {
    const entry: Stored = { digest, state: 'done' };
    if (Buffer.byteLength(answer.body) <= this.limits.maxAnswerBytes) entry.answer = answer;
    await this.redis.set(this.key(key), JSON.stringify(entry), 'EX', this.limits.ttlSeconds).catch(() => undefined);
  }

  async abandon(key: string): Promise<void> {
    await this.redis.del(this.key(key)).catch(() => undefined);
  }
}
