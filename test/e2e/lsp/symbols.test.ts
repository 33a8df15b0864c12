// Document symbols, workspace symbols, document links, folding ranges and selection ranges over
// real stdio.

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentLink, DocumentSymbol, FoldingRange, SelectionRange, SymbolInformation } from 'vscode-languageserver-protocol';
import { textAt } from './harness.js';
import { positionOf, startFixture, type Fixture } from './treeFixture.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.client.shutdown();
  fx = undefined;
});

const APP_MANIFEST = `[package]
name        = "app"
address     = "github.com/example/app"
version     = "0.1.0"
description = "An application using the invoices package"

[dependencies]
invoices = { address = "github.com/example/invoices", version = "^1.0.0", path = "../invoices" }
missing  = { address = "github.com/example/missing", version = "^1.0.0", path = "../nowhere" }
`;

const APP = `domain = "app"
description = "The app"

[pipe.run]
type = "PipeSequence"
description = "Run"
inputs = { document = "Document" }
output = "YesNo"
steps = [{ pipe = "invoices->invoices.check_invoice" }]
`;

describe('document symbols', () => {
  it('outlines concepts with their fields and pipes with their type, inputs and steps', async () => {
    fx = await startFixture();
    const uri = fx.open('invoices/review.mthds');
    const symbols: DocumentSymbol[] = await fx.client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    expect(symbols.map((s) => [s.name, s.detail])).toEqual([
      ['Summary', 'refines Text'],
      ['summarize_invoice', 'signature'],
      ['review_invoice', 'PipeSequence'],
    ]);
    const review = symbols[2]!;
    expect(review.children!.map((c) => [c.name, c.detail])).toEqual([
      ['pages', 'Page[]'],
      ['1. read_invoice', '→ invoice'],
      ['2. from invoice.total', '→ total'],
      ['3. summarize_invoice', '→ summary'],
    ]);
    const text = fx.text('invoices/review.mthds');
    expect(textAt(text, review.selectionRange)).toBe('review_invoice');
    const concepts: DocumentSymbol[] = await fx.client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: fx.open('invoices/concepts.mthds') } });
    expect(concepts[0]!.name).toBe('Invoice');
    expect(concepts[0]!.children!.map((c) => [c.name, c.detail])).toEqual([
      ['number', 'text'],
      ['total', 'number'],
      ['lines', 'list of LineItem'],
    ]);
    // A symbol's range holds its children (the structure comes in a later table).
    expect(concepts[0]!.range.end.line).toBeGreaterThanOrEqual(concepts[0]!.children![2]!.range.end.line);
  });

  it('outlines a half-typed document and a manifest', async () => {
    fx = await startFixture();
    const uri = fx.open('invoices/check.mthds', 'domain = "invoices"\n[concept.Half]\ndescription = "x\n[pipe.typing]\ntype = "PipeLLM"\ninputs = { a = \n');
    const symbols: DocumentSymbol[] = await fx.client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    expect(symbols.map((s) => s.name)).toEqual(['Half', 'typing']);
    const manifest: DocumentSymbol[] = await fx.client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: fx.open('invoices/METHODS.toml') } });
    expect(manifest.map((s) => s.name)).toEqual(['package', 'exports']);
    expect(manifest[0]!.children!.map((c) => c.name)).toContain('main_pipe');
  });
});

describe('workspace symbols', () => {
  it('finds concepts and pipes of every tree, fuzzily, best first', async () => {
    fx = await startFixture();
    const find = (query: string): Promise<SymbolInformation[]> => fx!.client.connection.sendRequest('workspace/symbol', { query });
    const briefs = await find('brief');
    expect(briefs.map((s) => `${s.containerName}.${s.name}`)).toEqual(expect.arrayContaining(['news.Briefing', 'news.brief_article']));
    const fuzzy = await find('smrzinv');
    expect(fuzzy[0]!.name).toBe('summarize_invoice');
    expect(fuzzy.map((s) => path.basename(new URL(s.location.uri).pathname)).sort()).toEqual(['impl.mthds', 'review.mthds']);
    const words = await find('LI');
    expect(words[0]!.name).toBe('LineItem');
    const qualified = await find('news.write');
    expect(qualified.map((s) => s.name)).toEqual(['write_briefing']);
    expect((await find('')).length).toBeGreaterThan(10);
  });
});

