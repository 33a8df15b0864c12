// The state of one language server, in one object: the client's documents and capabilities, the
// settings, the session (workspace/session.ts, which knows nothing of LSP), and the parts made at
// initialize (folder walks, diagnostics). The life cycle (server.ts) makes it; every route
// (routes.ts) reads it. Settings, package folders and the structures file are kept here because
// both the life cycle and the routes change them.

import type { StartupCollection } from '../heap.js';
import path from 'node:path';
import { DidChangeWatchedFilesNotification, TextDocuments, type ClientCapabilities, type Connection, type Disposable, type DocumentSelector } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LOCK_FILE, MANIFEST_FILE } from '../language/spec/manifest.js';
import { isMethodFile } from '../workspace/scan.js';
import { readStructures } from '../workspace/structures.js';
import { Session, type FileId } from '../workspace/session.js';
import { CLAMPED_TEXT_DOCUMENTS, guardRequest, type RequestGuard } from './clamp.js';
import type { TextLocator } from './convert.js';
import type { Diagnostics } from './diagnostics/index.js';
import type { FeatureHost } from './featureContext.js';
import type { FolderScans } from './folderScans.js';
import type { ServerHost } from './host.js';
import type { MessageTurns } from './messageTurns.js';
import { PieceTextDocument } from './pieceDocument.js';
import { RunnerLink } from './runner/link.js';
import { DEFAULT_SETTINGS, readSettings, type Settings } from './settings.js';
import { Views } from './views.js';

export const LANGUAGE_ID = 'mthds';

/** The documents this server reads: bundles (by language or extension) and package manifests. */
export const DOCUMENT_SELECTOR: DocumentSelector = [
  { language: LANGUAGE_ID },
  { scheme: 'file', pattern: '**/*.mthds' },
  { scheme: 'file', pattern: `**/${MANIFEST_FILE}` },
  { scheme: 'file', pattern: `**/${LOCK_FILE}` },
];

export const WATCHED_GLOBS = ['**/*.mthds', `**/${MANIFEST_FILE}`, `**/${LOCK_FILE}`];
/** What changes a package outside the workspace (library folders, installed methods). */
const PACKAGE_GLOBS = ['**/*.mthds', `**/${MANIFEST_FILE}`];

export interface ServerOptions {
  /** The file system and the other services of the place the server runs in. */
  host: ServerHost;
  /** The messages the connection dispatches (its message strategy): checks yield to them. */
  turns?: MessageTurns;
  /**
   * Begins collecting the garbage of the workspace's start-up check once it has its results
   * (heap.ts `collectStartupGarbage`); `end` once the rest of start-up is done. The server's own
   * process (lsp/main.ts), not a process embedding it, whose heap is not its to collect.
   */
  collectAfterStartup?: (msSinceDocumentChange: number, log: (line: string) => void) => StartupCollection;
  /** The heap set for a burst of work (an update of files changed on disk); returns what ends it (heap.ts `heapForBurst`). Same ownership as above. */
  heapForBurst?: () => () => void;
}

export class ServerState {
  readonly documents = new TextDocuments<TextDocument>(CLAMPED_TEXT_DOCUMENTS);
  /** URIs the client uses for its open method documents, by file identity. */
  readonly uris = new Map<string, string>();
  /** Replaced at initialize, with the workspace folders. */
  session: Session;
  capabilities: ClientCapabilities = {};
  settings: Settings = DEFAULT_SETTINGS;
  /** The settings of the initialize request: what a configuration read falls back on. */
  initSettings: Settings = DEFAULT_SETTINGS;
  /** Made at initialize (they need the client's capabilities). */
  diagnostics: Diagnostics | undefined;
  /** The walks of the workspace folders (made with the session, at initialize). */
  scans: FolderScans | undefined;
  /** What requests work on while checks are pending: the latest finished check, buffers parsed ahead. */
  readonly views: Views;
  readonly runner: RunnerLink;
  readonly locator: TextLocator;
  /** Every request handler is registered through this: positions clamped, failures answered empty. */
  readonly guard: RequestGuard;
  /** How sliced work yields to the messages queued meanwhile (none: one turn of the event loop). */
  readonly pause: (() => Promise<void>) | undefined;
  /** Registrations are only allowed once the client has said `initialized`. */
  initialized = false;
  private structuresFile: string | undefined;
  private packageWatch: Disposable | undefined;

  constructor(
    readonly connection: Connection,
    readonly options: ServerOptions,
  ) {
    this.session = new Session({ fs: options.host.fs });
    const turns = options.turns;
    this.pause = turns ? () => turns.pause() : undefined;
    this.locator = {
      uriOf: (file) => this.uris.get(file) ?? options.host.uris.toUri(file),
      lineStartsOf: (file) => this.session.lineStartsOf(file),
    };
    this.views = new Views(
      () => this.session,
      (file) => this.diagnostics?.ensureCurrent(file),
    );
    this.runner = new RunnerLink(() => this.settings.runner, (line) => connection.console.log(line), options.host.env, options.host.startRunner, options.host.origin);
    this.guard = guardRequest(this.log, (uri) => {
      const open = this.documents.get(uri);
      if (open instanceof PieceTextDocument) return { document: open };
      const file = this.ourFile(uri);
      const text = file === undefined ? undefined : this.session.textOf(file);
      return text === undefined ? undefined : { text, lineStarts: this.session.lineStartsOf(file!) };
    });
  }

