// Code actions over real stdio: requested, APPLIED to the text (as the editor would), and the
// result re-checked by the server.

import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, REPO, startClient, tempWorkspace, textAt, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const DEMO = `domain = "demo"
description = "Demo"

[pipe.go]
type = "PipeSequence"
description = "Go"
inputs = { text = "Text" }
output = "Summary"
steps = [{ pipe = "sumarize", result = "summary" }]

[pipe.summarize]
type = "PipeLLM"
description = "Summarize"
inputs = { text = "Text", extra = "Text" }
output = "Text"
prompt = "Summarize $text"
`;

async function openDemo(text = DEMO): Promise<{ uri: string; diagnostics: Diagnostic[] }> {
  const ws = tempWorkspace({ 'demo/demo.mthds': text });
  client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
  await client.workspaceChecked();
  const uri = uriOf(path.join(ws, 'demo/demo.mthds'));
  const after = client.published.length;
  client.open(uri, text);
  return { uri, diagnostics: await client.nextDiagnostics(uri, () => true, after) };
}

/** Applies an action and returns the diagnostics of the re-check. */
async function apply(uri: string, action: CodeAction): Promise<Diagnostic[]> {
  const after = client!.published.length;
  client!.applyWorkspaceEdit(action.edit!);
  return client!.nextDiagnostics(uri, () => true, after);
}

function titles(actions: CodeAction[]): string[] {
  return actions.map((a) => a.title);
}

