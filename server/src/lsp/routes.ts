// The route table: every LSP method this server serves, its handler, and the capability that
// initialize advertises for it, one row each. `serverCapabilities` is built from the rows, so a
// method is advertised exactly when it is served (test/unit/lsp/routes.test.ts). The life cycle
// (initialize, initialized, shutdown) is server.ts's; everything else a client sends comes in here.
//
// What can start work in the language server, a closed list (test/unit/lsp/routes.test.ts finds every
// timer and every handler registration of lsp/ and refuses one in a file not named here):
//   1. A message of the client: the rows of this table (documentEvents.ts holds the handlers of the
//      documents' and the workspace's notifications), and the life cycle in server.ts (initialize
//      runs the warm-up, warmUp.ts; initialized starts the workspace check, startupCheck.ts).
//   2. The schedulers of the diagnostics (diagnostics/index.ts links them), each started by a
//      message or by one another, none by itself: the check scheduler (diagnostics/checks.ts: a
//      document's debounced check, the update after file events), the dry-run scheduler
//      (diagnostics/dryRuns.ts: a tree's dry run once typing pauses), the idle preparation
//      (diagnostics/idlePreparation.ts over idleWork.ts: what the next keystroke will need, once
//      checks end), and the publisher (diagnostics/publisher.ts: a workspace pull held until
//      something changes, a pull waiting for a check).
//   3. The runner, asked by a request: a run started by workspace/executeCommand followed to its end
//      (runner/progress.ts), a runner's model deck awaited a while for completion
//      (runner/modelDecks.ts), the built-in runner started in process on first use (runner/link.ts).
//   4. In a browser, the files the client sends (`mthds/files`, browserMain.ts: the worker's entry,
//      which also gives the worker its setImmediate); they go through documentEvents.ts as the
//      desktop's watched-file events do.
// Sliced work yields through messageTurns.ts (a pause; it starts nothing) and the transport's
// guard (protocolGuard.ts) reads messages before the connection does; the passing queue
// (passingQueue.ts) hands the messages read to the connection, one per turn, and the reader makes
// a large message's strings a slice per turn (packedStrings.ts), as the writer makes a long message
// (frameWriter.ts): none starts anything of its own.

import path from 'node:path';
import {
  MessageType,
  ShowMessageNotification,
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  CodeActionRequest,
  CodeActionResolveRequest,
  CodeLensRequest,
  CompletionRequest,
  CompletionResolveRequest,
  DeclarationRequest,
  DefinitionRequest,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentHighlightRequest,
  DocumentLinkRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  FoldingRangeRequest,
  HoverRequest,
  ImplementationRequest,
  InlayHintRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  SelectionRangeRequest,
  SemanticTokensDeltaRequest,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
  TextDocumentSyncKind,
  WorkspaceDiagnosticRequest,
  WorkspaceSymbolRequest,
  type CodeActionParams,
  type CodeLensParams,
  type CompletionItem,
  type Connection,
  type NotificationHandler,
  type ProtocolNotificationType,
  type ProtocolRequestType,
  type RequestHandler,
  type ServerCapabilities,
} from 'vscode-languageserver';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { Assist } from './assist.js';
import { callHierarchyIncoming, callHierarchyOutgoing, implementation, prepareCallHierarchy } from './callHierarchy.js';
import { codeActions, FIX_ALL_COMMAND, FIX_ALL_KIND, fixAllBy, isFixAllData, QUICK_FIX, resolveFixAll } from './codeActions.js';
import { runFixAllCommand } from './fixAllCommand.js';
import { pipeCodeLenses } from './codeLens.js';
import { COMPLETION_TRIGGERS } from './completion.js';
import { configurationChanged, listenToDocuments, watchedFilesChanged, workspaceFoldersChanged } from './documentEvents.js';
import { featureContext, type FeatureContext } from './featureContext.js';
import { formattingRefusedMessage, largeDocument, largeDocumentFolding, largeDocumentSymbols } from './largeDocuments.js';
import { oneTurn } from './messageTurns.js';
import { MAX_ANALYZED_BYTES } from '../workspace/documentSize.js';
import { foldingRanges } from './folding.js';
import { formattingEdits } from './formatting.js';
import { METHOD_GRAPH_REQUEST, methodGraphResult, type MethodGraphParams } from './graphRequest.js';
import { documentLinks } from './links.js';
import { definition, documentHighlights, references } from './navigation.js';
import { prepareRenameLsp, renameLsp } from './rename.js';
import { executeRunnerCommand, RUNNER_COMMANDS } from './runner/commands.js';
import { selectionRanges } from './selection.js';
import { SEMANTIC_TOKENS_LEGEND } from './semanticTokens.js';
import { DOCUMENT_SELECTOR, type ServerState } from './serverState.js';
import { documentSymbols, workspaceSymbols } from './symbols.js';
import type { ModelCatalog } from '../language/modelCatalog.js';

