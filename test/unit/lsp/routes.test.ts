// The route table (server/src/lsp/routes.ts): every advertised capability has its route and every
// route is advertised, by the LSP 3.17 specification's pairing of methods and server capabilities;
// the server started in process answers initialize with those capabilities and serves each routed
// request and nothing else; and what can start work in lsp/ is the closed list the table's header
// names.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node.js';
import type { InitializeResult } from 'vscode-languageserver';
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTES, serverCapabilities } from '../../../server/src/lsp/routes.js';
import { REPO } from '../../helpers/files.js';
import { inProcessServer } from '../../helpers/inProcessServer.js';

/** The server capability that announces each method (LSP 3.17); null: a method no capability announces. */
const SPEC: Record<string, string | null> = {
  'textDocument/didOpen': 'textDocumentSync',
  'textDocument/didChange': 'textDocumentSync',
  'textDocument/didClose': 'textDocumentSync',
  'textDocument/didSave': 'textDocumentSync',
  'workspace/didChangeWorkspaceFolders': 'workspace',
  'workspace/didChangeConfiguration': null,
  'workspace/didChangeWatchedFiles': null,
  'textDocument/diagnostic': 'diagnosticProvider',
  'workspace/diagnostic': 'diagnosticProvider',
  'textDocument/codeAction': 'codeActionProvider',
  'codeAction/resolve': 'codeActionProvider',
  'textDocument/codeLens': 'codeLensProvider',
  'codeLens/resolve': 'codeLensProvider',
  'workspace/executeCommand': 'executeCommandProvider',
  'textDocument/definition': 'definitionProvider',
  'textDocument/declaration': 'declarationProvider',
  'textDocument/references': 'referencesProvider',
  'textDocument/implementation': 'implementationProvider',
  'textDocument/prepareCallHierarchy': 'callHierarchyProvider',
  'callHierarchy/incomingCalls': 'callHierarchyProvider',
  'callHierarchy/outgoingCalls': 'callHierarchyProvider',
  'textDocument/documentHighlight': 'documentHighlightProvider',
  'textDocument/prepareRename': 'renameProvider',
  'textDocument/rename': 'renameProvider',
  'textDocument/documentSymbol': 'documentSymbolProvider',
  'workspace/symbol': 'workspaceSymbolProvider',
  'textDocument/documentLink': 'documentLinkProvider',
  'documentLink/resolve': 'documentLinkProvider',
  'textDocument/foldingRange': 'foldingRangeProvider',
  'textDocument/selectionRange': 'selectionRangeProvider',
  'textDocument/formatting': 'documentFormattingProvider',
  'textDocument/rangeFormatting': 'documentRangeFormattingProvider',
  'textDocument/completion': 'completionProvider',
  'completionItem/resolve': 'completionProvider',
  'textDocument/hover': 'hoverProvider',
  'textDocument/inlayHint': 'inlayHintProvider',
  'inlayHint/resolve': 'inlayHintProvider',
  'textDocument/semanticTokens/full': 'semanticTokensProvider',
  'textDocument/semanticTokens/full/delta': 'semanticTokensProvider',
  'textDocument/semanticTokens/range': 'semanticTokensProvider',
  'textDocument/typeDefinition': 'typeDefinitionProvider',
  'textDocument/signatureHelp': 'signatureHelpProvider',
  'textDocument/documentColor': 'colorProvider',
  'textDocument/onTypeFormatting': 'documentOnTypeFormattingProvider',
};
/** The server's own methods: asked by name, announced by no capability. */
const OWN = ['mthds/methodGraph'];

const routedMethods = ROUTES.flatMap((r) => r.methods);
const capabilities = serverCapabilities() as Record<string, unknown>;
const option = (key: string, ...pathTo: string[]): unknown => pathTo.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), capabilities[key]);

