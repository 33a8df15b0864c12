// "Fix all" over stdio never leaves a method worse: an input a misplaced `@triage` names is not
// removed, a lone suggestion is applied, and a safe fix whose result has a new error is left out.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, REPO, startClient, tempWorkspace, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const FIXTURES = path.join(REPO, 'test/fixtures/fix');
const WHOLE = { start: { line: 0, character: 0 }, end: { line: 999, character: 0 } };
const errors = (ds: readonly Diagnostic[]): string[] => ds.filter((d) => d.severity === 1).map((d) => String(d.code)).sort();

async function openFixture(name: string): Promise<{ uri: string; text: string; diagnostics: Diagnostic[] }> {
  return openText(name, readFileSync(path.join(FIXTURES, name), 'utf8'));
}

/** A workspace of one file, opened once the server has checked it: its first diagnostics. */
async function openText(name: string, text: string): Promise<{ uri: string; text: string; diagnostics: Diagnostic[] }> {
  const ws = tempWorkspace({ [name]: text });
  client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
  await client.workspaceChecked();
  const uri = uriOf(path.join(ws, name));
  const after = client.published.length;
  client.open(uri, text);
  return { uri, text, diagnostics: await client.nextDiagnostics(uri, () => true, after) };
}

describe('source.fixAll over stdio', () => {
  it('keeps the input an inline `@triage` names, and replaces the misspelled concept', async () => {
    const { uri, diagnostics } = await openFixture('triage.mthds');
    expect(errors(diagnostics)).toEqual(['method.concept_unresolved', 'method.template_invalid']);
    const [fixAll, ...rest] = await client!.codeActions(uri, WHOLE, ['source.fixAll']);
    expect(rest).toEqual([]);
    const after = client!.published.length;
    client!.applyWorkspaceEdit(fixAll!.edit!);
    const fixed = await client!.nextDiagnostics(uri, () => true, after);
    expect(client!.text(uri)).toContain('inputs = { ticket = "Text", triage = "Triage" }');
    expect(errors(fixed)).toEqual(['method.template_invalid']);
  });

  it('leaves out a safe fix whose result has a new error (a step replaced by a call of itself)', async () => {
    const { uri, text, diagnostics } = await openFixture('self_call.mthds');
    expect(errors(diagnostics)).toEqual(['method.pipe_unresolved']);
    // The quick fix is still offered (the author may want it); fix-all does not apply it.
    const quick = await client!.codeActions(uri, WHOLE, ['quickfix']);
    expect(quick.map((a) => a.title)).toContain('Replace with `run`');
    expect(await client!.codeActions(uri, WHOLE, ['source.fixAll'])).toEqual([]);
    expect(client!.text(uri)).toBe(text);
    expect(client!.alive()).toBe(true);
  });

  it("the README's broken example: the causes are fixed, every declaration is kept, fewer errors", async () => {
    const { uri, diagnostics: before } = await openText('broken.mthds', readFileSync(path.join(REPO, 'examples/broken/broken.mthds'), 'utf8'));
    if (!client) throw new Error('no server');
    // The unused input is a consequence of the misspelt `promt`: offered, never as the preferred fix.
    const unused = before.find((d) => d.code === 'method.input_unused')!;
    const quick = await client.codeActions(uri, unused.range, ['quickfix']);
    expect(quick.map((a) => a.title)).toContain('Remove unused input `ingredients`');
    expect(quick.filter((a) => a.title === 'Remove unused input `ingredients`').every((a) => a.isPreferred !== true)).toBe(true);
    const [fixAll] = await client.codeActions(uri, WHOLE, ['source.fixAll']);
    const after = client.published.length;
    client.applyWorkspaceEdit(fixAll!.edit!);
    const fixed = await client.nextDiagnostics(uri, () => true, after);
    const now = client.text(uri);
    expect(now).toContain('inputs = { ingredients = "Ingredient[]" }');
    expect(now).toContain('prompt = "Suggest a recipe using $ingredients"');
    expect(now).toContain('steps = [{ pipe = "suggest_recipe", result = "recipe" }]');
    expect(errors(fixed).length).toBeLessThan(errors(before).length);
    expect(errors(fixed)).not.toContain('method.input_undeclared');
  });

  it('a PipeSequence written with a prompt: fix-all removes neither the prompt nor the inputs', async () => {
    const text = 'domain = "recipes"\ndescription = "d"\n\n[pipe.suggest]\ntype = "PipeSequence"\ndescription = "Suggest"\ninputs = { ingredients = "Text" }\noutput = "Text"\nprompt = "Suggest a recipe using $ingredients"\n';
    const { uri, diagnostics: before } = await openText('seq.mthds', text);
    if (!client) throw new Error('no server');
    expect(errors(before)).toContain('method.input_unused');
    expect(await client.codeActions(uri, WHOLE, ['source.fixAll'])).toEqual([]);
    expect(client.text(uri)).toBe(text);
  });
});
