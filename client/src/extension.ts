// The VS Code extension: starts the bundled language server and wires the editor to it. Thin by
// design: no MTHDS logic lives here (checks, completion, code lenses, runner calls are the
// server's); the client adds what only an editor can: the token in the keychain, the status bar,
// the runs output, the method graph view.

import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  ExecuteCommandRequest,
  LanguageClient,
  ShowMessageNotification,
  State,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node.js';
import { clientCommandsFeature } from './clientCommands.js';
import { CLIENT_COMMANDS, FIX_ALL_COMMAND, METHOD_LANGUAGES, SERVER_COMMANDS, withDefaultArgs, type ActiveDocument } from './commands.js';
import { readFormatSettings, withFormatOptions } from './format.js';
import { GraphPanel, graphBackend } from './graph/panel.js';
import { MESSAGE_ERROR, MESSAGE_WARNING, MessageGate } from './messages.js';
import { formatRunAnswer } from './runs.js';
import { cancelledRunText, inputOf, promptOf, promptPipe, promptText, type PromptField, type RunInput } from './runInputs.js';
import { RUN_STATUS_NOTIFICATION, RunsView, type RunStatusParams } from './runStatus.js';
import { DOCUMENT_SELECTOR, serverModuleOptions, SERVER_MODULE } from './serverOptions.js';
import { RunnerStatus, type Answer } from './status.js';
import { configurationMiddleware, promptForToken, TokenStore } from './token.js';

const RUNNER_COMMANDS = new Set<string>(Object.values(SERVER_COMMANDS));
/** Time for the server to pull its new settings before the status bar asks it again. */
const SETTLE_MS = 600;
/** How long the status bar says that a run was cancelled at its prompt. */
const CANCELLED_NOTICE_MS = 15_000;

let client: LanguageClient | undefined;

function activeDocument(): ActiveDocument | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const { line, character } = editor.selection.active;
  return { uri: editor.document.uri.toString(), languageId: editor.document.languageId, position: { line, character } };
}

