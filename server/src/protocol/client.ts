// The runner client of the language server: one method per protocol route, each answering a
// RunnerResult instead of throwing. Failures are sorted the way an editor needs them: a problem
// document (an RFC 7807 body, or a bare {"detail": ...} body of frameworks that answer 404/405
// their own way, normalised), an unreachable runner, a timeout, or an answer of the wrong shape.

import type {
  ModelDeck,
  ModelType,
  ProblemDocumentLike,
  RunRead,
  RunRequest,
  RunResultExecute,
  RunResultStart,
  RunResults,
  ValidateRequest,
  ValidationResult,
  VersionInfo,
} from './types.js';

export interface RunnerClientOptions {
  /** The runner's base URL, version segment included (e.g. http://127.0.0.1:8080/v1). */
  baseUrl: string;
  token?: string;
  /** Applies to every call; without it, discovery and /start get 30 s, /execute and /validate 20 min. */
  timeoutMs?: number;
}

export type RunnerError =
  | { kind: 'problem'; status: number; problem: ProblemDocumentLike }
  | { kind: 'unreachable'; message: string }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'bad_response'; status: number; message: string };

export type RunnerResult<T> = { ok: true; status: number; value: T; requestId?: string; location?: string } | { ok: false; error: RunnerError };

export interface CallOptions {
  /** Sent as the Idempotency-Key header (/execute and /start). */
  idempotencyKey?: string;
  /** Sent as X-Request-ID (kept by runners when well formed). */
  requestId?: string;
  signal?: AbortSignal;
}

const SHORT = 30_000;
const LONG = 20 * 60_000;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why a 2xx body does not have the route's shape, or undefined when it has it. */
type Check = (value: unknown, status: number) => string | undefined;

const checks = {
  version: (v: unknown): string | undefined => (isRecord(v) && typeof v['protocol_version'] === 'string' ? undefined : 'the body has no string protocol_version'),
  models: (v: unknown): string | undefined => (isRecord(v) && Array.isArray(v['models']) && v['models'].every((m) => isRecord(m) && typeof m['name'] === 'string' && typeof m['type'] === 'string') ? undefined : 'the body has no list of models with a name and a type'),
  validate: (v: unknown): string | undefined => {
    if (!isRecord(v)) return 'the verdict is not an object';
    if (typeof v['is_valid'] !== 'boolean') return 'the verdict has no boolean is_valid';
    if (typeof v['is_runnable'] !== 'boolean') return 'the verdict has no boolean is_runnable';
    if (v['is_valid'] === false) {
      const errors = v['validation_errors'];
      if (!Array.isArray(errors) || errors.length === 0) return 'an invalid verdict must list at least one validation error';
      if (!errors.every((e) => isRecord(e) && typeof e['category'] === 'string' && typeof e['message'] === 'string')) return 'a validation error lacks its category or message';
    } else if (!Array.isArray(v['pending_signatures'])) return 'a valid verdict has no list of pending_signatures';
    return undefined;
  },
  execute: (v: unknown, status: number): string | undefined => {
    if (!isRecord(v) || typeof v['pipeline_run_id'] !== 'string') return 'the body has no string pipeline_run_id';
    if (status === 200 && !isRecord(v['pipe_output'])) return 'a completed run has no pipe_output object';
    return undefined;
  },
  start: (v: unknown): string | undefined => (isRecord(v) && typeof v['pipeline_run_id'] === 'string' ? undefined : 'the body has no string pipeline_run_id'),
  runStatus: (v: unknown): string | undefined => (isRecord(v) && typeof v['pipeline_run_id'] === 'string' && typeof v['status'] === 'string' ? undefined : 'the body has no string pipeline_run_id and status'),
  runResults: (v: unknown): string | undefined => (isRecord(v) && typeof v['pipeline_run_id'] === 'string' ? undefined : 'the body has no string pipeline_run_id'),
} satisfies Record<string, Check>;

export class RunnerClient {
  private readonly base: string;

  constructor(private readonly options: RunnerClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('the runner base URL must be http or https');
    if (url.username || url.password || url.search || url.hash) throw new TypeError('the runner base URL must not carry credentials, a query or a fragment');
    this.base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }

  version(call: CallOptions = {}): Promise<RunnerResult<VersionInfo>> {
    return this.send('GET', '/version', undefined, checks.version, SHORT, call);
  }

  models(type?: ModelType | string, call: CallOptions = {}): Promise<RunnerResult<ModelDeck>> {
    const query = type === undefined ? '' : `?type=${encodeURIComponent(type)}`;
    return this.send('GET', `/models${query}`, undefined, checks.models, SHORT, call);
  }

  validate(request: ValidateRequest, call: CallOptions = {}): Promise<RunnerResult<ValidationResult>> {
    return this.send('POST', '/validate', request, checks.validate, LONG, call);
  }

