// Completion over real stdio, on a multi-file package, in half-typed documents: keys, values,
// references across files, models (built-in deck, a configured runner, an unreachable one),
// template variables and snippets.

import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionItem, CompletionList, Position, Range } from 'vscode-languageserver-protocol';
import { startRunner, type RunningRunner } from '../../../server/src/runner/index.js';
import { after, afterLast, assistTree } from './assistFixture.js';
import { LspClient, PUSH_CAPABILITIES, startClient, textAt, uriOf } from './harness.js';

let client: LspClient | undefined;
let runner: RunningRunner | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
  await runner?.close(500);
  runner = undefined;
});

async function completeAt(uri: string, position: Position, triggerCharacter?: string): Promise<CompletionItem[]> {
  const context = triggerCharacter ? { triggerKind: 2, triggerCharacter } : { triggerKind: 1 };
  const list = await client!.connection.sendRequest<CompletionList | null>('textDocument/completion', { textDocument: { uri }, position, context });
  return list?.items ?? [];
}

const labels = (items: readonly CompletionItem[]): string[] => items.map((i) => i.label);
const newText = (item: CompletionItem | undefined): string | undefined => item?.textEdit?.newText;
const editRange = (item: CompletionItem): Range => (item.textEdit && 'range' in item.textEdit ? item.textEdit.range : item.textEdit!.insert);
const resolve = (item: CompletionItem): Promise<CompletionItem> => client!.connection.sendRequest('completionItem/resolve', item);

/** Opens the check bundle with `tail` appended (a pipe being written). */
async function openCheck(tail: string, options: Parameters<typeof startClient>[0] = {}): Promise<{ uri: string; text: string }> {
  const tree = assistTree();
  client = await startClient({ folders: [tree.ws], ...options });
  await client.workspaceChecked();
  const file = tree.file('invoices/check.mthds');
  const text = `${tree.text('invoices/check.mthds')}\n${tail}`;
  const uri = uriOf(file);
  client.open(uri, text);
  return { uri, text };
}

