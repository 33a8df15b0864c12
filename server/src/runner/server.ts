// The HTTP front of the runner (node:http): routing under the base path, request ids, auth, rate
// limits, body bounds and decoding, idempotency, and the five protocol routes. Every refusal is a
// registry problem; anything unexpected is logged and answered as mthdsls.runtime.internal, with
// no internals in the body.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CORE_REGISTRY_VERSION, getEntry, PROBLEM_CONTENT_TYPE, PROTOCOL_VERSION } from '../registry/index.js';
import { VERSION } from '../version.js';
import { authenticate, authorize, type Identity, type Scope } from './auth.js';
import { checkCallbackUrl } from './callbacks.js';
import { MODEL_TYPES, type ModelType, type ResolvedConfig } from './config.js';
import { ModelDeck } from './deck.js';
import type { FunctionRegistry } from './functions.js';
import { BodyAbandoned, BodyBudget, readBody } from './http/body.js';
import { decodeJsonObject } from './http/json.js';
import { requestIdOf, ulid } from './http/requestId.js';
import { jsonAnswer, jsonTextAnswer, problemAnswer, send, type Answer } from './http/respond.js';
import { isPreflight, preflightHeaders, responseHeaders } from './http/cors.js';
import { IN_FLIGHT_RENEW_MS } from './idempotency.js';
import { localStores, type IdempotencyBackend, type RateLimitBackend, type SharedStores } from './sharedStores.js';
import { isRefusal, Refusal } from './refusal.js';
import { parseRunRequest, parseValidateRequest } from './requests.js';
import { admitRun, bodyDigest, executeRun, RunRegistry } from './runs.js';
import { EmbeddedQueue, type RunQueue } from './lifecycle/queue.js';
import { awaitRun } from './lifecycle/execute.js';
import { pendingRecord, type RunJob } from './lifecycle/process.js';
import { matchRunRead, readHealth, readRunResults, readRunStatus, RecentRuns } from './lifecycle/routes.js';
import { validateMethod, type ValidateOptions } from './validate.js';
import { loadMethod, loadOptionsOf } from './method.js';
import { VerdictCache } from './verdictCache.js';
import { materializeMethod } from './methodRef.js';
import { parsePipeIoRequest, pipeIoReport } from './pipeIoRoute.js';

type RouteName = 'execute' | 'start' | 'validate' | 'pipe_io' | 'models' | 'version' | 'run_status' | 'run_results' | 'health';

interface Route {
  name: RouteName;
  methods: readonly string[];
  scope?: Scope;
  /** The run a lifecycle read names. */
  runId?: string;
}

const ROUTES: Readonly<Record<string, Route>> = {
  '/execute': { name: 'execute', methods: ['POST'], scope: 'run' },
  '/start': { name: 'start', methods: ['POST'], scope: 'run' },
  '/validate': { name: 'validate', methods: ['POST'], scope: 'validate' },
  '/pipe-io': { name: 'pipe_io', methods: ['POST'], scope: 'validate' },
  '/models': { name: 'models', methods: ['GET', 'HEAD'], scope: 'discovery' },
  '/version': { name: 'version', methods: ['GET', 'HEAD'] },
};

const RUN_READ_METHODS = ['GET', 'HEAD'];

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export interface RunnerState {
  config: ResolvedConfig;
  deck: ModelDeck;
  /**
   * Shared by every process serving the runner (see sharedStores.ts); in Redis with a queue, so
   * that every server process knows every key.
   */
  idempotency: IdempotencyBackend;
  rateLimiter?: RateLimitBackend;
  /** Verdicts of /validate by content (this process's own: a cache, never shared state). */
  verdicts: VerdictCache;
  runs: RunRegistry;
  /** Background work (start runs and their callbacks) a graceful shutdown waits for. */
  background: Set<Promise<unknown>>;
  /** Bytes of request bodies being received, all requests together. */
  bodies: BodyBudget;
  /** The function registry of PipeFunc, when function modules are configured. */
  functions?: FunctionRegistry;
  /** Where /start runs go and where they are read from (in-process unless a queue is configured). */
  queue: RunQueue;
  recentRuns: RecentRuns;
}

