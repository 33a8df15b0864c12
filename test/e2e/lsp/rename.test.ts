// Rename over real stdio: prepareRename, the workspace edit over every bundle of the tree (open
// documents with their versions, closed files by URI), applied like an editor would, then checked
// again by the server; refusals with a reason.

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { PUSH_CAPABILITIES, textAt } from './harness.js';
import { applyWorkspaceEdit, editsByUri, positionOf, startFixture, type Fixture } from './treeFixture.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.client.shutdown();
  fx = undefined;
});

const DOCUMENT_CHANGES = { ...PUSH_CAPABILITIES, workspace: { ...PUSH_CAPABILITIES.workspace, workspaceEdit: { documentChanges: true } } };

function prepare(f: Fixture, uri: string, search: string, delta = 1): Promise<{ range: { start: { line: number; character: number }; end: { line: number; character: number } }; placeholder: string } | null> {
  return f.client.connection.sendRequest('textDocument/prepareRename', { textDocument: { uri }, position: positionOf(f.client.text(uri), search, delta) });
}

function rename(f: Fixture, uri: string, search: string, newName: string, delta = 1): Promise<WorkspaceEdit | null> {
  return f.client.connection.sendRequest('textDocument/rename', { textDocument: { uri }, position: positionOf(f.client.text(uri), search, delta), newName });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected a refusal');
}

