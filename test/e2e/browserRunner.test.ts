// A browser using `mthds serve` as its runner (Debian's Chromium, one launch): a page served from
// one loopback origin calls a token-protected runner on another port, allowed with --allow-origin.
// `fetch` with a bearer token reaches /version, /validate and /execute; the same calls from
// another origin (http://localhost:P instead of http://127.0.0.1:P) fail as the browser fails a
// refused cross-origin request (a TypeError), and the runner runs nothing for them. Then the
// language server's worker runs a pipe through the configured runner (mthds.runner.url and its
// token), and from the origin not allowed says how to allow it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { missingForBrowser, openWorkerPage, type WorkerPage } from './browser/workerPage.js';
import { HELLO, serveProcess } from './runner/helpers.js';

const missing = missingForBrowser('browserRunner.test.ts');

const TOKEN = 'browser-secret';
const INPUTS = { name: { concept: 'Text', content: 'Ada' } };
const BUNDLE_URI = 'vscode-vfs://github/acme/methods/hello/hello.mthds';

/** What the page's fetch gave: the answer, or the error a refused request throws. */
type Fetched = { status: number; body: Record<string, unknown>; requestId: string | null } | { error: string; name: string };

/** `fetch` from the page, as a browser client of the runner does it. */
function fetchFrom(page: Page, url: string, body?: unknown): Promise<Fetched> {
  return page.evaluate(
    async ([u, token, b]) => {
      try {
        const init: RequestInit = { headers: { Authorization: `Bearer ${token}`, ...(b === undefined ? {} : { 'Content-Type': 'application/json' }) } };
        if (b !== undefined) Object.assign(init, { method: 'POST', body: JSON.stringify(b) });
        const r = await fetch(u, init);
        // X-Request-ID is readable only because the runner exposes it (Access-Control-Expose-Headers).
        return { status: r.status, body: (await r.json()) as Record<string, unknown>, requestId: r.headers.get('X-Request-ID') };
      } catch (error) {
        return { error: String(error), name: (error as Error).name };
      }
    },
    [url, TOKEN, body] as const,
  );
}

/** The runner's request log once its batch (50 ms) is written. */
async function settledLog(runner: { stderr(): string }): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 250));
  return runner.stderr();
}

/** What harness.html puts on the page's global object. */
interface Harness {
  lsp: { start(): number; request(method: string, params: unknown): Promise<unknown>; notify(method: string, params: unknown): void };
}

/** Starts the worker on `page` with the runner configured, and opens the bundle. */
async function startWorker(page: Page, runnerUrl: string): Promise<(command: string, args: unknown[]) => Promise<Record<string, unknown>>> {
  const request = <T>(method: string, params: unknown): Promise<T> => page.evaluate(([m, p]) => (globalThis as unknown as Harness).lsp.request(m, p), [method, params] as const) as Promise<T>;
  const notify = (method: string, params: unknown): Promise<void> => page.evaluate(([m, p]) => (globalThis as unknown as Harness).lsp.notify(m, p), [method, params] as const);
  await page.evaluate(() => (globalThis as unknown as Harness).lsp.start());
  await request('initialize', {
    processId: null,
    rootUri: 'vscode-vfs://github/acme/methods',
    workspaceFolders: [{ uri: 'vscode-vfs://github/acme/methods', name: 'methods' }],
    capabilities: { workspace: { configuration: true } },
    // The harness answers the configuration request with no settings: these stand.
    initializationOptions: { runner: { url: runnerUrl, token: TOKEN }, diagnostics: { debounceMs: 0 } },
  });
  await notify('initialized', {});
  await notify('mthds/files', { changes: [{ uri: BUNDLE_URI, text: HELLO }] });
  await notify('textDocument/didOpen', { textDocument: { uri: BUNDLE_URI, languageId: 'mthds', version: 1, text: HELLO } });
  return (command, args) => request('workspace/executeCommand', { command, arguments: args });
}