  /** 200 with the run's output, or 202 (a runner that cannot hold the connection) with the run id and `location`. */
  execute(request: RunRequest, call: CallOptions = {}): Promise<RunnerResult<RunResultExecute | RunResultStart>> {
    return this.send('POST', '/execute', request, checks.execute, LONG, call);
  }

  start(request: RunRequest, call: CallOptions = {}): Promise<RunnerResult<RunResultStart>> {
    return this.send('POST', '/start', request, checks.start, SHORT, call);
  }

  /** A started run's record (the run lifecycle extension; a runner without it answers 404). */
  runStatus(runId: string, call: CallOptions = {}): Promise<RunnerResult<RunRead>> {
    return this.send('GET', `/runs/${encodeURIComponent(runId)}/status`, undefined, checks.runStatus, SHORT, call);
  }

  /** A run's results: 200 when completed, 202 while it runs, a 409 problem when it ended otherwise. */
  runResults(runId: string, call: CallOptions = {}): Promise<RunnerResult<RunResults>> {
    return this.send('GET', `/runs/${encodeURIComponent(runId)}/results`, undefined, checks.runResults, SHORT, call);
  }

  private async send<T>(method: 'GET' | 'POST', route: string, body: unknown, check: Check, defaultTimeout: number, call: CallOptions): Promise<RunnerResult<T>> {
    const timeoutMs = this.options.timeoutMs ?? defaultTimeout;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const onAbort = (): void => controller.abort();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    const headers: Record<string, string> = { Accept: 'application/json, application/problem+json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.options.token) headers['Authorization'] = `Bearer ${this.options.token}`;
    if (call.idempotencyKey) headers['Idempotency-Key'] = call.idempotencyKey;
    if (call.requestId) headers['X-Request-ID'] = call.requestId;
    let response: Response;
    let text: string;
    try {
      const init: RequestInit = { method, headers, signal: controller.signal };
      if (body !== undefined) init.body = JSON.stringify(stripUndefined(body));
      response = await fetch(`${this.base}${route}`, init);
      text = await response.text();
    } catch (error) {
      if (controller.signal.aborted && !call.signal?.aborted) return { ok: false, error: { kind: 'timeout', timeoutMs } };
      if (call.signal?.aborted) return { ok: false, error: { kind: 'unreachable', message: 'the call was cancelled' } };
      return { ok: false, error: { kind: 'unreachable', message: networkMessage(error) } };
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
    const status = response.status;
    let value: unknown;
    let parsed = false;
    try {
      value = text === '' ? undefined : JSON.parse(text);
      parsed = text !== '';
    } catch {
      parsed = false;
    }
    const requestId = (isRecord(value) && typeof value['request_id'] === 'string' ? value['request_id'] : undefined) ?? response.headers.get('x-request-id') ?? undefined;
    if (status < 200 || status >= 300) {
      if (!parsed || !isRecord(value)) return { ok: false, error: { kind: 'bad_response', status, message: `status ${status} with a body that is not JSON` } };
      return { ok: false, error: { kind: 'problem', status, problem: normalizeProblem(value, status, response.statusText) } };
    }
    if (status === 202 && route === '/execute' && !parsed) {
      // Anchor clients tolerate a 202 with no JSON body: the run id is then unknown.
      const result: RunnerResult<T> = { ok: true, status, value: { pipeline_run_id: '' } as T };
      const location = response.headers.get('location');
      if (location) result.location = location;
      if (requestId) result.requestId = requestId;
      return result;
    }
    if (!parsed) return { ok: false, error: { kind: 'bad_response', status, message: `status ${status} with a body that is not JSON` } };
    const fault = check(value, status);
    if (fault) return { ok: false, error: { kind: 'bad_response', status, message: fault } };
    const result: RunnerResult<T> = { ok: true, status, value: value as T };
    if (requestId) result.requestId = requestId;
    const location = response.headers.get('location');
    if (location) result.location = location;
    return result;
  }
}

/** A problem body as received; a bare `{"detail": ...}` becomes a problem with that detail. */
export function normalizeProblem(body: Record<string, unknown>, status: number, statusText = ''): ProblemDocumentLike {
  const problem: ProblemDocumentLike = {};
  for (const [k, v] of Object.entries(body)) problem[k] = v;
  // A member of the wrong type is treated as absent.
  if (typeof problem.type !== 'string') problem.type = 'about:blank';
  if (typeof problem.status !== 'number') problem.status = status;
  if (typeof problem.title !== 'string') problem.title = statusText || `HTTP ${status}`;
  if (typeof problem.detail !== 'string') {
    const d = body['detail'];
    if (isRecord(d) && typeof d['message'] === 'string') problem.detail = d['message'];
    else if (typeof body['message'] === 'string') problem.detail = body['message'];
    else if (d !== undefined) problem.detail = JSON.stringify(d);
    else delete problem.detail;
  }
  return problem;
}

function stripUndefined(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

function networkMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = isRecord(cause) && typeof cause['code'] === 'string' ? `${cause['code']}: ` : '';
  return `${code}${cause instanceof Error ? cause.message : String(cause)}`;
}