function asAnswer(value: unknown): Answer {
  if (typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean') return value as Answer;
  return { ok: false, message: 'The language server gave no answer.' };
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mthds');
  const runs = vscode.window.createOutputChannel('MTHDS Runs');
  const tokens = new TokenStore(context.secrets);
  await tokens.load();
  const gate = new MessageGate();
  context.subscriptions.push(runs, tokens);

  const serverModule = context.asAbsolutePath(SERVER_MODULE);
  if (!existsSync(serverModule)) {
    void vscode.window.showErrorMessage(`The MTHDS language server is missing (${serverModule}). Run \`npm run build\` in the extension's folder.`);
  }

  let status: RunnerStatus | undefined;
  /** The status bar's word on the last run cancelled at its prompt, while it shows. */
  let cancelledNotice: vscode.Disposable | undefined;
  /** The client, for the middleware (which is created before it). */
  let clientRef: LanguageClient | undefined;
  const formatSettings = (document: vscode.TextDocument) => {
    const section = vscode.workspace.getConfiguration('mthds.format', document);
    return readFormatSettings((key) => section.get(key));
  };

  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannelName: 'MTHDS Language Server',
    middleware: {
      workspace: { configuration: configurationMiddleware(tokens) },
      executeCommand: async (command, args, next) => {
        const sent = withDefaultArgs(command, args, activeDocument());
        // A run asked for again: the notice of the one cancelled before is stale.
        if (command === SERVER_COMMANDS.execute || command === SERVER_COMMANDS.start) cancelledNotice?.dispose();
        // "Run" from a code lens: ask for the pipe's inputs first (Escape cancels the run).
        const prompt = command === SERVER_COMMANDS.execute ? promptOf(sent) : undefined;
        if (prompt && prompt.length > 0) {
          const asked = await askInputs(prompt);
          if ('cancelledAt' in asked) {
            const told = cancelledRunText(promptPipe(sent), prompt, asked.cancelledAt);
            runs.appendLine(`[${new Date().toISOString()}] ${told.line}`);
            cancelledNotice = vscode.window.setStatusBarMessage(`$(circle-slash) ${told.notice}`, CANCELLED_NOTICE_MS);
            return { ok: false, message: told.line };
          }
          sent[0] = Object.assign({}, sent[0], { inputs: asked.inputs });
        }
        const answer: unknown = await next(command, sent);
        if (command === FIX_ALL_COMMAND) {
          const a = asAnswer(answer);
          if (!a.ok) void vscode.window.showErrorMessage(a.message);
        }
        if (RUNNER_COMMANDS.has(command)) {
          runs.appendLine(formatRunAnswer(command, sent, answer, new Date()).join('\n'));
          const a = asAnswer(answer);
          // Held back because a status probe was running at the same moment: the user asked, show it.
          if (!a.ok && gate.release(a.message)) void vscode.window.showErrorMessage(a.message);
          if (a.ok && (command === SERVER_COMMANDS.execute || command === SERVER_COMMANDS.start)) runs.show(true);
          if (command === SERVER_COMMANDS.version) void status?.refresh();
        }
        return answer;
      },
      // The converter of vscode-languageclient keeps only VS Code's own formatting options: the
      // formatter's (mthds.format.*) are added here, and the request sent as is.
      provideDocumentFormattingEdits: async (document, options, token) => {
        const settings = formatSettings(document);
        if (!settings.enable || !clientRef) return [];
        const c2p = clientRef.code2ProtocolConverter;
        const edits = await clientRef.sendRequest(DocumentFormattingRequest.type, { textDocument: c2p.asTextDocumentIdentifier(document), options: withFormatOptions(c2p.asFormattingOptions(options, {}), settings) }, token);
        return clientRef.protocol2CodeConverter.asTextEdits(edits, token);
      },
      provideDocumentRangeFormattingEdits: async (document, range, options, token) => {
        const settings = formatSettings(document);
        if (!settings.enable || !clientRef) return [];
        const c2p = clientRef.code2ProtocolConverter;
        const edits = await clientRef.sendRequest(DocumentRangeFormattingRequest.type, { textDocument: c2p.asTextDocumentIdentifier(document), range: c2p.asRange(range), options: withFormatOptions(c2p.asFormattingOptions(options, {}), settings) }, token);
        return clientRef.protocol2CodeConverter.asTextEdits(edits, token);
      },
    },
  };

  const serverOptions: ServerOptions = serverModuleOptions(context.extensionPath) as ServerOptions;
  const lc = new LanguageClient('mthds', 'MTHDS Language Server', serverOptions, clientOptions);
  lc.registerFeature(clientCommandsFeature);
  client = lc;
  clientRef = lc;

  // Replaces the client's default handler (same method): background probes stay silent.
  lc.onNotification(ShowMessageNotification.type, ({ type, message }) => {
    if (!gate.admit(type, message)) return;
    if (type === MESSAGE_ERROR) void vscode.window.showErrorMessage(message);
    else if (type === MESSAGE_WARNING) void vscode.window.showWarningMessage(message);
    else void vscode.window.showInformationMessage(message);
  });

  const runsView = new RunsView(runs);
  context.subscriptions.push(runsView);
  lc.onNotification(RUN_STATUS_NOTIFICATION, (params: RunStatusParams) => runsView.update(params));

  status = new RunnerStatus(
    {
      running: () => lc.isRunning(),
      execute: async (command) => asAnswer(await gate.quietly(() => lc.sendRequest(ExecuteCommandRequest.type, { command, arguments: [] }))),
      tokenSource: () => (tokens.token !== undefined ? 'keychain' : (config().get<string>('runner.tokenEnv') ?? '').trim() !== '' ? 'environment' : undefined),
    },
    () => Math.max(0, config().get<number>('runner.statusIntervalSeconds') ?? 60) * 1000,
    SERVER_COMMANDS.version,
  );
  context.subscriptions.push(status);

  const settleThenRefresh = (): void => {
    setTimeout(() => void status?.refresh(), SETTLE_MS);
  };
  /** The server re-reads `workspace/configuration` (and so the token) on this notification. */
  const pushSettings = async (): Promise<void> => {
    if (lc.isRunning()) await lc.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    settleThenRefresh();
  };

  context.subscriptions.push(
    lc.onDidChangeState(({ newState }) => {
      if (newState === State.Running) void status?.refresh();
      else if (newState === State.Starting) status?.markStarting();
      else status?.markStopped();
    }),
    // Set here or in another window (the keychain is shared): the server re-reads its settings.
    tokens.onDidChange(() => void pushSettings()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('mthds.runner')) settleThenRefresh();
    }),
    vscode.commands.registerCommand(CLIENT_COMMANDS.setToken, () => promptForToken(tokens)),
    vscode.commands.registerCommand(CLIENT_COMMANDS.clearToken, async () => {
      await tokens.set(undefined);
      void vscode.window.showInformationMessage('The MTHDS runner token was removed.');
    }),
    vscode.commands.registerCommand(CLIENT_COMMANDS.restartServer, async () => {
      status?.markStarting();
      if (lc.isRunning()) await lc.restart();
      else await lc.start();
    }),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showRuns, () => runs.show()),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showGraph, (target?: unknown) => {
      const doc = vscode.window.activeTextEditor?.document;
      const uri = target instanceof vscode.Uri ? target : doc && METHOD_LANGUAGES.includes(doc.languageId) ? doc.uri : undefined;
      GraphPanel.show(
        context.extensionUri,
        graphBackend(lc, async () => {
          if (!lc.isRunning()) await lc.start();
        }),
        uri,
      );
    }),
    { dispose: () => GraphPanel.disposeCurrent() },
  );

  try {
    await lc.start();
  } catch (error) {
    status.markStopped(error instanceof Error ? error.message : String(error));
    void vscode.window.showErrorMessage(`The MTHDS language server did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c?.isRunning()) await c.stop();
}

/** One input box per input of the pipe; when the user cancels, the index of the box left. */
async function askInputs(fields: readonly PromptField[]): Promise<{ inputs: Record<string, RunInput> } | { cancelledAt: number }> {
  const inputs: Record<string, RunInput> = {};
  for (const [i, field] of fields.entries()) {
    const typed = await vscode.window.showInputBox({
      title: `Run: input ${i + 1} of ${fields.length}`,
      prompt: promptText(field),
      // JSON starts from a content of the right shape (selected: typing replaces it).
      ...(field.sample !== undefined ? { value: field.sample } : {}),
      ignoreFocusOut: true,
      validateInput: (value) => {
        const r = inputOf(field, value);
        return r.ok ? undefined : r.message;
      },
    });
    if (typed === undefined) return { cancelledAt: i };
    const r = inputOf(field, typed);
    if (r.ok && r.input) inputs[field.name] = r.input;
  }
  return { inputs };
}
