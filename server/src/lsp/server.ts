// The language server's life cycle around one state object (serverState.ts): the routes registered
// (routes.ts: every other method, its handler and its capability), initialize (the session, the
// folder walks and the diagnostics made for the client's capabilities, the warm-up, the capabilities
// answered from the routes), initialized (dynamic registrations, the workspace check), shutdown.

import { EDITOR_TEMPLATE_LIMIT, limitTemplateAnalysis } from '../language/templates/analyze.js';
import path from 'node:path';
import { DidChangeConfigurationNotification, DidChangeWatchedFilesNotification, MessageType, ShowMessageNotification, type Connection, type DidChangeWatchedFilesParams, type InitializeParams, type InitializeResult } from 'vscode-languageserver';
import { Session } from '../workspace/session.js';
import { completionOptions } from './completion.js';
import { Diagnostics } from './diagnostics/index.js';
import { FolderScans } from './folderScans.js';
import { oneTurn } from './messageTurns.js';
import { registerRoutes, served, serverCapabilities } from './routes.js';
import { ServerState, WATCHED_GLOBS, type ServerOptions } from './serverState.js';
import { DEFAULT_SETTINGS, readSettings } from './settings.js';
import { checkWorkspace } from './startupCheck.js';
import { WARMED_BY_CHECK_BUNDLES, warmUp, warmUpWhenQuiet, type WarmUpReport } from './warmUp.js';
import { holdsBundles } from '../workspace/scan.js';
import { VERSION } from '../version.js';
import { watchedFilesChanged } from './documentEvents.js';
import { boundMessage, type BoundedWalk } from './walkBound.js';

export { DOCUMENT_SELECTOR, LANGUAGE_ID, type ServerOptions } from './serverState.js';

/** Workspace folders of the initialize request: folders, else rootUri, else rootPath. */
export function initialFolders(params: InitializeParams, uriToFile: (uri: string) => string): string[] {
  if (params.workspaceFolders && params.workspaceFolders.length > 0) return params.workspaceFolders.map((f) => uriToFile(f.uri)).filter((f) => path.isAbsolute(f));
  if (params.rootUri) return [uriToFile(params.rootUri)].filter((f) => path.isAbsolute(f));
  if (params.rootPath) return [path.resolve(params.rootPath)];
  return [];
}

/** What the host tells the server besides LSP: files that changed where it reads them (the browser's client sends them). */
export interface StartedServer {
  filesChanged(changes: DidChangeWatchedFilesParams['changes']): void;
  /** The host's own walk of a workspace folder stopped at its bound (the browser's client). */
  walkBounded(walk: BoundedWalk): void;
}

