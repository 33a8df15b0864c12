// The start-up warm-up of the keystroke path (diagnostics.warmUpMs) over stdio: a server that ran
// it publishes the same diagnostics and answers the same completions as one with it turned off, and
// nothing of the warm-up's own bundles reaches the client.

import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionList } from 'vscode-languageserver-protocol';
import { positionOf, startClient, uriOf, type LspClient } from './harness.js';
import { bigPackage } from './generatedPackage.js';
import { WARMED_BY_CHECK_BUNDLES } from '../../../server/src/lsp/warmUp.js';

const clients: LspClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.shutdown();
});

describe('the warm-up at start-up', () => {
  it('changes no diagnostic and no completion, and publishes nothing of its own', async () => {
    const { ws, files, texts } = bigPackage(60);
    const open = files[7]!;
    const text = texts[7]!;
    const warm = await startClient({ folders: [ws], trace: 'verbose', initializationOptions: { diagnostics: { debounceMs: 0, warmUpMs: 2000 } } });
    clients.push(warm);
    const cold = await startClient({ folders: [ws], trace: 'verbose', initializationOptions: { diagnostics: { debounceMs: 0, warmUpMs: 0 } } });
    clients.push(cold);
    expect(warm.traces.some((t) => /^mthds: warmed up the keystroke path with \d+ keystrokes/.test(t))).toBe(true);
    expect(cold.traces.some((t) => t.startsWith('mthds: warmed up'))).toBe(false);

    const reference = text.indexOf('output = "') + 'output = "'.length;
    const description = text.indexOf('description = "', text.indexOf('[pipe.')) + 'description = "'.length;
    const edits = [
      // Typing in a description, breaking a concept reference, a pipe's name changed (a declaration).
      { range: { start: positionOf(text, description), end: positionOf(text, description) }, newText: 'x' },
      { range: { start: positionOf(text, reference), end: positionOf(text, reference) }, newText: 'Q' },
      { range: { start: positionOf(text, text.indexOf('[pipe.') + '[pipe.'.length), end: positionOf(text, text.indexOf('[pipe.') + '[pipe.'.length) }, newText: 'z' },
    ];
    const seen: unknown[][] = [];
    for (const c of [warm, cold]) {
      await c.workspaceChecked(120_000);
      const afterStart = new Map(c.diagnostics);
      c.open(uriOf(open), text);
      await c.nextDiagnostics(uriOf(open), () => true, 0, 60_000);
      const steps: unknown[] = [[...afterStart].sort(([a], [b]) => (a < b ? -1 : 1)).map(([uri, p]) => [uri, p.diagnostics])];
      for (const edit of edits) {
        const before = c.published.length;
        c.edit(uriOf(open), [edit]);
        const version = c.version(uriOf(open));
        await c.waitFor(() => c.published.slice(before).some((p) => p.uri === uriOf(open) && p.version === version), 'the diagnostics of the edit', 60_000);
        steps.push(c.diagnostics.get(uriOf(open))!.diagnostics);
        const list = (await c.connection.sendRequest('textDocument/completion', {
          textDocument: { uri: uriOf(open) },
          position: positionOf(c.text(uriOf(open)), c.text(uriOf(open)).indexOf('output = "') + 'output = "'.length),
          context: { triggerKind: 2, triggerCharacter: '"' },
        })) as CompletionList;
        steps.push(list);
      }
      expect(c.published.some((p) => p.uri.includes('mthds-warm-up') || p.uri.includes('warm_up'))).toBe(false);
      seen.push(steps);
    }
    const [fromWarm, fromCold] = seen;
    // Something to compare: findings at start-up (one bundle in twenty is broken) and after the edits.
    expect(JSON.stringify(fromWarm)).toContain('method.concept_unresolved');
    expect(fromWarm).toEqual(fromCold);
  }, 180_000);

  it('runs before initialize answers on a small workspace, after the start-up check once no message comes on a workspace of many bundles', async () => {
    const order = (c: LspClient): string[] => c.traces.filter((t) => t.startsWith('mthds: warmed up') || t.startsWith('mthds: checked package:')).map((t) => (t.startsWith('mthds: warmed up') ? 'warm-up' : 'check'));
    const small = bigPackage(20);
    const large = bigPackage(WARMED_BY_CHECK_BUNDLES);
    for (const [ws, expected] of [[small.ws, ['warm-up', 'check']], [large.ws, ['check', 'warm-up']]] as const) {
      const c = await startClient({ folders: [ws], trace: 'verbose', initializationOptions: { diagnostics: { debounceMs: 0, warmUpMs: 200 } } });
      clients.push(c);
      await c.workspaceChecked(120_000);
      await c.waitFor(() => order(c).length === 2, 'the warm-up', 60_000);
      expect(order(c)).toEqual(expected);
    }
  }, 180_000);
});