describe('the route table', () => {
  it('serves each method once, and declares for each the capability the specification pairs it with', () => {
    expect(new Set(routedMethods).size).toBe(routedMethods.length);
    for (const route of ROUTES) {
      for (const method of route.methods) {
        const key = OWN.includes(method) ? null : SPEC[method];
        expect(key, `${method} is a method of the specification or the server's own`).not.toBeUndefined();
        expect(Object.keys(route.capability ?? {}), method).toEqual(key === null ? [] : [key]);
      }
    }
  });

  it('advertises no capability without a route, and rows of one capability agree', () => {
    for (const key of Object.keys(capabilities)) {
      const routes = ROUTES.filter((r) => r.capability !== undefined && key in r.capability);
      expect(routes.length, `${key} has a route`).toBeGreaterThan(0);
      for (const r of routes) expect(r.capability![key as keyof typeof r.capability], `${key} of ${r.methods.join()}`).toEqual(capabilities[key]);
    }
  });

  it('routes exactly the methods its options promise (resolve, prepare, delta, range, workspace pulls)', () => {
    const promised: Array<[string, unknown]> = [
      ['codeAction/resolve', option('codeActionProvider', 'resolveProvider')],
      ['codeLens/resolve', option('codeLensProvider', 'resolveProvider')],
      ['documentLink/resolve', option('documentLinkProvider', 'resolveProvider')],
      ['completionItem/resolve', option('completionProvider', 'resolveProvider')],
      ['inlayHint/resolve', option('inlayHintProvider', 'resolveProvider')],
      ['textDocument/prepareRename', option('renameProvider', 'prepareProvider')],
      ['textDocument/semanticTokens/full/delta', option('semanticTokensProvider', 'full', 'delta')],
      ['textDocument/semanticTokens/range', option('semanticTokensProvider', 'range')],
      ['workspace/diagnostic', option('diagnosticProvider', 'workspaceDiagnostics')],
      ['workspace/didChangeWorkspaceFolders', option('workspace', 'workspaceFolders', 'changeNotifications')],
    ];
    for (const [method, promise] of promised) expect(routedMethods.includes(method), method).toBe(promise === true);
  });
});

describe('the server over a connection', () => {
  const { client, up, down } = inProcessServer();
  client.listen();
  afterAll(() => {
    client.dispose();
    up.end();
    down.end();
  });

  it('answers initialize with the capabilities of the routes, and serves each routed request and no other', async () => {
    const init = (await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions: { diagnostics: { warmUpMs: 0 } } })) as InitializeResult;
    expect(init.capabilities).toEqual(serverCapabilities());
    await client.sendNotification('initialized', {});
    const uri = 'file:///nowhere/a.mthds';
    const params = { textDocument: { uri }, position: { line: 0, character: 0 }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, options: { tabSize: 2, insertSpaces: true }, context: { diagnostics: [], includeDeclaration: true }, query: '', newName: 'x', previousResultId: '', previousResultIds: [], positions: [], command: 'mthds.none', arguments: [], item: { name: 'x', kind: 12, uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, selectionRange: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, label: 'x', title: 'x' };
    const notFound = async (method: string): Promise<boolean> => {
      try {
        await client.sendRequest(method, params);
        return false;
      } catch (error) {
        return error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound;
      }
    };
    const requests = routedMethods.filter((m) => !/^textDocument\/did|^workspace\/didChange/.test(m));
    // workspace/diagnostic holds an answer with nothing new for a while; it is asked with no previous result.
    for (const method of requests) expect(await notFound(method), method).toBe(false);
    for (const method of Object.keys(SPEC).filter((m) => !routedMethods.includes(m) && !/\/did/.test(m))) expect(await notFound(method), method).toBe(true);
  });
});

describe('what can start work in lsp/', () => {
  it('is a timer or a handler only in a file the route table names', () => {
    const root = path.join(REPO, 'server/src/lsp');
    const header = readFileSync(path.join(root, 'routes.ts'), 'utf8').split('\nimport ')[0]!;
    const named = new Set([...header.matchAll(/(?<![\w/.])([\w/]+\.ts)\b/g)].map((m) => m[1]!));
    const starts = /\b(setTimeout|setInterval|setImmediate|queueMicrotask|process\.nextTick)\(|\.(on[A-Z]\w*|onRequest|onNotification|listen)\(/;
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split(path.sep).join('/'));
    const starting = files.filter((f) => readFileSync(path.join(root, f), 'utf8').split('\n').some((line) => !line.trimStart().startsWith('//') && starts.test(line)));
    expect(starting.length).toBeGreaterThan(5);
    // A file listed here starts work without routes.ts's list naming it.
    expect(starting.filter((file) => !named.has(file) && file !== 'routes.ts')).toEqual([]);
    // And the list names no file that is gone.
    for (const file of named) expect(files.includes(file) || file.startsWith('test/'), file).toBe(true);
  });
});