describe('completion', () => {
  it('announces its trigger characters and resolves documentation', async () => {
    client = await startClient();
    expect(client.initializeResult.capabilities.completionProvider).toEqual({ triggerCharacters: ['"', '.', '$', '@', '{', '=', '[', ' '], resolveProvider: true });
  });

  it('offers the keys of the declared type in a half-typed pipe, with docs', async () => {
    const { uri, text } = await openCheck('[pipe.summarize]\ntype = "PipeLLM"\ndescription = "Summarize"\nou\n');
    const items = await completeAt(uri, afterLast(text, '\nou'));
    const output = items.find((i) => i.label === 'output')!;
    expect(newText(output)).toBe('output = "$1"');
    expect(output.insertTextFormat).toBe(2);
    expect(textAt(text, editRange(output))).toBe('ou');
    expect(output.documentation).toMatchObject({ kind: 'markdown' });
    expect(labels(items)).not.toContain('steps');
    expect(labels(items)).not.toContain('description');
  });

  it('completes concepts of other files of the package in an unterminated string, keeping the quote closed', async () => {
    const { uri, text } = await openCheck('[pipe.summarize]\ntype = "PipeLLM"\ndescription = "Summarize"\ninputs = { lines = "Li[]" }\noutput = "Inv\n');
    const items = await completeAt(uri, after(text, 'output = "Inv'));
    const invoice = items.find((i) => i.label === 'Invoice')!;
    expect(newText(invoice)).toBe('Invoice"');
    // Documentation of the tree's concepts comes on resolve (lists can be long).
    expect(invoice.documentation).toBeUndefined();
    const resolved = await resolve(invoice);
    expect((resolved.documentation as { value: string }).value).toContain('Defined in `concepts.mthds:4`');
    expect((resolved.documentation as { value: string }).value).toContain('| `total` | number | yes | The total amount due |');
    expect(labels(items)).toEqual(expect.arrayContaining(['Summary', 'Text', 'reports.Report', 'scoring->']));
    // In `inputs`, the list suffix typed after the reference is kept.
    const inList = await completeAt(uri, after(text, '"Li'));
    const line = inList.find((i) => i.label === 'LineItem')!;
    expect(textAt(text, editRange(line))).toBe('Li');
  });

  it('completes pipe types, enum values and pipe references', async () => {
    const { uri, text } = await openCheck('[pipe.typing]\ntype = "PipeCond"\n\n[pipe.route]\ntype = "PipeCondition"\ndescription = "Route"\ndefault_outcome = "\n\n[pipe.write]\ntype = "PipeLLM"\nstructuring_method = ""\n');
    const types = await completeAt(uri, after(text, 'type = "PipeCond'));
    expect(labels(types)).toContain('PipeCondition');
    expect(labels(types)).not.toContain('PipeJinja2');
    const pipes = await completeAt(uri, after(text, 'default_outcome = "'), '"');
    expect(labels(pipes)).toEqual(expect.arrayContaining(['extract_pages', 'read_invoice', 'summarize_invoice', 'reports.write_report', 'fail', 'continue']));
    const extract = pipes.find((i) => i.label === 'extract_pages')!;
    expect(extract.detail).toBe('extract_pages(document: Document) -> Page[]');
    expect(((await resolve(extract)).documentation as { value: string }).value).toContain('**extract_pages** — PipeExtract');
    const methods = await completeAt(uri, after(text, 'structuring_method = "'), '"');
    expect(labels(methods)).toEqual(['direct', 'preliminary_text']);
  });

  it('completes template variables and field paths across files', async () => {
    const { uri, text } = await openCheck('[pipe.summarize]\ntype = "PipeLLM"\ndescription = "Summarize"\ninputs = { invoice = "Invoice" }\noutput = "Text"\nprompt = """\nSummarize $invoice.\n');
    const fields = await completeAt(uri, after(text, '$invoice.'), '.');
    expect(labels(fields)).toEqual(['number', 'total', 'lines']);
    expect(fields.find((i) => i.label === 'lines')!.detail).toBe('LineItem[] (optional)');
    const roots = await completeAt(uri, after(text, 'Summarize $'), '$');
    expect(labels(roots)).toEqual(['invoice']);
  });

  it('offers a new pipe snippet on a header being typed', async () => {
    const { uri, text } = await openCheck('[pi\n');
    const items = await completeAt(uri, afterLast(text, '\n[pi'), '[');
    const seq = items.find((i) => i.label === 'pipe PipeSequence')!;
    expect(newText(seq)).toMatch(/^\[pipe\.\$\{1:name\}\]\ntype = "PipeSequence"/);
    expect(seq.insertTextFormat).toBe(2);
  });

  it('offers the built-in deck when no runner is configured', async () => {
    const { uri, text } = await openCheck('[pipe.summarize]\ntype = "PipeLLM"\nmodel = "\n');
    const items = await completeAt(uri, after(text, 'model = "'), '"');
    expect(labels(items)).toContain('mock-llm');
    expect(labels(items)).not.toContain('mock-img-gen');
    expect((items[0]!.documentation as { value: string }).value).toContain('the built-in deck');
  });

  it("offers a configured runner's deck, by category, with sigils", async () => {
    runner = await startRunner({
      host: '127.0.0.1',
      port: 0,
      auth: { env: false },
      log: () => undefined,
      models: {
        mock: false,
        providers: [{ name: 'local', base_url: 'http://127.0.0.1:9/v1', models: [{ name: 'llama-3', type: 'llm' }, { name: 'sdxl', type: 'img_gen' }] }],
        aliases: { fast: 'llama-3', pretty: 'sdxl' },
        waterfalls: { cheap: ['llama-3'] },
      },
    });
    const { uri, text } = await openCheck('[pipe.summarize]\ntype = "PipeLLM"\nmodel = "@\n\n[pipe.draw]\ntype = "PipeImgGen"\nmodel = { model = "" }\n', { initializationOptions: { runner: { url: runner.url } } });
    const llm = await completeAt(uri, after(text, 'model = "@'), '@');
    expect(labels(llm).sort()).toEqual(['@fast', '~cheap', 'llama-3'].sort());
    expect(newText(llm.find((i) => i.label === '@fast'))).toBe('@fast"');
    expect((llm[0]!.documentation as { value: string }).value).toContain(`the runner at ${runner.url}`);
    const img = await completeAt(uri, after(text, 'model = { model = "'), '"');
    expect(labels(img).sort()).toEqual(['@pretty', 'sdxl']);
  });

  it('falls back to the built-in deck within the budget when the runner does not answer', async () => {
    const { uri, text } = await openCheck('[pipe.summarize]\ntype = "PipeLLM"\nmodel = "\n', { initializationOptions: { runner: { url: 'http://127.0.0.1:9/v1' } } });
    const t0 = performance.now();
    const items = await completeAt(uri, after(text, 'model = "'), '"');
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(labels(items)).toContain('mock-llm');
  });

  it('sends the shared edit range once to a client that takes list defaults', async () => {
    const capabilities = { ...PUSH_CAPABILITIES, textDocument: { ...PUSH_CAPABILITIES.textDocument, completion: { completionList: { itemDefaults: ['editRange', 'data'] } } } };
    const { uri, text } = await openCheck('[pipe.summarize]\ntype = "PipeLLM"\noutput = "Inv\n', { capabilities });
    const list = await client!.connection.sendRequest<CompletionList>('textDocument/completion', { textDocument: { uri }, position: after(text, 'output = "Inv'), context: { triggerKind: 1 } });
    expect(textAt(text, list.itemDefaults!.editRange as Range)).toBe('Inv');
    const invoice = list.items.find((i) => i.label === 'Invoice')!;
    expect(invoice.textEdit).toBeUndefined();
    expect(invoice.textEditText).toBe('Invoice"');
  });

  it('never fails on broken documents', async () => {
    const { uri, text } = await openCheck('[pipe.x]\ntype = \ninputs = { a = "Te\n[concept.\n"""\n');
    for (let i = text.length - 60; i <= text.length; i += 3) {
      const position = { line: text.slice(0, i).split('\n').length - 1, character: i - text.lastIndexOf('\n', i - 1) - 1 };
      await completeAt(uri, position);
    }
    expect(client!.alive()).toBe(true);
    expect(labels(await completeAt(uri, after(text, 'type = ')))).toContain('PipeLLM');
  });
});

