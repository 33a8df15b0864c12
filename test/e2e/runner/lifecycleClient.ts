// The HTTP sequence of the public mthds-js SDK (0.10.0, src/runners/api/client.ts and runs.ts)
// when it follows a run, reproduced request for request so that the tests prove our runner serves
// what that client reads: a host-only base URL composed as {base}/v1/{route}; GET /v1/version and
// the durable path unless `implementation` is "pipelex-api"; POST /v1/start; then GET
// /v1/runs/{id}/results until 200 (main_stuff ?? pipe_output), where 202 and 503 mean "poll again
// after Retry-After" and 409 is a failure whose message names the status; a 404 without a `code`
// member means the runner has no lifecycle routes; GET /health at the origin.

export type ResultState =
  | { state: 'running'; retryAfterSeconds: number | null }
  | { state: 'completed'; result: Record<string, unknown> }
  | { state: 'failed'; status: string; message: string };

export class LifecycleUnavailable extends Error {}

export class SdkShapedClient {
  readonly requests: string[] = [];

  /** `fetcher`: how each request goes out (the SDK's global fetch unless a test needs new connections). */
  constructor(
    private readonly baseUrl: string,
    private readonly token?: string,
    private readonly fetcher: (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{ status: number; headers: Headers; text(): Promise<string> }> = fetch,
  ) {
    // The SDK refuses a base URL with a path: endpoints are always {base}/v1/{route}.
    if (new URL(baseUrl).pathname !== '/') throw new Error('base URL must be host-only');
  }

  private async call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; headers: Headers; text: string }> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) headers['Authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    this.requests.push(`${method} ${new URL(url).pathname}`);
    const res = await this.fetcher(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  private url(endpoint: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}/v1/${endpoint}`;
  }

  async health(): Promise<Record<string, unknown>> {
    const res = await this.call('GET', `${new URL(this.baseUrl).origin}/health`);
    if (res.status < 200 || res.status >= 300) throw new Error(`health failed (${res.status})`);
    return JSON.parse(res.text) as Record<string, unknown>;
  }

  /** The handshake: any implementation but the bare "pipelex-api" serves the lifecycle. */
  async supportsRunLifecycle(): Promise<boolean> {
    const res = await this.call('GET', this.url('version'));
    const info = JSON.parse(res.text) as { implementation?: unknown };
    return info.implementation !== 'pipelex-api';
  }

  async start(body: Record<string, unknown>): Promise<string> {
    const res = await this.call('POST', this.url('start'), body);
    if (res.status === 404 && missingRoute(res.text)) throw new LifecycleUnavailable('no /start');
    if (res.status < 200 || res.status >= 300) throw new Error(`start failed (${res.status}): ${res.text}`);
    return (JSON.parse(res.text) as { pipeline_run_id: string }).pipeline_run_id;
  }

  async getRunResult(runId: string): Promise<ResultState> {
    const res = await this.call('GET', this.url(`runs/${encodeURIComponent(runId)}/results`));
    if (res.status === 202 || res.status === 503) return { state: 'running', retryAfterSeconds: retryAfter(res.headers) ?? 5 };
    if (res.status === 409) {
      const message = serverMessage(res.text) ?? 'Run finished without a result.';
      return { state: 'failed', status: /status\s+([A-Z_]+)/.exec(message)?.[1] ?? 'FAILED', message };
    }
    if (res.status === 404 && missingRoute(res.text)) throw new LifecycleUnavailable(`no lifecycle routes (${res.text})`);
    if (res.status < 200 || res.status >= 300) throw new Error(`results failed (${res.status}): ${res.text}`);
    return { state: 'completed', result: JSON.parse(res.text) as Record<string, unknown> };
  }

  async getRunStatus(runId: string): Promise<Record<string, unknown> & { status: string }> {
    const res = await this.call('GET', this.url(`runs/${encodeURIComponent(runId)}/status`));
    if (res.status === 404 && missingRoute(res.text)) throw new LifecycleUnavailable('no lifecycle routes');
    if (res.status < 200 || res.status >= 300) throw new Error(`status failed (${res.status}): ${res.text}`);
    return JSON.parse(res.text) as Record<string, unknown> & { status: string };
  }

  /** pollUntilResult, with the SDK's interval scaled down (`intervalMs`) for tests. */
  async startAndWaitForResult(body: Record<string, unknown>, intervalMs = 50, timeoutMs = 60_000): Promise<Record<string, unknown>> {
    if (!(await this.supportsRunLifecycle())) throw new Error('runner detected as bare pipelex-api');
    const runId = await this.start(body);
    const started = Date.now();
    for (;;) {
      if (Date.now() - started > timeoutMs) throw new Error(`run ${runId} did not finish within ${timeoutMs} ms`);
      const state = await this.getRunResult(runId);
      if (state.state === 'completed') return state.result;
      if (state.state === 'failed') throw new Error(`run ${runId} failed: ${state.status}: ${state.message}`);
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}

/** A bare runner's unmatched-route 404 has no `code` member; a run-not-found 404 has one. */
function missingRoute(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    return !parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !('code' in parsed);
  } catch {
    return true;
  }
}

function serverMessage(body: string): string | undefined {
  try {
    const root = JSON.parse(body) as { detail?: unknown; message?: unknown };
    if (typeof root.detail === 'string') return root.detail;
    if (typeof root.message === 'string') return root.message;
  } catch {
    // not JSON
  }
  return undefined;
}

function retryAfter(headers: Headers): number | null {
  const raw = headers.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}
