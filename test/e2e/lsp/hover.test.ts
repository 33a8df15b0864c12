// Hover over real stdio on a multi-file package: concepts, pipes, keys, pipe types, models,
// template variables, step results, and the registry's explanation of a finding.

import { afterEach, describe, expect, it } from 'vitest';
import type { Hover, Position } from 'vscode-languageserver-protocol';
import { after, assistTree, positionOf } from './assistFixture.js';
import { LspClient, startClient, textAt, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

async function hoverAt(uri: string, position: Position): Promise<{ value: string; text?: string } | undefined> {
  const hover = await client!.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
  if (!hover) return undefined;
  return { value: (hover.contents as { value: string }).value, ...(hover.range ? { text: textAtRange(uri, hover.range) } : {}) };
}

let texts: Record<string, string> = {};
function textAtRange(uri: string, range: NonNullable<Hover['range']>): string {
  return textAt(texts[uri]!, range);
}

async function openTree(rel: string, edit?: (text: string) => string): Promise<{ uri: string; text: string }> {
  const tree = assistTree();
  client = await startClient({ folders: [tree.ws] });
  await client.workspaceChecked();
  const text = edit ? edit(tree.text(rel)) : tree.text(rel);
  const uri = uriOf(tree.file(rel));
  texts = { [uri]: text };
  client.open(uri, text);
  return { uri, text };
}

describe('hover', () => {
  it('describes a concept of another file: description, fields, where defined', async () => {
    const { uri, text } = await openTree('invoices/check.mthds');
    const hover = (await hoverAt(uri, positionOf(text, 'output      = "Invoice"', 17)))!;
    expect(hover.text).toBe('Invoice');
    expect(hover.value).toContain('**Invoice** — concept of domain `invoices`');
    expect(hover.value).toContain('| `total` | number | yes | The total amount due |');
    expect(hover.value).toContain('| `lines` | LineItem[] | no | The lines of the invoice |');
    expect(hover.value).toContain('Defined in `concepts.mthds:4`');
  });

  it('shows the refinement chain and the inherited nature of a concept', async () => {
    const { uri, text } = await openTree('invoices/review.mthds');
    const hover = (await hoverAt(uri, positionOf(text, 'output = "Summary"', 11)))!;
    expect(hover.value).toContain('Refines: `Summary` → `Text`');
    expect(hover.value).toContain('Defined in `review.mthds:4`');
  });

  it('describes a pipe reference: type, signature, description, where defined', async () => {
    const { uri, text } = await openTree('invoices/check.mthds');
    const hover = (await hoverAt(uri, positionOf(text, 'pipe = "read_invoice"', 9)))!;
    expect(hover.text).toBe('read_invoice');
    expect(hover.value).toContain('**read_invoice** — PipeLLM');
    expect(hover.value).toContain('read_invoice(pages: Page[]) -> Invoice');
    expect(hover.value).toContain('Read the invoice from its pages');
    expect(hover.value).toContain('Defined in `check.mthds:22`');
    // The section name itself too.
    const section = (await hoverAt(uri, positionOf(text, '[pipe.extract_pages]', 8)))!;
    expect(section.value).toContain('extract_pages(document: Document) -> Page[]');
  });

  it('says what a pipe takes and gives, by the pipe I/O description', async () => {
    const { uri, text } = await openTree('invoices/check.mthds');
    const hover = (await hoverAt(uri, positionOf(text, 'pipe = "read_invoice"', 9)))!;
    expect(hover.value).toContain('**Takes**\n- `pages: native.Page[]` — list of object');
    expect(hover.value).toContain('**Gives** `invoices.Invoice` — object');
    const section = (await hoverAt(uri, positionOf(text, '[pipe.extract_pages]', 8)))!;
    expect(section.value).toContain('- `document: native.Document` — document');
  });

  it('documents keys and pipe types from the language description', async () => {
    const { uri, text } = await openTree('invoices/check.mthds');
    const key = (await hoverAt(uri, positionOf(text, 'question    =', 2)))!;
    expect(key.text).toBe('question');
    expect(key.value).toContain('**question** — PipeJudge');
    expect(key.value).toContain('The single closed question');
    const type = (await hoverAt(uri, positionOf(text, '"PipeJudge"', 3)))!;
    expect(type.value).toContain('**PipeJudge** — operator');
    expect(type.value).toContain('Models: `judgment`');
  });

  it('describes template variables, field reads and step results', async () => {
    const { uri, text } = await openTree('invoices/review.mthds');
    const root = (await hoverAt(uri, positionOf(text, '@invoice', 3)))!;
    expect(root.text).toBe('@invoice');
    expect(root.value).toContain('**invoice** — input of `summarize_invoice`: `Invoice`');
    const field = (await hoverAt(uri, positionOf(text, '{{ invoice.total }}', 12)))!;
    expect(field.value).toContain('**invoice.total**: number (required)');
    expect(field.value).toContain('The total amount due');
    const result = (await hoverAt(uri, positionOf(text, 'result = "invoices"', 11)))!;
    expect(result.value).toContain('**invoices** — stores `Invoice[]`');
    const binding = (await hoverAt(uri, positionOf(text, 'from = "invoice.total"', 9)))!;
    expect(binding.value).toContain('binds `Number`');
  });

  it('describes model references against the deck', async () => {
    const { uri, text } = await openTree('news/news.mthds', (t) => t.replace('model       = "$writing-factual"', 'model       = "mock-llm"'));
    const hover = (await hoverAt(uri, positionOf(text, '"mock-llm"', 3)))!;
    expect(hover.value).toContain('**mock-llm** — llm model');
    expect(hover.value).toContain('the built-in deck');
  });

  it('explains the finding under the cursor with the registry', async () => {
    const { uri, text } = await openTree('broken/broken.mthds');
    await client!.nextDiagnostics(uri, (d) => d.length > 0, 0);
    const hover = (await hoverAt(uri, positionOf(text, 'promt', 2)))!;
    expect(hover.value).toContain('**method.schema_violation**');
    expect(hover.value).toMatch(/Advice:\n- /);
    const unresolved = (await hoverAt(uri, positionOf(text, 'sugest_recipe', 3)))!;
    expect(unresolved.value).toContain('**method.pipe_unresolved** — Pipe reference not resolved');
  });

  it('answers on half-typed documents', async () => {
    const { uri, text } = await openTree('invoices/check.mthds', (t) => `${t}\n[pipe.summarize]\ntype = "PipeLLM"\ninputs = { invoice = "Invoice" }\noutput = "Te\nprompt = """\n$invoice.total\n`);
    const input = (await hoverAt(uri, after(text, 'inputs = { invo')))!;
    expect(input.value).toContain('**invoice** — input of `summarize`: `Invoice`');
    const read = (await hoverAt(uri, after(text, '$invoice.to')))!;
    expect(read.value).toContain('**invoice.total**: number');
    expect(client!.alive()).toBe(true);
  });
});
