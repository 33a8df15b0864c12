// The language server: capabilities, the life cycle, and the wiring of documents, settings and
// workspace events to the features (one module each). Everything here translates; the state lives
// in the session (workspace/session.ts), which knows nothing of LSP.

import path from 'node:path';
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  MessageType,
  ShowMessageNotification,
  TextDocumentSyncKind,
  TextDocuments,
  type ClientCapabilities,
  type CodeActionParams,
  type CodeLensParams,
  type Connection,
  type Disposable,
  type DocumentSelector,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LOCK_FILE, MANIFEST_FILE } from '../language/spec/manifest.js';
import { isMethodFile } from '../workspace/scan.js';
import { readStructures } from '../workspace/structures.js';
import { Session, type DiskChange } from '../workspace/session.js';
import { CLAMPED_TEXT_DOCUMENTS, guardRequest } from './clamp.js';
import { codeActions, FIX_ALL_KIND, isFixAllData, QUICK_FIX, resolveFixAll } from './codeActions.js';
import { pipeCodeLenses } from './codeLens.js';
import type { TextLocator } from './convert.js';
import { completionOptions } from './completion.js';
import { Diagnostics } from './diagnostics.js';
import { ASSIST_CAPABILITIES, registerAssistFeatures } from './assist.js';
import { NAVIGATION_CAPABILITIES, registerNavigationFeatures } from './features.js';
import { executeRunnerCommand, RUNNER_COMMANDS } from './runnerCommands.js';
import { oneTurn, type MessageTurns } from './messageTurns.js';
import { FolderScans } from './folderScans.js';
import { RunnerLink } from './runnerLink.js';
import { forgetFileSymbols } from './symbols.js';
import { Views } from './views.js';
import { warmUp } from './warmUp.js';
import { DEFAULT_SETTINGS, readSettings, type Settings } from './settings.js';
import { VERSION } from '../version.js';
import type { ServerHost } from './host.js';
import type { ModelCatalog } from '../language/modelCatalog.js';

export const LANGUAGE_ID = 'mthds';

/** The documents this server reads: bundles (by language or extension) and package manifests. */
export const DOCUMENT_SELECTOR: DocumentSelector = [
  { language: LANGUAGE_ID },
  { scheme: 'file', pattern: '**/*.mthds' },
  { scheme: 'file', pattern: `**/${MANIFEST_FILE}` },
  { scheme: 'file', pattern: `**/${LOCK_FILE}` },
];

const WATCHED_GLOBS = ['**/*.mthds', `**/${MANIFEST_FILE}`, `**/${LOCK_FILE}`];
/** What changes a package outside the workspace (library folders, installed methods). */
const PACKAGE_GLOBS = ['**/*.mthds', `**/${MANIFEST_FILE}`];

/** Workspace folders of the initialize request: folders, else rootUri, else rootPath. */
export function initialFolders(params: InitializeParams, uriToFile: (uri: string) => string): string[] {
  if (params.workspaceFolders && params.workspaceFolders.length > 0) return params.workspaceFolders.map((f) => uriToFile(f.uri)).filter((f) => path.isAbsolute(f));
  if (params.rootUri) return [uriToFile(params.rootUri)].filter((f) => path.isAbsolute(f));
  if (params.rootPath) return [path.resolve(params.rootPath)];
  return [];
}

export interface ServerOptions {
  /** The file system and the other services of the place the server runs in. */
  host: ServerHost;
  /** The messages the connection dispatches (its message strategy): checks yield to them. */
  turns?: MessageTurns;
  /**
   * Collect the garbage of the workspace's start-up check at its end (heap.ts `collectNow`): the
   * server's own process (lsp/main.ts), not a process embedding it, whose heap is not its to collect.
   */
  collectAfterStartup?: (msSinceDocumentChange: number, log: (line: string) => void) => Promise<void>;
}

/** What the host tells the server besides LSP: files that changed where it reads them (the browser's client sends them). */
export interface StartedServer {
  filesChanged(changes: ReadonlyArray<{ uri: string; type: FileChangeType }>): void;
}

