// Cross-origin access (runner/http/cors.ts): which configured values are origins, which request
// origins they allow, the headers of a preflight and of an actual answer, and the configuration's
// checks (`*` only with tokens, a warning for origins on an anonymous runner).

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/files.js';
import { allowedOrigin, isPreflight, parseOriginRule, preflightHeaders, responseHeaders, type CorsPolicy, type OriginRule } from '../../../server/src/runner/http/cors.js';
import { ConfigError, configWarnings, readConfigFile, resolveConfig } from '../../../server/src/runner/config.js';

function rule(value: string): OriginRule {
  const read = parseOriginRule(value);
  if (!read.ok) throw new Error(read.problem);
  return read.rule;
}

function problem(value: unknown): string {
  const read = parseOriginRule(value);
  if (read.ok) throw new Error(`${String(value)} was accepted`);
  return read.problem;
}

const policy = (...values: string[]): CorsPolicy => ({ rules: values.map(rule), maxAgeSeconds: 600 });

function configProblems(options: Parameters<typeof resolveConfig>[0]): string[] {
  try {
    resolveConfig({ env: {}, ...options });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('configured origins', () => {
  it('reads exact origins, subdomain patterns and *', () => {
    expect(rule('https://vscode.dev')).toEqual({ kind: 'exact', origin: 'https://vscode.dev' });
    expect(rule('http://127.0.0.1:5173')).toEqual({ kind: 'exact', origin: 'http://127.0.0.1:5173' });
    expect(rule('https://*.vscode-cdn.net')).toEqual({ kind: 'subdomains', protocol: 'https:', suffix: '.vscode-cdn.net', port: '' });
    expect(rule('http://*.example.test:8443')).toEqual({ kind: 'subdomains', protocol: 'http:', suffix: '.example.test', port: '8443' });
    expect(rule('*')).toEqual({ kind: 'any' });
  });

  it('refuses what a browser never sends as an origin, naming the origin meant', () => {
    expect(problem('https://vscode.dev/')).toMatch(/not an origin as browsers send it.*did you mean https:\/\/vscode\.dev\?/);
    expect(problem('https://VSCode.dev')).toMatch(/did you mean https:\/\/vscode\.dev\?/);
    expect(problem('https://vscode.dev:443')).toMatch(/did you mean https:\/\/vscode\.dev\?/);
    expect(problem('https://vscode.dev/path?q=1')).toMatch(/did you mean https:\/\/vscode\.dev\?/);
    expect(problem('https://*.Vscode-CDN.net/')).toMatch(/did you mean https:\/\/\*\.vscode-cdn\.net\?/);
    expect(problem('vscode.dev')).toMatch(/is not an origin \(scheme:\/\/host\[:port\]/);
    expect(problem('ftp://files.example')).toMatch(/only http and https/);
    expect(problem('null')).toMatch(/sandboxed frame/);
    expect(problem('')).toMatch(/must be an origin/);
    expect(problem(42)).toMatch(/must be an origin/);
    // A pattern as wide as a top-level domain is refused.
    expect(problem('https://*.com')).toMatch(/at least two labels/);
    expect(problem('https://*')).toMatch(/\* stands for the whole first label/);
    expect(problem('https://a.*.example.com')).toMatch(/\* stands for the whole first label/);
    expect(problem('https://*foo.example.com')).toMatch(/\* stands for the whole first label/);
  });
});

describe('matching a request origin', () => {
  it('answers the request origin itself for an exact origin, never the list', () => {
    const p = policy('https://vscode.dev', 'https://github.dev');
    expect(allowedOrigin(p, 'https://github.dev')).toBe('https://github.dev');
    expect(allowedOrigin(p, 'https://vscode.dev')).toBe('https://vscode.dev');
    expect(allowedOrigin(p, 'http://vscode.dev')).toBeUndefined();
    expect(allowedOrigin(p, 'https://vscode.dev:8443')).toBeUndefined();
    expect(allowedOrigin(p, 'https://evil.vscode.dev')).toBeUndefined();
    expect(allowedOrigin(p, 'https://vscode.dev.evil.example')).toBeUndefined();
    expect(allowedOrigin(p, undefined)).toBeUndefined();
    expect(allowedOrigin(p, '')).toBeUndefined();
    expect(allowedOrigin(p, 'null')).toBeUndefined();
  });

  it('allows any subdomain of a pattern, with its scheme and port only', () => {
    const p = policy('https://*.vscode-cdn.net');
    expect(allowedOrigin(p, 'https://v--1etn2pi73v74.vscode-cdn.net')).toBe('https://v--1etn2pi73v74.vscode-cdn.net');
    expect(allowedOrigin(p, 'https://a.b.vscode-cdn.net')).toBe('https://a.b.vscode-cdn.net');
    expect(allowedOrigin(p, 'https://vscode-cdn.net')).toBeUndefined();
    expect(allowedOrigin(p, 'https://evilvscode-cdn.net')).toBeUndefined();
    expect(allowedOrigin(p, 'http://x.vscode-cdn.net')).toBeUndefined();
    expect(allowedOrigin(p, 'https://x.vscode-cdn.net:444')).toBeUndefined();
    expect(allowedOrigin(p, 'https://x.vscode-cdn.net.evil.example')).toBeUndefined();
    // Not serialized origins: a path, upper case, a user.
    expect(allowedOrigin(p, 'https://evil.example/.vscode-cdn.net')).toBeUndefined();
    expect(allowedOrigin(p, 'https://X.vscode-cdn.net')).toBeUndefined();
    expect(allowedOrigin(p, 'https://u@x.vscode-cdn.net')).toBeUndefined();
    expect(allowedOrigin(p, 'not a url')).toBeUndefined();
  });

  it('answers * for any origin when * is allowed', () => {
    expect(allowedOrigin(policy('*'), 'https://anything.example')).toBe('*');
  });
});

describe('headers', () => {
  const p = policy('https://vscode.dev');

  it('tells a preflight from other OPTIONS requests', () => {
    const base = { origin: 'https://vscode.dev', 'access-control-request-method': 'POST' };
    expect(isPreflight('OPTIONS', base)).toBe(true);
    expect(isPreflight('OPTIONS', { ...base, 'content-length': '0' })).toBe(true);
    expect(isPreflight('POST', base)).toBe(false);
    expect(isPreflight('OPTIONS', { origin: 'https://vscode.dev' })).toBe(false);
    expect(isPreflight('OPTIONS', { 'access-control-request-method': 'POST' })).toBe(false);
    // A body is no preflight's: it is left to the route, which refuses OPTIONS.
    expect(isPreflight('OPTIONS', { ...base, 'content-length': '12' })).toBe(false);
    expect(isPreflight('OPTIONS', { ...base, 'transfer-encoding': 'chunked' })).toBe(false);
  });

  it('allows the methods, the request headers the runner reads, and a max age to an allowed preflight', () => {
    const h = preflightHeaders(p, 'https://vscode.dev', { 'access-control-request-method': 'POST' });
    expect(h['Access-Control-Allow-Origin']).toBe('https://vscode.dev');
    expect(h['Access-Control-Allow-Methods']!.split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST']));
    expect(h['Access-Control-Allow-Headers']!.toLowerCase().split(', ')).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-request-id']));
    expect(h['Access-Control-Max-Age']).toBe('600');
    expect(h['Vary']).toBe('Origin');
    expect(h).not.toHaveProperty('Access-Control-Allow-Credentials');
    expect(h).not.toHaveProperty('Access-Control-Allow-Private-Network');
    expect(preflightHeaders(p, 'https://vscode.dev', { 'access-control-request-private-network': 'true' })['Access-Control-Allow-Private-Network']).toBe('true');
  });

  it('gives a refused origin nothing but Vary', () => {
    expect(preflightHeaders(p, 'https://evil.example', { 'access-control-request-private-network': 'true' })).toEqual({ Vary: 'Origin' });
    expect(responseHeaders(p, 'https://evil.example')).toEqual({ Vary: 'Origin' });
    expect(responseHeaders(p, undefined)).toEqual({ Vary: 'Origin' });
  });

  it('exposes the response headers a client reads on an allowed answer', () => {
    const h = responseHeaders(p, 'https://vscode.dev');
    expect(h['Access-Control-Allow-Origin']).toBe('https://vscode.dev');
    expect(h['Vary']).toBe('Origin');
    expect(h['Access-Control-Expose-Headers']!.split(', ')).toEqual(expect.arrayContaining(['Location', 'Retry-After', 'X-Request-ID', 'Idempotent-Replayed', 'WWW-Authenticate']));
    expect(h).not.toHaveProperty('Access-Control-Allow-Credentials');
    expect(responseHeaders(policy('*'), 'https://x.example')['Access-Control-Allow-Origin']).toBe('*');
  });
});

describe('the cors configuration', () => {
  it('is off by default and when the list is empty', () => {
    expect(resolveConfig({ env: {} }).cors).toBeUndefined();
    expect(resolveConfig({ env: {}, cors: { allow_origins: [] } }).cors).toBeUndefined();
  });

  it('resolves origins and the max age', () => {
    const cors = resolveConfig({ env: {}, cors: { allow_origins: ['https://vscode.dev', 'https://*.vscode-cdn.net'], max_age_seconds: 60 } }).cors!;
    expect(cors.maxAgeSeconds).toBe(60);
    expect(cors.rules.map((r) => r.kind)).toEqual(['exact', 'subdomains']);
  });

  it('lists every bad value with its place', () => {
    const problems = configProblems({ cors: { allow_origins: ['https://ok.example', 'https://vscode.dev/', 'nope'], max_age_seconds: -1 } });
    expect(problems).toEqual([
      'cors.max_age_seconds must be a non-negative integer',
      'cors.allow_origins[1]: "https://vscode.dev/" is not an origin as browsers send it (scheme://host[:port], no path, no trailing slash): did you mean https://vscode.dev?',
      'cors.allow_origins[2]: "nope" is not an origin (scheme://host[:port], such as https://vscode.dev)',
    ]);
    expect(configProblems({ cors: { allow_origins: 'https://vscode.dev' as unknown as string[] } })).toEqual(['cors.allow_origins must be a list of origins']);
    expect(configProblems({ cors: ['x'] as unknown as { allow_origins: string[] } })).toEqual(['cors must be a table']);
    expect(configProblems({ cors: { allow_origin: ['x'] } as unknown as { allow_origins: string[] } })).toEqual(['unknown key cors.allow_origin in [cors]: did you mean cors.allow_origins?']);
  });

  it('allows * only with bearer tokens, from the file or the environment', () => {
    expect(configProblems({ cors: { allow_origins: ['*'] } })).toEqual([expect.stringMatching(/^cors\.allow_origins\[0\]: "\*" needs bearer tokens/)]);
    expect(configProblems({ cors: { allow_origins: ['*'] }, auth: { tokens: [{ token: 't' }] } })).toEqual([]);
    expect(resolveConfig({ env: { MTHDS_RUNNER_TOKENS: 't' }, cors: { allow_origins: ['*'] } }).cors!.rules).toEqual([{ kind: 'any' }]);
    expect(configProblems({ env: { MTHDS_RUNNER_TOKENS: 't' }, auth: { env: false }, cors: { allow_origins: ['*'] } })).toHaveLength(1);
  });

  it('warns when named origins reach an anonymous runner', () => {
    const anonymous = resolveConfig({ env: {}, cors: { allow_origins: ['https://vscode.dev'] } });
    expect(configWarnings(anonymous)).toEqual([expect.stringMatching(/^cors\.allow_origins lets browser pages call this runner, which has no bearer tokens/)]);
    expect(configWarnings(resolveConfig({ env: { MTHDS_RUNNER_TOKENS: 't' }, cors: { allow_origins: ['https://vscode.dev'] } }))).toEqual([]);
  });
});

describe('the [cors] block of docs/runner.md', () => {
  it('is a configuration the runner reads, allowing what the page says', () => {
    const doc = readFileSync(path.join(REPO, 'docs/runner.md'), 'utf8');
    const block = /<!-- runner-cors\.toml -->\n```toml\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(block).toBeDefined();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mthds-cors-doc-')), 'runner.toml');
    writeFileSync(file, `${block!}\n`);
    const cors = resolveConfig({ ...readConfigFile(file), env: { MTHDS_RUNNER_TOKENS: 't' } }).cors!;
    expect(cors.maxAgeSeconds).toBe(600);
    expect(allowedOrigin(cors, 'https://v--1etn2pi73v74.vscode-cdn.net')).toBe('https://v--1etn2pi73v74.vscode-cdn.net');
    expect(allowedOrigin(cors, 'http://127.0.0.1:5173')).toBe('http://127.0.0.1:5173');
    expect(allowedOrigin(cors, 'https://vscode.dev')).toBeUndefined();
  });
});
