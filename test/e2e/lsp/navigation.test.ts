// Definition, declaration, references and highlights over real stdio, across the bundles of a tree
// (open or only on disk), and on half-typed documents.

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentHighlight, Location, LocationLink } from 'vscode-languageserver-protocol';
import { PUSH_CAPABILITIES, textAt } from './harness.js';
import { positionOf, startFixture, type Fixture } from './treeFixture.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.client.shutdown();
  fx = undefined;
});

type Target = { file: string; text: string };

function targets(f: Fixture, result: Location[] | LocationLink[] | null): Target[] {
  return (result ?? []).map((l) => {
    const uri = 'targetUri' in l ? l.targetUri : l.uri;
    const range = 'targetUri' in l ? l.targetSelectionRange : l.range;
    const rel = path.relative(f.ws, new URL(uri).pathname);
    return { file: rel, text: textAt(f.text(rel), range) };
  });
}

async function definition(f: Fixture, rel: string, search: string, delta = 1, nth = 0, method = 'textDocument/definition'): Promise<Location[] | LocationLink[] | null> {
  return f.client.connection.sendRequest(method, { textDocument: { uri: f.uri(rel) }, position: positionOf(f.client.text(f.uri(rel)), search, delta, nth) });
}

describe('go to definition and declaration', () => {
  it('jumps from a concept reference to the concept, in another (closed) file', async () => {
    fx = await startFixture();
    fx.open('invoices/check.mthds');
    const result = await definition(fx, 'invoices/check.mthds', '"Invoice"');
    expect(targets(fx, result)).toEqual([{ file: 'invoices/concepts.mthds', text: 'Invoice' }]);
    const line = (result as Location[])[0]!.range.start.line;
    expect(fx.text('invoices/concepts.mthds').split('\n')[line]).toBe('[concept.Invoice]');
  });

  it('prefers the implementation for definition and the signature for declaration', async () => {
    fx = await startFixture();
    fx.open('invoices/review.mthds');
    const step = '"summarize_invoice", result';
    expect(targets(fx, await definition(fx, 'invoices/review.mthds', step))).toEqual([{ file: 'invoices/impl.mthds', text: 'summarize_invoice' }]);
    const decl = await definition(fx, 'invoices/review.mthds', step, 1, 0, 'textDocument/declaration');
    expect(targets(fx, decl)).toEqual([{ file: 'invoices/review.mthds', text: 'summarize_invoice' }]);
  });

  it('answers location links when the client supports them', async () => {
    fx = await startFixture({ capabilities: { ...PUSH_CAPABILITIES, textDocument: { ...PUSH_CAPABILITIES.textDocument, definition: { linkSupport: true } } } });
    fx.open('invoices/check.mthds');
    const result = (await definition(fx, 'invoices/check.mthds', '"read_invoice"')) as LocationLink[];
    expect(result[0]!.targetUri).toBe(fx.uri('invoices/check.mthds'));
    expect(textAt(fx.text('invoices/check.mthds'), result[0]!.originSelectionRange!)).toBe('read_invoice');
    // The whole pipe for peek, its name for the selection.
    expect(textAt(fx.text('invoices/check.mthds'), result[0]!.targetRange)).toMatch(/^\[pipe\.read_invoice\][\s\S]*@pages/);
  });

  it('goes from template variables to the input, and from a binding root to the step storing it', async () => {
    fx = await startFixture();
    fx.open('invoices/impl.mthds');
    const impl = fx.text('invoices/impl.mthds');
    const inputLine = impl.split('\n').findIndex((l) => l.startsWith('inputs = { invoice'));
    for (const [search, delta] of [['$invoice.number', 2], ['{{ invoice.total', 4], ['@invoice', 3]] as const) {
      const result = (await definition(fx, 'invoices/impl.mthds', search, delta)) as Location[];
      expect(targets(fx, result), search).toEqual([{ file: 'invoices/impl.mthds', text: 'invoice' }]);
      expect(result[0]!.range.start.line).toBe(inputLine);
    }
    fx.open('invoices/review.mthds');
    const result = (await definition(fx, 'invoices/review.mthds', '"invoice.total"', 2)) as Location[];
    expect(targets(fx, result)).toEqual([{ file: 'invoices/review.mthds', text: 'invoice' }]);
    expect(fx.text('invoices/review.mthds').split('\n')[result[0]!.range.start.line]).toContain('{ pipe = "read_invoice", result = "invoice" }');
  });

  it('still navigates in a half-typed document', async () => {
    fx = await startFixture();
    const text = `${fx.text('invoices/check.mthds')}\n[pipe.half]\ntype = "PipeLLM"\ninputs = { doc = "Invoi\noutput = "LineItem"\nprompt = "$doc`;
    fx.open('invoices/check.mthds', text);
    expect(targets(fx, await definition(fx, 'invoices/check.mthds', '"LineItem"'))).toEqual([{ file: 'invoices/concepts.mthds', text: 'LineItem' }]);
    expect(targets(fx, await definition(fx, 'invoices/check.mthds', '"extract_pages"'))).toEqual([{ file: 'invoices/check.mthds', text: 'extract_pages' }]);
  });

  it('finds nothing on plain keys and natives', async () => {
    fx = await startFixture();
    fx.open('invoices/check.mthds');
    expect(await definition(fx, 'invoices/check.mthds', 'description', 2)).toBeNull();
    expect(await definition(fx, 'invoices/check.mthds', '"YesNo"')).toBeNull();
  });
});