export function startServer(connection: Connection, options: ServerOptions): StartedServer {
  // A template past this length is not analysed in the editor (one step nothing cuts: analyze.ts).
  limitTemplateAnalysis(EDITOR_TEMPLATE_LIMIT);
  const state = new ServerState(connection, options);
  const handlers = served(state);
  const pause = state.pause ?? oneTurn;
  const toldBounds = new Set<string>();
  /** A walk of a workspace folder stopped at its bound: said once per folder and bound. */
  const tellBound = (walk: BoundedWalk): void => {
    const message = boundMessage(walk);
    if (toldBounds.has(message)) return;
    toldBounds.add(message);
    state.log(message);
    void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
  };

  /** Whether the warm-up waits for the start-up check (a workspace of many bundles). */
  let deferredWarmUp = false;
  const traceWarmUp = (warm: WarmUpReport): void => connection.tracer.log(`mthds: warmed up the keystroke path with ${warm.keystrokes} keystrokes in ${warm.ms.toFixed(1)} ms`);

  connection.onInitialize(async (params): Promise<InitializeResult> => {
    state.capabilities = params.capabilities;
    const capabilities = state.capabilities;
    // The browser's client sends every change itself: its files are never stale.
    const watchers = !options.host.watchFiles || capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    const session = new Session({ fs: options.host.fs, folders: initialFolders(params, state.uriToFile), validateDisk: !watchers });
    state.session = session;
    const warmUpMs = options.host.defaultWarmUpMs;
    state.initSettings = readSettings(params.initializationOptions, warmUpMs === undefined ? DEFAULT_SETTINGS : { ...DEFAULT_SETTINGS, diagnostics: { ...DEFAULT_SETTINGS.diagnostics, warmUpMs } });
    state.settings = state.initSettings;
    state.applyPackageSettings();
    const pull = capabilities.textDocument?.diagnostic !== undefined;
    state.scans = new FolderScans(session, {
      pause,
      maxFiles: () => state.settings.workspace.maxFiles,
      truncated: (folder, maxFiles) => tellBound({ folder, limit: maxFiles, counted: 'files', setting: 'mthds.workspace.maxFiles' }),
    });
    state.diagnostics = new Diagnostics(connection, session, state.locator, {
      ...(options.host.dryRun ? { dryRun: options.host.dryRun } : {}),
      pull,
      refreshSupport: capabilities.workspace?.diagnostics?.refreshSupport === true,
      debounceMs: () => state.settings.diagnostics.debounceMs,
      dryRunDelayMs: () => (state.settings.diagnostics.dryRun ? state.settings.diagnostics.dryRunDelayMs : 0),
      versionOf: state.versionOf,
      log: state.log,
      trace: (message) => connection.tracer.log(message),
      findingsOf: (file) => state.views.findingsOf(file),
      documentationFormat: () => completionOptions(capabilities).documentation,
      ...(state.pause ? { pause: state.pause } : {}),
      ...(options.heapForBurst ? { heapForBurst: options.heapForBurst } : {}),
    });
    // Before the answer: a client sends nothing else until it has it, so no document waits. A
    // workspace of many bundles is checked at start-up for longer than the warm-up lasts, and
    // that check runs most of the same code: there the warm-up waits for its end, and for a quiet
    // moment (measured on 5,000 bundles: before `initialize` it cost a second and the check was no
    // faster after it; `warmUpWhenQuiet` says why it waits for quiet).
    const warmMs = state.initSettings.diagnostics.warmUpMs;
    deferredWarmUp = warmMs > 0 && holdsBundles(options.host.fs, session.getFolders(), WARMED_BY_CHECK_BUNDLES);
    if (warmMs > 0 && !deferredWarmUp) traceWarmUp(await warmUp(warmMs, pause, undefined, completionOptions(state.capabilities).documentation));
    return { capabilities: serverCapabilities(), serverInfo: { name: 'mthds-language-server', version: VERSION } };
  });

  connection.onInitialized(() => {
    state.initialized = true;
    const capabilities = state.capabilities;
    const diag = state.diagnostics!;
    if (options.host.watchFiles && capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })) }).catch((e: unknown) => state.log(`mthds: cannot watch files: ${String(e)}`));
      void state.watchPackageFolders();
    }
    if (capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'mthds' }).catch(() => undefined);
    }
    registerRoutes(connection, handlers, true);
    const ready = (async (): Promise<void> => {
      await state.refreshSettings();
      await checkWorkspace(state, diag);
      if (!deferredWarmUp) return;
      const turns = options.turns;
      const warmMs = state.initSettings.diagnostics.warmUpMs;
      const documentation = completionOptions(state.capabilities).documentation;
      // Without the connection's turns nothing tells a quiet moment: the warm-up runs at once, in
      // slices that let messages through, as before `initialize`.
      void (turns ? warmUpWhenQuiet(warmMs, pause, () => turns.count(), documentation) : warmUp(warmMs, pause, undefined, documentation)).then(traceWarmUp);
    })().catch((e: unknown) => state.log(`mthds: workspace check failed: ${String(e)}`));
    diag.setWorkspaceReady(ready);
  });

  connection.onShutdown(async () => {
    await state.runner.close();
  });

  registerRoutes(connection, handlers, false);
  connection.listen();
  return { filesChanged: (changes) => watchedFilesChanged(state, { changes }), walkBounded: tellBound };
}
