// HTTP framing at its edges, over raw sockets (what a client library would hide): a client that
// waits for `100 Continue`, CONNECT, and Content-Length values past the limit, past 2^53 or not a
// number. Each is answered at once with a registry problem; a refused body is never asked for.

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO, withRunner, type Runner } from './helpers.js';

// The body timeout is far longer than any test here: an answer that waited for it would fail the
// test by its own timeout instead of arriving.
const BODY_TIMEOUT_MS = 120_000;
const MAX_BODY = 4096;

let runner: Runner;
let guarded: Runner;
beforeAll(async () => {
  runner = await withRunner({ limits: { max_body_bytes: MAX_BODY, body_timeout_ms: BODY_TIMEOUT_MS } });
  guarded = await withRunner({ limits: { max_body_bytes: MAX_BODY, body_timeout_ms: BODY_TIMEOUT_MS }, auth: { tokens: [{ token: 'tok-123', name: 'ci' }] } });
});
afterAll(async () => {
  await Promise.all([runner.close(), guarded.close()]);
});

interface Conversation {
  /** Everything received until the first complete final answer (or the connection's end). */
  received: Promise<string>;
  socket: net.Socket;
}

/** Opens a connection, sends `head`, and collects what comes back. */
function talk(url: string, head: string): Conversation {
  const u = new URL(url);
  const socket = net.connect(Number(u.port), u.hostname, () => socket.write(head));
  const received = new Promise<string>((resolve, reject) => {
    let data = '';
    const done = (): void => resolve(data);
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      // A final answer with its whole body: enough (the connection may stay open to read a body).
      const final = data.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const [answerHead, body] = splitAnswer(final);
      const length = /\r\nContent-Length: (\d+)/i.exec(answerHead ?? '');
      if (length && body !== undefined && Buffer.byteLength(body) >= Number(length[1])) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', reject);
  });
  return { received, socket };
}

function splitAnswer(text: string): [string | undefined, string | undefined] {
  const at = text.indexOf('\r\n\r\n');
  return at < 0 ? [undefined, undefined] : [text.slice(0, at), text.slice(at + 4)];
}

function problemIn(text: string): { status: number; head: string; problem: Record<string, any> } {
  const [head, body] = splitAnswer(text);
  expect(head, text).toBeDefined();
  expect(head).toMatch(/\r\nContent-Type: application\/problem\+json/i);
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head!)![1]), head: head!, problem: JSON.parse(body!) };
}

const post = (path: string, headers: string[]): string => [`POST ${path} HTTP/1.1`, 'Host: runner', 'Content-Type: application/json', ...headers, '', ''].join('\r\n');

describe('Expect: 100-continue', () => {
  it('refuses a declared body over the limit with 413 and never sends 100 Continue', async () => {
    const c = talk(runner.url, post('/v1/execute', ['Expect: 100-continue', `Content-Length: ${MAX_BODY + 1}`]));
    const text = await c.received;
    c.socket.destroy();
    expect(text).not.toContain('100 Continue');
    expect(text.startsWith('HTTP/1.1 413 ')).toBe(true);
    const { problem, head } = problemIn(text);
    expect(problem).toMatchObject({ code: 'request.too_large', status: 413, params: { limit: MAX_BODY, size: MAX_BODY + 1 } });
    expect(head).toMatch(/\r\nConnection: close/i);
  });

  it('does not ask an unauthenticated client for its body either', async () => {
    const c = talk(guarded.url, post('/v1/execute', ['Expect: 100-continue', 'Content-Length: 100']));
    const text = await c.received;
    c.socket.destroy();
    expect(text).not.toContain('100 Continue');
    expect(text.startsWith('HTTP/1.1 401 ')).toBe(true);
    expect(problemIn(text).problem.code).toBe('auth.missing_credential');
  });

  it('sends exactly one 100 Continue for an accepted body, then the answer', async () => {
    const body = JSON.stringify({ mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } });
    const u = new URL(runner.url);
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(post('/v1/execute', ['Expect: 100-continue', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'])));
    let data = '';
    const interim = new Promise<void>((resolve) => {
      socket.on('data', (chunk) => {
        data += chunk.toString('utf8');
        if (data.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve();
      });
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await interim;
    // Nothing but the interim answer before the body is sent.
    expect(data).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    socket.write(body);
    await ended;
    const final = data.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
    expect(final.startsWith('HTTP/1.1 200 ')).toBe(true);
    expect(final).not.toContain('100 Continue');
  });
});

describe('CONNECT', () => {
  it('answers a registry problem and closes the connection', async () => {
    const c = talk(runner.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const text = await c.received;
    const { status, problem, head } = problemIn(text);
    expect(status).toBe(405);
    expect(problem).toMatchObject({ code: 'request.method_not_allowed', status: 405, request_id: expect.any(String) });
    expect(head).toContain(`X-Request-ID: ${problem['request_id']}`);
    expect(head).toMatch(/\r\nConnection: close/i);
    await new Promise<void>((resolve) => (c.socket.closed ? resolve() : c.socket.once('close', () => resolve())));
  });
});

/** The answer to a POST declaring `length` and sending no body byte. */
async function declaring(length: string): Promise<{ status: number; problem: Record<string, any> }> {
  const c = talk(runner.url, post('/v1/execute', [`Content-Length: ${length}`]));
  const text = await c.received;
  c.socket.destroy();
  return problemIn(text);
}

describe('Content-Length', () => {
  it.each([
    ['past 2^53', '9007199254740993'],
    ['just under 2^64', '18446744073709551615'],
    ['far past the limit', String(MAX_BODY * 1000)],
  ])('refuses a length %s with 413 at once, before any body byte', async (_name, length) => {
    const { status, problem } = await declaring(length);
    expect(status).toBe(413);
    expect(problem['code']).toBe('request.too_large');
    expect(problem['params'].limit).toBe(MAX_BODY);
    expect(Number.isSafeInteger(problem['params'].size)).toBe(true);
    expect(problem['params'].size).toBeGreaterThan(MAX_BODY);
  });

  it.each([
    ['past 2^64', '99999999999999999999999'],
    ['not a number', '12abc'],
    ['negative', '-5'],
  ])('refuses a length %s with a problem at once', async (_name, length) => {
    const { status, problem } = await declaring(length);
    expect(status).toBe(422);
    expect(problem).toMatchObject({ code: 'request.invalid', params: { field: 'Content-Length' } });
  });
});
