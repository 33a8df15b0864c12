// The VS Code extension in a browser (vscode.dev, github.dev): the language server runs as a web
// worker (server/dist/browser.js), and this client gives it the workspace's method files, which
// it reads through the editor's file system (workspaceFiles.ts). The runner commands need a runner
// URL (`mthds.runner.url`) with its token in the editor's secret storage: no runner can start here.

import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser.js';
import { CLIENT_COMMANDS, LANGUAGE_ID, MANIFEST_LANGUAGE_ID, SERVER_COMMANDS } from '../commands.js';
import { configurationMiddleware, promptForToken, TokenStore } from '../token.js';
import { FILES_NOTIFICATION, type FileChange, type FilesParams, type WalkBound } from '../../../server/src/protocol/browserFiles.js';
import { readWorkspace, watchWorkspace } from './workspaceFiles.js';
import { workerScript, type WorkerScript } from './workerScript.js';
const RUNNER_COMMANDS = new Set<string>(Object.values(SERVER_COMMANDS));

let client: LanguageClient | undefined;
/** The script the running worker was started from (a `blob:` URL to free when it stops, on a remote). */
let script: WorkerScript | undefined;
/** The browser's Worker (the sources are typed against Node's globals, which have none). */
const BrowserWorker = (globalThis as unknown as { Worker: new (url: string) => ConstructorParameters<typeof LanguageClient>[3] }).Worker;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('MTHDS');
  const tokens = new TokenStore(context.secrets);
  await tokens.load();
  context.subscriptions.push(output, tokens);

  /**
   * Settled once the workspace's files have reached the worker (or could not be read): the
   * documents' notifications wait for it, in their order, so that the first check of an open
   * document sees its package and sibling bundles (before them, the worker knows no folder of it).
   */
  let filesSent: Promise<void> = Promise.resolve();
  const afterFiles = <T>(data: T, next: (data: T) => Promise<void>): Promise<void> => filesSent.then(() => next(data));
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: LANGUAGE_ID }, { language: MANIFEST_LANGUAGE_ID }, { pattern: '**/*.mthds' }, { pattern: '**/METHODS.toml' }, { pattern: '**/methods.lock' }],
    outputChannel: output,
    middleware: {
      didOpen: afterFiles,
      didChange: afterFiles,
      didSave: afterFiles,
      didClose: afterFiles,
      workspace: { configuration: configurationMiddleware(tokens) },
      executeCommand: async (command, args, next) => {
        const answer: unknown = await next(command, args);
        if (RUNNER_COMMANDS.has(command)) await showAnswer(answer);
        return answer;
      },
    },
  };
  const log = (line: string): void => output.appendLine(line);
  const folders = (): vscode.Uri[] => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
  const send = (changes: FileChange[], bound?: WalkBound): void => {
    const params: FilesParams = bound ? { changes, bound } : { changes };
    if ((changes.length > 0 || bound) && client?.isRunning()) void client.sendNotification(FILES_NOTIFICATION, params);
  };
  /** Walks folders and sends what it read, with the bound where the walk stopped at it. */
  const sendWalk = async (from: readonly vscode.Uri[]): Promise<void> => {
    let bound: WalkBound | undefined;
    const changes = await readWorkspace(from, log, (stop) => (bound = stop));
    send(changes, bound);
  };
  /** A worker and its client; the workspace's files sent once it runs. */
  const start = async (): Promise<void> => {
    let release = (): void => undefined;
    filesSent = new Promise((resolve) => (release = resolve));
    try {
      // The walk runs while the worker starts.
      let bound: WalkBound | undefined;
      const files = readWorkspace(folders(), log, (stop) => (bound = stop));
      script = await workerScript(vscode.Uri.joinPath(context.extensionUri, 'server', 'dist', 'browser.js'));
      const worker = new BrowserWorker(script.url);
      client = new LanguageClient('mthds', 'MTHDS Language Server', clientOptions, worker);
      await client.start();
      send(await files, bound);
    } finally {
      release();
    }
  };
  context.subscriptions.push(watchWorkspace(send));
  await start();
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders((event) => sendWalk(event.added.map((f) => f.uri))),
    vscode.commands.registerCommand(CLIENT_COMMANDS.setToken, async () => {
      if (await promptForToken(tokens)) await client?.sendNotification('workspace/didChangeConfiguration', { settings: null });
    }),
    vscode.commands.registerCommand(CLIENT_COMMANDS.clearToken, async () => {
      await tokens.set(undefined);
      await client?.sendNotification('workspace/didChangeConfiguration', { settings: null });
    }),
    vscode.commands.registerCommand(CLIENT_COMMANDS.restartServer, async () => {
      // A worker whose server was shut down does not start again: a new one replaces it.
      await stop();
      await start();
    }),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showRuns, () => output.show(true)),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showGraph, () => void vscode.window.showInformationMessage('The method graph view is not available in the browser yet: use the desktop editor or `mthds graph`.')),
  );
}

/** A run's output comes back in the answer (nothing is saved in a browser): shown as a JSON document. */
async function showAnswer(answer: unknown): Promise<void> {
  if (typeof answer !== 'object' || answer === null) return;
  const a = answer as { ok?: unknown; message?: unknown; pipe_output?: unknown };
  if (a.ok === false && typeof a.message === 'string') void vscode.window.showErrorMessage(a.message);
  if (a.ok === true && a.pipe_output !== undefined) {
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: `${JSON.stringify(a.pipe_output, null, 2)}\n` });
    await vscode.window.showTextDocument(document, { preview: true });
  }
}

async function stop(): Promise<void> {
  await client?.stop();
  script?.dispose();
  script = undefined;
}

export async function deactivate(): Promise<void> {
  await stop();
}
