// What editors other than VS Code declare, over real stdio: a client that reads only plain text
// and takes no snippets (Emacs' eglot without markdown-mode), a client with no workspace folders
// and `rootUri: null` (Helix or Zed on a lone file), and a client that declares nothing at all.

import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientCapabilities, CompletionItem, CompletionList, Diagnostic, Hover, InlayHint, MarkupContent, Position } from 'vscode-languageserver-protocol';
import { after, assistTree, positionOf } from './assistFixture.js';
import { LspClient, MARKDOWN_SYNTAX, REPO, startClient, tempWorkspace, uriOf } from './harness.js';
import { runCli } from '../../helpers/cli.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

/** What eglot 1.9 declares when markdown-mode is not installed (no yasnippet either). */
const PLAIN_CLIENT: ClientCapabilities = {
  workspace: { applyEdit: true, configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
  textDocument: {
    hover: { dynamicRegistration: false, contentFormat: ['plaintext'] },
    completion: { dynamicRegistration: false, completionItem: { snippetSupport: false, deprecatedSupport: true, tagSupport: { valueSet: [1] } }, contextSupport: true },
    publishDiagnostics: { relatedInformation: false, codeDescriptionSupport: false },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } }, isPreferredSupport: true },
  },
};


const hoverAt = (uri: string, position: Position): Promise<Hover | null> => client!.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position });
async function completeAt(uri: string, position: Position, triggerCharacter?: string): Promise<CompletionItem[]> {
  const context = triggerCharacter ? { triggerKind: 2, triggerCharacter } : { triggerKind: 1 };
  const list = await client!.connection.sendRequest<CompletionList | CompletionItem[] | null>('textDocument/completion', { textDocument: { uri }, position, context });
  return Array.isArray(list) ? list : (list?.items ?? []);
}
const newText = (item: CompletionItem): string => item.textEdit?.newText ?? item.textEditText ?? item.insertText ?? item.label;

/** The column at which `word` starts on the line starting with `first`. */
function columnOf(text: string, first: string, word: string): number {
  const line = text.split('\n').find((l) => l.startsWith(first));
  if (line === undefined) throw new Error(`no line starting with "${first}" in:\n${text}`);
  return line.indexOf(word);
}

async function openAssist(capabilities: ClientCapabilities, rel: string, tail = ''): Promise<{ uri: string; text: string }> {
  const tree = assistTree();
  client = await startClient({ folders: [tree.ws], capabilities });
  const text = `${tree.text(rel)}${tail}`;
  const uri = uriOf(tree.file(rel));
  client.open(uri, text);
  await client.nextDiagnostics(uri);
  return { uri, text };
}

describe('a client that reads only plain text and takes no snippets', () => {
  it('gets hovers as plain text, tables as aligned columns', async () => {
    const { uri, text } = await openAssist(PLAIN_CLIENT, 'invoices/check.mthds');
    const hover = (await hoverAt(uri, positionOf(text, 'output      = "Invoice"', 17)))!;
    const contents = hover.contents as MarkupContent;
    expect(contents.kind).toBe('plaintext');
    expect(contents.value).not.toMatch(MARKDOWN_SYNTAX);
    expect(contents.value).toContain('Invoice — concept of domain invoices');
    expect(contents.value).toContain('Defined in concepts.mthds:4');
    // The fields table: one line per field, each column starting at the same place.
    const value = contents.value;
    expect(value).toMatch(/^field +type +required +description$/m);
    expect(value).toMatch(/^total +number +yes +The total amount due$/m);
    for (const word of ['number', 'yes', 'The total']) expect(columnOf(value, 'total ', word), word).toBe(columnOf(value, 'lines ', word === 'number' ? 'LineItem[]' : word === 'yes' ? 'no' : 'The lines'));
  });

  it('gets completion documentation as plain text, on resolve too, and snippets as their text', async () => {
    const { uri, text } = await openAssist(PLAIN_CLIENT, 'invoices/check.mthds', '\n[pipe.summarize]\ntype = "PipeLLM"\ndescription = "Summarize"\nou\n');
    const keys = await completeAt(uri, { line: text.split('\n').length - 2, character: 2 });
    const output = keys.find((i) => i.label === 'output')!;
    expect(output.documentation).toMatchObject({ kind: 'plaintext' });
    expect((output.documentation as MarkupContent).value).not.toMatch(MARKDOWN_SYNTAX);
    // No tab stops for a client that would insert them as written.
    expect(output.insertTextFormat).not.toBe(2);
    expect(newText(output)).toBe('output = ""');
    for (const item of keys) expect(newText(item), item.label).not.toMatch(/\$\{?\d/);

    const concepts = await completeAt(uri, after(text, 'output      = "'), '"');
    // `scoring->` reopens completion with a VS Code command: not for a client that does not run it.
    expect(concepts.find((i) => i.label === 'scoring->')!.command).toBeUndefined();
    const invoice = concepts.find((i) => i.label === 'Invoice')!;
    const resolved = await client!.connection.sendRequest<CompletionItem>('completionItem/resolve', invoice);
    expect(resolved.documentation).toMatchObject({ kind: 'plaintext' });
    expect((resolved.documentation as MarkupContent).value).toContain('Defined in concepts.mthds:4');
    expect((resolved.documentation as MarkupContent).value).not.toMatch(MARKDOWN_SYNTAX);
  });

  it('gets inlay tooltips as plain strings', async () => {
    const { uri } = await openAssist({ ...PLAIN_CLIENT, textDocument: { ...PLAIN_CLIENT.textDocument, inlayHint: {} } }, 'invoices/review.mthds');
    const hints = await client!.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 200, character: 0 } } });
    expect(hints.length).toBeGreaterThan(0);
    for (const h of hints) {
      expect(typeof h.tooltip).toBe('string');
      expect(h.tooltip as string).not.toMatch(MARKDOWN_SYNTAX);
    }
  });

  it('still gets markdown where it declares markdown first, and the commands it declares it runs', async () => {
    const caps: ClientCapabilities = { ...PLAIN_CLIENT, textDocument: { ...PLAIN_CLIENT.textDocument, hover: { contentFormat: ['markdown', 'plaintext'] } }, experimental: { commands: { commands: ['editor.action.triggerSuggest'] } } };
    const { uri, text } = await openAssist(caps, 'invoices/check.mthds');
    const hover = (await hoverAt(uri, positionOf(text, 'output      = "Invoice"', 17)))!;
    expect(hover.contents).toMatchObject({ kind: 'markdown' });
    expect((hover.contents as MarkupContent).value).toContain('| `total` | number | yes | The total amount due |');
    const concepts = await completeAt(uri, after(text, 'output      = "'), '"');
    expect(concepts.find((i) => i.label === 'scoring->')!.command).toEqual({ title: 'Complete', command: 'editor.action.triggerSuggest' });
  });
});

