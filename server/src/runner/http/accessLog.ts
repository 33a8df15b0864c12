// One line per request for the operator (`mthds serve` writes them to stderr): when it ended, the
// method, the path (no query string: it is the caller's), the status, how long it took, the request
// id (the X-Request-ID of the answer, so the line meets the problem a client holds) and the
// client's User-Agent. A request whose connection ended without an answer reads `-` as status.

import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_FIELD = 256;

/** A header or path as one printable, bounded token: the log stays one line per request. */
function quoted(value: string | undefined): string {
  if (value === undefined || value === '') return '-';
  return JSON.stringify(value.length > MAX_FIELD ? `${value.slice(0, MAX_FIELD)}…` : value);
}

function pathOf(req: IncomingMessage): string {
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

const PRINTABLE_PATH = /^[\x21-\x7e]{1,1024}$/;
const METHOD = /^[A-Z]{1,16}$/;

// The time of the line, formatted once per millisecond (a busy runner ends many requests in one).
let stampAt = -1;
let stamp = '';

function isoTime(now: Date): string {
  const ms = now.getTime();
  if (ms !== stampAt) {
    stampAt = ms;
    stamp = now.toISOString();
  }
  return stamp;
}

export function accessLogLine(req: IncomingMessage, res: ServerResponse, startedAt: bigint, now = new Date()): string {
  const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
  const status = res.headersSent ? String(res.statusCode) : '-';
  const id = res.getHeader('X-Request-ID');
  const path = pathOf(req);
  const method = req.method ?? '';
  return `${isoTime(now)} ${METHOD.test(method) ? method : quoted(req.method)} ${PRINTABLE_PATH.test(path) ? path : quoted(path)} ${status} ${ms.toFixed(1)}ms ${typeof id === 'string' ? id : '-'} ${quoted(req.headers['user-agent'])}`;
}

/** Logs the request once its answer is out or its connection gone. */
export function logWhenDone(req: IncomingMessage, res: ServerResponse, log: (line: string) => void): void {
  const startedAt = process.hrtime.bigint();
  res.once('close', () => log(accessLogLine(req, res, startedAt)));
}
