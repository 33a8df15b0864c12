// Work made ahead while the server is idle (the suggestion indexes and completion lists of the open
// documents' domains) answers exactly what the same request answers on demand: two servers on the
// same package and the same edits, one asked at once (its completion answered before the edit's
// check and any preparation), one asked after the preparation that follows the edit ran to its end.

import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionList } from 'vscode-languageserver-protocol';
import { positionOf, startClient, uriOf, type LspClient } from './harness.js';
import { bigPackage } from './generatedPackage.js';

const clients: LspClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.shutdown();
});

describe('preparation at idle', () => {
  it('answers completions and suggestions as they are made on demand', async () => {
    const { ws, files, texts } = bigPackage(400);
    const open = files[3]!;
    // A concept reference broken (suggestions), a step calling a pipe, then completions of a concept
    // and a pipe reference.
    const sequence = '\n[pipe.probe_sequence]\ntype = "PipeSequence"\ndescription = "A probe"\ninputs = { text = "Text" }\noutput = "Text"\nsteps = [\n  { pipe = "b3_step_1", result = "first" },\n]\n';
    const text = texts[3]!.replace(/output = "B(\d+)Thing/, 'output = "XB$1Thing') + sequence;
    const conceptAt = positionOf(text, text.indexOf('output = "') + 'output = "'.length);
    const pipeAt = positionOf(text, text.indexOf('pipe = "') + 'pipe = "'.length);
    const ask = (c: LspClient, position: { line: number; character: number }): Promise<CompletionList> =>
      c.connection.sendRequest('textDocument/completion', { textDocument: { uri: uriOf(open) }, position, context: { triggerKind: 2, triggerCharacter: '"' } }) as Promise<CompletionList>;

    const both = [await startClient({ folders: [ws], trace: 'verbose' }), await startClient({ folders: [ws], trace: 'verbose' })] as const;
    clients.push(...both);
    const [demand, ahead] = both;
    for (const c of both) {
      await c.workspaceChecked(120_000);
      c.open(uriOf(open), text);
      // Asked once on demand: pipes are made ahead only once they have been offered.
      await Promise.all([ask(c, conceptAt), ask(c, pipeAt)]);
      await c.nextDiagnostics(uriOf(open), (d) => d.length > 0, 0, 60_000);
    }
    // The document moves to another domain: other lists are due (its domain bare, the others' pipes).
    const moved = { range: { start: { line: 0, character: 'domain = "d'.length }, end: { line: 0, character: 'domain = "d3'.length } }, newText: '5' };
    // On demand: the completions sent with the edit, before its check (and any preparation).
    demand.edit(uriOf(open), [moved]);
    const [conceptsNow, pipesNow] = await Promise.all([ask(demand, conceptAt), ask(demand, pipeAt)]);
    // Ahead: asked once the preparation that follows the edit's check has ended.
    const before = ahead.traces.length;
    ahead.edit(uriOf(open), [moved]);
    await ahead.waitFor(() => ahead.traces.slice(before).some((t) => t.startsWith('mthds: prepared ahead (concepts, pipes)')), 'the preparation after the edit', 60_000);
    const [conceptsAhead, pipesAhead] = await Promise.all([ask(ahead, conceptAt), ask(ahead, pipeAt)]);
    expect(conceptsAhead.items.length).toBeGreaterThan(100);
    expect(pipesAhead.items.length).toBeGreaterThan(100);
    expect(conceptsAhead.items.some((i) => i.label.startsWith('B3Thing') || i.label === 'd3.B3Thing0')).toBe(true);
    expect(conceptsAhead).toEqual(conceptsNow);
    expect(pipesAhead).toEqual(pipesNow);

    // A keystroke breaking another concept reference, checked with the indexes made ahead: the
    // same findings (suggestions included) as the server that made them on demand.
    const second = text.indexOf('output = "', text.indexOf('output = "') + 1) + 'output = "'.length;
    const edit = { range: { start: positionOf(text, second), end: positionOf(text, second) }, newText: 'Q' };
    demand.edit(uriOf(open), [edit]);
    ahead.edit(uriOf(open), [edit]);
    const after = (c: LspClient): Promise<unknown> => c.nextDiagnostics(uriOf(open), (d) => d.filter((x) => x.code === 'method.concept_unresolved').length >= 2, undefined, 60_000);
    const [fromDemand, fromAhead] = await Promise.all([after(demand), after(ahead)]);
    expect(fromAhead).toEqual(fromDemand);
  }, 180_000);
});