/** `mthds check` of a folder, as JSON: code and 0-based line of each finding of `file`. */
function cliFindings(folder: string, file: string): Array<{ code: string; line: number }> {
  const r = runCli(['check', folder, '--format', 'json', '--no-dry-run'], { cwd: process.cwd() });
  const report = JSON.parse(r.stdout) as { findings: Array<{ file: string; code: string; range: { start: { line: number } } }> };
  return report.findings.filter((f) => path.resolve(folder, '..', f.file) === file || path.resolve(f.file) === file).map((f) => ({ code: f.code, line: f.range.start.line }));
}

const summary = (ds: readonly Diagnostic[]): Array<{ code: string; line: number }> => ds.map((d) => ({ code: String(d.code), line: d.range.start.line })).sort((a, b) => a.line - b.line || a.code.localeCompare(b.code));

describe('a client with no workspace folders and rootUri: null', () => {
  it('checks an opened file in the package of its nearest METHODS.toml, as `mthds check` does', async () => {
    // The package sits inside an unrelated folder; the opened bundle is in a subfolder of it and
    // reads a concept declared at the package's top (found only with the package as the root).
    const ws = tempWorkspace({ 'elsewhere/other.mthds': 'domain = "invoices"\ndescription = "Not part of the package"\n\n[concept.Invoice]\ndescription = "A second Invoice: a duplicate if this folder were the root"\n' });
    const pkg = path.join(ws, 'pkg');
    cpSync(path.join(REPO, 'examples/invoices'), pkg, { recursive: true });
    mkdirSync(path.join(pkg, 'flows'));
    const file = path.join(pkg, 'flows/check.mthds');
    renameSync(path.join(pkg, 'check.mthds'), file);
    // One reference that does not resolve, so that there is something to report.
    const text = readFileSync(file, 'utf8').replace('output      = "YesNo"\nsteps', 'output      = "YesNoo"\nsteps');
    writeFileSync(file, text);
    const expected = cliFindings(pkg, file).sort((a, b) => a.line - b.line || a.code.localeCompare(b.code));
    expect(expected.map((f) => f.code)).toContain('method.concept_unresolved');
    expect(expected.map((f) => f.code)).not.toContain('method.concept_duplicate');

    client = await startClient({ noWorkspace: true, capabilities: PLAIN_CLIENT });
    const uri = uriOf(file);
    client.open(uri, text);
    const diagnostics = await client.nextDiagnostics(uri);
    expect(summary(diagnostics)).toEqual(expected);
    // `Invoice` (declared in ../concepts.mthds) resolves: the package, not the file's folder, is the tree.
    expect(diagnostics.find((d) => d.message.includes('Invoice'))).toBeUndefined();
  });
});

describe('a client that declares no capabilities', () => {
  it('is sent no request it did not declare, and gets push diagnostics and plain text', async () => {
    const tree = assistTree();
    client = await startClient({ folders: [tree.ws], capabilities: {} });
    const uri = uriOf(tree.file('invoices/check.mthds'));
    const text = tree.text('invoices/check.mthds');
    client.open(uri, text);
    await client.nextDiagnostics(uri);
    const hover = (await hoverAt(uri, positionOf(text, 'output      = "Invoice"', 17)))!;
    expect(hover.contents).toMatchObject({ kind: 'plaintext' });
    const items = await completeAt(uri, after(text, 'pipe = "'), '"');
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.insertTextFormat, item.label).not.toBe(2);
    client.replace(uri, 'output      = "YesNo"', 'output      = "YesNoo"');
    await client.nextDiagnostics(uri, (ds) => ds.some((d) => d.code === 'method.concept_unresolved'));
    // No registration, configuration, progress, refresh or document request: nothing was declared.
    expect(client.requests).toEqual([]);
    expect(client.registrations).toEqual([]);
  });

  it('a client declaring workspace folders but no dynamic registration gets no registration request', async () => {
    const tree = assistTree();
    client = await startClient({ folders: [tree.ws], capabilities: { workspace: { workspaceFolders: true, configuration: false } } });
    const uri = uriOf(tree.file('invoices/check.mthds'));
    client.open(uri, tree.text('invoices/check.mthds'));
    await client.nextDiagnostics(uri);
    await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [] } });
    await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    expect(client.requests).toEqual([]);
  });
});
