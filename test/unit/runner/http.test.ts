// The runner's request-side pieces: auth, rate limits, the idempotency store, callback address
// checks, files keys, JSON decoding and request ids.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { authenticate, authorize } from '../../../server/src/runner/auth.js';
import { checkCallbackUrl, isNonPublicAddress } from '../../../server/src/runner/callbacks.js';
import { ModelDeck } from '../../../server/src/runner/deck.js';
import { decodeJsonObject, isWellFormed } from '../../../server/src/runner/http/json.js';
import { requestIdOf, ulid } from '../../../server/src/runner/http/requestId.js';
import { accessLogLine, batchedLog } from '../../../server/src/runner/http/accessLog.js';
import { jsonAnswer } from '../../../server/src/runner/http/respond.js';
import { IdempotencyStore } from '../../../server/src/runner/idempotency.js';
import { RateLimiter } from '../../../server/src/runner/rateLimit.js';
import { Refusal } from '../../../server/src/runner/refusal.js';
import { pathFault } from '../../../server/src/runner/requests.js';

const token = (t: string, extra: Record<string, unknown> = {}): { name: string; sha256: Buffer } => ({ name: t, sha256: createHash('sha256').update(t).digest(), ...extra });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof Refusal ? error.code : 'not a refusal';
  }
}

describe('auth', () => {
  it('is anonymous per address without tokens, and checks bearer tokens otherwise', () => {
    expect(authenticate(undefined, [], '10.0.0.1')).toEqual({ kind: 'anonymous', key: 'addr:10.0.0.1' });
    const tokens = [token('a'), token('b', { expiresAt: 0 }), token('c', { scopes: new Set(['validate']) })];
    expect(authenticate('Bearer a', tokens, 'x')).toMatchObject({ kind: 'token', name: 'a' });
    expect(codeOf(() => authenticate(undefined, tokens, 'x'))).toBe('auth.missing_credential');
    expect(codeOf(() => authenticate('Bearer zzz', tokens, 'x'))).toBe('auth.invalid_credential');
    expect(codeOf(() => authenticate('Token a', tokens, 'x'))).toBe('auth.invalid_credential');
    expect(codeOf(() => authenticate('Bearer b', tokens, 'x'))).toBe('auth.credential_expired');
    const c = authenticate('Bearer c', tokens, 'x');
    expect(codeOf(() => authorize(c, 'validate'))).toBeUndefined();
    expect(codeOf(() => authorize(c, 'run'))).toBe('auth.forbidden');
  });
});

