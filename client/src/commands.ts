// The command identifiers of the extension. The runner commands belong to the server (registered
// by the language client from the server's executeCommandProvider); the others are the client's.
// Pure: no `vscode` import, so tests and the packaging test can read it.

export const SERVER_COMMANDS = {
  version: 'mthds.runner.version',
  models: 'mthds.runner.models',
  validate: 'mthds.runner.validate',
  execute: 'mthds.runner.execute',
  start: 'mthds.runner.start',
} as const;

/** The server's fix-all as a command (a client that cannot resolve a code action's edit is offered it; here, the palette's). */
export const FIX_ALL_COMMAND = 'mthds.fixAll';

export const CLIENT_COMMANDS = {
  showGraph: 'mthds.showMethodGraph',
  restartServer: 'mthds.restartServer',
  setToken: 'mthds.setRunnerToken',
  clearToken: 'mthds.clearRunnerToken',
  showRuns: 'mthds.showRuns',
} as const;

/** The languages whose documents the server reads. */
export const LANGUAGE_ID = 'mthds';
export const MANIFEST_LANGUAGE_ID = 'mthds-manifest';
export const METHOD_LANGUAGES: readonly string[] = [LANGUAGE_ID, MANIFEST_LANGUAGE_ID];

/** The commands that act on a document and take `{ uri, position? }`. */
const DOCUMENT_COMMANDS = new Set<string>([SERVER_COMMANDS.validate, SERVER_COMMANDS.execute, SERVER_COMMANDS.start, FIX_ALL_COMMAND]);

export interface ActiveDocument {
  uri: string;
  languageId: string;
  position?: { line: number; character: number };
}

function isUriLike(v: unknown): v is { scheme: string; toString(): string } {
  return typeof v === 'object' && v !== null && typeof (v as { scheme?: unknown }).scheme === 'string' && typeof (v as { fsPath?: unknown }).fsPath === 'string';
}

/**
 * The arguments a document command is sent with. Code lenses pass `{ uri, pipe }` (kept as is);
 * the command palette passes nothing (the active method document and its cursor are used); the
 * explorer's context menu passes a `vscode.Uri` (turned into `{ uri }`).
 */
export function withDefaultArgs(command: string, args: readonly unknown[], active: ActiveDocument | undefined): unknown[] {
  if (!DOCUMENT_COMMANDS.has(command)) return [...args];
  if (args.length > 0 && isUriLike(args[0])) return [{ uri: args[0].toString() }];
  if (args.length > 0 && args[0] !== undefined && args[0] !== null) return [...args];
  if (!active || !METHOD_LANGUAGES.includes(active.languageId)) return [...args];
  if (command === SERVER_COMMANDS.validate || command === FIX_ALL_COMMAND || active.position === undefined) return [{ uri: active.uri }];
  return [{ uri: active.uri, position: { line: active.position.line, character: active.position.character } }];
}
