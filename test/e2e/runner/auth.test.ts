// Bearer tokens (config and MTHDS_RUNNER_TOKENS), anonymous runners, the public /version, scopes,
// expiry, and rate limits per credential or per client address.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HELLO, get, post, problemOf, withRunner } from './helpers.js';

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

describe('authentication', () => {
  it('is anonymous when no token is configured', async () => {
    const r = await withRunner();
    try {
      expect((await get(`${r.url}/models`)).status).toBe(200);
      expect((await post(`${r.url}/validate`, { mthds_contents: [HELLO] }, bearer('anything'))).status).toBe(200);
    } finally {
      await r.close();
    }
  });

  it('needs a valid bearer token on every route but /version when tokens are configured', async () => {
    const r = await withRunner({ auth: { tokens: [{ token: 's3cret-token', name: 'ci' }] } });
    try {
      expect((await get(`${r.url}/version`)).status).toBe(200);
      for (const [method, route] of [['GET', 'models'], ['POST', 'validate'], ['POST', 'execute'], ['POST', 'start']] as const) {
        const missing = method === 'GET' ? await get(`${r.url}/${route}`) : await post(`${r.url}/${route}`, { mthds_contents: [HELLO] });
        expect(missing.status).toBe(401);
        expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(problemOf(missing).code).toBe('auth.missing_credential');
      }
      const wrong = await get(`${r.url}/models`, bearer('s3cret-tokeN'));
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toContain('invalid_token');
      expect(problemOf(wrong).code).toBe('auth.invalid_credential');
      expect(problemOf(await get(`${r.url}/models`, { Authorization: 'Basic czNjcmV0' })).code).toBe('auth.invalid_credential');
      expect(problemOf(await get(`${r.url}/models`, { Authorization: 'Bearer' })).code).toBe('auth.invalid_credential');
      expect((await get(`${r.url}/models`, bearer('s3cret-token'))).status).toBe(200);
      expect((await get(`${r.url}/models`, { Authorization: 'bearer s3cret-token' })).status).toBe(200);
      expect((await post(`${r.url}/execute`, { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'x' } } }, bearer('s3cret-token'))).status).toBe(200);
    } finally {
      await r.close();
    }
  });

  it('reads tokens from MTHDS_RUNNER_TOKENS and hashed tokens from the config', async () => {
    const hashed = createHash('sha256').update('from-hash').digest('hex');
    const r = await withRunner({ env: { MTHDS_RUNNER_TOKENS: ' alpha , beta ' }, auth: { tokens: [{ token_sha256: hashed }] } });
    try {
      for (const t of ['alpha', 'beta', 'from-hash']) expect((await get(`${r.url}/models`, bearer(t))).status).toBe(200);
      expect((await get(`${r.url}/models`, bearer('gamma'))).status).toBe(401);
    } finally {
      await r.close();
    }
  });

  it('refuses an expired token with auth.credential_expired', async () => {
    const r = await withRunner({ auth: { tokens: [{ token: 'old', expires_at: '2000-01-01T00:00:00Z' }, { token: 'new', expires_at: '2999-01-01T00:00:00Z' }] } });
    try {
      const old = await get(`${r.url}/models`, bearer('old'));
      expect(old.status).toBe(401);
      expect(problemOf(old).code).toBe('auth.credential_expired');
      expect((await get(`${r.url}/models`, bearer('new'))).status).toBe(200);
    } finally {
      await r.close();
    }
  });

  it('refuses a token whose scopes lack the route with auth.forbidden', async () => {
    const r = await withRunner({ auth: { tokens: [{ token: 'reader', scopes: ['validate', 'discovery'] }] } });
    try {
      expect((await post(`${r.url}/validate`, { mthds_contents: [HELLO] }, bearer('reader'))).status).toBe(200);
      const run = await post(`${r.url}/execute`, { mthds_contents: [HELLO] }, bearer('reader'));
      expect(run.status).toBe(403);
      expect(problemOf(run)).toMatchObject({ code: 'auth.forbidden', params: { requirement: 'run' } });
      expect(problemOf(await post(`${r.url}/start`, { mthds_contents: [HELLO] }, bearer('reader'))).code).toBe('auth.forbidden');
    } finally {
      await r.close();
    }
  });

  it('refuses a bad configuration at start', async () => {
    await expect(withRunner({ auth: { tokens: [{ name: 'no secret' }] } })).rejects.toThrow(/token or token_sha256/);
    await expect(withRunner({ auth: { tokens: [{ token: 'x', expires_at: 'soon' }] } })).rejects.toThrow(/expires_at/);
  });
});

describe('rate limits', () => {
  it('limits each credential separately, answering account.rate_limited with limit, window and retry_after', async () => {
    const r = await withRunner({ auth: { tokens: [{ token: 'a' }, { token: 'b' }] }, rate_limit: { limit: 3, window_seconds: 60 } });
    try {
      for (let i = 0; i < 3; i++) expect((await get(`${r.url}/models`, bearer('a'))).status).toBe(200);
      const limited = await get(`${r.url}/models`, bearer('a'));
      expect(limited.status).toBe(429);
      const p = problemOf(limited);
      expect(p).toMatchObject({ code: 'account.rate_limited', params: { limit: 3, window: 60 }, retry_after: expect.any(Number) });
      expect(Number(limited.headers['retry-after'])).toBe(p.retry_after);
      expect(p.retry_after as number).toBeGreaterThan(0);
      expect((await get(`${r.url}/models`, bearer('b'))).status).toBe(200);
      expect((await get(`${r.url}/version`)).status).toBe(200);
    } finally {
      await r.close();
    }
  });

  it('limits anonymous callers per client address', async () => {
    const r = await withRunner({ rate_limit: { limit: 2, window_seconds: 1 } });
    try {
      expect((await get(`${r.url}/models`)).status).toBe(200);
      expect((await get(`${r.url}/models`)).status).toBe(200);
      expect((await get(`${r.url}/models`)).status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await get(`${r.url}/models`)).status).toBe(200);
    } finally {
      await r.close();
    }
  });
});