describe('RateLimiter', () => {
  it('counts per key in fixed windows and tells when to retry', () => {
    const limiter = new RateLimiter(2, 10);
    expect(limiter.check('k', 0).ok).toBe(true);
    expect(limiter.check('k', 1000).ok).toBe(true);
    expect(limiter.check('k', 2000)).toEqual({ ok: false, retryAfterSeconds: 8 });
    expect(limiter.check('other', 2000).ok).toBe(true);
    expect(limiter.check('k', 10_000).ok).toBe(true);
  });

  it('bounds its key table', () => {
    const limiter = new RateLimiter(1, 60, 3);
    for (let i = 0; i < 10; i++) limiter.check(`k${i}`, 0);
    expect((limiter as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(3);
  });
});

describe('IdempotencyStore', () => {
  const answer = jsonAnswer(200, { ok: true });

  it('admits, reports in flight, replays, conflicts, and forgets abandoned keys', () => {
    const store = new IdempotencyStore({ maxEntries: 10, ttlSeconds: 60, maxAnswerBytes: 1000 });
    expect(store.admit('k', 'd1', 0)).toEqual({ kind: 'new' });
    expect(store.admit('k', 'd1', 1)).toEqual({ kind: 'in_flight' });
    expect(store.admit('k', 'd2', 1)).toEqual({ kind: 'conflict' });
    store.complete('k', 'd1', answer, 2);
    expect(store.admit('k', 'd1', 3)).toEqual({ kind: 'replay', answer });
    expect(store.admit('k', 'd1', 61_000)).toEqual({ kind: 'new' });
    store.abandon('k');
    expect(store.admit('k', 'd2', 61_001)).toEqual({ kind: 'new' });
  });

  it('keeps only the digest of an answer too large, and evicts the least recently used', () => {
    const store = new IdempotencyStore({ maxEntries: 2, ttlSeconds: 60, maxAnswerBytes: 5 });
    store.admit('big', 'd', 0);
    store.complete('big', 'd', answer, 0);
    expect(store.admit('big', 'd', 1)).toEqual({ kind: 'already_executed' });
    store.admit('a', 'd', 2);
    store.admit('b', 'd', 3);
    expect(store.size).toBe(2);
    expect(store.admit('big', 'd', 4)).toEqual({ kind: 'new' });
  });
});

describe('callback addresses', () => {
  it.each(['127.0.0.1', '10.2.3.4', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '[::1]'])('refuses %s', (ip) => {
    expect(isNonPublicAddress(ip)).toBe(true);
  });

  // 6to4 (2002:AABB:CCDD::) and Teredo (2001:0:SERVER:...:~CLIENT) embed an IPv4 address.
  it.each(['2002:7f00:1::1', '2002:a00:1::', '2002:c0a8:101::1', '2002:a9fe:a9fe::1', '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:7f00:1::1', '2001:0:4136:e378:8000:63bf:f5ff:fffe'])('refuses the 6to4 or Teredo form %s', (ip) => {
    expect(isNonPublicAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'])('accepts %s', (ip) => {
    expect(isNonPublicAddress(ip)).toBe(false);
  });

  it('refuses loopback names, and accepts them when allowed', async () => {
    await expect(checkCallbackUrl(new URL('http://localhost:1/x'), false)).rejects.toMatchObject({ code: 'mthdsls.security.address_refused' });
    await expect(checkCallbackUrl(new URL('http://app.localhost/x'), false)).rejects.toMatchObject({ code: 'mthdsls.security.address_refused' });
    await expect(checkCallbackUrl(new URL('http://8.8.8.8/x'), false)).resolves.toBeUndefined();
    await expect(checkCallbackUrl(new URL('http://127.0.0.1/x'), true)).resolves.toBeUndefined();
  });
});

describe('files keys', () => {
  it.each([
    ['a.mthds', undefined],
    ['dir/sub/a.mthds', undefined],
    ['a..b.mthds', undefined],
    ['', 'empty_path'],
    ['../a', 'leaves_tree'],
    ['/a', 'absolute'],
    ['C:/a', 'scheme'],
    ['a\\b', 'backslash'],
    ['a/./b', 'not_normalized'],
    ['a\u0000b', 'unloadable_name'],
  ])('%j -> %s', (key, fault) => {
    expect(pathFault(key)).toBe(fault);
  });
});

describe('JSON bodies and request ids', () => {
  it('decodes objects and refuses the rest', () => {
    expect(decodeJsonObject(Buffer.from('\uFEFF{"a":1}'), 8)).toEqual({ a: 1 });
    expect(codeOf(() => decodeJsonObject(Buffer.from('{'), 8))).toBe('request.malformed');
    expect(codeOf(() => decodeJsonObject(Buffer.from([0x7b, 0xff, 0x7d]), 8))).toBe('request.malformed');
    // Encoded surrogates, overlong forms and truncated sequences are not UTF-8; one byte order mark is dropped, not two.
    for (const bytes of [[0x22, 0xed, 0xa0, 0x80, 0x22], [0x22, 0xc0, 0xaf, 0x22], [0x22, 0xe2, 0x82]]) {
      expect(() => decodeJsonObject(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, ...bytes, 0x7d]), 8)).toThrow(expect.objectContaining({ params: { reason: 'not_utf8' } }));
    }
    expect(() => decodeJsonObject(Buffer.from('\uFEFF\uFEFF{"a":1}'), 8)).toThrow(expect.objectContaining({ params: { reason: 'not_json' } }));
    expect(decodeJsonObject(Buffer.from('{"a":"\uFEFFé"}'), 8)).toEqual({ a: '\uFEFFé' });
    expect(codeOf(() => decodeJsonObject(Buffer.from('{"a":[[[[[[[[[1]]]]]]]]]}'), 4))).toBe('request.invalid');
  });

  it('keeps well-formed request ids and mints ULIDs', () => {
    expect(requestIdOf('abc-123_X')).toBe('abc-123_X');
    expect(requestIdOf('bad id')).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ulid(0) < ulid(1_000_000)).toBe(true);
  });

  it('draws fresh random parts across refills of its pool of random bytes', () => {
    const ids = Array.from({ length: 1_000 }, () => ulid(0));
    expect(new Set(ids).size).toBe(1_000);
    expect(new Set(ids.map((id) => id.slice(10))).size).toBe(1_000);
  });
});