describe('rename', () => {
  it('renames a concept in every bundle of the tree, open or closed, and the result checks clean', async () => {
    fx = await startFixture({ capabilities: DOCUMENT_CHANGES });
    const start = fx.client.published.length;
    const check = fx.open('invoices/check.mthds');
    const impl = fx.open('invoices/impl.mthds');
    await fx.client.nextDiagnostics(impl, () => true, start);
    const before = (await fx.client.nextDiagnostics(check, () => true, start)).filter((d) => d.severity === 1).length;
    const prepared = await prepare(fx, check, '"Invoice"');
    expect(prepared?.placeholder).toBe('Invoice');
    expect(textAt(fx.client.text(check), prepared!.range)).toBe('Invoice');

    const edit = (await rename(fx, check, '"Invoice"', 'Bill'))!;
    // Versions for open documents, null for files on disk.
    const versions = new Map((edit.documentChanges ?? []).flatMap((c) => ('textDocument' in c ? [[c.textDocument.uri, c.textDocument.version] as const] : [])));
    expect(versions.get(check)).toBe(1);
    expect(versions.get(fx.uri('invoices/concepts.mthds'))).toBeNull();
    expect([...editsByUri(edit).values()].flat()).toHaveLength(7);

    const after = fx.client.published.length;
    applyWorkspaceEdit(fx, edit, new Set([check, impl]));
    expect(fx.text('invoices/concepts.mthds')).toContain('[concept.Bill]\n');
    expect(fx.text('invoices/concepts.mthds')).toContain('[concept.Bill.structure]');
    expect(fx.text('invoices/review.mthds')).toContain('inputs = { invoice = "Bill" }');
    expect(fx.client.text(impl)).toContain('inputs = { invoice = "invoices.Bill" }');
    expect(fx.client.text(check)).toContain('output      = "Bill"');
    // The server hears of the disk changes, then re-checks: nothing new is broken.
    await fx.client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: ['concepts.mthds', 'review.mthds'].map((f) => ({ uri: fx!.uri(`invoices/${f}`), type: 2 })),
    });
    const clean = (d: Diagnostic[]): boolean => !d.some((x) => x.code === 'method.concept_unresolved');
    await fx.client.nextDiagnostics(impl, clean, after);
    const now = await fx.client.nextDiagnostics(check, clean, after);
    expect(now.filter((d) => d.severity === 1).length).toBeLessThanOrEqual(before);
  });

  it('renames a pipe, its references in other bundles and the manifest’s main_pipe and exports', async () => {
    fx = await startFixture();
    const check = fx.open('invoices/check.mthds');
    const edit = (await rename(fx, check, '[pipe.check_invoice]', 'audit_invoice', 7))!;
    const byUri = editsByUri(edit);
    expect(byUri.get(fx.uri('invoices/METHODS.toml'))).toHaveLength(2);
    expect(byUri.get(check)).toHaveLength(2);
    applyWorkspaceEdit(fx, edit, new Set([check]));
    const manifest = readFileSync(fx.file('invoices/METHODS.toml'), 'utf8');
    expect(manifest).toContain('main_pipe   = "audit_invoice"');
    expect(manifest).toContain('pipes = ["audit_invoice"]');
    expect(fx.client.text(check)).toContain('main_pipe   = "audit_invoice"');
    expect(fx.client.text(check)).toContain('[pipe.audit_invoice]');
  });

  it('renames an input from a template read: the declaration and the reads of that pipe only', async () => {
    fx = await startFixture();
    const impl = fx.open('invoices/impl.mthds');
    const edit = (await rename(fx, impl, '{{ invoice.total', 'bill', 4))!;
    applyWorkspaceEdit(fx, edit, new Set([impl]));
    const text = fx.client.text(impl);
    expect(text).toContain('inputs = { bill = "Invoice" }');
    expect(text).toContain('$bill.number, whose total is {{ bill.total }}');
    expect(text).toContain('\n@bill\n');
    // render_invoice's input of the same name is another pipe's.
    expect(text).toContain('inputs = { invoice = "invoices.Invoice" }');
    // The signature of the same pipe shares its inputs: it follows.
    expect(editsByUri(edit).size).toBe(2);
    expect(fx.text('invoices/review.mthds')).toContain('inputs = { bill = "Invoice" }');
  });

  it('renames a step result and the binding reading it', async () => {
    fx = await startFixture();
    const review = fx.open('invoices/review.mthds');
    const edit = (await rename(fx, review, '"invoice.total"', 'read', 1))!;
    applyWorkspaceEdit(fx, edit, new Set([review]));
    const text = fx.client.text(review);
    expect(text).toContain('{ pipe = "read_invoice", result = "read" }');
    expect(text).toContain('{ from = "read.total", result = "total" }');
    // The signature's input `invoice` is untouched.
    expect(text).toContain('inputs = { invoice = "Invoice" }');
  });

  it('refuses invalid names, natives, collisions and what is not declared here, saying why', async () => {
    fx = await startFixture();
    const check = fx.open('invoices/check.mthds');
    expect(await refusal(rename(fx, check, '"Invoice"', 'bill'))).toMatch(/PascalCase/);
    expect(await refusal(rename(fx, check, '"Invoice"', 'LineItem'))).toMatch(/already exists in domain `invoices`/);
    expect(await refusal(rename(fx, check, '"Invoice"', 'Text'))).toMatch(/native concept/);
    expect(await refusal(rename(fx, check, '"read_invoice"', 'ReadInvoice'))).toMatch(/snake_case/);
    expect(await refusal(rename(fx, check, '"read_invoice"', 'verify_total'))).toMatch(/already exists/);
    expect(await refusal(prepare(fx, check, '"YesNo"'))).toMatch(/native concept/);
    expect(await refusal(prepare(fx, check, 'description', 2))).toMatch(/Nothing to rename/);
    expect(await refusal(prepare(fx, check, '"PipeSequence"'))).toMatch(/pipe type cannot be renamed/);
    const review = fx.open('invoices/review.mthds');
    expect(await refusal(rename(fx, review, '"invoice.total"', 'summary'))).toMatch(/already stores a result `summary`/);
    expect(await refusal(rename(fx, review, '"invoice.total"', 'pages'))).toMatch(/already has an input `pages`/);
  });

  it('refuses a name already used by an input of the pipe, and works in a half-typed document', async () => {
    fx = await startFixture();
    const text = `${fx.text('invoices/check.mthds')}\n[pipe.half]\ntype = "PipeLLM"\ninputs = { doc = "Page", other = "Te\nprompt = "$doc and`;
    const check = fx.open('invoices/check.mthds', text);
    expect(await refusal(rename(fx, check, '$doc', 'other', 2))).toMatch(/already has an input `other`/);
    const edit = (await rename(fx, check, '$doc', 'page', 2))!;
    applyWorkspaceEdit(fx, edit, new Set([check]));
    expect(fx.client.text(check)).toContain('inputs = { page = "Page"');
    expect(fx.client.text(check)).toContain('prompt = "$page and');
  });
});
