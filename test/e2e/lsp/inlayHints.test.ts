// Inlay hints over real stdio: the concept each step stores after its `result`, and the concept
// (or field type) each template read reads; across files, and while a document is half typed.

import { afterEach, describe, expect, it } from 'vitest';
import type { InlayHint } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { assistTree } from './assistFixture.js';
import { LspClient, startClient, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

/** Each hint as `text before it|label`. */
async function hints(uri: string, text: string): Promise<string[]> {
  const doc = TextDocument.create(uri, 'mthds', 0, text);
  const range = { start: { line: 0, character: 0 }, end: doc.positionAt(text.length) };
  const found = (await client!.connection.sendRequest<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri }, range })) ?? [];
  return found.map((h) => {
    const at = doc.offsetAt(h.position);
    const before = text.slice(0, at);
    return `${/\S*$/.exec(before)![0]}|${String(h.label)}`;
  });
}

async function open(rel: string, edit?: (text: string) => string): Promise<{ uri: string; text: string }> {
  const tree = assistTree();
  client = await startClient({ folders: [tree.ws] });
  await client.workspaceChecked();
  const text = edit ? edit(tree.text(rel)) : tree.text(rel);
  const uri = uriOf(tree.file(rel));
  client.open(uri, text);
  return { uri, text };
}

describe('inlay hints', () => {
  it('announces the capability', async () => {
    client = await startClient();
    expect(client.initializeResult.capabilities.inlayHintProvider).toBeTruthy();
  });

  it('shows what each step stores and what each template read reads', async () => {
    const { uri, text } = await open('invoices/check.mthds');
    expect(await hints(uri, text)).toEqual(['"pages"|: Page[]', '"invoice"|: Invoice', '"verdict"|: YesNo', '@pages|: Page[]', '@invoice|: Invoice']);
  });

  it('follows batches, bindings and field reads', async () => {
    const { uri, text } = await open('invoices/review.mthds');
    const found = await hints(uri, text);
    expect(found).toEqual(
      expect.arrayContaining(['"invoices"|: Invoice[]', '"invoice"|: Invoice', '"total"|: Number', '"summary"|: Summary', '@document|: Document', '$invoices|: Invoice[]', '$invoice.number|: text', 'invoice.total|: number', '($total|: Number', '@invoice|: Invoice', '"invoice.total|: number']),
    );
  });

  it('follows the text being typed, before any check', async () => {
    const { uri, text } = await open('invoices/check.mthds', (t) => t.replace('output      = "Page[]"', 'output      = "Image[]"').replace('@pages\n"""', '@pages\n$pages.\n"""'));
    const found = await hints(uri, text);
    expect(found).toContain('"pages"|: Image[]');
    expect(client!.alive()).toBe(true);
  });
});