describe('ModelDeck', () => {
  it('falls back to the category default for unknown references unless strict', () => {
    const deck = new ModelDeck({ aliases: { fast: 'mock-llm' } }, {});
    expect(deck.resolve('$writing-factual', 'llm').name).toBe('mock-llm');
    expect(deck.resolve('@fast', 'llm').name).toBe('mock-llm');
    expect(deck.resolve(undefined, 'img_gen').name).toBe('mock-img-gen');
    const strict = new ModelDeck({ strict: true }, {});
    expect(codeOf(() => strict.resolve('claude-4.5-sonnet', 'llm'))).toBe('mthdsls.model.unknown');
    expect(codeOf(() => new ModelDeck({ mock: false }, {}).resolve(undefined, 'llm'))).toBe('mthdsls.provider.not_configured');
  });
});

describe('accessLogLine', () => {
  const req = (method: string, url: string, ua?: string): IncomingMessage => ({ method, url, headers: ua === undefined ? {} : { 'user-agent': ua } }) as unknown as IncomingMessage;
  const res = (status: number | undefined): ServerResponse => ({ headersSent: status !== undefined, statusCode: status ?? 200, getHeader: () => 'REQ1' }) as unknown as ServerResponse;

  it('writes time, method, path without query, status, duration, id and User-Agent on one line', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const line = accessLogLine(req('POST', '/v1/validate?x=1', 'ua "1"'), res(200), process.hrtime.bigint(), at);
    expect(line).toMatch(/^2026-01-02T03:04:05\.678Z POST \/v1\/validate 200 \d+\.\dms REQ1 "ua \\"1\\""$/);
    // Another line in the same millisecond, and one later: each with its own time.
    expect(accessLogLine(req('get', '/a b'), res(undefined), process.hrtime.bigint(), new Date(at.getTime()))).toMatch(/^2026-01-02T03:04:05\.678Z "get" "\/a b" - \d+\.\dms REQ1 -$/);
    expect(accessLogLine(req('GET', '/v1/version'), res(200), process.hrtime.bigint(), new Date(at.getTime() + 1))).toMatch(/^2026-01-02T03:04:05\.679Z GET /);
  });
});

describe('batchedLog', () => {
  it('hands on the lines of a stretch of time at once, as the same text, and every line at once once closed', async () => {
    const writes: string[] = [];
    const log = batchedLog((text) => writes.push(text), 20, 3);
    log('a');
    log('b');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes).toEqual(['a\nb']);
    // A full batch goes at once, without waiting for the timer.
    log('c');
    log('d');
    log('e');
    expect(writes).toEqual(['a\nb', 'c\nd\ne']);
    log('f');
    log.close();
    expect(writes).toEqual(['a\nb', 'c\nd\ne', 'f']);
    log('g');
    expect(writes).toEqual(['a\nb', 'c\nd\ne', 'f', 'g']);
  });
});

describe('isWellFormed', () => {
  it('refuses a lone surrogate anywhere and accepts pairs', () => {
    for (const ok of ['', 'plain', 'a\u{1F600}b', '\uD83D\uDE00', 'é']) expect(isWellFormed(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of ['\uD800', 'a\uD800b', 'a\uDC00', '\uDE00\uD83D', 'x\uD83D\uDE00\uD83D']) expect(isWellFormed(bad), JSON.stringify(bad)).toBe(false);
  });
});
