// Pull diagnostics: a client that can pull gets nothing pushed, and asks per document and for the
// whole workspace, with result ids.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentDiagnosticReport, WorkspaceDiagnosticReport } from 'vscode-languageserver-protocol';
import { LspClient, PULL_CAPABILITIES, REPO, startClient, tempWorkspace, textAt, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

function workspace(): string {
  return tempWorkspace({}, { broken: path.join(REPO, 'examples/broken'), invoices: path.join(REPO, 'examples/invoices') });
}

describe('language server diagnostics (pull)', () => {
  it('answers textDocument/diagnostic with result ids, and pushes nothing', async () => {
    const ws = workspace();
    client = await startClient({ folders: [ws], capabilities: PULL_CAPABILITIES });
    const file = path.join(ws, 'broken/broken.mthds');
    const uri = uriOf(file);
    client.open(uri, readFileSync(file, 'utf8'));
    const first = (await client.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as DocumentDiagnosticReport;
    expect(first.kind).toBe('full');
    if (first.kind !== 'full') return;
    expect(first.resultId).toBeDefined();
    const unknownKey = first.items.find((d) => d.code === 'method.schema_violation')!;
    expect(unknownKey.range).toEqual({ start: { line: 16, character: 0 }, end: { line: 16, character: 5 } });
    const again = (await client.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId: first.resultId })) as DocumentDiagnosticReport;
    expect(again).toEqual({ kind: 'unchanged', resultId: first.resultId });
    // An edit is seen by the very next pull, even before the debounce delay has passed.
    client.replace(uri, 'promt', 'prompt');
    const edited = (await client.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId: first.resultId })) as DocumentDiagnosticReport;
    expect(edited.kind).toBe('full');
    if (edited.kind === 'full') expect(edited.items.map((d) => d.code)).not.toContain('method.schema_violation');
    await client.workspaceChecked();
    await new Promise((r) => setTimeout(r, 200));
    expect(client.published).toEqual([]);
  });

  it('answers workspace/diagnostic for closed files, unchanged when nothing changed', async () => {
    const ws = workspace();
    client = await startClient({ folders: [ws], capabilities: PULL_CAPABILITIES });
    await client.workspaceChecked();
    const report = (await client.connection.sendRequest('workspace/diagnostic', { previousResultIds: [] })) as WorkspaceDiagnosticReport;
    const broken = uriOf(path.join(ws, 'broken/broken.mthds'));
    const item = report.items.find((i) => i.uri === broken)!;
    expect(item.kind).toBe('full');
    if (item.kind !== 'full') return;
    expect(item.items.map((d) => d.code)).toContain('method.pipe_unresolved');
    expect(report.items.map((i) => i.uri)).toContain(uriOf(path.join(ws, 'invoices/check.mthds')));

    // A change on disk: the next pull has that file in full, the others unchanged.
    const concepts = path.join(ws, 'invoices/concepts.mthds');
    writeFileSync(concepts, readFileSync(concepts, 'utf8').replace('[concept.Invoice]', '[concept.Bill]').replace('[concept.Invoice.structure]', '[concept.Bill.structure]'));
    const refreshes = client.refreshes;
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(concepts), type: 2 }] });
    await client.waitFor(() => client!.refreshes > refreshes, 'a diagnostic refresh');
    const previousResultIds = report.items.filter((i) => i.resultId !== undefined).map((i) => ({ uri: i.uri, value: i.resultId! }));
    const next = (await client.connection.sendRequest('workspace/diagnostic', { previousResultIds })) as WorkspaceDiagnosticReport;
    const check = next.items.find((i) => i.uri === uriOf(path.join(ws, 'invoices/check.mthds')))!;
    expect(check.kind).toBe('full');
    if (check.kind === 'full') {
      const d = check.items.find((x) => x.code === 'method.concept_unresolved')!;
      expect(textAt(readFileSync(path.join(ws, 'invoices/check.mthds'), 'utf8'), d.range)).toBe('Invoice');
    }
    expect(next.items.find((i) => i.uri === broken)!.kind).toBe('unchanged');
  });

  it('answers the pull of a document its tree was not checked with yet at once, then asks for a pull again', async () => {
    const ws = workspace();
    client = await startClient({ folders: [ws], capabilities: PULL_CAPABILITIES, initializationOptions: { diagnostics: { debounceMs: 300 } } });
    await client.workspaceChecked();
    // A new file of the package (not on disk), with a reference to a concept no one declares.
    const uri = uriOf(path.join(ws, 'invoices/draft.mthds'));
    const text = 'domain = "invoices"\n[pipe.draft]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Nowhere"\nprompt = "p"\n';
    const refreshes = client.refreshes;
    client.open(uri, text);
    // Asked before its check (the debounce has not passed): nothing carried over, and no check run for it.
    const first = (await client.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as DocumentDiagnosticReport;
    expect(first).toMatchObject({ kind: 'full', items: [] });
    // Once checked, the client is asked to pull again, and the finding is there.
    await client.waitFor(() => client!.refreshes > refreshes, 'a diagnostic refresh');
    const next = (await client.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as DocumentDiagnosticReport;
    expect(next.kind === 'full' && next.items.map((d) => [d.code, textAt(text, d.range)])).toContainEqual(['method.concept_unresolved', 'Nowhere']);
  });
});
