// The fetch a provider's SDK client sends its requests with: node:http(s) with a keep-alive agent
// of the provider's own, and three bounds a provider that stalls meets (a `fetch` has none, and a
// run would otherwise wait for its whole run timeout): the connection, the first byte of the
// answer (its status line and headers) and the whole answer. Each fault is a ProviderFault that
// says what happened, so that the log and the problem can say it too.

import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

export interface ProviderTimeouts {
  connectMs: number;
  firstByteMs: number;
  totalMs: number;
}

/** The defaults of `models.providers[].timeouts` (connect_ms, first_byte_ms, total_ms). */
export const DEFAULT_PROVIDER_TIMEOUTS: ProviderTimeouts = { connectMs: 10_000, firstByteMs: 120_000, totalMs: 300_000 };

export type FaultKind = 'refused' | 'connect_timeout' | 'first_byte_timeout' | 'total_timeout' | 'network';

/** A request to a provider that failed before an HTTP answer could be read whole. */
export class ProviderFault extends Error {
  constructor(
    readonly kind: FaultKind,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderFault';
  }
}

const NO_BODY = new Set([101, 204, 205, 304]);

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = Parameters<typeof fetch>[1];

function bodyOf(init: FetchInit): string | Uint8Array | undefined {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('a provider request body must be text or bytes');
}

/** A fetch bounded by `timeouts`. */
export function timedFetch(timeouts: ProviderTimeouts): typeof fetch {
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  const timed = (input: FetchInput, init?: FetchInit): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const secure = url.protocol === 'https:';
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
      const body = bodyOf(init);
      if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      const req = (secure ? https : http).request(url, { method: init?.method ?? 'GET', headers, agent: secure ? agents.https : agents.http });
      // The whole answer's bound runs from the start; the phase's (connection, then first byte) is replaced as it ends.
      let total: NodeJS.Timeout | undefined;
      let phase: NodeJS.Timeout | undefined;
      let settled = false;
      let answer: http.IncomingMessage | undefined;
      const clear = (): void => {
        clearTimeout(total);
        clearTimeout(phase);
      };
      const fail = (error: Error): void => {
        clear();
        signal?.removeEventListener('abort', onAbort);
        if (answer) answer.destroy(error);
        req.destroy(error);
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      const timer = (ms: number, kind: FaultKind, what: string): NodeJS.Timeout => setTimeout(() => fail(new ProviderFault(kind, `${what} within ${ms} ms`)), ms);
      const signal = init?.signal ?? undefined;
      const onAbort = (): void => fail(signal?.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      total = timer(timeouts.totalMs, 'total_timeout', 'the whole answer did not arrive');
      const connected = (): void => {
        clearTimeout(phase);
        phase = timer(timeouts.firstByteMs, 'first_byte_timeout', 'no answer began');
      };
      req.on('socket', (socket) => {
        if (!socket.connecting) return connected();
        phase = timer(timeouts.connectMs, 'connect_timeout', 'no connection was made');
        socket.once(secure ? 'secureConnect' : 'connect', connected);
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof ProviderFault || error.name === 'AbortError') return fail(error);
        const kind: FaultKind = error.code === 'ECONNREFUSED' ? 'refused' : 'network';
        fail(new ProviderFault(kind, kind === 'refused' ? 'the connection was refused' : `the connection failed (${error.code ?? error.message})`));
      });
      req.on('response', (res) => {
        answer = res;
        // The first byte came: only the whole answer's bound remains.
        clearTimeout(phase);
        res.once('end', () => {
          clear();
          signal?.removeEventListener('abort', onAbort);
        });
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(key, v));
          else if (value !== undefined) responseHeaders.set(key, value);
        }
        const status = res.statusCode ?? 502;
        settled = true;
        const stream = NO_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        if (!stream) res.resume();
        resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
      });
      req.end(body);
    });
  return timed as typeof fetch;
}
