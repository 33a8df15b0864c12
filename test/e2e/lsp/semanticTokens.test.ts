// Semantic tokens over real stdio: full, range and delta, decoded back to the text they cover.

import { afterEach, describe, expect, it } from 'vitest';
import type { SemanticTokens, SemanticTokensDelta, SemanticTokensLegend } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { assistTree } from './assistFixture.js';
import { LspClient, startClient, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

/** Each token as `text:type[+modifiers]`. */
function decode(text: string, data: readonly number[], legend: SemanticTokensLegend): string[] {
  const doc = TextDocument.create('x:', 'x', 0, text);
  const out: string[] = [];
  let line = 0;
  let char = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i]!;
    char = data[i]! === 0 ? char + data[i + 1]! : data[i + 1]!;
    const start = doc.offsetAt({ line, character: char });
    const mods = legend.tokenModifiers.filter((_, bit) => (data[i + 4]! & (1 << bit)) !== 0);
    out.push(`${text.slice(start, start + data[i + 2]!)}:${legend.tokenTypes[data[i + 3]!]}${mods.length > 0 ? `+${mods.join('+')}` : ''}`);
  }
  return out;
}

function applyDelta(data: readonly number[], delta: SemanticTokensDelta): number[] {
  const out = [...data];
  for (const e of [...delta.edits].sort((a, b) => b.start - a.start)) out.splice(e.start, e.deleteCount, ...(e.data ?? []));
  return out;
}

async function open(rel: string): Promise<{ uri: string; text: string; legend: SemanticTokensLegend }> {
  const tree = assistTree();
  client = await startClient({ folders: [tree.ws] });
  await client.workspaceChecked();
  const text = tree.text(rel);
  const uri = uriOf(tree.file(rel));
  client.open(uri, text);
  const provider = client.initializeResult.capabilities.semanticTokensProvider!;
  return { uri, text, legend: provider.legend };
}

const full = (uri: string): Promise<SemanticTokens> => client!.connection.sendRequest('textDocument/semanticTokens/full', { textDocument: { uri } });

describe('semantic tokens', () => {
  it('announces full, delta and range', async () => {
    client = await startClient();
    expect(client.initializeResult.capabilities.semanticTokensProvider).toMatchObject({ full: { delta: true }, range: true });
  });

  it('colours concepts, pipes, pipe types, inputs, results and template variables from the model', async () => {
    const { uri, text, legend } = await open('invoices/check.mthds');
    const tokens = decode(text, (await full(uri)).data, legend);
    expect(tokens).toEqual(
      expect.arrayContaining([
        'invoices:namespace+declaration',
        'check_invoice:function+declaration',
        'PipeSequence:class+defaultLibrary',
        'document:parameter+declaration',
        'Document:type+defaultLibrary',
        'YesNo:type+defaultLibrary',
        'extract_pages:function',
        'pages:variable+declaration',
        'Invoice:type',
        'pages:parameter',
        'invoice:parameter',
      ]),
    );
    // `main_pipe` names a pipe too; descriptions and prompts' plain text give no token.
    expect(tokens.filter((t) => t === 'check_invoice:function')).toHaveLength(1);
    expect(tokens.some((t) => t.startsWith('Read'))).toBe(false);
  });

  it('colours model references', async () => {
    const { uri, text, legend } = await open('news/news.mthds');
    expect(decode(text, (await full(uri)).data, legend)).toContain('$writing-factual:variable+readonly');
  });

  it('answers a range and a delta that rebuilds the full result', async () => {
    const { uri, text, legend } = await open('invoices/review.mthds');
    const first = await full(uri);
    const doc = TextDocument.create(uri, 'mthds', 0, text);
    const range = { start: doc.positionAt(text.indexOf('[pipe.pick_invoice]')), end: doc.positionAt(text.indexOf('[pipe.summarize_invoice]')) };
    const part = await client!.connection.sendRequest<SemanticTokens>('textDocument/semanticTokens/range', { textDocument: { uri }, range });
    const partText = text.slice(0, text.indexOf('[pipe.summarize_invoice]'));
    expect(decode(partText, part.data, legend)).toEqual(['pick_invoice:function+declaration', 'PipeLLM:class+defaultLibrary', 'invoices:parameter+declaration', 'Invoice:type', 'Invoice:type', 'invoices:parameter']);

    client!.replace(uri, 'inputs = { invoices = "Invoice[]" }', 'inputs = { invoices = "Invoice[]", note = "Text" }');
    const edited = client!.text(uri);
    const delta = await client!.connection.sendRequest<SemanticTokensDelta | SemanticTokens>('textDocument/semanticTokens/full/delta', { textDocument: { uri }, previousResultId: first.resultId });
    expect('edits' in delta).toBe(true);
    const rebuilt = applyDelta(first.data, delta as SemanticTokensDelta);
    expect(rebuilt).toEqual((await full(uri)).data);
    expect(decode(edited, rebuilt, legend)).toEqual(expect.arrayContaining(['note:parameter+declaration', 'Text:type+defaultLibrary']));
  });

  it('answers on half-typed documents', async () => {
    const { uri, legend } = await open('invoices/check.mthds');
    client!.replace(uri, 'output      = "Invoice"', 'output      = "Invoi');
    const edited = client!.text(uri);
    const tokens = decode(edited, (await full(uri)).data, legend);
    expect(tokens).toContain('Invoi:type');
    expect(tokens).toContain('read_invoice:function+declaration');
  });
});
