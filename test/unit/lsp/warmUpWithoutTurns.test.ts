// A server started by an embedder that counts no messages (no `MessageTurns`) still warms the
// keystroke path after the start-up check of a workspace of many bundles: nothing can tell it a
// quiet moment, so the warm-up runs at once, in slices, instead of being skipped.

import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WARMED_BY_CHECK_BUNDLES } from '../../../server/src/lsp/warmUp.js';
import { bigPackage } from '../../e2e/lsp/generatedPackage.js';
import { inProcessServer } from '../../helpers/inProcessServer.js';

const WARMED = /^mthds: warmed up the keystroke path with (\d+) keystrokes/;

/** The server's traces from `initialize` until its start-up check and the warm-up have ended. */
async function startUpTraces(ws: string): Promise<string[]> {
  const { server, client } = inProcessServer({ turns: false });
  const traces: string[] = [];
  let checked = false;
  client.onNotification('$/logTrace', (p: { message: string }) => traces.push(p.message));
  client.onNotification('$/progress', (p: { value?: { kind?: string } }) => {
    if (p.value?.kind === 'end') checked = true;
  });
  client.onNotification('textDocument/publishDiagnostics', () => undefined);
  client.onRequest('window/workDoneProgress/create', () => null);
  client.onRequest('client/registerCapability', () => null);
  client.onRequest('workspace/configuration', () => []);
  client.listen();
  await client.sendRequest('initialize', {
    processId: null,
    rootUri: pathToFileURL(ws).href,
    capabilities: { window: { workDoneProgress: true } },
    trace: 'verbose',
    initializationOptions: { diagnostics: { warmUpMs: 300, dryRun: false } },
  });
  await client.sendNotification('initialized', {});
  for (let i = 0; i < 6000 && !(checked && traces.some((t) => WARMED.test(t))); i++) await new Promise((r) => setTimeout(r, 10));
  client.dispose();
  server.dispose();
  return traces;
}

describe('the warm-up after the start-up check', () => {
  it('runs without the connection\'s message turns, after the check, not before `initialize` answers', async () => {
    const { ws } = bigPackage(WARMED_BY_CHECK_BUNDLES);
    const traces = await startUpTraces(ws);
    const warmed = traces.findIndex((t) => WARMED.test(t));
    const checked = traces.findIndex((t) => /^mthds: checked /.test(t));
    expect(checked).toBeGreaterThanOrEqual(0);
    expect(warmed).toBeGreaterThan(checked);
    expect(Number(WARMED.exec(traces[warmed]!)![1])).toBeGreaterThan(0);
  }, 120_000);
});
