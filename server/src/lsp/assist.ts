// The wiring of completion, hover, inlay hints and semantic tokens: one registration call from
// server.ts. Requests work on a view of the tree that does not wait for the debounced check
// (views.ts); each handler translates and never throws (a failure logs and answers empty).

import type { ClientCapabilities, CompletionItem, CompletionParams, Connection, ServerCapabilities } from 'vscode-languageserver';
import type { RequestGuard } from './clamp.js';
import { wantsModels } from '../language/complete/index.js';
import { lspRangeToRange, positionToOffset } from '../syntax/positions.js';
import type { FileId, Session } from '../workspace/session.js';
import { completionList, completionOptions, COMPLETION_TRIGGERS, resolveCompletion } from './completion.js';
import { hover } from './hover.js';
import { inlayHints } from './inlayHints.js';
import { clientFormats } from './markup.js';
import { ModelDecks } from './modelDecks.js';
import { SEMANTIC_TOKENS_LEGEND, SemanticTokenStore } from './semanticTokens.js';
import type { RunnerSettings } from './settings.js';
import type { Views } from './views.js';
import type { ModelCatalog } from '../language/modelCatalog.js';

export interface AssistHost {
  session(): Session;
  /** The latest finished check with the open buffers parsed ahead (shared with navigation). */
  views: Views;
  ourFile(uri: string): FileId | undefined;
  /** The models offered without a configured runner. */
  builtInModels(): ModelCatalog;
  /** The runner settings (a configured runner's deck feeds model completion). */
  runner(): RunnerSettings;
  runnerToken(): string | undefined;
  capabilities(): ClientCapabilities;
  log(message: string): void;
  guard: RequestGuard;
}

export const ASSIST_CAPABILITIES: ServerCapabilities = {
  completionProvider: { triggerCharacters: COMPLETION_TRIGGERS, resolveProvider: true },
  hoverProvider: true,
  inlayHintProvider: { resolveProvider: false },
  semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: { delta: true }, range: true },
};

export function registerAssistFeatures(connection: Connection, host: AssistHost): void {
  const views = host.views;
  const decks = new ModelDecks({ builtIn: host.builtInModels, settings: host.runner, token: host.runnerToken, log: host.log });
  const tokens = new SemanticTokenStore();
  // completionItem/resolve names no document: it documents an item of the last list.
  let lastCompletionUri: string | undefined;
  const viewOf = (uri: string): ReturnType<Views['viewOf']> => {
    const file = host.ourFile(uri);
    return file === undefined ? undefined : views.viewOf(file);
  };
  const safe = host.guard;

  connection.onCompletion(
    safe('completion', null, async (params: CompletionParams) => {
      // The view is taken before any wait: the position belongs to the text of this request.
      const view = viewOf(params.textDocument.uri);
      if (!view) return null;
      const offset = positionToOffset(view.bundle.doc.lineStarts, view.text, params.position);
      const models = wantsModels(view.bundle, offset) ? await decks.catalog() : host.builtInModels();
      lastCompletionUri = params.textDocument.uri;
      return completionList(view, params, models, completionOptions(host.capabilities()));
    }),
  );
  // A failed resolve answers the item as it came.
  connection.onCompletionResolve((item) =>
    safe('completion resolve', item, (i: CompletionItem) => (lastCompletionUri === undefined ? i : resolveCompletion(i, viewOf(lastCompletionUri), completionOptions(host.capabilities()).documentation)))(item),
  );
  connection.onHover(
    safe('hover', null, (params) => {
      const view = viewOf(params.textDocument.uri);
      return view ? hover(view, params, decks.cached(), clientFormats(host.capabilities()).hover) : null;
    }),
  );
  connection.languages.inlayHint.on(
    safe('inlay hints', null, (params) => {
      const view = viewOf(params.textDocument.uri);
      return view ? inlayHints(view, params, clientFormats(host.capabilities()).tooltip) : null;
    }),
  );
  connection.languages.semanticTokens.on(
    safe('semantic tokens', { data: [] }, (params) => {
      const view = viewOf(params.textDocument.uri);
      return view ? tokens.full(params.textDocument.uri, view) : { data: [] };
    }),
  );
  connection.languages.semanticTokens.onDelta(
    safe('semantic tokens', { data: [] }, (params) => {
      const view = viewOf(params.textDocument.uri);
      return view ? tokens.delta(params.textDocument.uri, view, params.previousResultId) : { data: [] };
    }),
  );
  connection.languages.semanticTokens.onRange(
    safe('semantic tokens', { data: [] }, (params) => {
      const view = viewOf(params.textDocument.uri);
      return view ? tokens.range(view, lspRangeToRange(view.bundle.doc.lineStarts, view.text, params.range)) : { data: [] };
    }),
  );
}
