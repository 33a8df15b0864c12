// The fix-all resolved lazily over stdio: a client resolving code actions' edits
// (`codeAction/resolve`) is offered `source.fixAll.mthds` without its edit, even while the
// document's first check runs; the edit is made and verified when the action is resolved, and
// applying it leaves no unused input.

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction } from 'vscode-languageserver-protocol';
import { startClient, tempWorkspace, uriOf, type LspClient } from './harness.js';
import { RESOLVING, wideBundle } from './wideBundle.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const UNUSED = 300;
const text = wideBundle(UNUSED);
const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

describe('the fix-all resolved lazily', () => {
  it('is offered without its edit while the first check runs, and resolves to the verified edit', async () => {
    const ws = tempWorkspace({ 'demo/demo.mthds': text });
    client = await startClient({ folders: [ws], capabilities: RESOLVING, initializationOptions: { debounceMs: 0 } });
    expect(client.initializeResult.capabilities.codeActionProvider).toMatchObject({ resolveProvider: true });
    const uri = uriOf(path.join(ws, 'demo/demo.mthds'));
    const opened = client.published.length;
    client.open(uri, text);
    // Asked at once, without `only`: quick fixes of the findings at the range, and the fix-all unresolved.
    const actions = await client.codeActions(uri, zero);
    const fixAll = actions.find((a) => a.kind === 'source.fixAll.mthds')!;
    expect(fixAll).toBeDefined();
    expect(fixAll.edit).toBeUndefined();
    expect(fixAll.data).toEqual({ fixAll: uri });
    await client.nextDiagnostics(uri, (d) => d.filter((x) => x.code === 'method.input_unused').length === UNUSED, opened);
    const resolved = await client.connection.sendRequest<CodeAction>('codeAction/resolve', fixAll);
    expect(resolved.title).toBe(fixAll.title);
    // The removals, adjacent, come merged: a few edits for thousands of fixes.
    const edits = resolved.edit?.changes?.[uri]?.length ?? 0;
    expect(edits).toBeGreaterThan(0);
    expect(edits).toBeLessThan(UNUSED / 100);
    const after = client.published.length;
    client.applyWorkspaceEdit(resolved.edit!);
    // Fixes whose edits overlap an edit taken are left for a second run (as `mthds check --fix` does).
    const left = await client.nextDiagnostics(uri, () => true, after);
    expect(left.length).toBeLessThan(UNUSED / 2);
    expect(new Set(left.map((d) => d.code))).toEqual(new Set(left.length > 0 ? ['method.input_unused'] : []));
    // Exactly the unused inputs the edit left in the text are reported, each once.
    const remaining = [...client.text(uri).matchAll(/\b(u\d+) = "Text"/g)].map((m) => m[1]!).sort();
    expect(left.map((d) => (d.data as { params: { variables: string[] } }).params.variables[0]!).sort()).toEqual(remaining);
    // Resolved again until nothing is left: the used input alone remains, and no fix-all is offered.
    for (let round = 0; round < 5 && client.diagnostics.get(uri)!.diagnostics.length > 0; round++) {
      const next = (await client.codeActions(uri, zero)).find((a) => a.kind === 'source.fixAll.mthds')!;
      const before = client.published.length;
      client.applyWorkspaceEdit((await client.connection.sendRequest<CodeAction>('codeAction/resolve', next)).edit!);
      await client.nextDiagnostics(uri, () => true, before);
    }
    expect(client.diagnostics.get(uri)!.diagnostics).toEqual([]);
    expect(client.text(uri)).toContain('inputs = { used = "Text" }');
    expect((await client.codeActions(uri, zero)).filter((a) => a.kind === 'source.fixAll.mthds')).toEqual([]);
  });

  it('on a document never checked (outside the folders), answers with its fixes after one check of its tree', async () => {
    const ws = tempWorkspace({ 'demo/other.mthds': 'domain = "other"\ndescription = "Other"\n' });
    const outside = tempWorkspace();
    client = await startClient({ folders: [ws], capabilities: RESOLVING, initializationOptions: { debounceMs: 0 }, trace: 'verbose' });
    const uri = uriOf(path.join(outside, 'lone.mthds'));
    client.open(uri, text);
    const actions = await client.codeActions(uri, { start: { line: 6, character: 27 }, end: { line: 6, character: 27 } });
    expect(actions.find((a) => a.kind === 'source.fixAll.mthds')?.data).toEqual({ fixAll: uri });
    expect(actions.filter((a) => a.kind === 'quickfix').length).toBeGreaterThan(0);
    // One check of its tree: the request's check and the scheduled one are not both run.
    await client.nextDiagnostics(uri, (d) => d.length === UNUSED, 0);
    // A round trip: what the server sent before its answer (the trace of the check that published) has come.
    await client.codeActions(uri, zero);
    expect(client.traces.filter((t) => t.startsWith('mthds: checked ') && t.includes(outside))).toHaveLength(1);
  });

  it('a resolve of an action the server did not make comes back unchanged', async () => {
    const ws = tempWorkspace({ 'demo/demo.mthds': text });
    client = await startClient({ folders: [ws], capabilities: RESOLVING });
    const other = { title: 'Something else', kind: 'quickfix', data: { other: 1 } };
    expect(await client.connection.sendRequest('codeAction/resolve', other)).toEqual(other);
  });
});
