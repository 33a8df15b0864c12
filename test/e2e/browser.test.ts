// The language server as a web worker in a real browser (Debian's Chromium): a page plays the
// editor (test/e2e/browser/harness.html), the workspace lives on a virtual file system
// (`vscode-vfs://github/...`, as on github.dev) whose files the page sends to the worker as the
// browser client does. Diagnostics carry the registry codes the command line gives, an edit is
// checked again, completion answers, and a reference to a concept of another file resolves through
// the files sent (a rename reaches both files; the reference stops resolving when that file goes).

import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingForBrowser, openWorkerPage, REPO, type WorkerPage } from './browser/workerPage.js';
import { holdsReadableMethods, TOOLS_FOLDER } from '../../server/src/language/spec/folders.js';

const missing = missingForBrowser('browser.test.ts');

const ROOT = 'vscode-vfs://github/acme/methods';
const uriOf = (rel: string): string => `${ROOT}/${rel}`;

/** What harness.html puts on the page's global object. */
interface Harness {
  lsp: {
    start(): number;
    request(method: string, params: unknown): Promise<unknown>;
    notify(method: string, params: unknown): void;
    diagnostics: Record<string, Diagnostic[] | undefined>;
    log: string[];
    shown: Array<{ type: number; message: string }>;
  };
}

interface Diagnostic {
  code: string;
  message: string;
  range: { start: { line: number; character: number } };
}

/** The examples folder as the client sends it: every file, by URI. */
function exampleFiles(): Array<{ uri: string; text: string }> {
  const out: Array<{ uri: string; text: string }> = [];
  const examples = path.join(REPO, 'examples');
  for (const dir of readdirSync(examples)) for (const name of readdirSync(path.join(examples, dir))) out.push({ uri: uriOf(`${dir}/${name}`), text: readFileSync(path.join(examples, dir, name), 'utf8') });
  return out;
}

/**
 * The dependency fixture's project (an app naming a package by address, the package installed in
 * `.mthds/methods/`) as the client sends it below `rel`: the files its walk reads (the shared rule
 * of the skipped folders), `installed` false leaving the installed methods out.
 */
function projectFiles(rel: string, installed: boolean): Array<{ uri: string; text: string }> {
  const root = path.join(REPO, 'test/fixtures/dependencies/installed/project');
  const out: Array<{ uri: string; text: string }> = [];
  const walk = (dir: string, segments: string[]): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (holdsReadableMethods(segments.at(-1), entry.name)) walk(path.join(dir, entry.name), [...segments, entry.name]);
      } else if (installed || !segments.includes(TOOLS_FOLDER)) out.push({ uri: uriOf([rel, ...segments, entry.name].join('/')), text: readFileSync(path.join(dir, entry.name), 'utf8') });
    }
  };
  walk(root, []);
  return out;
}