describe('references and highlights', () => {
  it('lists every reference of a concept across the tree, declarations on demand', async () => {
    fx = await startFixture();
    fx.open('invoices/concepts.mthds');
    const at = positionOf(fx.text('invoices/concepts.mthds'), '[concept.Invoice]', 10);
    const all: Location[] = await fx.client.connection.sendRequest('textDocument/references', { textDocument: { uri: fx.uri('invoices/concepts.mthds') }, position: at, context: { includeDeclaration: true } });
    const files = all.map((l) => path.relative(fx!.ws, new URL(l.uri).pathname)).sort();
    // Declaration + `[concept.Invoice.structure]`, check (2), review (1), impl (2).
    expect(files).toEqual(['invoices/check.mthds', 'invoices/check.mthds', 'invoices/concepts.mthds', 'invoices/concepts.mthds', 'invoices/impl.mthds', 'invoices/impl.mthds', 'invoices/review.mthds']);
    for (const l of all) expect(textAt(fx.text(path.relative(fx.ws, new URL(l.uri).pathname)), l.range)).toBe('Invoice');
    const refs: Location[] = await fx.client.connection.sendRequest('textDocument/references', { textDocument: { uri: fx.uri('invoices/concepts.mthds') }, position: at, context: { includeDeclaration: false } });
    expect(refs).toHaveLength(5);
  });

  it('finds a pipe’s references in steps of other bundles and in the same file', async () => {
    fx = await startFixture();
    fx.open('invoices/check.mthds');
    const at = positionOf(fx.text('invoices/check.mthds'), '[pipe.read_invoice]', 7);
    const refs: Location[] = await fx.client.connection.sendRequest('textDocument/references', { textDocument: { uri: fx.uri('invoices/check.mthds') }, position: at, context: { includeDeclaration: false } });
    expect(refs.map((l) => path.basename(new URL(l.uri).pathname)).sort()).toEqual(['check.mthds', 'review.mthds']);
  });

  it('highlights an input and its template reads in one pipe, not the same name elsewhere', async () => {
    fx = await startFixture();
    const uri = fx.open('invoices/impl.mthds');
    const text = fx.text('invoices/impl.mthds');
    const highlights: DocumentHighlight[] = await fx.client.connection.sendRequest('textDocument/documentHighlight', { textDocument: { uri }, position: positionOf(text, '$invoice', 3) });
    // The declaration (write) and three reads; render_invoice's own `invoice` input is another symbol.
    expect(highlights.map((h) => h.kind)).toEqual([3, 2, 2, 2]);
    expect(highlights.every((h) => textAt(text, h.range) === 'invoice')).toBe(true);
  });
});
