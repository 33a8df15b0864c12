// Formatting over real stdio: the edits applied like an editor would give the house style; the
// request's tab size sets the indentation; range formatting stays in its range; a document with
// syntax errors gets no edits; a CRLF document stays CRLF.

import { afterEach, describe, expect, it } from 'vitest';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits, startFixture, type Fixture } from './treeFixture.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.client.shutdown();
  fx = undefined;
});

const MESSY = `domain="invoices"
description =   "Messy"   
[pipe.tidy]
type="PipeSequence"
description="Tidy"
inputs={document="Document"}
output="YesNo"
steps=[ { pipe="extract_pages",result="pages" },
   { pipe = "read_invoice" , result = "invoice" } ]
`;

const TIDY = `domain      = "invoices"
description = "Messy"

[pipe.tidy]
type        = "PipeSequence"
description = "Tidy"
inputs      = { document = "Document" }
output      = "YesNo"
steps = [
  { pipe = "extract_pages", result = "pages" },
  { pipe = "read_invoice", result = "invoice" },
]
`;

function format(f: Fixture, uri: string, options: Record<string, unknown> = { tabSize: 2, insertSpaces: true }): Promise<TextEdit[]> {
  return f.client.connection.sendRequest('textDocument/formatting', { textDocument: { uri }, options });
}

describe('formatting', () => {
  it('formats a bundle in the house style, and formatting again changes nothing', async () => {
    fx = await startFixture();
    const uri = fx.open('invoices/tidy.mthds', MESSY);
    const edits = await format(fx, uri);
    expect(applyTextEdits(MESSY, edits)).toBe(TIDY);
    fx.client.edit(uri, edits);
    expect(await format(fx, uri)).toEqual([]);
  });

  it('takes the indentation from the request, and taplo-like options from it too', async () => {
    fx = await startFixture();
    const uri = fx.open('invoices/tidy.mthds', MESSY);
    const tabs = applyTextEdits(MESSY, await format(fx, uri, { tabSize: 4, insertSpaces: false, alignEntries: false, arrayTrailingComma: false }));
    expect(tabs).toContain('steps = [\n\t{ pipe = "extract_pages", result = "pages" },\n\t{ pipe = "read_invoice", result = "invoice" }\n]\n');
    expect(tabs).toContain('\ntype = "PipeSequence"\n');
  });

  it('formats a range without touching the rest', async () => {
    fx = await startFixture();
    const uri = fx.open('invoices/tidy.mthds', MESSY);
    const lines = MESSY.split('\n');
    const line = lines.findIndex((l) => l.startsWith('steps='));
    const edits: TextEdit[] = await fx.client.connection.sendRequest('textDocument/rangeFormatting', {
      textDocument: { uri },
      range: { start: { line, character: 0 }, end: { line: line + 1, character: 5 } },
      options: { tabSize: 2, insertSpaces: true },
    });
    const result = applyTextEdits(MESSY, edits);
    expect(result).toContain('domain="invoices"\n');
    expect(result).toContain('steps = [\n  { pipe = "extract_pages", result = "pages" },\n  { pipe = "read_invoice", result = "invoice" },\n]\n');
  });

  it('leaves a document with syntax errors alone, and keeps CRLF', async () => {
    fx = await startFixture();
    const broken = fx.open('invoices/broken.mthds', 'domain = "x\n[pipe.a]\ntype="PipeLLM"\n');
    expect(await format(fx, broken)).toEqual([]);
    const crlf = MESSY.replace(/\n/g, '\r\n');
    const uri = fx.open('invoices/crlf.mthds', crlf);
    expect(applyTextEdits(crlf, await format(fx, uri))).toBe(TIDY.replace(/\n/g, '\r\n'));
  });

  it('formats the manifest too', async () => {
    fx = await startFixture();
    const text = '[package]\nname="invoices"\naddress = "github.com/example/invoices"\n[exports.invoices]\npipes=["check_invoice"]\n';
    const uri = fx.open('invoices/METHODS.toml', text);
    expect(applyTextEdits(text, await format(fx, uri))).toBe('[package]\nname    = "invoices"\naddress = "github.com/example/invoices"\n\n[exports.invoices]\npipes = ["check_invoice"]\n');
  });
});
