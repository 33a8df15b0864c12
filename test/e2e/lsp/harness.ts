// A small LSP client for end-to-end tests: starts the BUILT server as a process, speaks JSON-RPC
// with vscode-jsonrpc, answers the server's requests like an editor would, and records what the
// server sends so that tests can wait for it.

import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createClientSocketTransport,
  createMessageConnection,
  ErrorCodes,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  ResponseError,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node.js';
import type {
  ClientCapabilities,
  CodeAction,
  Diagnostic,
  InitializeResult,
  PublishDiagnosticsParams,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { freePort } from '../../helpers/ports.js';

export const REPO = path.resolve(__dirname, '../../..');
export const SERVER_BIN = path.join(REPO, 'server/bin/mthds-language-server.js');

export type Transport = 'stdio' | 'node-ipc' | 'socket';

export interface StartOptions {
  transport?: Transport;
  /** Workspace folders (absolute paths). */
  folders?: string[];
  capabilities?: ClientCapabilities;
  initializationOptions?: unknown;
  /** The answer to workspace/configuration for section `mthds`. */
  configuration?: unknown;
  /** Extra environment variables of the server process. */
  env?: Record<string, string>;
  /** Sends `workspaceFolders: null` and `rootUri: null` (as Helix or Zed may, with no folder open). */
  noWorkspace?: boolean;
  /** The server's whole command line (stdio only; default: the built server), e.g. as another user. */
  command?: string[];
  /** The trace level asked for in initialize (`$/logTrace` messages are kept in `traces`). */
  trace?: 'off' | 'messages' | 'verbose';
}

/** What a capable editor announces: push diagnostics, progress, dynamic file watching, markdown, snippets. */
export const PUSH_CAPABILITIES: ClientCapabilities = {
  window: { workDoneProgress: true, showDocument: { support: true } },
  workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, configuration: true, workspaceFolders: true, applyEdit: true },
  textDocument: {
    publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
    codeAction: { dataSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
  },
};

/** The same, able to pull diagnostics (like VS Code). */
export const PULL_CAPABILITIES: ClientCapabilities = {
  ...PUSH_CAPABILITIES,
  workspace: { ...PUSH_CAPABILITIES.workspace, diagnostics: { refreshSupport: true } },
  textDocument: { ...PUSH_CAPABILITIES.textDocument, diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } },
};

