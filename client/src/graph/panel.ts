// The method graph webview: asks the server for `mthds/methodGraph` of the document being edited,
// posts the result to the webview (which draws it), follows the active method document, redraws
// (debounced) as the user types or diagnostics change, and opens a pipe's source on click.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { METHOD_LANGUAGES } from '../commands.js';
import { debounce } from '../debounce.js';
import { graphHtml, makeNonce } from './html.js';
import { findNode, graphErrorText, graphTitle } from './state.js';
import { METHOD_GRAPH_REQUEST, sanitizeGraph, type FromWebview, type MethodGraphParams, type MethodGraphResult, type ToWebview } from './types.js';

export const GRAPH_VIEW_TYPE = 'mthds.methodGraph';
const REFRESH_MS = 400;

export interface GraphBackend {
  /** Sends `mthds/methodGraph`; rejects with the JSON-RPC error. */
  request(params: MethodGraphParams): Promise<unknown>;
  /** Resolves when the language server is ready for requests. */
  ready(): Promise<void>;
}

function isMethodDocument(doc: vscode.TextDocument): boolean {
  return METHOD_LANGUAGES.includes(doc.languageId);
}

function baseName(uri: vscode.Uri): string {
  const parts = uri.path.split('/');
  return parts[parts.length - 1] || uri.toString();
}

export class GraphPanel implements vscode.Disposable {
  private static current: GraphPanel | undefined;

  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private uri: vscode.Uri | undefined;
  private result: MethodGraphResult | undefined;
  private lastMessage: ToWebview | undefined;
  private sequence = 0;
  private readonly scheduleRefresh = debounce(() => void this.refresh(), REFRESH_MS);

  /** Opens the panel (or brings it forward) for `uri`. */
  static show(extensionUri: vscode.Uri, backend: GraphBackend, uri: vscode.Uri | undefined): GraphPanel {
    if (GraphPanel.current) {
      GraphPanel.current.panel.reveal(undefined, true);
      if (uri) GraphPanel.current.follow(uri);
      return GraphPanel.current;
    }
    GraphPanel.current = new GraphPanel(extensionUri, backend, uri);
    return GraphPanel.current;
  }

  private constructor(
    extensionUri: vscode.Uri,
    private readonly backend: GraphBackend,
    uri: vscode.Uri | undefined,
  ) {
    const dist = vscode.Uri.joinPath(extensionUri, 'client', 'dist');
    this.panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, 'Method Graph', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [dist] });
    const script = this.panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'graph.js'));
    this.panel.webview.html = graphHtml({ cspSource: this.panel.webview.cspSource, nonce: makeNonce((n) => randomBytes(n)), scriptUri: script.toString() });
    this.uri = uri;
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (isMethodDocument(e.document) && e.contentChanges.length > 0) this.scheduleRefresh();
      }),
      vscode.languages.onDidChangeDiagnostics((e) => {
        if (e.uris.some((u) => u.path.endsWith('.mthds') || u.path.endsWith('/METHODS.toml'))) this.scheduleRefresh();
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor && isMethodDocument(editor.document)) this.follow(editor.document.uri);
      }),
    );
    void this.refresh();
  }

  private follow(uri: vscode.Uri): void {
    if (this.uri?.toString() === uri.toString()) return;
    this.uri = uri;
    void this.refresh();
  }

  private post(message: ToWebview): void {
    this.lastMessage = message;
    void this.panel.webview.postMessage(message);
  }

  /** Asks the server again; an answer overtaken by a newer request is dropped. */
  async refresh(): Promise<void> {
    const sequence = ++this.sequence;
    if (!this.uri) {
      this.post({ type: 'message', text: 'Open a method bundle (.mthds) to see its graph.' });
      return;
    }
    const uri = this.uri;
    this.panel.title = `Method Graph: ${baseName(uri)}`;
    try {
      await this.backend.ready();
      const raw = await this.backend.request({ uri: uri.toString() });
      if (sequence !== this.sequence) return;
      this.result = sanitizeGraph(raw);
      this.post({ type: 'graph', result: this.result, title: graphTitle(this.result, baseName(uri)) });
    } catch (error) {
      if (sequence !== this.sequence) return;
      this.result = undefined;
      this.post({ type: 'message', text: graphErrorText(error) });
    }
  }

  private onMessage(message: FromWebview): void {
    if (message.type === 'ready') {
      // The webview (re)loaded, e.g. after being hidden: give it the last drawing.
      if (this.lastMessage) void this.panel.webview.postMessage(this.lastMessage);
      return;
    }
    if (message.type === 'reveal') void this.reveal(message.tree, message.node);
  }

  private async reveal(tree: number, id: string): Promise<void> {
    const node = findNode(this.result, tree, id);
    if (!node || node.file === '') return;
    const uri = vscode.Uri.parse(node.file);
    const { start, end } = node.range;
    const range = new vscode.Range(start.line, start.character, end.line, end.character);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const column = visible?.viewColumn ?? (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    try {
      const editor = await vscode.window.showTextDocument(uri, { viewColumn: column, selection: range, preserveFocus: false });
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    } catch (error) {
      void vscode.window.showErrorMessage(`Cannot open ${node.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private disposed = false;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (GraphPanel.current === this) GraphPanel.current = undefined;
    this.scheduleRefresh.cancel();
    this.sequence++;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }

  static disposeCurrent(): void {
    GraphPanel.current?.dispose();
  }
}

/** The backend over a language client; `ready` waits for the client to be running. */
export function graphBackend(client: { sendRequest(method: string, params: unknown): Promise<unknown> }, ready: () => Promise<void>): GraphBackend {
  return { request: (params) => client.sendRequest(METHOD_GRAPH_REQUEST, params), ready };
}