describe.skipIf(missing.length > 0)('the language server in a browser worker', () => {
  let worker: WorkerPage;
  const request = <T>(method: string, params: unknown): Promise<T> => worker.page.evaluate(([m, p]) => (globalThis as unknown as Harness).lsp.request(m, p), [method, params] as const) as Promise<T>;
  const notify = (method: string, params: unknown): Promise<void> => worker.page.evaluate(([m, p]) => (globalThis as unknown as Harness).lsp.notify(m, p), [method, params] as const);
  /** The diagnostics of `uri` once `test` holds for them. */
  const diagnosticsOf = async (uri: string, test: string): Promise<Diagnostic[]> => {
    await worker.page.waitForFunction(([u, t]) => {
      const d = (globalThis as unknown as Harness).lsp.diagnostics[u];
      return d !== undefined && new Function('d', `return ${t}`)(d);
    }, [uri, test] as const, { timeout: 30_000 });
    return worker.page.evaluate((u) => (globalThis as unknown as Harness).lsp.diagnostics[u], uri) as Promise<Diagnostic[]>;
  };

  beforeAll(async () => {
    worker = await openWorkerPage();
    await worker.page.evaluate(() => (globalThis as unknown as Harness).lsp.start());
    const init = await request<{ capabilities: Record<string, unknown> }>('initialize', {
      processId: null,
      rootUri: ROOT,
      workspaceFolders: [{ uri: ROOT, name: 'methods' }],
      capabilities: { workspace: { configuration: true, workspaceFolders: true }, textDocument: { completion: { completionItem: { snippetSupport: true } } } },
      initializationOptions: { diagnostics: { debounceMs: 0 } },
      trace: 'verbose',
    });
    expect(init.capabilities).toHaveProperty('completionProvider');
    await notify('initialized', {});
    // What the browser client does first: the workspace's method files, read through the editor.
    await notify('mthds/files', { changes: exampleFiles() });
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
  });

  it('publishes the registry codes the command line gives for examples/broken', async () => {
    // The command line exits 1 on these errors; its report is the reference.
    const cli = JSON.parse(spawnSync(process.execPath, [path.join(REPO, 'server/bin/mthds.js'), 'check', 'examples/broken', '--format', 'json'], { cwd: REPO, encoding: 'utf8' }).stdout) as {
      findings: Array<{ code: string; line: number }>;
    };
    const expected = cli.findings.map((f) => `${f.code}@${f.line}`).sort();
    const got = await diagnosticsOf(uriOf('broken/broken.mthds'), `d.length >= ${expected.length}`);
    expect(got.map((d) => `${d.code}@${d.range.start.line + 1}`).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(3);
  });

  it('checks an edit again', async () => {
    const uri = uriOf('news/news.mthds');
    const text = readFileSync(path.join(REPO, 'examples/news/news.mthds'), 'utf8');
    await notify('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version: 1, text } });
    expect(await diagnosticsOf(uri, 'd.length === 0')).toEqual([]);
    await notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: `${text}\n[pipe.added]\ntype = "PipeLLM"\ndescription = "Added"\noutput = "NoSuchConcept"\nprompt = "x"\n` }] });
    const after = await diagnosticsOf(uri, 'd.length > 0');
    expect(after.map((d) => d.code)).toContain('method.concept_unresolved');
  });

  it('completes pipe types', async () => {
    const uri = uriOf('news/news.mthds');
    const text = 'domain = "news"\ndescription = "d"\n\n[pipe.p]\ntype = "Pipe';
    await notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text }] });
    const list = await request<{ items: Array<{ label: string }> } | Array<{ label: string }>>('textDocument/completion', { textDocument: { uri }, position: { line: 4, character: 12 } });
    const labels = (Array.isArray(list) ? list : list.items).map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['PipeLLM', 'PipeSequence']));
  });

  it('resolves a concept of another file of the package through the files sent, and loses it when that file goes', async () => {
    const check = uriOf('invoices/check.mthds');
    const text = readFileSync(path.join(REPO, 'examples/invoices/check.mthds'), 'utf8');
    await notify('textDocument/didOpen', { textDocument: { uri: check, languageId: 'mthds', version: 1, text } });
    expect(await diagnosticsOf(check, 'd.length === 0')).toEqual([]);
    const line = text.split('\n').findIndex((l) => l.includes('output      = "Invoice"'));
    const definition = await request<Array<{ uri: string; targetUri?: string }> | { uri: string; targetUri?: string }>('textDocument/definition', { textDocument: { uri: check }, position: { line, character: text.split('\n')[line]!.indexOf('Invoice') + 2 } });
    const targets = (Array.isArray(definition) ? definition : [definition]).map((d) => d.targetUri ?? d.uri);
    expect(targets).toEqual([uriOf('invoices/concepts.mthds')]);
    // A rename from the reference reaches the declaration in the file never opened (read from the files sent).
    const concepts = uriOf('invoices/concepts.mthds');
    const edit = await request<{ changes?: Record<string, unknown[]>; documentChanges?: Array<{ textDocument: { uri: string }; edits: unknown[] }> }>('textDocument/rename', {
      textDocument: { uri: check },
      position: { line, character: text.split('\n')[line]!.indexOf('Invoice') + 2 },
      newName: 'Bill',
    });
    const edited = edit.documentChanges ? edit.documentChanges.map((c) => c.textDocument.uri) : Object.keys(edit.changes ?? {});
    expect([...new Set(edited)].sort()).toEqual([check, concepts].sort());
    await notify('mthds/files', { changes: [{ uri: uriOf('invoices/concepts.mthds'), deleted: true }] });
    const after = await diagnosticsOf(check, 'd.length > 0');
    expect(after.map((d) => d.code)).toContain('method.concept_unresolved');
  });

  it('resolves a package installed in the workspace (.mthds/methods/) as the desktop does, and says one that is not is unreachable', async () => {
    const installed = projectFiles('installed', true);
    expect(installed.map((f) => f.uri)).toContain(uriOf('installed/.mthds/methods/textkit/textkit.mthds'));
    await notify('mthds/files', { changes: [...installed, ...projectFiles('absent', false)] });
    const app = uriOf('installed/app/main.mthds');
    const text = readFileSync(path.join(REPO, 'test/fixtures/dependencies/installed/project/app/main.mthds'), 'utf8');
    await notify('textDocument/didOpen', { textDocument: { uri: app, languageId: 'mthds', version: 1, text } });
    expect(await diagnosticsOf(app, 'd.length === 0')).toEqual([]);
    const line = text.split('\n').findIndex((l) => l.includes('textkit.digest'));
    // The pipe was read from the installed package: its hover gives its description.
    const hover = await request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: app }, position: { line, character: text.split('\n')[line]!.indexOf('digest') + 2 } });
    expect(hover?.contents.value).toContain('Digests a text');

    const absent = uriOf('absent/app/main.mthds');
    const warned = await diagnosticsOf(absent, "d.some((x) => x.code === 'mthdsls.client.packages_unreachable')");
    expect(warned.map((d) => d.code)).toEqual(['mthdsls.client.packages_unreachable']);
    expect(warned[0]!.message).toContain('github.com/acme/tools/textkit');
  });

  it('warns, as the desktop does at its bound, when the client says its walk stopped at the bound', async () => {
    await notify('mthds/files', { changes: [], bound: { folder: ROOT, limit: 5000, counted: 'method files' } });
    await worker.page.waitForFunction(() => (globalThis as unknown as Harness).lsp.shown.some((m) => m.message.includes('holds more than')), undefined, { timeout: 30_000 });
    const shown = await worker.page.evaluate(() => (globalThis as unknown as Harness).lsp.shown.filter((m) => m.message.includes('holds more than')));
    expect(shown).toEqual([
      { type: 2, message: `mthds: the workspace folder ${ROOT} holds more than 5000 method files; only the first 5000 are checked, and references to what was not read may show as unresolved` },
    ]);
  });

  it('runs no warm-up by default: the first diagnostics do not wait for it', async () => {
    const log = await worker.page.evaluate(() => (globalThis as unknown as Harness).lsp.log);
    expect(log.filter((line) => line.startsWith('mthds: warmed up'))).toEqual([]);
  });

  it('says that a runner is needed when none is configured', async () => {
    const answer = await request<{ ok: boolean; message?: string }>('workspace/executeCommand', { command: 'mthds.runner.version', arguments: [] });
    expect(answer.ok).toBe(false);
    expect(answer.message).toMatch(/A runner is needed.*mthds\.runner\.url/);
  });
});

describe.skipIf(missing.length > 0)('the browser worker asked for a warm-up', () => {
  it('runs it before answering initialize, as the desktop does (the trace says so)', async () => {
    const page = await openWorkerPage();
    try {
      const log = await page.page.evaluate(async (root) => {
        const lsp = (globalThis as unknown as Harness).lsp;
        lsp.start();
        await lsp.request('initialize', { processId: null, rootUri: root, capabilities: {}, initializationOptions: { diagnostics: { warmUpMs: 50 } }, trace: 'verbose' });
        return lsp.log;
      }, ROOT);
      expect(log.some((line) => /^mthds: warmed up the keystroke path with \d+ keystrokes/.test(line))).toBe(true);
    } finally {
      await page.close();
    }
  }, 60_000);
});
