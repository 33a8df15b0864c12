// X-Request-ID: a well-formed inbound id is kept (clients correlate their logs with it), anything
// else is replaced by a fresh ULID (time-ordered, 26 characters of Crockford base32).

import { randomBytes } from 'node:crypto';

const INBOUND = /^[A-Za-z0-9_-]{1,128}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function ulid(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[bytes[i]! % 32];
  return time + random;
}

export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && INBOUND.test(value) ? value : ulid();
}
