// The runner through the language server: the built-in runner (no runner configured), validation
// errors as diagnostics of source "runner" at exact ranges, runs, code lenses, and every kind of
// failure of a configured runner (fake runners on loopback).

import { inputOf, promptOf } from '../../../client/src/runInputs.js';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { LspClient, REPO, startClient, tempWorkspace, textAt, uriOf } from './harness.js';

let client: LspClient | undefined;
let fake: http.Server | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
  await new Promise<void>((resolve) => (fake ? fake.close(() => resolve()) : resolve()));
  fake = undefined;
});

/** A fake runner on loopback answering every request with `answer`. */
async function fakeRunner(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<string> {
  fake = http.createServer(answer);
  await new Promise<void>((resolve) => fake!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
}

function examples(): string {
  return tempWorkspace({}, { broken: path.join(REPO, 'examples/broken'), news: path.join(REPO, 'examples/news') });
}

describe('runner commands with the built-in runner', () => {
  it('answers version and models', async () => {
    client = await startClient({ folders: [] });
    const version = await client.executeCommand<{ ok: boolean; builtIn: boolean; version: { protocol_version: string } }>('mthds.runner.version');
    expect(version.ok).toBe(true);
    expect(version.builtIn).toBe(true);
    expect(version.version.protocol_version).toMatch(/^\d+\.\d+/);
    const models = await client.executeCommand<{ ok: boolean; models: { models: Array<{ name: string; type: string }> } }>('mthds.runner.models', 'llm');
    expect(models.ok).toBe(true);
    expect(models.models.models.length).toBeGreaterThan(0);
    expect(models.models.models.every((m) => m.type === 'llm')).toBe(true);
    expect(client.messages.some((m) => m.type === 3 && /protocol/.test(m.message))).toBe(true);
  });

  it('shows the validation errors as diagnostics of source runner, at exact ranges, until the next edit', async () => {
    const ws = examples();
    client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
    await client.workspaceChecked();
    const file = path.join(ws, 'broken/broken.mthds');
    const uri = uriOf(file);
    client.open(uri, readFileSync(file, 'utf8'));
    await client.nextDiagnostics(uri, () => true, 0);
    const after = client.published.length;
    const answer = await client.executeCommand<{ ok: boolean; verdict: { is_valid: boolean; validation_errors: Array<{ file: string; line: number; column: number; end_line: number; end_column: number; message: string }> } }>('mthds.runner.validate', { uri });
    expect(answer.ok).toBe(true);
    expect(answer.verdict.is_valid).toBe(false);
    const diagnostics = await client.nextDiagnostics(uri, (d) => d.some((x) => x.source === 'runner'), after);
    const fromRunner = diagnostics.filter((d) => d.source === 'runner');
    expect(fromRunner.length).toBe(answer.verdict.validation_errors.filter((e) => e.file === 'broken.mthds').length);
    for (const e of answer.verdict.validation_errors) {
      const d = fromRunner.find((x) => x.message === e.message)!;
      expect(d.range).toEqual({ start: { line: e.line - 1, character: e.column - 1 }, end: { line: e.end_line - 1, character: e.end_column - 1 } });
    }
    expect(textAt(client.text(uri), fromRunner.find((d) => /sugest_recipe/.test(d.message))!.range)).toBe('sugest_recipe');
    // The checks' own diagnostics are still there.
    expect(diagnostics.some((d) => d.source === 'mthds')).toBe(true);
    expect(client.messages.some((m) => m.type === 2 && /validation error/.test(m.message))).toBe(true);
    // An edit makes the verdict stale: it goes.
    const edited = client.published.length;
    client.replace(uri, 'promt', 'prompt');
    expect((await client.nextDiagnostics(uri, () => true, edited)).some((d) => d.source === 'runner')).toBe(false);
  });

  it('validates a clean tree as valid', async () => {
    const ws = examples();
    client = await startClient({ folders: [ws] });
    const uri = uriOf(path.join(ws, 'news/news.mthds'));
    const answer = await client.executeCommand<{ ok: boolean; verdict: { is_valid: boolean; is_runnable: boolean } }>('mthds.runner.validate', uri);
    expect(answer).toMatchObject({ ok: true, verdict: { is_valid: true, is_runnable: true } });
    expect(client.messages.some((m) => m.type === 3 && /valid and runnable/.test(m.message))).toBe(true);
  });

  it('executes the pipe under the cursor with inputs.json, and opens the output', async () => {
    const ws = examples();
    writeFileSync(path.join(ws, 'news/inputs.json'), JSON.stringify({ article: { concept: 'news.Article', content: 'A storm hit the coast on Monday.' } }));
    client = await startClient({ folders: [ws] });
    const uri = uriOf(path.join(ws, 'news/news.mthds'));
    const text = readFileSync(path.join(ws, 'news/news.mthds'), 'utf8');
    const line = text.split('\n').findIndex((l) => l.startsWith('[pipe.brief_article]')) + 2;
    const answer = await client.executeCommand<{ ok: boolean; pipe: string; pipeline_run_id: string; pipe_output: { working_memory: unknown }; outputUri: string }>('mthds.runner.execute', uri, { line, character: 0 });
    expect(answer.ok).toBe(true);
    expect(answer.pipe).toBe('news.brief_article');
    expect(answer.pipe_output.working_memory).toBeDefined();
    await client.waitFor(() => client!.shownDocuments.length > 0, 'showDocument');
    expect(client.shownDocuments[0]!.uri).toBe(answer.outputUri);
    expect(JSON.parse(readFileSync(fileURLToPath(answer.outputUri), 'utf8'))).toEqual(answer.pipe_output);
  });

  it('starts a run and shows its id; says what is wrong with missing inputs', async () => {
    const ws = examples();
    client = await startClient({ folders: [ws] });
    const uri = uriOf(path.join(ws, 'news/news.mthds'));
    const started = await client.executeCommand<{ ok: boolean; pipeline_run_id: string }>('mthds.runner.start', { uri, inputs: { article: { concept: 'news.Article', content: 'News.' } } });
    expect(started.ok).toBe(true);
    expect(client.messages.some((m) => m.message.includes(started.pipeline_run_id))).toBe(true);
    // The main pipe without its input: the runner's problem, with code, title, detail and advice.
    const missing = await client.executeCommand<{ ok: boolean; message: string }>('mthds.runner.execute', { uri });
    expect(missing.ok).toBe(false);
    expect(missing.message).toMatch(/input\.missing/);
    expect(missing.message).toMatch(/article/);
    expect(client.messages.some((m) => m.type === 1 && m.message === missing.message)).toBe(true);
  });

  it('follows a started run from the run reads: progress, status notifications, the output at the end', async () => {
    const ws = examples();
    const lsp = await startClient({ folders: [ws], env: { MTHDS_MOCK_LATENCY_MS: '300' } });
    client = lsp;
    const statuses: Array<{ pipeline_run_id: string; status: string; outputUri?: string }> = [];
    lsp.connection.onNotification('mthds/runStatus', (p: { pipeline_run_id: string; status: string; outputUri?: string }) => statuses.push(p));
    const uri = uriOf(path.join(ws, 'news/news.mthds'));
    const started = await lsp.executeCommand<{ ok: boolean; pipeline_run_id: string }>('mthds.runner.start', { uri, inputs: { article: { concept: 'news.Article', content: 'News.' } } });
    expect(started.ok).toBe(true);
    await lsp.waitFor(() => lsp.messages.some((m) => m.message.startsWith('Run of ') && m.message.includes('completed')), 'the completed run message', 20_000);
    const ids = statuses.map((s) => s.pipeline_run_id);
    expect(new Set(ids)).toEqual(new Set([started.pipeline_run_id]));
    expect(statuses.map((s) => s.status)).toContain('RUNNING');
    const done = statuses.at(-1)!;
    expect(done.status).toBe('COMPLETED');
    const output = JSON.parse(readFileSync(fileURLToPath(done.outputUri!), 'utf8'));
    expect(output.working_memory.root).toBeDefined();
    // Work-done progress: begun with the pipe, reported RUNNING, ended.
    const kinds = lsp.progress.filter((p) => p.value.title?.startsWith('Run of') || p.value.message === 'RUNNING' || p.value.kind === 'end');
    expect(kinds.some((p) => p.value.kind === 'begin' && p.value.title?.startsWith('Run of'))).toBe(true);
    expect(kinds.some((p) => p.value.kind === 'report' && p.value.message === 'RUNNING')).toBe(true);
    expect(kinds.some((p) => p.value.kind === 'end')).toBe(true);
  });

  it('puts Run and Validate lenses above each pipe', async () => {
    const ws = examples();
    client = await startClient({ folders: [ws] });
    const file = path.join(ws, 'news/news.mthds');
    const uri = uriOf(file);
    const text = readFileSync(file, 'utf8');
    client.open(uri, text);
    const lenses = (await client.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as CodeLens[];
    const pipeLines = text.split('\n').flatMap((l, i) => (l.startsWith('[pipe.') ? [i] : []));
    expect(lenses.filter((l) => l.command?.title === 'Run').map((l) => l.range.start.line)).toEqual(pipeLines);
    expect(lenses.filter((l) => l.command?.title === 'Validate').map((l) => l.range.start.line)).toEqual(pipeLines);
    // With what to ask for before running: the pipe's inputs, from its pipe I/O description.
    expect(lenses.find((l) => l.command?.title === 'Run')!.command!.arguments).toEqual([
      { uri, pipe: 'news.brief_article', prompt: [{ name: 'article', concept: 'news.Article', kind: 'prose', required: true, key: 'text', value: 'text' }] },
    ]);
  });

  it('runs a lens with the inputs the client asked for', async () => {
    const ws = examples();
    client = await startClient({ folders: [ws] });
    const file = path.join(ws, 'news/news.mthds');
    const uri = uriOf(file);
    client.open(uri, readFileSync(file, 'utf8'));
    const lenses = (await client.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as CodeLens[];
    const args = lenses.find((l) => l.command?.title === 'Run')!.command!.arguments!;
    const fields = promptOf(args)!;
    const inputs = Object.fromEntries(fields.map((f) => [f.name, (inputOf(f, 'A storm hit the coast.') as { input: unknown }).input]));
    expect(inputs).toEqual({ article: { concept: 'news.Article', content: { text: 'A storm hit the coast.' } } });
    const answer = await client.executeCommand<{ ok: boolean; pipe: string; pipe_output: unknown }>('mthds.runner.execute', Object.assign({}, args[0], { inputs }));
    expect(answer).toMatchObject({ ok: true, pipe: 'news.brief_article' });
    expect(JSON.stringify(answer.pipe_output)).toContain('headline');
  });
});

describe('runner commands with a configured runner that fails', () => {
  const uriIn = (ws: string): string => uriOf(path.join(ws, 'news/news.mthds'));

  it('says when the runner cannot be reached', async () => {
    const url = await fakeRunner((_req, res) => res.end());
    await new Promise<void>((resolve) => fake!.close(() => resolve()));
    fake = undefined;
    client = await startClient({ initializationOptions: { runner: { url } } });
    const answer = await client.executeCommand<{ ok: boolean; message: string }>('mthds.runner.version');
    expect(answer.ok).toBe(false);
    expect(answer.message).toMatch(/cannot be reached/);
    expect(answer.message).toContain(url);
  });

  it('says when the runner does not answer in time', async () => {
    const url = await fakeRunner(() => undefined);
    client = await startClient({ initializationOptions: { runner: { url, timeoutMs: 300 } } });
    const answer = await client.executeCommand<{ ok: boolean; message: string }>('mthds.runner.version');
    expect(answer).toEqual({ ok: false, message: expect.stringMatching(/did not answer within/) });
  });

  it('guides about credentials on 401/403, sending the token named by tokenEnv', async () => {
    const seen: Array<string | undefined> = [];
    const url = await fakeRunner((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ detail: 'Not authenticated' }));
    });
    client = await startClient({ configuration: { runner: { url, tokenEnv: 'MTHDS_TEST_RUNNER_TOKEN' } }, env: { MTHDS_TEST_RUNNER_TOKEN: 's3cret' } });
    await client.workspaceChecked().catch(() => undefined);
    const answer = await client.executeCommand<{ ok: boolean; message: string }>('mthds.runner.version');
    expect(seen).toEqual(['Bearer s3cret']);
    expect(answer.ok).toBe(false);
    expect(answer.message).toContain('Not authenticated');
    expect(answer.message).toMatch(/mthds\.runner\.tokenEnv/);
  });

  it('shows a problem with its code, title, detail and advice, and reads a non-JSON body', async () => {
    const ws = examples();
    let mode: 'problem' | 'html' = 'problem';
    const url = await fakeRunner((_req, res) => {
      if (mode === 'html') {
        res.writeHead(502, { 'Content-Type': 'text/html' });
        res.end('<html>Bad gateway</html>');
        return;
      }
      res.writeHead(422, { 'Content-Type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'https://mthds.ai/errors/method.concept_unresolved', title: 'Concept not found', status: 422, detail: 'The concept Foo is not defined.', code: 'method.concept_unresolved' }));
    });
    client = await startClient({ folders: [ws], initializationOptions: { runner: { url } } });
    const problem = await client.executeCommand<{ ok: boolean; message: string }>('mthds.runner.validate', { uri: uriIn(ws) });
    expect(problem.ok).toBe(false);
    expect(problem.message).toContain('method.concept_unresolved: Concept not found');
    expect(problem.message).toContain('The concept Foo is not defined.');
    expect(problem.message).toMatch(/Advice: .*declare the concept/i);
    mode = 'html';
    const html = await client.executeCommand<{ ok: boolean; message: string }>('mthds.runner.version');
    expect(html).toEqual({ ok: false, message: expect.stringMatching(/status 502/) });
  });

  it('locates the errors of a runner that gives codes only (no positions)', async () => {
    const ws = examples();
    const url = await fakeRunner((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({
        is_valid: false,
        is_runnable: false,
        validation_errors: [
          { category: 'pipe', message: 'Bad prompt', pipe_code: 'write_briefing', field_path: 'prompt', domain_code: 'news' },
          { category: 'concept', message: 'Bad concept', concept_code: 'Briefing' },
          { category: 'other', message: 'Somewhere' },
        ],
      }));
    });
    client = await startClient({ folders: [ws], initializationOptions: { runner: { url }, debounceMs: 0 } });
    const file = path.join(ws, 'news/news.mthds');
    const uri = uriOf(file);
    client.open(uri, readFileSync(file, 'utf8'));
    await client.nextDiagnostics(uri, () => true, 0);
    const after = client.published.length;
    await client.executeCommand('mthds.runner.validate', { uri });
    const diagnostics = (await client.nextDiagnostics(uri, (d) => d.some((x) => x.source === 'runner'), after)).filter((d) => d.source === 'runner');
    const at = (m: string): string => textAt(client!.text(uri), diagnostics.find((d) => d.message === m)!.range);
    expect(at('Bad prompt')).toBe('prompt');
    expect(diagnostics.find((d) => d.message === 'Bad prompt')!.range.start.line).toBeGreaterThan(client.text(uri).split('\n').findIndex((l) => l.startsWith('[pipe.write_briefing]')));
    expect(at('Bad concept')).toBe('Briefing');
    expect(diagnostics.find((d) => d.message === 'Somewhere')!.range.start).toEqual({ line: 0, character: 0 });
    expect(diagnostics.map((d) => d.code)).toEqual(['pipe', 'concept', 'other']);
  });
});
