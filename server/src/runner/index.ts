// The built-in method runner (MTHDS protocol 0.6.0): `startRunner` serves it on node:http, for the
// `mthds serve` command and for the language server, which runs it in-process on loopback.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { configWarnings, resolveConfig, type RunnerOptions } from './config.js';
import { Refusal } from './refusal.js';
import { loadFunctionRegistry, registryWarnings, type FunctionRegistry } from './functions.js';
import { createHandler, createState } from './server.js';
import type { SharedStores } from './sharedStores.js';
import { problemDocument } from './http/respond.js';
import { ulid } from './http/requestId.js';
import { batchedLog, logWhenDone } from './http/accessLog.js';
import { PROBLEM_CONTENT_TYPE } from '../registry/index.js';
// The Redis queue (BullMQ, ioredis: a third of the bundled code) is loaded only by a runner or a
// worker that names one: the language server and `mthds check` start without it.
import type { QueueSettings, RunWorker } from './lifecycle/redisQueue.js';
const redisQueue = (): Promise<typeof import('./lifecycle/redisQueue.js')> => import('./lifecycle/redisQueue.js');
import { ModelDeck } from './deck.js';
import { warmUp } from './warmUp.js';

import { ConfigError } from './config.js';
export { ConfigError, configWarnings, readConfigFile, resolveConfig, type RunnerConfig, type RunnerOptions } from './config.js';
export { FindingLocator, inputForm, pendingSignatures, validateContents, validateMethod, type DryRunHook, type DryRunInput, type DryRunOutcome, type InputForm, type ValidateOptions, type ValidationErrorItem, type ValidationVerdict } from './validate.js';
export { loadMethod, selectPipe, type LoadedMethod, type MethodSource } from './method.js';
export { loadFunctionRegistry, type FunctionCallContext, type FunctionRegistry, type RegisteredFunction } from './functions.js';

export interface RunningRunner {
  /** The base URL clients use: scheme, host, port and base path (e.g. http://127.0.0.1:8080/v1). */
  url: string;
  port: number;
  /**
   * Stops accepting connections, lets requests in flight finish (background runs are cancelled and
   * their callbacks sent) within `graceMs`, then closes every connection.
   */
  close(graceMs?: number): Promise<void>;
}

