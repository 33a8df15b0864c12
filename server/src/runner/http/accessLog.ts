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

/** A log that gathers lines and hands them on together. */
export interface BatchedLog {
  (line: string): void;
  /** Hands on what it holds, and every later line at once (the runner is closing). */
  close(): void;
}

/**
 * Hands `log` the lines of up to `delayMs` (or `maxLines` lines) at once, joined by newlines: the
 * same text as one call per line. `mthds serve` writes its log to stderr, synchronously (a pipe or
 * a file), and under load one write per request was 3 % of a worker's CPU (bench:runner, distinct
 * bundles). The timer does not hold the process: the runner closes the log when it closes.
 */
export function batchedLog(log: (line: string) => void, delayMs = 50, maxLines = 256): BatchedLog {
  let lines: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (lines.length === 0) return;
    const out = lines.join('\n');
    lines = [];
    log(out);
  };
  const batched = (line: string): void => {
    lines.push(line);
    if (closed || lines.length >= maxLines) flush();
    else if (timer === undefined) timer = setTimeout(flush, delayMs).unref();
  };
  const close = (): void => {
    closed = true;
    flush();
  };
  return Object.assign(batched, { close });
}