describe('document links', () => {
  it('links a template_file and a dependency path to the files they name', async () => {
    fx = await startFixture({ extra: { 'app/METHODS.toml': APP_MANIFEST, 'app/app.mthds': APP } });
    const links: DocumentLink[] = await fx.client.connection.sendRequest('textDocument/documentLink', { textDocument: { uri: fx.open('invoices/impl.mthds') } });
    expect(links.map((l) => [textAt(fx!.text('invoices/impl.mthds'), l.range), l.target])).toEqual([['templates/invoice.html', fx.uri('invoices/templates/invoice.html')]]);
    const manifestLinks: DocumentLink[] = await fx.client.connection.sendRequest('textDocument/documentLink', { textDocument: { uri: fx.open('app/METHODS.toml') } });
    // The missing dependency folder is no link (the checks report it).
    expect(manifestLinks.map((l) => [textAt(APP_MANIFEST, l.range), l.target])).toEqual([['../invoices', fx.uri('invoices/METHODS.toml')]]);
  });
});

describe('folding and selection ranges', () => {
  it('folds tables, multi-line values and comment blocks', async () => {
    fx = await startFixture();
    const text = `# A bundle\n# with a header comment\ndomain = "invoices"\n\n[pipe.p]\ntype = "PipeLLM"\ninputs = {\n  a = "Text",\n}\nprompt = """\nHello\n@a\n"""\n\n[pipe.q]\ntype = "PipeSequence"\nsteps = [\n  { pipe = "p" }, # first\n  # comment inside\n  { pipe = "p" },\n]\n`;
    const uri = fx.open('invoices/folding.mthds', text);
    const ranges: FoldingRange[] = await fx.client.connection.sendRequest('textDocument/foldingRange', { textDocument: { uri } });
    const lines = text.split('\n');
    const shown = ranges.map((r) => `${lines[r.startLine]}..${lines[r.endLine]}${r.kind ? ` (${r.kind})` : ''}`);
    expect(shown).toEqual([
      '# A bundle..# with a header comment (comment)',
      '[pipe.p].."""',
      'inputs = {..  a = "Text",',
      'prompt = """..@a',
      '[pipe.q]..]',
      'steps = [..  { pipe = "p" },',
    ]);
  });

  it('expands a selection from a word to the document', async () => {
    fx = await startFixture();
    const uri = fx.open('invoices/check.mthds');
    const text = fx.text('invoices/check.mthds');
    const [sel]: SelectionRange[] = await fx.client.connection.sendRequest('textDocument/selectionRange', { textDocument: { uri }, positions: [positionOf(text, 'extract_pages", result', 3)] });
    const chain: string[] = [];
    for (let s: SelectionRange | undefined = sel; s; s = s.parent) chain.push(textAt(text, s.range));
    expect(chain.slice(0, 5)).toEqual(['extract_pages', '"extract_pages"', 'pipe = "extract_pages"', '{ pipe = "extract_pages", result = "pages" }', expect.stringMatching(/^\[\s*\n\s*\{ pipe = "extract_pages"/)]);
    expect(chain[chain.length - 1]).toBe(text);
    expect(chain[chain.length - 2]).toMatch(/^\[pipe\.check_invoice\]/);
    // Word and string content differ inside a string with spaces.
    const [desc]: SelectionRange[] = await fx.client.connection.sendRequest('textDocument/selectionRange', { textDocument: { uri }, positions: [positionOf(text, 'Extract the invoice', 2)] });
    expect(textAt(text, desc!.range)).toBe('Extract');
    expect(textAt(text, desc!.parent!.range)).toBe('Extract the invoice, then check its total');
  });
});