export function startServer(connection: Connection, options: ServerOptions): StartedServer {
  const { host } = options;
  const uriToFile = host.uris.toFile;
  const fileToUri = (file: string, known: ReadonlyMap<string, string>): string => known.get(file) ?? host.uris.toUri(file);
  const documents = new TextDocuments<TextDocument>(CLAMPED_TEXT_DOCUMENTS);
  /** URIs the client uses for its open method documents, by file identity. */
  const uris = new Map<string, string>();
  let session = new Session({ fs: host.fs });
  let capabilities: ClientCapabilities = {};
  let settings: Settings = DEFAULT_SETTINGS;
  let initSettings: Settings = DEFAULT_SETTINGS;
  const log = (message: string): void => connection.console.error(message);

  const locator: TextLocator = {
    uriOf: (file) => fileToUri(file, uris),
    lineStartsOf: (file) => session.lineStartsOf(file),
  };
  const versionOf = (file: string): number | undefined => {
    const uri = uris.get(file);
    return uri !== undefined ? documents.get(uri)?.version : undefined;
  };
  let diagnostics: Diagnostics | undefined;
  /** The walks of the workspace folders (made with the session, at initialize). */
  let scans: FolderScans | undefined;
  /** What requests work on while checks are pending: the latest finished check, buffers parsed ahead. */
  const views = new Views(
    () => session,
    (file) => diagnostics?.ensureCurrent(file),
  );
  const runner = new RunnerLink(() => settings.runner, (line) => connection.console.log(line), host.env, host.startRunner);

  const isOurs = (uri: string, languageId: string | undefined): boolean => languageId === LANGUAGE_ID || isMethodFile(uriToFile(uri));
  const ourFile = (uri: string): string | undefined => {
    const file = uriToFile(uri);
    return uris.has(file) || isMethodFile(file) ? file : undefined;
  };
  /** Every request handler is registered through this: positions clamped, failures answered empty. */
  const guard = guardRequest(log, (uri) => {
    const file = ourFile(uri);
    const text = file === undefined ? undefined : session.textOf(file);
    return text === undefined ? undefined : { text, lineStarts: session.lineStartsOf(file!) };
  });

  connection.onInitialize(async (params): Promise<InitializeResult> => {
    capabilities = params.capabilities;
    // The browser's client sends every change itself: its files are never stale.
    const watchers = !host.watchFiles || capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    session = new Session({ fs: host.fs, folders: initialFolders(params, uriToFile), validateDisk: !watchers });
    initSettings = readSettings(params.initializationOptions);
    settings = initSettings;
    applyPackageSettings();
    const pull = capabilities.textDocument?.diagnostic !== undefined;
    scans = new FolderScans(session, {
      pause: options.turns ? () => options.turns!.pause() : oneTurn,
      maxFiles: () => settings.workspace.maxFiles,
      truncated: (folder, maxFiles) => {
        const message = `mthds: the workspace folder ${folder} holds more than ${maxFiles} files; only the method files among the first ${maxFiles} are checked (setting mthds.workspace.maxFiles)`;
        log(message);
        void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
      },
    });
    diagnostics = new Diagnostics(connection, session, locator, {
      ...(host.dryRun ? { dryRun: host.dryRun } : {}),
      pull,
      refreshSupport: capabilities.workspace?.diagnostics?.refreshSupport === true,
      debounceMs: () => settings.diagnostics.debounceMs,
      dryRunDelayMs: () => (settings.diagnostics.dryRun ? settings.diagnostics.dryRunDelayMs : 0),
      versionOf,
      log,
      trace: (message) => connection.tracer.log(message),
      findingsOf: (file) => views.findingsOf(file),
      documentationFormat: () => completionOptions(capabilities).documentation,
      ...(options.turns ? { pause: () => options.turns!.pause() } : {}),
    });
    // Before the answer: a client sends nothing else until it has it, so no document waits.
    if (initSettings.diagnostics.warmUpMs > 0) {
      const warm = await warmUp(initSettings.diagnostics.warmUpMs, options.turns ? () => options.turns!.pause() : oneTurn, undefined, completionOptions(capabilities).documentation);
      connection.tracer.log(`mthds: warmed up the keystroke path with ${warm.keystrokes} keystrokes in ${warm.ms.toFixed(1)} ms`);
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        // Advertised always; a client that can pull gets nothing pushed (as vscode-eslint does).
        diagnosticProvider: { identifier: 'mthds', interFileDependencies: true, workspaceDiagnostics: true, documentSelector: DOCUMENT_SELECTOR },
        codeActionProvider: { codeActionKinds: [QUICK_FIX, FIX_ALL_KIND], resolveProvider: true },
        codeLensProvider: { resolveProvider: false },
        ...NAVIGATION_CAPABILITIES,
        ...ASSIST_CAPABILITIES,
        executeCommandProvider: { commands: [...RUNNER_COMMANDS] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'mthds-language-server', version: VERSION },
    };
  });

  connection.onInitialized(() => {
    initialized = true;
    const diag = diagnostics!;
    if (host.watchFiles && capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })) }).catch((e: unknown) => log(`mthds: cannot watch files: ${String(e)}`));
      void watchPackageFolders();
    }
    if (capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'mthds' }).catch(() => undefined);
    }
    if (capabilities.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        guardEvent(() => {
          const removed = new Set(event.removed.map((f) => uriToFile(f.uri)));
          const added = event.added.map((f) => uriToFile(f.uri)).filter((f) => path.isAbsolute(f) && !removed.has(f));
          const folders = [...new Set([...session.getFolders().filter((f) => !removed.has(f)), ...added])];
          session.setFolders(folders);
          // Checked once the walk of this folder set ends; a walk replaced by a later change never is.
          void scans!.rescan().then((trees) => (trees !== undefined ? diag.flushDirty() : undefined));
        });
      });
    }
    const ready = (async (): Promise<void> => {
      await refreshSettings();
      await checkWorkspace(diag);
    })().catch((e: unknown) => log(`mthds: workspace check failed: ${String(e)}`));
    diag.setWorkspaceReady(ready);
  });

  async function refreshSettings(pushed?: unknown): Promise<void> {
    settings = await readClientSettings(pushed);
    applyPackageSettings();
  }

  /** Store, libraries and structures of the settings; relative paths from the first workspace folder. */
  function applyPackageSettings(): void {
    const base = session.getFolders()[0] ?? '.';
    const dir = settings.packages.dir;
    session.setPackagesDir(dir !== undefined && !path.isAbsolute(dir) ? path.resolve(base, dir) : dir);
    const libraries = settings.packages.libraries.map((l) => path.resolve(base, l));
    const librariesChanged = libraries.join('\n') !== session.getLibraries().join('\n');
    session.setLibraries(libraries);
    structuresFile = settings.structures.file !== undefined ? path.resolve(base, settings.structures.file) : undefined;
    loadStructures();
    if (librariesChanged) void watchPackageFolders();
  }

  let structuresFile: string | undefined;
  /** Reads the structures file of the settings (again); a fault is logged, the structures dropped. */
  function loadStructures(): void {
    if (structuresFile === undefined) return session.setHostStructures(undefined);
    const read = readStructures(session.fs, structuresFile);
    if (!read.ok) log(`mthds: ${read.message}`);
    for (const f of read.ok ? read.findings : []) log(`mthds: ${structuresFile}: ${f.code} ${f.message}`);
    session.setHostStructures(read.ok ? read.structures : undefined);
  }

  let packageWatch: Disposable | undefined;
  // Registrations are only allowed once the client has said `initialized`.
  let initialized = false;
  /**
   * Watches the places packages are looked up outside the workspace (library folders, the home
   * folder's installed methods): a package appearing or changing there is resolved again.
   */
  async function watchPackageFolders(): Promise<void> {
    if (!initialized || !host.watchFiles || capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration !== true) return;
    packageWatch?.dispose();
    packageWatch = undefined;
    const home = host.fs.home();
    const bases = [...session.getLibraries(), ...(home !== undefined ? [path.join(home, '.mthds', 'methods')] : [])];
    const watchers = bases.flatMap((base) => PACKAGE_GLOBS.map((pattern) => ({ globPattern: { baseUri: fileToUri(base, uris), pattern } })));
    try {
      packageWatch = await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
    } catch (e) {
      log(`mthds: cannot watch package folders: ${String(e)}`);
    }
  }

  async function readClientSettings(pushed?: unknown): Promise<Settings> {
    if (capabilities.workspace?.configuration) {
      try {
        const [section] = (await connection.workspace.getConfiguration([{ section: 'mthds' }])) as unknown[];
        return readSettings(section, initSettings);
      } catch {
        // The client could not answer: keep what we have.
      }
    }
    return pushed !== undefined ? readSettings(pushed, initSettings) : settings;
  }

  /** The background check of the closed files of the workspace, reported as progress. */
  async function checkWorkspace(diag: Diagnostics): Promise<void> {
    const trees = await scans!.settled();
    let reporter: { begin(title: string, percentage?: number, message?: string, cancellable?: boolean): void; report(percentage: number, message?: string): void; done(): void } | undefined;
    if (capabilities.window?.workDoneProgress) {
      try {
        reporter = await connection.window.createWorkDoneProgress();
      } catch {
        reporter = undefined;
      }
    }
    reporter?.begin('MTHDS', 0, `Checking ${trees.length} method tree${trees.length === 1 ? '' : 's'}`, false);
    let lastReport = 0;
    await diag.flushDirty((done, total) => {
      const now = Date.now();
      if (now - lastReport < 100 && done < total) return;
      lastReport = now;
      reporter?.report(Math.floor((done * 100) / Math.max(1, total)), `${done}/${total} method trees`);
    });
    // What the documents of these trees share, made before the progress ends: a document opened
    // and typed in at once finds it made (idleWork.ts treePreparationSteps).
    await diag.prepareTrees(trees);
    // The check's garbage collected before the progress ends (heap.ts `startupCollection` says when).
    // Else V8's first full collection of that heap runs in pieces during the first keystrokes
    // (measured at 5,000 bundles: steps of up to 12 ms, and the keystroke p99 over 16 ms in a
    // third of the runs).
    if (options.collectAfterStartup) await options.collectAfterStartup(diag.msSinceDocumentChange(), (line) => connection.tracer.log(line));
    reporter?.done();
  }

  connection.onDidChangeConfiguration((params) => {
    void refreshSettings(params.settings).then(() => diagnostics?.flushDirty());
  });

  documents.onDidOpen((event) => {
    const { uri, languageId } = event.document;
    if (!isOurs(uri, languageId)) return;
    uris.set(uriToFile(uri), uri);
  });

  documents.onDidChangeContent((event) => {
    guardEvent(() => {
      const file = ourFile(event.document.uri);
      if (file === undefined || !uris.has(file)) return;
      const id = session.setDocument(file, event.document.getText());
      diagnostics?.documentChanged(file, id);
    });
  });

  documents.onDidClose((event) => {
    guardEvent(() => {
      const file = ourFile(event.document.uri);
      if (file === undefined || !uris.has(file)) return;
      const { id, dropped } = session.closeDocument(file);
      uris.delete(file);
      forgetFileSymbols(file);
      if (dropped) diagnostics?.dropTree(id.key);
      else diagnostics?.schedule(id);
    });
  });

  connection.onDidChangeWatchedFiles((params) => filesChanged(params.changes));

  function filesChanged(changes: ReadonlyArray<{ uri: string; type: FileChangeType }>): void {
    guardEvent(() => {
      let structural = false;
      for (const change of changes) {
        const file = uriToFile(change.uri);
        if (file === structuresFile) loadStructures();
        if (!path.isAbsolute(file) || !isMethodFile(file)) continue;
        const kind: DiskChange = change.type === FileChangeType.Created ? 'created' : change.type === FileChangeType.Deleted ? 'deleted' : 'changed';
        if (session.diskChanged(file, kind)) structural = true;
      }
      // A manifest came or went: trees regroup, so find them all again.
      if (structural) void scans?.rescan().then((trees) => (trees !== undefined ? diagnostics?.requestUpdate() : undefined));
      diagnostics?.requestUpdate();
    });
  }

  connection.languages.diagnostics.on(async (params) => {
    const diag = diagnostics;
    if (!diag) return { kind: 'full', items: [] };
    try {
      return await diag.documentReport(params, ourFile(params.textDocument.uri));
    } catch (error) {
      log(`mthds: diagnostics failed: ${String(error)}`);
      return { kind: 'full', items: [] };
    }
  });

  connection.languages.diagnostics.onWorkspace(async (params, token) => {
    if (!diagnostics) return { items: [] };
    return diagnostics.workspaceReport(params, token);
  });

  connection.onCodeAction(
    guard('code actions', [], (params: CodeActionParams) => {
      const file = ourFile(params.textDocument.uri);
      // The findings of the latest finished check, carried over to the buffer's current text.
      const found = file !== undefined && diagnostics ? views.findingsOf(file) : undefined;
      if (file === undefined || !found) return [];
      const text = session.textOf(file) ?? '';
      return codeActions({ params, file, text, lineStarts: session.lineStartsOf(file), findings: found.findings, tree: found.tree, locator, lazyFixAll: resolvesEdits(), ...(options.turns ? { pause: () => options.turns!.pause() } : {}) });
    }),
  );

  /** Whether the client resolves a code action's edit lazily (`codeAction/resolve`). */
  const resolvesEdits = (): boolean => capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true;

  connection.onCodeActionResolve(async (action) => {
    if (!isFixAllData(action.data)) return action;
    try {
      const file = ourFile(action.data.fixAll);
      const found = file !== undefined && diagnostics ? views.findingsOf(file) : undefined;
      if (!found) return { ...action, edit: { changes: {} } };
      return await resolveFixAll(action, found.findings, found.tree, locator, options.turns ? () => options.turns!.pause() : undefined);
    } catch (error) {
      log(`mthds: code action resolve failed: ${String(error)}`);
      return action;
    }
  });

  connection.onCodeLens(
    guard('code lenses', [], (params: CodeLensParams) => {
      const file = ourFile(params.textDocument.uri);
      if (!diagnostics || file === undefined || path.basename(file) === MANIFEST_FILE) return [];
      const view = views.viewOf(file);
      return view ? pipeCodeLenses(view.bundle, params.textDocument.uri, view.tree) : [];
    }),
  );

  connection.onExecuteCommand(async (params) => {
    if (!diagnostics) return { ok: false, message: 'The server is not initialized.' };
    return executeRunnerCommand(
      {
        connection,
        link: runner,
        session,
        diagnostics,
        locator,
        fileOf: uriToFile,
        ...(host.saveRunOutput ? { saveRunOutput: host.saveRunOutput } : {}),
        canShowDocument: () => capabilities.window?.showDocument?.support === true,
        canShowProgress: () => capabilities.window?.workDoneProgress === true,
      },
      params.command,
      params.arguments ?? [],
    );
  });

  connection.onShutdown(async () => {
    await runner.close();
  });

  function guardEvent(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      log(`mthds: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  registerNavigationFeatures(connection, {
    session: () => session,
    ensureCurrent: (file) => diagnostics?.ensureCurrent(file),
    checkTree: (key) => {
      const id = session.treeIds().find((t) => t.key === key);
      return id && diagnostics ? diagnostics.checkNow(id) : undefined;
    },
    views,
    locator,
    versionOf,
    ourFile,
    capabilities: () => capabilities,
    log,
    guard,
  });

  const noModels: ModelCatalog = { source: 'no runner (none is built into the browser)', choices: [] };
  registerAssistFeatures(connection, {
    builtInModels: host.builtInModels ?? (() => noModels),
    session: () => session,
    views,
    ourFile,
    runner: () => settings.runner,
    runnerToken: () => runner.token(),
    capabilities: () => capabilities,
    log,
    guard,
  });

  documents.listen(connection);
  connection.listen();
  return { filesChanged };
}