  readonly log = (message: string): void => this.connection.console.error(message);

  /** The file identity of a URI (the host's mapping: file paths on the desktop, virtual paths in a browser). */
  readonly uriToFile = (uri: string): FileId => this.options.host.uris.toFile(uri);

  /** The version of an open document (undefined: not open). */
  readonly versionOf = (file: FileId): number | undefined => {
    const uri = this.uris.get(file);
    return uri !== undefined ? this.documents.get(uri)?.version : undefined;
  };

  isOurs(uri: string, languageId: string | undefined): boolean {
    return languageId === LANGUAGE_ID || isMethodFile(this.uriToFile(uri));
  }

  /** The file of a URI this server reads (an open method document, or a method file), else undefined. */
  readonly ourFile = (uri: string): FileId | undefined => {
    const file = this.uriToFile(uri);
    return this.uris.has(file) || isMethodFile(file) ? file : undefined;
  };

  /** Runs a notification's work; a failure is logged, never thrown at the connection. */
  guardEvent(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.log(`mthds: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  /** What the navigation and symbol features read (getters: the session is replaced at initialize). */
  featureHost(): FeatureHost {
    return {
      session: () => this.session,
      ensureCurrent: (file) => this.diagnostics?.ensureCurrent(file),
      checkTree: (key) => {
        const id = this.session.treeIds().find((t) => t.key === key);
        return id && this.diagnostics ? this.diagnostics.checkNow(id) : undefined;
      },
      views: this.views,
      locator: this.locator,
      versionOf: this.versionOf,
      piecesOf: (uri) => {
        const open = this.documents.get(uri);
        return open instanceof PieceTextDocument ? open.pieces : undefined;
      },
      ourFile: this.ourFile,
      capabilities: () => this.capabilities,
      log: this.log,
    };
  }

  // ---- settings ----------------------------------------------------------------------------------

  async refreshSettings(pushed?: unknown): Promise<void> {
    this.settings = await this.readClientSettings(pushed);
    this.applyPackageSettings();
  }

  /** Store, libraries and structures of the settings; relative paths from the first workspace folder. */
  applyPackageSettings(): void {
    const session = this.session;
    const base = session.getFolders()[0] ?? '.';
    const dir = this.settings.packages.dir;
    session.setPackagesDir(dir !== undefined && !path.isAbsolute(dir) ? path.resolve(base, dir) : dir);
    const libraries = this.settings.packages.libraries.map((l) => path.resolve(base, l));
    const librariesChanged = libraries.join('\n') !== session.getLibraries().join('\n');
    session.setLibraries(libraries);
    this.structuresFile = this.settings.structures.file !== undefined ? path.resolve(base, this.settings.structures.file) : undefined;
    this.loadStructures();
    if (librariesChanged) void this.watchPackageFolders();
  }

  /** Whether a file is the structures file of the settings. */
  isStructuresFile(file: string): boolean {
    return file === this.structuresFile;
  }

  /** Reads the structures file of the settings (again); a fault is logged, the structures dropped. */
  loadStructures(): void {
    const file = this.structuresFile;
    if (file === undefined) return this.session.setHostStructures(undefined);
    const read = readStructures(this.session.fs, file);
    if (!read.ok) this.log(`mthds: ${read.message}`);
    for (const f of read.ok ? read.findings : []) this.log(`mthds: ${file}: ${f.code} ${f.message}`);
    this.session.setHostStructures(read.ok ? read.structures : undefined);
  }

  /**
   * Watches the places packages are looked up outside the workspace (library folders, the home
   * folder's installed methods): a package appearing or changing there is resolved again.
   */
  async watchPackageFolders(): Promise<void> {
    if (!this.initialized || !this.options.host.watchFiles || this.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration !== true) return;
    this.packageWatch?.dispose();
    this.packageWatch = undefined;
    const home = this.options.host.fs.home();
    const bases = [...this.session.getLibraries(), ...(home !== undefined ? [path.join(home, '.mthds', 'methods')] : [])];
    const watchers = bases.flatMap((base) => PACKAGE_GLOBS.map((pattern) => ({ globPattern: { baseUri: this.locator.uriOf(base), pattern } })));
    try {
      this.packageWatch = await this.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
    } catch (e) {
      this.log(`mthds: cannot watch package folders: ${String(e)}`);
    }
  }

  private async readClientSettings(pushed?: unknown): Promise<Settings> {
    if (this.capabilities.workspace?.configuration) {
      try {
        const [section] = (await this.connection.workspace.getConfiguration([{ section: 'mthds' }])) as unknown[];
        return readSettings(section, this.initSettings);
      } catch {
        // The client could not answer: keep what we have.
      }
    }
    return pushed !== undefined ? readSettings(pushed, this.initSettings) : this.settings;
  }
}
