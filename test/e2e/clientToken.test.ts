// The runner token from the keychain to the runner, through the REAL server: the server pulls its
// settings with workspace/configuration, the client's middleware (client/src/token.ts) adds the
// token to that answer only, and a changed token reaches the server on didChangeConfiguration, as
// the extension sends it. The status bar's reading of the answers is checked on the way.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => import('../unit/client/fakeVscode.js'));
import type * as vscode from 'vscode';
import type { ConfigurationParams } from 'vscode-languageserver-protocol';
import { describeStatus, type Answer } from '../../client/src/status.js';
import { configurationMiddleware } from '../../client/src/token.js';
import { LspClient, startClient } from './lsp/harness.js';

let client: LspClient | undefined;
let runner: http.Server | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
  await new Promise<void>((resolve) => (runner ? runner.close(() => resolve()) : resolve()));
  runner = undefined;
});

const CANCEL = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) } as unknown as vscode.CancellationToken;

describe('the runner token, from the client to the runner', () => {
  it('is sent by the server as a bearer token, and follows a change without a restart', async () => {
    const seen: (string | undefined)[] = [];
    runner = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.url?.endsWith('/version')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ protocol_version: '0.6.0', runner_version: 'fake-1' }));
      }
      if (req.headers.authorization !== 'Bearer tok-2') {
        res.writeHead(401, { 'Content-Type': 'application/problem+json' });
        return res.end(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401, code: 'auth.invalid_credential' }));
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ models: [{ name: 'fake-llm', type: 'llm' }] }));
    });
    await new Promise<void>((resolve) => runner!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(runner.address() as AddressInfo).port}`;

    // What VS Code itself answers: the settings.json values, which hold no token.
    const settingsJson = { runner: { url }, format: { enable: true } };
    const store = { token: 'tok-1' as string | undefined };
    const middleware = configurationMiddleware(store);
    const answered: unknown[] = [];
    client = await startClient({ folders: [], configuration: settingsJson });
    client.connection.onRequest('workspace/configuration', async (params: ConfigurationParams) => {
      const answer = await middleware(params, CANCEL, async (p) => p.items.map(() => settingsJson));
      answered.push(answer);
      return answer;
    });
    const c = client;
    const push = async (): Promise<void> => {
      const before = answered.length;
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
      await vi.waitFor(() => expect(answered.length, 'the server pulls its settings').toBeGreaterThan(before), { timeout: 10_000 });
      // The server applies the answer right after it arrives.
      await new Promise((r) => setTimeout(r, 50));
    };
    await push();

    const version = await c.executeCommand<Answer>('mthds.runner.version');
    const refused = await c.executeCommand<Answer>('mthds.runner.models');
    expect(seen.slice(-1)).toEqual(['Bearer tok-1']);
    expect(refused.ok).toBe(false);
    expect(describeStatus({ state: 'probed', version, models: refused, tokenSource: 'keychain' }).text).toBe('$(lock) MTHDS runner fake-1: not authenticated');

    store.token = 'tok-2';
    await push();
    const accepted = await c.executeCommand<Answer>('mthds.runner.models');
    expect(seen.slice(-1)).toEqual(['Bearer tok-2']);
    expect(accepted.ok).toBe(true);
    expect(describeStatus({ state: 'probed', version, models: accepted, tokenSource: 'keychain' }).text).toBe('$(check) MTHDS runner fake-1');
    // The settings themselves never held the token.
    expect(settingsJson).toEqual({ runner: { url }, format: { enable: true } });
    expect(answered.at(-1)).toEqual([{ runner: { url, token: 'tok-2' }, format: { enable: true } }]);
  });
});