/** `queue`: where /start runs go when one is configured (Redis); in this process otherwise. */
export function createState(config: ResolvedConfig, functions?: FunctionRegistry, stores: SharedStores = localStores(config), queue?: RunQueue): RunnerState {
  const deck = new ModelDeck(config.models, config.env, config.network, config.log);
  const runs = new RunRegistry(config.limits.max_runs_in_flight);
  const background = new Set<Promise<unknown>>();
  const log = (error: unknown): void => void internal({ config }, error, 'background');
  queue ??= new EmbeddedQueue({ config, deck, runs, background, retentionSeconds: config.runs.retentionSeconds, onInternal: log, ...(functions ? { functions } : {}), ...(stores.runs ? { store: stores.runs } : {}) });
  const state: RunnerState = {
    config,
    deck,
    idempotency: stores.idempotency,
    verdicts: new VerdictCache(config.validateCache),
    runs,
    background,
    bodies: new BodyBudget(config.limits.max_body_bytes_in_flight),
    queue,
    recentRuns: new RecentRuns(),
  };
  if (stores.rateLimiter) state.rateLimiter = stores.rateLimiter;
  if (functions) state.functions = functions;
  return state;
}

function route(state: RunnerState, pathname: string, method: string): Route {
  const base = state.config.basePath;
  const rest = base === '' ? pathname : pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
  const read = rest !== undefined ? matchRunRead(rest) : undefined;
  const found =
    pathname === '/health'
      ? { name: 'health' as const, methods: RUN_READ_METHODS }
      : read
        ? { name: read.name, methods: RUN_READ_METHODS, scope: 'run' as const, runId: read.runId }
        : rest !== undefined && Object.hasOwn(ROUTES, rest)
          ? ROUTES[rest]
          : undefined;
  if (!found) throw new Refusal('request.not_found');
  if (!found.methods.includes(method)) throw new Refusal('request.method_not_allowed', {}, { headers: { Allow: found.methods.join(', ') } });
  return found;
}

function checkContentType(req: IncomingMessage): void {
  // A compressed body would be read as JSON and refused as such: say what is not supported.
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new Refusal('request.unsupported', { field: 'Content-Encoding', reason: 'content_encoding' }, { detail: `The request body must be sent without Content-Encoding (got ${JSON.stringify(encoding.slice(0, 40))}): this runner reads plain JSON.` });
  }
  const header = req.headers['content-type'];
  if (header === undefined) return;
  const [type, ...params] = header.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type ?? '')) {
    throw new Refusal('request.unsupported', { field: 'Content-Type', reason: 'media_type' }, { detail: 'The request body must be sent as application/json.' });
  }
  const charset = params.find((p) => p.startsWith('charset='))?.slice(8).replace(/"/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new Refusal('request.unsupported', { field: 'Content-Type', reason: 'charset' }, { detail: 'The request body must be encoded as UTF-8.' });
  }
}

function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

// Marked on the request itself rather than kept in a WeakSet: on Node 20 a scavenge keeps every
// entry of an old WeakSet whose key is young, so the set made each request (its headers, its
// socket's parser state) survive and be promoted until the next full collection.
const BODY_READ = Symbol('bodyRead');
type MarkedRequest = IncomingMessage & { [BODY_READ]?: true };

/** True for a client that sent `Expect: 100-continue` and waits for `100 Continue` before its body. */
function awaitsContinue(req: IncomingMessage): boolean {
  return (req.headers.expect ?? '').toLowerCase() === '100-continue';
}

