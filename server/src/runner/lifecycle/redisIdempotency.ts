// Idempotency keys in Redis, for runners on a queue: a key sent to one server process is known to
// every other one and survives restarts. Same decisions as the in-memory store (idempotency.ts): a
// key is reserved with SET NX for a short lease its request renews while it runs
// (IN_FLIGHT_LEASE_MS): a reservation left by a process that died, or by a request answered 503
// while Redis stalled, frees itself within the lease; a completed answer is kept `ttlSeconds`.

import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Answer } from '../http/respond.js';
import { IN_FLIGHT_LEASE_MS, type Admission, type IdempotencyLimits } from '../idempotency.js';
import type { IdempotencyBackend } from '../sharedStores.js';
import { storeUnavailable } from './queue.js';

interface Stored {
  digest: string;
  state: 'in_flight' | 'done';
  answer?: Answer;
}

// KEYS[1] the key; ARGV[1] the reservation as stored, ARGV[2] the lease. Extends a reservation that
// is still this request's, never a completed answer.
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`;

export class RedisIdempotency implements IdempotencyBackend {
  constructor(
    private readonly redis: Redis,
    private readonly limits: IdempotencyLimits,
    private readonly prefix = 'mthds:',
  ) {}

  private key(key: string): string {
    return `${this.prefix}idem:${createHash('sha256').update(key).digest('hex')}`;
  }

  async admit(key: string, digest: string): Promise<Admission> {
    try {
      const reserved: Stored = { digest, state: 'in_flight' };
      if ((await this.redis.set(this.key(key), JSON.stringify(reserved), 'PX', IN_FLIGHT_LEASE_MS, 'NX')) === 'OK') return { kind: 'new' };
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

  async renew(key: string, digest: string): Promise<void> {
    await this.redis.eval(RENEW, 1, this.key(key), JSON.stringify({ digest, state: 'in_flight' } satisfies Stored), String(IN_FLIGHT_LEASE_MS)).catch(() => undefined);
  }

  async abandon(key: string): Promise<void> {
    await this.redis.del(this.key(key)).catch(() => undefined);
  }
}
