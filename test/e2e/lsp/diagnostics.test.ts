// Diagnostics over real stdio: the background check of closed files, open and edited documents,
// cross-file effects inside a package, and files changed on disk.

import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspClient, PUSH_CAPABILITIES, REPO, startClient, tempWorkspace, textAt, uriOf } from './harness.js';

const EXAMPLES = path.join(REPO, 'examples');

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

function examplesWorkspace(): string {
  return tempWorkspace({}, { broken: path.join(EXAMPLES, 'broken'), invoices: path.join(EXAMPLES, 'invoices'), news: path.join(EXAMPLES, 'news') });
}

describe('language server diagnostics (push)', () => {
  it('checks the closed files of the workspace at start-up, with progress', async () => {
    const ws = examplesWorkspace();
    client = await startClient({ folders: [ws] });
    const broken = uriOf(path.join(ws, 'broken/broken.mthds'));
    const diagnostics = await client.nextDiagnostics(broken, (d) => d.length > 0, 0);
    await client.workspaceChecked();
    expect(client.progress.map((p) => p.value.kind)).toContain('begin');
    expect(client.initializeResult.capabilities.diagnosticProvider).toMatchObject({ interFileDependencies: true, workspaceDiagnostics: true });
    const codes = diagnostics.map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(['method.schema_violation', 'method.pipe_type_invalid', 'method.pipe_unresolved', 'method.concept_unresolved']));
    const unknownKey = diagnostics.find((d) => d.code === 'method.schema_violation')!;
    // The same position as `mthds check` prints (17:1), as a 0-based LSP range.
    expect(unknownKey.range).toEqual({ start: { line: 16, character: 0 }, end: { line: 16, character: 5 } });
    expect(unknownKey.source).toBe('mthds');
    expect(unknownKey.severity).toBe(1);
    expect(unknownKey.codeDescription?.href).toMatch(/errors\.md#method-schema_violation$/);
    const unresolved = diagnostics.find((d) => d.code === 'method.pipe_unresolved')!;
    const text = readFileSync(path.join(ws, 'broken/broken.mthds'), 'utf8');
    expect(textAt(text, unresolved.range)).toBe('sugest_recipe');
    // The data holds the code's parameters; the fix comes as a code action.
    expect(unresolved.data).toEqual({ params: expect.objectContaining({ missing: 'sugest_recipe' }) });
    client.open(broken, text);
    const actions = await client.codeActions(broken, unresolved.range);
    const replace = actions.find((a) => a.title === 'Replace with `suggest_recipe`');
    expect(replace?.edit?.changes?.[broken]).toEqual([{ newText: 'suggest_recipe', range: unresolved.range }]);
    // Clean files get no message at all.
    expect(client.diagnostics.has(uriOf(path.join(ws, 'news/news.mthds')))).toBe(false);
    // Watchers are registered dynamically.
    expect(client.registrations.map((r) => r.method)).toContain('workspace/didChangeWatchedFiles');
  });

  it('re-checks an open document on every change, with its version', async () => {
    const ws = examplesWorkspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const file = path.join(ws, 'news/news.mthds');
    const uri = uriOf(file);
    const text = readFileSync(file, 'utf8');
    let after = client.published.length;
    client.open(uri, text);
    expect(await client.nextDiagnostics(uri, () => true, after)).toEqual([]);
    after = client.published.length;
    client.replace(uri, '"PipeLLM"', '"PipeLMM"');
    const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, after);
    const invalid = diagnostics.find((d) => d.code === 'method.pipe_type_invalid')!;
    expect(textAt(client.text(uri), invalid.range)).toBe('"PipeLMM"');
    expect(client.diagnostics.get(uri)!.version).toBe(2);
    after = client.published.length;
    client.replace(uri, 'PipeLMM', 'PipeLLM');
    expect(await client.nextDiagnostics(uri, () => true, after)).toEqual([]);
  });

  it('never drops the last change of a burst (debounce)', async () => {
    const ws = examplesWorkspace();
    client = await startClient({ folders: [ws], initializationOptions: { diagnostics: { debounceMs: 200 } } });
    await client.workspaceChecked();
    const uri = uriOf(path.join(ws, 'news/news.mthds'));
    client.open(uri, readFileSync(path.join(ws, 'news/news.mthds'), 'utf8'));
    await client.nextDiagnostics(uri, () => true, 0);
    const after = client.published.length;
    client.replace(uri, '"PipeLLM"', '"PipeL"');
    client.replace(uri, '"PipeL"', '"PipeLX"');
    client.replace(uri, '"PipeLX"', '"PipeLXY"');
    const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, after);
    // One check, after the burst, of the last text.
    expect(client.published.slice(after).filter((p) => p.uri === uri)).toHaveLength(1);
    expect(textAt(client.text(uri), diagnostics.find((d) => d.code === 'method.pipe_type_invalid')!.range)).toBe('"PipeLXY"');
  });

  it('reports cross-file effects: a renamed concept breaks its use in another (closed) file, and fixing it clears it', async () => {
    const ws = examplesWorkspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const concepts = uriOf(path.join(ws, 'invoices/concepts.mthds'));
    const checkFile = path.join(ws, 'invoices/check.mthds');
    const check = uriOf(checkFile);
    client.open(concepts, readFileSync(path.join(ws, 'invoices/concepts.mthds'), 'utf8'));
    await client.nextDiagnostics(concepts, () => true, 0);
    let after = client.published.length;
    client.replace(concepts, '[concept.Invoice]', '[concept.Invoyce]');
    client.replace(concepts, '[concept.Invoice.structure]', '[concept.Invoyce.structure]');
    const broken = await client.nextDiagnostics(check, (d) => d.length > 0, after);
    const checkText = readFileSync(checkFile, 'utf8');
    const unresolved = broken.filter((d) => d.code === 'method.concept_unresolved');
    expect(unresolved.length).toBeGreaterThan(0);
    for (const d of unresolved) expect(textAt(checkText, d.range)).toBe('Invoice');
    expect(unresolved[0]!.message).toContain('Invoyce');
    after = client.published.length;
    client.replace(concepts, '[concept.Invoyce]', '[concept.Invoice]');
    client.replace(concepts, '[concept.Invoyce.structure]', '[concept.Invoice.structure]');
    expect(await client.nextDiagnostics(check, () => true, after)).toEqual([]);
  });

  it('lets unsaved buffers win over disk, and reads the disk again on close', async () => {
    const ws = examplesWorkspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const conceptsFile = path.join(ws, 'invoices/concepts.mthds');
    const concepts = uriOf(conceptsFile);
    const check = uriOf(path.join(ws, 'invoices/check.mthds'));
    client.open(concepts, readFileSync(conceptsFile, 'utf8').replace('[concept.LineItem]', '[concept.Line]').replace('[concept.LineItem.structure]', '[concept.Line.structure]'));
    const own = await client.nextDiagnostics(concepts, (d) => d.length > 0, 0);
    expect(own.map((d) => d.code)).toContain('method.concept_unresolved');
    const after = client.published.length;
    client.close(concepts);
    expect(await client.nextDiagnostics(concepts, () => true, after)).toEqual([]);
    expect(client.diagnostics.get(check)?.diagnostics ?? []).toEqual([]);
  });

  it('picks up files changed, created and deleted on disk (watched files)', async () => {
    const ws = examplesWorkspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const conceptsFile = path.join(ws, 'invoices/concepts.mthds');
    const check = uriOf(path.join(ws, 'invoices/check.mthds'));
    let after = client.published.length;
    writeFileSync(conceptsFile, readFileSync(conceptsFile, 'utf8').replace('[concept.Invoice]', '[concept.Bill]').replace('[concept.Invoice.structure]', '[concept.Bill.structure]'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(conceptsFile), type: 2 }] });
    const broken = await client.nextDiagnostics(check, (d) => d.length > 0, after);
    expect(broken.map((d) => d.code)).toContain('method.concept_unresolved');

    // A new bundle of the same domain declaring the concept repairs the tree.
    after = client.published.length;
    const extra = path.join(ws, 'invoices/extra.mthds');
    writeFileSync(extra, 'domain = "invoices"\ndescription = "More"\n\n[concept.Invoice]\ndescription = "An invoice"\n');
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(extra), type: 1 }] });
    expect(await client.nextDiagnostics(check, () => true, after)).toEqual([]);

    // A deleted file: its diagnostics are cleared, and what depended on it breaks again.
    writeFileSync(extra, 'domain = "invoices"\ndescription = "More"\n\n[concept.Invoice]\ndescription = "An invoice"\n[pipe.bad]\ntype = "Nope"\n');
    after = client.published.length;
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(extra), type: 2 }] });
    expect((await client.nextDiagnostics(uriOf(extra), (d) => d.length > 0, after)).length).toBeGreaterThan(0);
    after = client.published.length;
    unlinkSync(extra);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(extra), type: 3 }] });
    expect(await client.nextDiagnostics(uriOf(extra), () => true, after)).toEqual([]);
    expect((await client.nextDiagnostics(check, (d) => d.length > 0, after)).map((d) => d.code)).toContain('method.concept_unresolved');
  });

  it('regroups trees when a METHODS.toml appears', async () => {
    // Two folders: without a manifest above them, each folder is its own tree.
    const ws = tempWorkspace({
      'lib/a/uses.mthds': 'domain = "shared"\ndescription = "Uses"\n\n[pipe.go]\ntype = "PipeCompose"\ndescription = "Go"\ninputs = { text = "Text" }\noutput = "Note"\ntemplate = "$text"\n',
      'lib/b/declares.mthds': 'domain = "shared"\ndescription = "Declares"\n\n[concept.Note]\ndescription = "A note"\n',
    });
    client = await startClient({ folders: [ws] });
    const uses = uriOf(path.join(ws, 'lib/a/uses.mthds'));
    await client.nextDiagnostics(uses, (d) => d.some((x) => x.code === 'method.concept_unresolved'), 0);
    await client.workspaceChecked();
    const after = client.published.length;
    const manifest = path.join(ws, 'lib/METHODS.toml');
    writeFileSync(manifest, '[package]\nname = "lib"\naddress = "github.com/example/lib"\nversion = "1.0.0"\ndescription = "A library"\n');
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(manifest), type: 1 }] });
    expect(await client.nextDiagnostics(uses, () => true, after)).toEqual([]);
    rmSync(ws, { recursive: true, force: true });
  });

  it('gives METHODS.toml its diagnostics', async () => {
    const ws = examplesWorkspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const manifest = path.join(ws, 'invoices/METHODS.toml');
    const uri = uriOf(manifest);
    client.open(uri, readFileSync(manifest, 'utf8'), 'toml');
    expect(await client.nextDiagnostics(uri, () => true, 0)).toEqual([]);
    const after = client.published.length;
    client.replace(uri, 'main_pipe   = "check_invoice"', 'main_pipe   = "check_invoices"');
    const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, after);
    const d = diagnostics.find((x) => x.code === 'method.pipe_unresolved')!;
    expect(textAt(client.text(uri), d.range)).toBe('"check_invoices"');
  });

  it('checks a document that is no file on its own', async () => {
    client = await startClient({ folders: [], capabilities: PUSH_CAPABILITIES });
    const uri = 'untitled:Untitled-1';
    client.open(uri, 'domain = "demo"\ndescription = "d"\n\n[pipe.x]\ntype = "PipeLLM"\ndescription = "x"\noutput = "Nothing"\nprompt = "hi"\n');
    const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, 0);
    expect(diagnostics.map((d) => d.code)).toContain('method.concept_unresolved');
    const after = client.published.length;
    client.close(uri);
    expect(await client.nextDiagnostics(uri, () => true, after)).toEqual([]);
  });
});