async function readJson(state: RunnerState, req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown>> {
  checkContentType(req);
  const accepted = (): void => {
    (req as MarkedRequest)[BODY_READ] = true;
    if (awaitsContinue(req) && !res.headersSent) res.writeContinue();
  };
  const body = await readBody(req, state.config.limits.max_body_bytes, state.config.limits.body_timeout_ms, state.bodies, accepted);
  return decodeJsonObject(body, state.config.limits.max_json_depth);
}

function handleModels(state: RunnerState, url: URL): Answer {
  const types = url.searchParams.getAll('type');
  if (types.length > 1) throw new Refusal('request.invalid', { field: 'type' }, { detail: 'The type query parameter accepts a single value.' });
  const type = types[0];
  if (type !== undefined && !(MODEL_TYPES as readonly string[]).includes(type)) {
    throw new Refusal('request.invalid', { field: 'type' }, { detail: `The type query parameter must be one of ${MODEL_TYPES.join(', ')}.` });
  }
  return jsonAnswer(200, state.deck.wire(type as ModelType | undefined));
}

/** The same for every request: serialized once. */
const VERSION_BODY = JSON.stringify({
  protocol_version: PROTOCOL_VERSION,
  runner_version: VERSION,
  blob_store: false,
  implementation: 'mthds-language-server',
  implementation_version: VERSION,
  error_registry_version: CORE_REGISTRY_VERSION,
  extensions: ['mthds_sources', 'files', 'callback_url', 'idempotency_key', 'input_form', 'method_ref', 'run_lifecycle', 'pipe_io'],
});

function handleVersion(): Answer {
  return jsonTextAnswer(200, VERSION_BODY);
}

async function handleValidate(state: RunnerState, body: Record<string, unknown>): Promise<Answer> {
  const request = parseValidateRequest(body, state.config);
  const source = await materializeMethod(request.method, state.config);
  const key = state.verdicts.key(source, request.allowSignatures);
  const cached = key !== undefined ? state.verdicts.get(key) : undefined;
  if (cached !== undefined) return jsonTextAnswer(200, cached);
  const loadOptions = loadOptionsOf(state.config);
  const options: ValidateOptions = Object.assign({ allowSignatures: request.allowSignatures }, loadOptions);
  if (state.config.dryRun) options.dryRun = state.config.dryRun;
  if (state.functions) options.functions = state.functions.catalog;
  const method = loadMethod(source, loadOptions);
  const answer = jsonAnswer(200, await validateMethod(method, options));
  if (key !== undefined) state.verdicts.set(key, method, answer.body);
  return answer;
}

async function handlePipeIo(state: RunnerState, body: Record<string, unknown>): Promise<Answer> {
  const request = parsePipeIoRequest(body, state.config);
  const source = await materializeMethod(request.method, state.config);
  const loadOptions = loadOptionsOf(state.config);
  const options: ValidateOptions = Object.assign({}, loadOptions);
  if (state.functions) options.functions = state.functions.catalog;
  return jsonAnswer(200, await pipeIoReport(loadMethod(source, loadOptions), request, options));
}

async function handleExecute(state: RunnerState, body: Record<string, unknown>, identity: Identity, requestId: string, instance: string): Promise<Answer> {
  const request = parseRunRequest(body, 'execute', state.config);
  if (request.method) request.method = await materializeMethod(request.method, state.config);
  // With a queue, /execute is a started run that is waited for (202 with its Location past the wait).
  if (state.queue.kind !== 'embedded') {
    const prepared = await admitRun(request, state);
    const job = runJob(identity, body, request.pipeCode, requestId, instance);
    await state.queue.submit(job, prepared);
    return awaitRun(state.queue.store, job.runId, state.config.runs.executeWaitSeconds * 1000, `${state.config.basePath}/runs/${job.runId}/status`);
  }
  const runId = ulid();
  const controller = state.runs.open(runId, false);
  try {
    return jsonAnswer(200, await executeRun(request, state, runId, controller.signal));
  } finally {
    state.runs.close(runId);
  }
}

async function handleStart(state: RunnerState, body: Record<string, unknown>, identity: Identity, requestId: string, instance: string): Promise<Answer> {
  const request = parseRunRequest(body, 'start', state.config);
  if (request.method) request.method = await materializeMethod(request.method, state.config);
  if (request.callbackUrl) await checkCallbackUrl(request.callbackUrl, state.config.callbacks.allowPrivate);
  // Everything that can refuse the request is checked before the 202, as on /execute.
  const prepared = await admitRun(request, state);
  const job = runJob(identity, body, request.pipeCode, requestId, instance);
  await state.queue.submit(job, prepared);
  // What a status read says if the store becomes unreachable before anything else is read.
  state.recentRuns.remember(pendingRecord(job));
  return jsonAnswer(202, { pipeline_run_id: job.runId, state: 'STARTED', created_at: job.createdAt, finished_at: null }, { Location: `${state.config.basePath}/runs/${job.runId}/status` });
}

/** A started run as the queue takes it: a new id, created now. */
function runJob(identity: Identity, body: Record<string, unknown>, pipeCode: string | undefined, requestId: string, instance: string): RunJob {
  return { runId: ulid(), owner: identity.key, body, createdAt: new Date().toISOString(), requestId, instance, ...(pipeCode !== undefined ? { pipeCode } : {}) };
}

function internal(state: { config: ResolvedConfig }, error: unknown, requestId: string): Refusal {
  state.config.log(`request ${requestId}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new Refusal('mthdsls.runtime.internal');
}

/** Answers a run route through the idempotency store when the request carries a key. */
async function idempotent(
  state: RunnerState,
  req: IncomingMessage,
  identity: Identity,
  routeName: RouteName,
  body: Record<string, unknown>,
  where: { requestId: string; instance: string },
  handler: () => Promise<Answer>,
): Promise<Answer> {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return handler();
  const key = Array.isArray(header) ? header[0]! : header;
  if (!IDEMPOTENCY_KEY.test(key)) throw new Refusal('request.invalid', { field: 'Idempotency-Key' }, { detail: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.' });
  const storeKey = `${identity.key}\u0000${routeName}\u0000${key}`;
  const digest = bodyDigest(body);
  const admission = await state.idempotency.admit(storeKey, digest);
  switch (admission.kind) {
    case 'conflict':
      throw new Refusal('request.idempotency_conflict');
    case 'in_flight':
      throw new Refusal('request.idempotency_key_in_use', {}, { retryAfter: 1 });
    case 'already_executed':
      throw new Refusal('request.already_executed');
    case 'replay': {
      const replay: Answer = { ...admission.answer, headers: { ...admission.answer.headers, 'Idempotent-Replayed': 'true' } };
      // A replayed problem carries this request's id, like the X-Request-ID header of the replay.
      if (replay.headers['Content-Type'] === PROBLEM_CONTENT_TYPE) replay.body = JSON.stringify({ ...(JSON.parse(replay.body) as object), request_id: where.requestId });
      return replay;
    }
    case 'new':
      break;
  }
  let answer: Answer;
  // The key's short lease runs out unless renewed: a process that dies here frees it soon.
  const renewal = setInterval(() => {
    void Promise.resolve(state.idempotency.renew(storeKey, digest)).catch(() => undefined);
  }, IN_FLIGHT_RENEW_MS);
  renewal.unref();
  try {
    answer = await handler();
  } catch (error) {
    // The caller's mistakes are kept (repeating them gives the same answer); the runner's own
    // failures (5xx) free the key, since a retry may succeed.
    const status = isRefusal(error) ? (getEntry(error.code)?.status ?? 500) : 500;
    if (isRefusal(error) && status < 500) await state.idempotency.complete(storeKey, digest, problemAnswer(error, where.requestId, where.instance));
    else await state.idempotency.abandon(storeKey);
    throw error;
  } finally {
    clearInterval(renewal);
  }
  // Recorded before the answer leaves, so that a retry arriving at another process sees it.
  if (answer.status >= 500) await state.idempotency.abandon(storeKey);
  else await state.idempotency.complete(storeKey, digest, answer);
  return answer;
}

const LINGER_MS = 2_000;

/**
 * Closes a connection after its answer without resetting it: a socket destroyed while the client
 * is still sending its body is reset (TCP RST), and the reset can discard the answer before the
 * client reads it. The runner's side is ended (FIN) once the answer is out, what the client still
 * sends is read and dropped, up to `maxBytes` or for LINGER_MS, then the socket is destroyed.
 */
function lingerOnClose(socket: Socket, maxBytes: number): void {
  const lingering = socket as Socket & { destroySoon?: () => void };
  lingering.destroySoon = () => {
    let read = 0;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) socket.destroy();
    });
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
    socket.end();
    socket.resume();
  };
}

/** The request listener. */
export function createHandler(state: RunnerState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(state, req, res);
  };
}

async function handle(state: RunnerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = requestIdOf(req.headers['x-request-id']);
  // Set at once: the request log reads it even when the connection ends without an answer.
  res.setHeader('X-Request-ID', requestId);
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://runner.invalid');
  } catch {
    url = new URL('http://runner.invalid/');
  }
  const instance = url.pathname.length <= 1024 ? url.pathname : url.pathname.slice(0, 1024);
  const method = (req.method ?? 'GET').toUpperCase();
  const cors = state.config.cors;
  if (cors) {
    // Answered before routing and auth: a browser sends no credentials with its preflight, and
    // the preflight runs nothing. What it allows is checked again on the actual request.
    if (isPreflight(method, req.headers)) {
      res.writeHead(204, preflightHeaders(cors, req.headers.origin, req.headers));
      res.end();
      return;
    }
    // Set now, so that every answer below carries them: results, problems and replays alike.
    for (const [name, value] of Object.entries(responseHeaders(cors, req.headers.origin))) res.setHeader(name, value);
  }
  let answer: Answer;
  try {
    const found = route(state, url.pathname, method);
    if (found.name === 'version') answer = handleVersion();
    else if (found.name === 'health') answer = await readHealth(state.queue, VERSION);
    else {
      const identity = authenticate(req.headers.authorization, state.config.tokens, clientAddress(req));
      authorize(identity, found.scope!);
      if (state.rateLimiter) {
        const decision = await state.rateLimiter.check(identity.key);
        if (!decision.ok) {
          throw new Refusal('account.rate_limited', { limit: state.rateLimiter.limit, window: state.rateLimiter.windowSeconds }, { retryAfter: decision.retryAfterSeconds });
        }
      }
      switch (found.name) {
        case 'models':
          answer = handleModels(state, url);
          break;
        case 'validate':
          answer = await handleValidate(state, await readJson(state, req, res));
          break;
        case 'pipe_io':
          answer = await handlePipeIo(state, await readJson(state, req, res));
          break;
        case 'execute': {
          const body = await readJson(state, req, res);
          answer = await idempotent(state, req, identity, 'execute', body, { requestId, instance }, () => handleExecute(state, body, identity, requestId, instance));
          break;
        }
        case 'start': {
          const body = await readJson(state, req, res);
          answer = await idempotent(state, req, identity, 'start', body, { requestId, instance }, () => handleStart(state, body, identity, requestId, instance));
          break;
        }
        case 'run_status':
          answer = await readRunStatus(state.queue, state.recentRuns, identity, found.runId!);
          break;
        case 'run_results':
          answer = await readRunResults(state.queue, state.recentRuns, identity, found.runId!);
          break;
      }
    }
  } catch (error) {
    if (error instanceof BodyAbandoned) {
      if (!res.headersSent) res.destroy();
      return;
    }
    const refusal = isRefusal(error) ? error : internal(state, error, requestId);
    try {
      answer = problemAnswer(refusal, requestId, instance);
    } catch (buildError) {
      answer = problemAnswer(internal(state, buildError, requestId), requestId, instance);
    }
    const unreadBody = (req as MarkedRequest)[BODY_READ] !== true && (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0' || req.headers['transfer-encoding'] !== undefined);
    if (refusal.code === 'request.too_large' || refusal.code === 'mthdsls.runtime.unavailable' || unreadBody) {
      // The rest of the body is not wanted: rather than reading it to reuse the connection (an
      // unauthenticated client could make the runner read any amount), close it after the answer.
      answer.headers['Connection'] = 'close';
      req.resume();
      if (req.socket) lingerOnClose(req.socket, Math.max(state.config.limits.max_body_bytes, 1024 * 1024));
    }
  }
  send(res, answer, requestId);
}