/** The models offered where no runner is configured and none is built in (a browser). */
const NO_MODELS: ModelCatalog = { source: 'no runner (none is built into the browser)', choices: [] };

/** What a route's handler is made from: the server's state and the contexts its features share. */
export interface Served {
  state: ServerState;
  /** Navigation, symbols, formatting, the graph. */
  features: FeatureContext;
  /** Completion, hover, inlay hints, semantic tokens. */
  assist: Assist;
}

export interface Route {
  /** The LSP methods served (one each, but the text sync's). */
  readonly methods: readonly string[];
  /** What initialize advertises for it; undefined for a notification that needs nothing advertised. */
  readonly capability: ServerCapabilities | undefined;
  /** Registered once the client has said `initialized` (the library owns the method until then). */
  readonly afterInitialized?: boolean;
  register(connection: Connection, served: Served): void;
}

function request<P, R, PR, E, RO>(type: ProtocolRequestType<P, R, PR, E, RO>, capability: ServerCapabilities | undefined, handler: (s: Served) => RequestHandler<P, R, E>): Route {
  return { methods: [type.method], capability, register: (connection, served) => void connection.onRequest(type, handler(served)) };
}

function notification<P, RO>(type: ProtocolNotificationType<P, RO>, handler: (s: Served) => NotificationHandler<P>): Route {
  return { methods: [type.method], capability: undefined, register: (connection, served) => void connection.onNotification(type, handler(served)) };
}

/** The request handlers of navigation and friends, through the guard. */
const guarded = <P, R>(name: string, empty: R, fn: (s: Served, params: P) => R | Promise<R>) => (s: Served) => s.state.guard<P, R>(name, empty, (params) => fn(s, params));

/** Formatting refused for a document past the analysed size, said in a message nobody must dismiss. */
function refuseLarge(s: Served, uri: string): boolean {
  const l = largeDocument(s.features.host, uri);
  if (l) void s.state.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: formattingRefusedMessage(l.size, MAX_ANALYZED_BYTES) });
  return l !== undefined;
}