describe('language server code actions', () => {
  it('offers a finding’s fix once, and applying it repairs the reference', async () => {
    const { uri, diagnostics } = await openDemo();
    const unresolved = diagnostics.find((d) => d.code === 'method.pipe_unresolved')!;
    const actions = await client!.codeActions(uri, unresolved.range);
    const replace = actions.filter((a) => a.title === 'Replace with `summarize`');
    expect(replace).toHaveLength(1);
    expect(replace[0]!.kind).toBe('quickfix');
    expect(replace[0]!.diagnostics?.[0]?.code).toBe('method.pipe_unresolved');
    expect(titles(actions)).toContain('Create pipe `sumarize`');
    const after = await apply(uri, replace[0]!);
    expect(after.map((d) => d.code)).not.toContain('method.pipe_unresolved');
    expect(client!.text(uri)).toContain('{ pipe = "summarize", result = "summary" }');
  });

  it('creates a missing concept and a missing pipe as valid stubs', async () => {
    const { uri, diagnostics } = await openDemo();
    const concept = diagnostics.find((d) => d.code === 'method.concept_unresolved')!;
    expect(textAt(client!.text(uri), concept.range)).toBe('Summary');
    const create = (await client!.codeActions(uri, concept.range)).find((a) => a.title === 'Create concept `Summary`')!;
    expect(create).toBeDefined();
    let after = await apply(uri, create);
    expect(after.map((d) => d.code)).not.toContain('method.concept_unresolved');
    expect(client!.text(uri)).toContain('\n\n[concept.Summary]\ndescription = "TODO: describe Summary"\n');

    const pipe = after.find((d) => d.code === 'method.pipe_unresolved')!;
    const createPipe = (await client!.codeActions(uri, pipe.range)).find((a) => a.title === 'Create pipe `sumarize`')!;
    after = await apply(uri, createPipe);
    expect(after.map((d) => d.code)).not.toContain('method.pipe_unresolved');
    // Only unused inputs are left (the stub reads none of `go`'s), nothing about the stubs.
    expect(new Set(after.map((d) => d.code))).toEqual(new Set(['method.input_unused']));
  });

  it('creates a qualified concept in the bundle of its domain', async () => {
    const ws = tempWorkspace({
      'pkg/METHODS.toml': '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n',
      'pkg/main.mthds': 'domain = "main"\ndescription = "Main"\n\n[pipe.go]\ntype = "PipeCompose"\ndescription = "Go"\ninputs = { text = "Text" }\noutput = "shared.Note"\ntemplate = "$text"\n',
      'pkg/shared.mthds': 'domain = "shared"\ndescription = "Shared concepts"\n\n[concept.Other]\ndescription = "Other"\n',
    });
    client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
    const main = uriOf(path.join(ws, 'pkg/main.mthds'));
    const shared = uriOf(path.join(ws, 'pkg/shared.mthds'));
    await client.workspaceChecked();
    // The answer to the opening, not the workspace check's: a later one would be taken for the edit's.
    const opened = client.published.length;
    client.open(main, readFileSync(path.join(ws, 'pkg/main.mthds'), 'utf8'));
    client.open(shared, readFileSync(path.join(ws, 'pkg/shared.mthds'), 'utf8'));
    const diagnostics = await client.nextDiagnostics(main, (d) => d.length > 0, opened);
    const unresolved = diagnostics.find((d) => d.code === 'method.concept_unresolved')!;
    const create = (await client.codeActions(main, unresolved.range)).find((a) => a.title.startsWith('Create concept `Note`'))!;
    expect(create.title).toBe('Create concept `Note` in shared.mthds');
    expect(Object.keys(create.edit!.changes!)).toEqual([shared]);
    expect(await apply(main, create)).toEqual([]);
    expect(client.text(shared)).toContain('[concept.Note]');
  });

  it('applies every safe fix with source.fixAll.mthds', async () => {
    const text = DEMO.replace('prompt = "Summarize $text"', 'prompt = "Summarize $text"\n\n[pipe.other]\ntype = "PipeLLM"\ndescription = "Other"\ninputs = { a = "Text", b = "Text", c = "Text" }\noutput = "Text"\nprompt = "Use $b"');
    const { uri, diagnostics } = await openDemo(text);
    expect(diagnostics.filter((d) => d.code === 'method.input_unused').length).toBe(3);
    const actions = await client!.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, ['source.fixAll.mthds']);
    expect(actions).toHaveLength(1);
    expect(actions[0]!.kind).toBe('source.fixAll.mthds');
    const after = await apply(uri, actions[0]!);
    expect(after.map((d) => d.code)).not.toContain('method.input_unused');
    expect(client!.text(uri)).toContain('inputs = { text = "Text" }');
    expect(client!.text(uri)).toContain('inputs = { b = "Text" }');
    // `source` covers it too; a quickfix-only request does not get it.
    expect(titles(await client!.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, ['source']))).toEqual([]);
    expect((await client!.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, ['quickfix'])).every((a) => a.kind === 'quickfix')).toBe(true);
  });

  it('repairs a document completely: fix, create, fix all, and it re-checks clean', async () => {
    const { uri, diagnostics } = await openDemo();
    const pipe = diagnostics.find((d) => d.code === 'method.pipe_unresolved')!;
    let after = await apply(uri, (await client!.codeActions(uri, pipe.range)).find((a) => a.title === 'Replace with `summarize`')!);
    const concept = after.find((d) => d.code === 'method.concept_unresolved')!;
    after = await apply(uri, (await client!.codeActions(uri, concept.range)).find((a) => a.title === 'Create concept `Summary`')!);
    const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    after = await apply(uri, (await client!.codeActions(uri, zero, ['source.fixAll']))[0]!);
    expect(after).toEqual([]);
  });

  it('repairs the broken example step by step until only the unfixable remains', async () => {
    const ws = tempWorkspace({}, { broken: path.join(REPO, 'examples/broken') });
    client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
    await client.workspaceChecked();
    const uri = uriOf(path.join(ws, 'broken/broken.mthds'));
    const opened = client.published.length;
    client.open(uri, readFileSync(path.join(ws, 'broken/broken.mthds'), 'utf8'));
    let diagnostics = await client.nextDiagnostics(uri, () => true, opened);
    const byCode = (code: string): Diagnostic => diagnostics.find((d) => d.code === code)!;
    diagnostics = await apply(uri, (await client.codeActions(uri, byCode('method.schema_violation').range)).find((a) => a.title === 'Rename to `prompt`')!);
    diagnostics = await apply(uri, (await client.codeActions(uri, byCode('method.pipe_unresolved').range)).find((a) => a.title === 'Replace with `suggest_recipe`')!);
    diagnostics = await apply(uri, (await client.codeActions(uri, byCode('method.concept_unresolved').range)).find((a) => a.title === 'Create concept `Ingredient`')!);
    const codes = diagnostics.map((d) => d.code);
    expect(codes).not.toContain('method.schema_violation');
    expect(codes).not.toContain('method.pipe_unresolved');
    expect(codes).not.toContain('method.concept_unresolved');
  });
});
