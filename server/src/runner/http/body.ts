// Reading a request body under the runner's bounds: a declared Content-Length past the limit is
// refused before a byte is read, a streamed body as soon as it passes the limit, and a body that
// does not arrive in time ends the connection (a slow client must not hold the server's memory).
// The bytes being received by all requests together are bounded too (BodyBudget).

import type { IncomingMessage } from 'node:http';
import { Refusal } from '../refusal.js';

/** The client went away or was too slow: there is nobody to answer. */
export class BodyAbandoned extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'BodyAbandoned';
  }
}

/**
 * Bytes of request bodies being received at once, across all requests: slow clients each holding
 * a body just under the per-request bound must not add up to unbounded memory.
 */
export class BodyBudget {
  used = 0;
  constructor(readonly max: number) {}
}

function busy(): Refusal {
  return new Refusal('mthdsls.runtime.unavailable', {}, { retryAfter: 1, detail: 'The runner is receiving its maximum of request body bytes at once; retry shortly.' });
}

export function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number, budget?: BodyBudget): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const size = Number(declared);
    if (Number.isSafeInteger(size) && size > maxBytes) {
      return Promise.reject(new Refusal('request.too_large', { limit: maxBytes, size }));
    }
    if (budget && Number.isSafeInteger(size) && budget.used + size > budget.max) return Promise.reject(busy());
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (error?: Error, body?: Buffer): void => {
      if (settled) return;
      settled = true;
      if (budget) budget.used -= received;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (error) reject(error);
      else resolve(body!);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (budget) budget.used += chunk.length;
      if (received > maxBytes) {
        chunks.length = 0;
        finish(new Refusal('request.too_large', { limit: maxBytes, size: received }));
        return;
      }
      if (budget && budget.used > budget.max) {
        chunks.length = 0;
        finish(busy());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish(undefined, Buffer.concat(chunks, received));
    const onError = (): void => finish(new BodyAbandoned('the connection failed while the body was read'));
    const onAborted = (): void => finish(new BodyAbandoned('the client aborted the request'));
    const timer = setTimeout(() => {
      finish(new BodyAbandoned('the body did not arrive in time'));
      req.socket.destroy();
    }, timeoutMs);
    timer.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}