/** Markdown syntax a plain-text reader would see as noise: bold, code, headings, links, table rows and rules. */
export const MARKDOWN_SYNTAX = /\*\*|`|^#{1,6} |\]\(|^\s*\|.*\|\s*$|^\s*\|?\s*:?-{3,}/m;

interface Waiter {
  test: () => boolean;
  resolve: () => void;
}

export class LspClient {
  /** The latest publishDiagnostics of each URI. */
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  /** Every publishDiagnostics, in order. */
  readonly published: PublishDiagnosticsParams[] = [];
  readonly progress: Array<{ token: unknown; value: { kind: string; title?: string; message?: string; percentage?: number } }> = [];
  readonly registrations: Array<{ method: string; registerOptions?: unknown }> = [];
  readonly logs: string[] = [];
  /** Every `$/logTrace` message, in order. */
  readonly traces: string[] = [];
  readonly messages: Array<{ type: number; message: string }> = [];
  readonly shownDocuments: Array<{ uri: string; takeFocus?: boolean }> = [];
  /** The edits the server asked to apply (`workspace/applyEdit`) and were applied. */
  readonly appliedEdits: WorkspaceEdit[] = [];
  /** The method of every request the server sent, in order (answered or not). */
  readonly requests: string[] = [];
  refreshes = 0;
  initializeResult!: InitializeResult;
  private readonly waiters: Waiter[] = [];
  private readonly texts = new Map<string, TextDocument>();

  constructor(
    readonly connection: MessageConnection,
    readonly child: ChildProcess,
    private readonly configuration: unknown,
  ) {
    connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.diagnostics.set(p.uri, p);
      this.published.push(p);
      this.poke();
    });
    connection.onNotification('$/progress', (p: LspClient['progress'][number]) => {
      this.progress.push(p);
      this.poke();
    });
    connection.onNotification('$/logTrace', (p: { message: string }) => {
      this.traces.push(p.message);
      this.poke();
    });
    connection.onNotification('window/logMessage', (p: { message: string }) => {
      this.logs.push(p.message);
    });
    connection.onNotification('window/showMessage', (p: { type: number; message: string }) => {
      this.messages.push(p);
      this.poke();
    });
    const answer = <P, R>(method: string, handler: (params: P) => R): void => {
      connection.onRequest(method, (params: P) => {
        this.requests.push(method);
        return handler(params);
      });
    };
    // Any other request is recorded too, and refused as an editor that does not know it would.
    connection.onRequest((method: string) => {
      this.requests.push(method);
      return new ResponseError(ErrorCodes.MethodNotFound, `unhandled method ${method}`);
    });
    answer('window/workDoneProgress/create', () => null);
    answer('client/registerCapability', (p: { registrations: Array<{ method: string; registerOptions?: unknown }> }) => {
      this.registrations.push(...p.registrations);
      this.poke();
      return null;
    });
    answer('workspace/configuration', (p: { items: Array<{ section?: string }> }) => p.items.map(() => this.configuration ?? null));
    answer('workspace/diagnostic/refresh', () => {
      this.refreshes += 1;
      this.poke();
      return null;
    });
    // As an editor applies a server's edit: to its open documents (each sent as a change), refused
    // when a versioned edit names a version the document no longer has.
    answer('workspace/applyEdit', (p: { edit: WorkspaceEdit }) => {
      const stale = (p.edit.documentChanges ?? []).find((c) => 'textDocument' in c && c.textDocument.version !== null && c.textDocument.version !== this.texts.get(c.textDocument.uri)?.version);
      if (stale) return { applied: false, failureReason: 'the document has changed' };
      this.appliedEdits.push(p.edit);
      this.applyWorkspaceEdit(p.edit);
      return { applied: true };
    });
    answer('window/showMessageRequest', () => null);
    answer('window/showDocument', (p: { uri: string; takeFocus?: boolean }) => {
      this.shownDocuments.push(p);
      this.poke();
      return { success: true };
    });
  }

  private poke(): void {
    for (const w of [...this.waiters]) {
      if (w.test()) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  }

  /** Resolves when `test` holds (checked now and after every message), or fails after `timeoutMs`. */
  waitFor(test: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const waiter: Waiter = {
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Waits for the next publish for `uri` (after `after` publishes) satisfying `test`. */
  async nextDiagnostics(uri: string, test: (d: Diagnostic[]) => boolean = () => true, after = this.published.length, timeoutMs?: number): Promise<Diagnostic[]> {
    let found: Diagnostic[] | undefined;
    await this.waitFor(
      () => {
        for (let i = this.published.length - 1; i >= after; i--) {
          const p = this.published[i]!;
          if (p.uri === uri) {
            if (test(p.diagnostics)) found = p.diagnostics;
            return found !== undefined;
          }
        }
        return false;
      },
      `diagnostics for ${uri}`,
      timeoutMs,
    );
    return found!;
  }

  /** Resolves when the background check has reported its end. */
  workspaceChecked(timeoutMs?: number): Promise<void> {
    return this.waitFor(() => this.progress.some((p) => p.value.kind === 'end'), 'the end of the workspace check', timeoutMs);
  }

  open(uri: string, text: string, languageId = 'mthds'): void {
    this.texts.set(uri, TextDocument.create(uri, languageId, 1, text));
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  text(uri: string): string {
    return this.texts.get(uri)!.getText();
  }

  /** The version of the client's copy of an open document (the last one sent). */
  version(uri: string): number {
    return this.texts.get(uri)!.version;
  }

  /** Replaces the whole text, sent as an incremental change over the full range. */
  replaceAll(uri: string, text: string): void {
    const doc = this.texts.get(uri)!;
    const range = { start: { line: 0, character: 0 }, end: doc.positionAt(doc.getText().length) };
    this.edit(uri, [{ range, newText: text }]);
  }

  /** Applies edits (in the client's copy and in the server's, as incremental changes). */
  edit(uri: string, edits: TextEdit[]): void {
    const doc = this.texts.get(uri)!;
    const version = doc.version + 1;
    // Send the edits from the last to the first, so that each range holds in the text it applies to.
    const sorted = [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start));
    let current = doc;
    for (const e of sorted) current = TextDocument.update(current, [{ range: e.range, text: e.newText }], version);
    this.texts.set(uri, current);
    void this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: sorted.map((e) => ({ range: e.range, text: e.newText })),
    });
  }

  /** Replaces the first occurrence of `search` in the open document. */
  replace(uri: string, search: string, replacement: string): void {
    const doc = this.texts.get(uri)!;
    const at = doc.getText().indexOf(search);
    if (at < 0) throw new Error(`'${search}' not in ${uri}`);
    this.edit(uri, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at + search.length) }, newText: replacement }]);
  }

  close(uri: string): void {
    this.texts.delete(uri);
    void this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** Applies a workspace edit to open documents (sent as changes) and returns the new texts. */
  applyWorkspaceEdit(edit: WorkspaceEdit): void {
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) this.edit(uri, edits);
    for (const change of edit.documentChanges ?? []) if ('textDocument' in change) this.edit(change.textDocument.uri, change.edits.filter((e): e is TextEdit => !('annotationId' in e)));
  }

  /**
   * Performs a code action as an editor does: its edit applied (resolved first when it comes
   * without one and carries data), then its command run (whose edits reach `workspace/applyEdit`).
   * Returns the command's answer, if any.
   */
  async performAction(action: CodeAction): Promise<unknown> {
    let done = action;
    if (!done.edit && !done.command && done.data !== undefined) done = await this.connection.sendRequest<CodeAction>('codeAction/resolve', done);
    if (done.edit) this.applyWorkspaceEdit(done.edit);
    if (!done.command) return undefined;
    return this.connection.sendRequest('workspace/executeCommand', { command: done.command.command, arguments: done.command.arguments ?? [] });
  }

  codeActions(uri: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }, only?: string[]): Promise<CodeAction[]> {
    const context = only ? { diagnostics: [], only } : { diagnostics: [] };
    return this.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context });
  }

  async shutdown(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // Already gone.
    }
    const exited = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) resolve();
      else this.child.once('exit', () => resolve());
    });
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
    this.connection.dispose();
  }

  executeCommand<T = Record<string, unknown>>(command: string, ...args: unknown[]): Promise<T> {
    return this.connection.sendRequest('workspace/executeCommand', { command, arguments: args });
  }

  /** The resident memory of the server process in MB (Linux /proc), NaN where unknown. */
  rssMb(): number {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
    } catch {
      return NaN;
    }
  }

  /**
   * Sends content changes as they are (ranges out of the document, reversed, ...) and follows them
   * in the client's copy with LSP's meaning of such ranges (`applyLspChange`).
   */
  sendRawChanges(uri: string, changes: Array<{ range?: unknown; text: string }>, version = this.version(uri) + 1): void {
    const doc = this.texts.get(uri)!;
    let text = doc.getText();
    for (const c of changes) text = applyLspChange(text, c);
    this.texts.set(uri, TextDocument.create(uri, doc.languageId, version, text));
    void this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
  }

  /** True while the server process runs. */
  alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
}


/** Starts the built server and initializes it. */
export async function startClient(options: StartOptions = {}): Promise<LspClient> {
  const transport = options.transport ?? 'stdio';
  let child: ChildProcess;
  let connection: MessageConnection;
  const env = { ...process.env, ...options.env };
  if (transport === 'stdio') {
    const [first, ...rest] = options.command ?? [process.execPath, SERVER_BIN, '--stdio'];
    child = spawn(first!, rest, { stdio: ['pipe', 'pipe', 'pipe'], env });
    connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  } else if (transport === 'node-ipc') {
    child = spawn(process.execPath, [SERVER_BIN, '--node-ipc'], { stdio: ['pipe', 'pipe', 'pipe', 'ipc'], env });
    connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
  } else {
    const port = await freePort();
    const socket = await createClientSocketTransport(port);
    child = spawn(process.execPath, [SERVER_BIN, `--socket=${port}`], { stdio: ['pipe', 'pipe', 'pipe'], env });
    const [reader, writer] = await socket.onConnected();
    connection = createMessageConnection(reader, writer);
  }
  child.stderr?.on('data', () => undefined);
  const client = new LspClient(connection, child, options.configuration);
  connection.listen();
  const folders = options.folders ?? [];
  client.initializeResult = await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: folders[0] && !options.noWorkspace ? pathToFileURL(folders[0]).href : null,
    workspaceFolders: options.noWorkspace ? null : folders.map((f) => ({ uri: pathToFileURL(f).href, name: path.basename(f) })),
    capabilities: options.capabilities ?? PUSH_CAPABILITIES,
    initializationOptions: options.initializationOptions,
    ...(options.trace ? { trace: options.trace } : {}),
  });
  await connection.sendNotification('initialized', {});
  return client;
}

/** A temp folder holding `files` (relative path -> text) and copies of `copies` (name -> source folder). */
export function tempWorkspace(files: Record<string, string | Buffer> = {}, copies: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-lsp-'));
  for (const [name, source] of Object.entries(copies)) cpSync(source, path.join(dir, name), { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

export function uriOf(file: string): string {
  return pathToFileURL(file).href;
}

/** The LSP position of a UTF-16 offset of `text`. */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length - 1, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** The text a range covers. */
export function textAt(text: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  const doc = TextDocument.create('x:', 'x', 0, text);
  return text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
}

/**
 * A content change applied as LSP 3.17 defines it, written independently of the server: a line past
 * the last means the end of the text, a character past its line's end means that end (before the
 * line break), negative numbers mean 0, and a reversed range is read in order.
 */
export function applyLspChange(text: string, change: { range?: unknown; text: string }): string {
  if (change.range === undefined) return change.text;
  const lines: Array<{ start: number; end: number }> = [];
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (let m = breaks.exec(text); m; m = breaks.exec(text)) {
    lines.push({ start, end: m.index });
    start = m.index + m[0].length;
  }
  lines.push({ start, end: text.length });
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);
  const offset = (p: unknown): number => {
    const pos = (p ?? {}) as { line?: unknown; character?: unknown };
    const line = num(pos.line);
    if (line < 0) return 0;
    const l = lines[line];
    if (!l) return text.length;
    return Math.min(l.start + Math.max(0, num(pos.character)), l.end);
  };
  const range = (change.range ?? {}) as { start?: unknown; end?: unknown };
  const a = offset(range.start);
  const b = offset(range.end);
  return text.slice(0, Math.min(a, b)) + change.text + text.slice(Math.max(a, b));
}
