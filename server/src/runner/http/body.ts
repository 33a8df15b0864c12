// Reading a request body under the runner's bounds: a declared Content-Length past the limit (or
// malformed) is refused before a byte is read and before `100 Continue` is sent, a streamed body
// as soon as it passes the limit, and a body that does not arrive in time ends the connection (a
// slow client must not hold the server's memory).
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

/**
 * The refusal of a declared Content-Length, before a byte of the body is read: past the limit
 * (however many digits it has: past 2^53 it is not even a safe integer, and would otherwise be
 * waited for until the body timeout), or not a length at all. Node's parser refuses most
 * malformed values itself; this covers whatever reaches a route.
 */
export function declaredLengthRefusal(header: string | undefined, maxBytes: number): Refusal | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (!/^\d+$/.test(value)) {
    return new Refusal('request.invalid', { field: 'Content-Length' }, { detail: 'The Content-Length header is not a length in bytes.' });
  }
  const size = Number(value);
  if (size > maxBytes) {
    if (Number.isSafeInteger(size)) return new Refusal('request.too_large', { limit: maxBytes, size });
    return new Refusal('request.too_large', { limit: maxBytes, size: Number.MAX_SAFE_INTEGER }, { detail: `The request declares a body of ${value.length > 40 ? `${value.length} digits of` : value} bytes, over the limit of ${maxBytes} bytes.` });
  }
  return undefined;
}

/**
 * Reads the body. `onAccepted` runs once the declared size is within the bounds, just before the
 * body is read: the place to send `100 Continue` to a client that waits for it (never before: a
 * body that would be refused is never asked for).
 */
export function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number, budget?: BodyBudget, onAccepted?: () => void): Promise<Buffer> {
  const declared = req.headers['content-length'];
  const refused = declaredLengthRefusal(declared, maxBytes);
  if (refused) return Promise.reject(refused);
  if (declared !== undefined && budget && budget.used + Number(declared) > budget.max) return Promise.reject(busy());
  onAccepted?.();
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