export const ROUTES: readonly Route[] = [
  // ---- documents and workspace ------------------------------------------------------------------
  {
    methods: ['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose', 'textDocument/didSave'],
    capability: { textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } } },
    register: (connection, { state }) => listenToDocuments(connection, state),
  },
  notification(DidChangeConfigurationNotification.type, ({ state }) => (params) => configurationChanged(state, params)),
  notification(DidChangeWatchedFilesNotification.type, ({ state }) => (params) => watchedFilesChanged(state, params)),
  {
    methods: ['workspace/didChangeWorkspaceFolders'],
    capability: { workspace: { workspaceFolders: { supported: true, changeNotifications: true } } },
    afterInitialized: true,
    register: (connection, { state }) => {
      if (state.capabilities.workspace?.workspaceFolders) connection.workspace.onDidChangeWorkspaceFolders((event) => workspaceFoldersChanged(state, event));
    },
  },

  // ---- diagnostics: pushed, or pulled (advertised always; a client that can pull gets nothing pushed, as vscode-eslint does)
  request(DocumentDiagnosticRequest.type, { diagnosticProvider: { identifier: 'mthds', interFileDependencies: true, workspaceDiagnostics: true, documentSelector: DOCUMENT_SELECTOR } }, ({ state }) => async (params) => {
    const diag = state.diagnostics;
    if (!diag) return { kind: 'full', items: [] };
    try {
      return await diag.documentReport(params, state.ourFile(params.textDocument.uri));
    } catch (error) {
      state.log(`mthds: diagnostics failed: ${String(error)}`);
      return { kind: 'full', items: [] };
    }
  }),
  request(WorkspaceDiagnosticRequest.type, { diagnosticProvider: { identifier: 'mthds', interFileDependencies: true, workspaceDiagnostics: true, documentSelector: DOCUMENT_SELECTOR } }, ({ state }) => (params, token) =>
    state.diagnostics ? state.diagnostics.workspaceReport(params, token) : { items: [] },
  ),

  // ---- code actions, lenses, commands ------------------------------------------------------------
  request(CodeActionRequest.type, { codeActionProvider: { codeActionKinds: [QUICK_FIX, FIX_ALL_KIND], resolveProvider: true } }, guarded('code actions', [], async ({ state, features }, params: CodeActionParams) => {
    // A document past the analysed size has one warning and nothing to fix: its line starts, a
    // pass over all its text, are not made (an editor asks at each change and move of the cursor).
    if (largeDocument(features.host, params.textDocument.uri)) return [];
    const file = state.ourFile(params.textDocument.uri);
    // A document just opened: its first check runs in slices, and the answer follows its result,
    // ahead of its diagnostics.
    if (file !== undefined) await state.diagnostics?.firstCheck(file);
    // The findings of the latest finished check, carried over to the buffer's current text.
    const found = file !== undefined && state.diagnostics ? state.views.findingsOf(file) : undefined;
    if (file === undefined || !found) return [];
    const text = state.session.textOf(file) ?? '';
    return codeActions({ params, file, text, lineStarts: state.session.lineStartsOf(file), findings: found.findings, tree: found.tree, ...(found.treeFindings ? { treeFindings: found.treeFindings } : {}), locator: state.locator, fixAllBy: fixAllBy(state.capabilities), ...(state.pause ? { pause: state.pause } : {}) });
  })),
  request(CodeActionResolveRequest.type, { codeActionProvider: { codeActionKinds: [QUICK_FIX, FIX_ALL_KIND], resolveProvider: true } }, ({ state }) => async (action) => {
    if (!isFixAllData(action.data)) return action;
    try {
      const file = state.ourFile(action.data.fixAll);
      const found = file !== undefined && state.diagnostics ? state.views.findingsOf(file) : undefined;
      if (!found) return { ...action, edit: { changes: {} } };
      return await resolveFixAll(action, found.findings, found.tree, state.locator, state.pause, found.treeFindings);
    } catch (error) {
      state.log(`mthds: code action resolve failed: ${String(error)}`);
      return action;
    }
  }),
  request(CodeLensRequest.type, { codeLensProvider: { resolveProvider: false } }, guarded('code lenses', [], ({ state }, params: CodeLensParams) => {
    const file = state.ourFile(params.textDocument.uri);
    if (!state.diagnostics || file === undefined || path.basename(file) === MANIFEST_FILE) return [];
    const view = state.views.viewOf(file);
    return view ? pipeCodeLenses(view.bundle, params.textDocument.uri, view.tree) : [];
  })),
  request(ExecuteCommandRequest.type, { executeCommandProvider: { commands: [...RUNNER_COMMANDS, FIX_ALL_COMMAND] } }, ({ state }) => async (params) => {
    const diagnostics = state.diagnostics;
    if (!diagnostics) return { ok: false, message: 'The server is not initialized.' };
    if (params.command === FIX_ALL_COMMAND) {
      return runFixAllCommand(
        {
          fileOf: (uri) => state.ourFile(uri),
          findingsOf: (file) => state.views.findingsOf(file),
          versionOf: state.versionOf,
          locator: state.locator,
          documentChanges: state.capabilities.workspace?.workspaceEdit?.documentChanges === true,
          applyEdit: (edit) => state.connection.workspace.applyEdit(edit),
          ...(state.pause ? { pause: state.pause } : {}),
        },
        params.arguments ?? [],
      );
    }
    return executeRunnerCommand(
      {
        connection: state.connection,
        link: state.runner,
        session: state.session,
        diagnostics,
        locator: state.locator,
        fileOf: state.uriToFile,
        ...(state.options.host.saveRunOutput ? { saveRunOutput: state.options.host.saveRunOutput } : {}),
        canShowDocument: () => state.capabilities.window?.showDocument?.support === true,
        canShowProgress: () => state.capabilities.window?.workDoneProgress === true,
      },
      params.command,
      params.arguments ?? [],
    );
  }),

  // ---- navigation, symbols, formatting, the graph (features: featureContext.ts) -------------------
  request(DefinitionRequest.type, { definitionProvider: true }, guarded('definition', null, (s, p) => definition(s.features, p, 'definition'))),
  request(DeclarationRequest.type, { declarationProvider: true }, guarded('declaration', null, (s, p) => definition(s.features, p, 'declaration'))),
  request(ReferencesRequest.type, { referencesProvider: true }, guarded('references', null, (s, p) => references(s.features, p))),
  request(ImplementationRequest.type, { implementationProvider: true }, guarded('implementation', null, (s, p) => implementation(s.features, p))),
  request(CallHierarchyPrepareRequest.type, { callHierarchyProvider: true }, guarded('prepareCallHierarchy', null, (s, p) => prepareCallHierarchy(s.features, p))),
  request(CallHierarchyIncomingCallsRequest.type, { callHierarchyProvider: true }, guarded('incomingCalls', null, (s, p) => callHierarchyIncoming(s.features, p))),
  request(CallHierarchyOutgoingCallsRequest.type, { callHierarchyProvider: true }, guarded('outgoingCalls', null, (s, p) => callHierarchyOutgoing(s.features, p))),
  request(DocumentHighlightRequest.type, { documentHighlightProvider: true }, guarded('highlight', null, (s, p) => documentHighlights(s.features, p))),
  request(PrepareRenameRequest.type, { renameProvider: { prepareProvider: true } }, guarded('prepareRename', null, (s, p) => prepareRenameLsp(s.features, p))),
  request(RenameRequest.type, { renameProvider: { prepareProvider: true } }, guarded('rename', null, (s, p) => renameLsp(s.features, p))),
  request(DocumentSymbolRequest.type, { documentSymbolProvider: { label: 'MTHDS' } }, guarded('documentSymbol', null, (s, p) => { const l = largeDocument(s.features.host, p.textDocument.uri); return l ? largeDocumentSymbols(l.source, s.state.pause ?? oneTurn) : documentSymbols(s.features, p); })),
  request(WorkspaceSymbolRequest.type, { workspaceSymbolProvider: true }, guarded('workspaceSymbol', [], (s, p) => workspaceSymbols(s.features, p))),
  request(DocumentLinkRequest.type, { documentLinkProvider: { resolveProvider: false } }, guarded('documentLinks', null, (s, p) => documentLinks(s.features, p))),
  request(FoldingRangeRequest.type, { foldingRangeProvider: true }, guarded('foldingRanges', null, (s, p) => { const l = largeDocument(s.features.host, p.textDocument.uri); return l ? largeDocumentFolding(l.source, s.state.capabilities.textDocument?.foldingRange?.rangeLimit, s.state.pause ?? oneTurn) : foldingRanges(s.features, p); })),
  request(SelectionRangeRequest.type, { selectionRangeProvider: true }, guarded('selectionRanges', null, (s, p) => selectionRanges(s.features, p))),
  request(DocumentFormattingRequest.type, { documentFormattingProvider: true }, guarded('formatting', null, (s, p) => (refuseLarge(s, p.textDocument.uri) ? null : formattingEdits(s.features, p)))),
  request(DocumentRangeFormattingRequest.type, { documentRangeFormattingProvider: true }, guarded('rangeFormatting', null, (s, p) => (refuseLarge(s, p.textDocument.uri) ? null : formattingEdits(s.features, p, p.range)))),
  {
    // The server's own request (the VS Code extension's graph view); no capability: the client asks it by name.
    methods: [METHOD_GRAPH_REQUEST],
    capability: undefined,
    register: (connection, s) => void connection.onRequest(METHOD_GRAPH_REQUEST, s.state.guard('methodGraph', { trees: [] }, (p: MethodGraphParams | undefined) => methodGraphResult(s.features, p ?? {}))),
  },

  // ---- completion, hover, inlay hints, semantic tokens (assist.ts) --------------------------------
  request(CompletionRequest.type, { completionProvider: { triggerCharacters: COMPLETION_TRIGGERS, resolveProvider: true } }, guarded('completion', null, (s, p) => s.assist.completion(p))),
  // A failed resolve answers the item as it came.
  request(CompletionResolveRequest.type, { completionProvider: { triggerCharacters: COMPLETION_TRIGGERS, resolveProvider: true } }, (s) => (item) =>
    s.state.guard('completion resolve', item, (i: CompletionItem) => s.assist.resolveCompletion(i))(item),
  ),
  request(HoverRequest.type, { hoverProvider: true }, guarded('hover', null, (s, p) => s.assist.hover(p))),
  request(InlayHintRequest.type, { inlayHintProvider: { resolveProvider: false } }, guarded('inlay hints', null, (s, p) => s.assist.inlayHints(p))),
  request(SemanticTokensRequest.type, { semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: { delta: true }, range: true } }, guarded('semantic tokens', { data: [] }, (s, p) => s.assist.semanticTokens(p))),
  request(SemanticTokensDeltaRequest.type, { semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: { delta: true }, range: true } }, guarded('semantic tokens', { data: [] }, (s, p) => s.assist.semanticTokensDelta(p))),
  request(SemanticTokensRangeRequest.type, { semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: { delta: true }, range: true } }, guarded('semantic tokens', { data: [] }, (s, p) => s.assist.semanticTokensRange(p))),
];

/** The capabilities initialize answers: those of the routes, merged (rows of one feature agree). */
export function serverCapabilities(routes: readonly Route[] = ROUTES): ServerCapabilities {
  const merged: Record<string, unknown> = {};
  for (const route of routes) {
    for (const [key, value] of Object.entries(route.capability ?? {})) merged[key] = value;
  }
  return merged as ServerCapabilities;
}

/** The handlers' shared contexts, made once per server. */
export function served(state: ServerState): Served {
  return {
    state,
    features: featureContext(state.featureHost()),
    assist: new Assist({
      builtInModels: state.options.host.builtInModels ?? (() => NO_MODELS),
      views: state.views,
      ourFile: state.ourFile,
      runner: () => state.settings.runner,
      runnerToken: () => state.runner.token(),
      capabilities: () => state.capabilities,
      log: state.log,
    }),
  };
}

/** Registers the routes of one phase: at start, or once the client has said `initialized`. */
export function registerRoutes(connection: Connection, s: Served, afterInitialized: boolean, routes: readonly Route[] = ROUTES): void {
  for (const route of routes) if ((route.afterInitialized === true) === afterInitialized) route.register(connection, s);
}