describe.skipIf(missing.length > 0)('a browser page using mthds serve as its runner', () => {
  let worker: WorkerPage;
  let runner: Awaited<ReturnType<typeof serveProcess>>;
  let other: Page;

  beforeAll(async () => {
    worker = await openWorkerPage();
    runner = await serveProcess(['--workers', '1', '--no-warm-up', '--allow-origin', new URL(worker.url).origin], { MTHDS_RUNNER_TOKENS: TOKEN });
    // The same page server under another name: another origin, not allowed.
    other = await worker.page.context().browser()!.newPage();
    await other.goto(worker.url.replace('127.0.0.1', 'localhost'));
  }, 120_000);

  afterAll(async () => {
    runner?.child.kill('SIGTERM');
    await runner?.exited;
    await worker?.close();
  });

  it('reaches /version, /validate and /execute with a bearer token from the allowed origin', async () => {
    const version = await fetchFrom(worker.page, `${runner.url}/version`);
    expect(version).toMatchObject({ status: 200, requestId: expect.stringMatching(/^[0-9A-Z]{26}$/), body: { protocol_version: '0.6.0' } });
    const validate = await fetchFrom(worker.page, `${runner.url}/validate`, { mthds_contents: [HELLO] });
    expect(validate).toMatchObject({ status: 200, body: { is_valid: true } });
    const execute = await fetchFrom(worker.page, `${runner.url}/execute`, { pipe_code: 'greet', mthds_contents: [HELLO], inputs: INPUTS });
    expect(execute).toMatchObject({ status: 200 });
    expect('body' in execute && execute.body['pipe_output']).toBeTruthy();
    // The token is still required: the page reads the 401 problem.
    const unauthenticated = await worker.page.evaluate(async (u) => {
      const r = await fetch(u);
      return { status: r.status, code: ((await r.json()) as { code?: string }).code };
    }, `${runner.url}/models`);
    expect(unauthenticated).toEqual({ status: 401, code: 'auth.missing_credential' });
  });

  it('fails with a TypeError from another origin, and the runner runs nothing for it', async () => {
    const before = await settledLog(runner);
    for (const [route, body] of [['version', undefined], ['validate', { mthds_contents: [HELLO] }], ['execute', { pipe_code: 'greet', mthds_contents: [HELLO], inputs: INPUTS }]] as const) {
      const r = await fetchFrom(other, `${runner.url}/${route}`, body);
      expect(r, route).toMatchObject({ name: 'TypeError' });
    }
    // Only the preflights arrived (the browser stopped there): no GET or POST was served.
    const since = (await settledLog(runner)).slice(before.length);
    expect(since).toMatch(/ OPTIONS \/v1\/execute 204 /);
    expect(since).not.toMatch(/ (GET|POST) \/v1\//);
  });

  it('runs a pipe through the language server worker against the runner, from the allowed origin', async () => {
    const command = await startWorker(worker.page, runner.url);
    const version = await command('mthds.runner.version', []);
    expect(version).toMatchObject({ ok: true, url: runner.url, builtIn: false, version: { protocol_version: '0.6.0' } });
    const validate = await command('mthds.runner.validate', [{ uri: BUNDLE_URI }]);
    expect(validate).toMatchObject({ ok: true, verdict: { is_valid: true } });
    const run = await command('mthds.runner.execute', [{ uri: BUNDLE_URI, pipe: 'greet', inputs: INPUTS }]);
    expect(run).toMatchObject({ ok: true, pipe: 'greet' });
    // The mock models are deterministic: the worker's run gives what the page's own request gave.
    const direct = await fetchFrom(worker.page, `${runner.url}/execute`, { pipe_code: 'greet', mthds_contents: [HELLO], inputs: INPUTS });
    const memoryOf = (output: unknown): unknown => (output as { working_memory?: unknown } | undefined)?.working_memory;
    expect(memoryOf(run['pipe_output'])).toBeDefined();
    expect(memoryOf(run['pipe_output'])).toEqual(memoryOf('body' in direct ? direct.body['pipe_output'] : undefined));
  });

  it('says from the origin not allowed how to allow it', async () => {
    const command = await startWorker(other, runner.url);
    const origin = new URL(other.url()).origin;
    const answer = await command('mthds.runner.version', []);
    expect(answer['ok']).toBe(false);
    expect(answer['message']).toContain(`cannot be reached from this page, origin ${origin} (`);
    expect(answer['message']).toContain(`\`mthds serve --allow-origin ${origin}\``);
  });
});
