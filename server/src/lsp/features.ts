// The wiring of navigation, rename, symbols, links, folding, selection, formatting and the method
// graph: one registration call from server.ts, so that the server's own file stays about the life
// cycle. Each handler translates between LSP and the feature modules, and never throws (a failing
// feature logs and answers empty rather than taking the editor down).

import path from 'node:path';
import { MessageType, ShowMessageNotification, type Connection, type ServerCapabilities } from 'vscode-languageserver';
import type { Bundle } from '../language/model.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import type { MethodTree } from '../language/tree.js';
import { positionToOffset } from '../syntax/positions.js';
import type { TomlDocument } from '../syntax/types.js';
import { parseToml } from '../syntax/document.js';
import type { DocContext, FeatureContext, FeatureHost } from './featureContext.js';
export type { FeatureHost } from './featureContext.js';
import { documentLinks } from './links.js';
import { formattingRefusedMessage, largeDocumentFolding, largeDocumentSymbols } from './largeDocuments.js';
import { MAX_ANALYZED_BYTES, sizePastLimit } from '../workspace/documentSize.js';
import { foldingRanges } from './folding.js';
import { formattingEdits } from './formatting.js';
import { METHOD_GRAPH_REQUEST, methodGraphResult, type MethodGraphParams } from './graphRequest.js';
import { definition, documentHighlights, references } from './navigation.js';
import { callHierarchyIncoming, callHierarchyOutgoing, implementation, prepareCallHierarchy } from './callHierarchy.js';
import { prepareRenameLsp, renameLsp } from './rename.js';
import { selectionRanges } from './selection.js';
import { documentSymbols, workspaceSymbols } from './symbols.js';

export const NAVIGATION_CAPABILITIES: ServerCapabilities = {
  definitionProvider: true,
  declarationProvider: true,
  referencesProvider: true,
  implementationProvider: true,
  callHierarchyProvider: true,
  documentHighlightProvider: true,
  renameProvider: { prepareProvider: true },
  documentSymbolProvider: { label: 'MTHDS' },
  workspaceSymbolProvider: true,
  documentLinkProvider: { resolveProvider: false },
  foldingRangeProvider: true,
  selectionRangeProvider: true,
  documentFormattingProvider: true,
  documentRangeFormattingProvider: true,
};

export function registerNavigationFeatures(connection: Connection, host: FeatureHost): void {
  const docOf = (uri: string): DocContext | undefined => {
    const file = host.ourFile(uri);
    if (file === undefined) return undefined;
    const text = host.session().textOf(file);
    // A document past the analysed size is never parsed: only the light features below read it.
    if (text === undefined || sizePastLimit(text) !== undefined) return undefined;
    const lineStarts = host.session().lineStartsOf(file);
    return { file, text, lineStarts, offset: (p) => positionToOffset(lineStarts, text, p) };
  };
  /** The tree and bundle of a document; the bundle is the tree's own (up to date with the buffer). */
  const bundleOf = (doc: DocContext): { tree: MethodTree; bundle: Bundle } | undefined => {
    if (path.basename(doc.file) === MANIFEST_FILE) return undefined;
    const tree = host.ensureCurrent(doc.file)?.tree;
    const bundle = tree?.bundles.find((b) => b.file === doc.file);
    return tree && bundle && bundle.doc.text === doc.text ? { tree, bundle } : undefined;
  };
  /** The same from the latest finished check, the buffer parsed ahead: never waits for a check. */
  const viewOf = (doc: DocContext): { tree: MethodTree; bundle: Bundle } | undefined => {
    const view = host.views.viewOf(doc.file);
    return view && view.text === doc.text ? { tree: view.tree, bundle: view.bundle } : undefined;
  };
  // Syntax-only features parse on their own (cached per text): no check needed.
  let lastParsed: { text: string; doc: TomlDocument } | undefined;
  const tomlOf = (doc: DocContext): TomlDocument => {
    if (lastParsed?.text !== doc.text) lastParsed = { text: doc.text, doc: parseToml(doc.text) };
    return lastParsed.doc;
  };
  const safe = host.guard;
  const ctx: FeatureContext = { host, docOf, bundleOf, viewOf, tomlOf };

  connection.onDefinition(safe('definition', null, (p) => definition(ctx, p, 'definition')));
  connection.onDeclaration(safe('declaration', null, (p) => definition(ctx, p, 'declaration')));
  connection.onReferences(safe('references', null, (p) => references(ctx, p)));
  connection.onImplementation(safe('implementation', null, (p) => implementation(ctx, p)));
  connection.languages.callHierarchy.onPrepare(safe('prepareCallHierarchy', null, (p) => prepareCallHierarchy(ctx, p)));
  connection.languages.callHierarchy.onIncomingCalls(safe('incomingCalls', null, (p) => callHierarchyIncoming(ctx, p)));
  connection.languages.callHierarchy.onOutgoingCalls(safe('outgoingCalls', null, (p) => callHierarchyOutgoing(ctx, p)));
  connection.onDocumentHighlight(safe('highlight', null, (p) => documentHighlights(ctx, p)));
  connection.onPrepareRename(safe('prepareRename', null, (p) => prepareRenameLsp(ctx, p)));
  connection.onRenameRequest(safe('rename', null, (p) => renameLsp(ctx, p)));
  /** The size of a document past the analysed size, with its text. */
  const large = (uri: string): { text: string; size: number } | undefined => {
    const file = host.ourFile(uri);
    const text = file === undefined ? undefined : host.session().textOf(file);
    const size = text === undefined ? undefined : sizePastLimit(text);
    return size === undefined ? undefined : { text: text!, size };
  };
  connection.onDocumentSymbol(safe('documentSymbol', null, (p) => { const l = large(p.textDocument.uri); return l ? largeDocumentSymbols(l.text) : documentSymbols(ctx, p); }));
  connection.onWorkspaceSymbol(safe('workspaceSymbol', [], (p) => workspaceSymbols(ctx, p)));
  connection.onDocumentLinks(safe('documentLinks', null, (p) => documentLinks(ctx, p)));
  connection.onFoldingRanges(safe('foldingRanges', null, (p) => { const l = large(p.textDocument.uri); return l ? largeDocumentFolding(l.text) : foldingRanges(ctx, p); }));
  connection.onSelectionRanges(safe('selectionRanges', null, (p) => selectionRanges(ctx, p)));
  const refuseLarge = (uri: string): boolean => {
    const l = large(uri);
    // A notification, not a request: nothing waits for the user to dismiss it.
    if (l) void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: formattingRefusedMessage(l.size, MAX_ANALYZED_BYTES) });
    return l !== undefined;
  };
  connection.onDocumentFormatting(safe('formatting', null, (p) => (refuseLarge(p.textDocument.uri) ? null : formattingEdits(ctx, p))));
  connection.onDocumentRangeFormatting(safe('rangeFormatting', null, (p) => (refuseLarge(p.textDocument.uri) ? null : formattingEdits(ctx, p, p.range))));
  connection.onRequest(METHOD_GRAPH_REQUEST, safe('methodGraph', { trees: [] }, (p: MethodGraphParams | undefined) => methodGraphResult(ctx, p ?? {})));
}

