// X-Request-ID: a well-formed inbound id is kept (clients correlate their logs with it), anything
// else is replaced by a fresh ULID (time-ordered, 26 characters of Crockford base32).

import { randomFillSync } from 'node:crypto';

const INBOUND = /^[A-Za-z0-9_-]{1,128}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// Random bytes drawn 4 kB at a time (every answer gets an id: one call into the CSPRNG and one
// buffer per request cost more than the id itself).
const pool = Buffer.alloc(4096);
let used = pool.length;

export function ulid(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  if (used + 16 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[pool[used + i]! % 32];
  used += 16;
  return time + random;
}

export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && INBOUND.test(value) ? value : ulid();
}