describe('completion during typing', () => {
  // The change and the completion are written at once, as an editor sends them on a keystroke
  // (raw frames on stdin; the answers read on stdout): the completion must not wait for the check.
  it('answers a completion sent with a change before that change is checked and published', async () => {
    const { uri, text } = await openCheck('[pipe.probe]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Te"\nprompt = "x"\n', { initializationOptions: { diagnostics: { debounceMs: 0 } } });
    await client!.nextDiagnostics(uri, () => true, 0);
    const frame = (message: object): string => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...message });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    let out = '';
    client!.child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const position = afterLast(text, 'output = "');
    for (let version = 2; version <= 6; version++) {
      const start = out.length;
      const changed = `${text}\n# ${'x'.repeat(version)}\n`;
      client!.child.stdin!.write(
        frame({ method: 'textDocument/didChange', params: { textDocument: { uri, version }, contentChanges: [{ text: changed }] } }) +
          frame({ id: `probe-${version}`, method: 'textDocument/completion', params: { textDocument: { uri }, position, context: { triggerKind: 2, triggerCharacter: '"' } } }),
      );
      const answered = (): number => out.indexOf(`"id":"probe-${version}"`, start);
      const published = (): number => out.search(new RegExp(`"method":"textDocument/publishDiagnostics","params":\\{"uri":"[^"]*check\\.mthds","version":${version},`, 'g'));
      await client!.waitFor(() => answered() >= 0 && published() >= 0, `the answer and the diagnostics of version ${version}`);
      expect(out.slice(answered(), answered() + 2000)).toContain('"label":"Invoice"');
      expect(answered()).toBeLessThan(published());
    }
  });
});