/** Answers a refusal on a raw connection (no request object: bad bytes, CONNECT) and closes it. */
function endWithProblem(socket: Duplex, refusal: Refusal): void {
  const requestId = ulid();
  const problem = problemDocument(refusal, requestId, '/');
  const body = JSON.stringify(problem);
  const status = problem.status;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nX-Request-ID: ${requestId}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * Serves the runner. `stores` replaces the in-memory idempotency and rate-limit state of this
 * process (the workers of a cluster share the primary's; see cluster.ts).
 */
export async function startRunner(options: RunnerOptions = {}, stores?: SharedStores): Promise<RunningRunner> {
  const config = resolveConfig(options);
  if (options.startup_warnings !== false) for (const line of configWarnings(config)) config.log(`warning: ${line}`);
  let functions: FunctionRegistry | undefined;
  if (config.functions.length > 0) {
    functions = await loadFunctionRegistry(config.functions);
    for (const line of registryWarnings(functions)) config.log(`warning: ${line}`);
  }
  const queue = config.runs.queue ? await (await redisQueue()).RedisQueue.open(queueSettings(config, config.runs.queue)) : undefined;
  const state = createState(config, functions, stores, queue);
  if (queue) state.idempotency = queue.idempotency(config.idempotency);
  if (config.warmUp > 0) {
    const done = await warmUp(config, functions, { cpuBudgetMs: config.warmUp });
    config.log(`warm-up: ${done.requests} /validate requests in ${Math.round(done.ms)} ms (CPU ${Math.round(done.cpuMs)} ms)${done.failed > 0 ? `, ${done.failed} not answered 200` : ''}`);
  }
  const server = http.createServer({
    // Our own body timer answers first; this is the backstop for clients that never send headers.
    requestTimeout: config.limits.body_timeout_ms + 5_000,
    headersTimeout: Math.min(config.limits.body_timeout_ms, 20_000),
    keepAliveTimeout: 5_000,
    // How often those two timeouts are checked (Node's default, 30 s, lets a client that trickles
    // its headers hold a connection for half a minute whatever the timeouts say).
    connectionsCheckingInterval: Math.max(250, Math.min(1_000, Math.floor(config.limits.body_timeout_ms / 2))),
  });
  const inFlight = new Set<Promise<void>>();
  const handler = createHandler(state);
  // Requests start one per turn of the event loop, in arrival order. Most of a request's work is
  // synchronous (parse, check, dry run, mock run): started together from one read of many sockets,
  // they would fill each turn, and libuv accepts one new connection per turn, so under a burst of
  // connections the last ones waited seconds to be accepted at all (bench/load.mjs: first requests
  // timing out at 100 and 500 connections).
  const waiting: Array<[http.IncomingMessage, http.ServerResponse]> = [];
  let startScheduled = false;
  const startNext = (): void => {
    const next = waiting.shift();
    startScheduled = waiting.length > 0;
    if (startScheduled) setImmediate(startNext);
    // A client gone while its request waited: nobody to answer.
    if (next && !next[0].socket.destroyed) handler(next[0], next[1]);
  };
  const requestLog = options.request_log ? batchedLog(options.request_log) : undefined;
  server.on('request', (req, res) => {
    if (requestLog) logWhenDone(req, res, requestLog);
    const done = new Promise<void>((resolve) => {
      res.on('close', resolve);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
    waiting.push([req, res]);
    if (!startScheduled) {
      startScheduled = true;
      setImmediate(startNext);
    }
  });
  // Bytes that are not an HTTP request never reach a route; they still get a registry problem.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // A request whose headers (or body) did not arrive in time: the connection is closed without an
    // answer, as for a body that does not arrive in time (nobody may be reading).
    if (!socket.writable || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.destroy();
      return;
    }
    const refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new Refusal('request.too_large', { limit: 16_384, size: 16_385 }, { detail: 'The request headers are larger than this runner accepts.' })
        : error.code === 'HPE_INVALID_CONTENT_LENGTH' || error.code === 'HPE_UNEXPECTED_CONTENT_LENGTH'
          ? new Refusal('request.invalid', { field: 'Content-Length' }, { detail: 'The Content-Length header is not a length in bytes this runner can read.' })
          : new Refusal('request.invalid', { field: 'http' }, { detail: 'The bytes received are not a well-formed HTTP/1.1 request.' });
    endWithProblem(socket, refusal);
  });
  // A client waiting for `100 Continue` is served like any other; the route sends the interim
  // answer only when it is about to read a body it accepts (http/body.ts), so a body that is
  // refused (too large, unauthenticated, wrong route) is never asked for.
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    server.emit('request', req, res);
  });
  // CONNECT (a tunnel through a proxy) names no route of the runner: Node would drop the
  // connection without a word; the runner answers a registry problem and closes it.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    endWithProblem(socket, new Refusal('request.method_not_allowed', {}, { detail: 'CONNECT is not a method of this runner: it is not a proxy.' }));
  });
  // An Expect header other than 100-continue: Node would answer a bare 417; the runner answers a
  // registry problem like for any other refusal.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const requestId = ulid();
    const refusal = new Refusal('request.unsupported', { field: 'Expect', reason: 'expectation' }, { detail: 'The Expect header asks for an expectation this runner does not support (only 100-continue).' });
    const body = JSON.stringify(problemDocument(refusal, requestId, (req.url ?? '/').split('?')[0]!.slice(0, 1024)));
    res.writeHead(422, { 'Content-Type': PROBLEM_CONTENT_TYPE, 'X-Request-ID': requestId, Connection: 'close', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    req.resume();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}${config.basePath}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Background runs have nobody waiting on a socket: cancel them now so that their callbacks go out.
        const shutdown = new Refusal('mthdsls.run.cancelled', { reason: 'shutdown' });
        state.runs.abortAll(shutdown, true);
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
        await Promise.race([Promise.all([...inFlight, ...state.background]), deadline]);
        // Past the grace period, runs still executing are cancelled and answered as such.
        state.runs.abortAll(shutdown);
        await Promise.race([Promise.all([...inFlight]), new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref())]);
        server.closeAllConnections();
        await closed;
        requestLog?.close();
        await state.queue.close();
      })();
      return closing;
    },
  };
}

function queueSettings(config: ReturnType<typeof resolveConfig>, url: string): QueueSettings {
  return { url, retentionSeconds: config.runs.retentionSeconds, stallMs: config.runs.stallTimeoutMs, maxAttempts: config.runs.attempts };
}

/**
 * A queue worker (`mthds worker`): takes runs from the configured queue, `concurrency` at once,
 * with this config's deck, limits and function modules.
 */
export async function startWorker(options: RunnerOptions, concurrency: number): Promise<RunWorker> {
  const config = resolveConfig(options);
  for (const line of configWarnings(config)) config.log(`warning: ${line}`);
  if (!config.runs.queue) throw new ConfigError(['runs.queue must name the queue (redis://HOST:PORT) a worker takes runs from']);
  let functions: FunctionRegistry | undefined;
  if (config.functions.length > 0) {
    functions = await loadFunctionRegistry(config.functions);
    for (const line of registryWarnings(functions)) config.log(`warning: ${line}`);
  }
  const deck = new ModelDeck(config.models, config.env, config.network, config.log);
  return (await redisQueue()).startRunWorker(queueSettings(config, config.runs.queue), concurrency, { config, deck, ...(functions ? { functions } : {}) });
}
