// Completion, hover, inlay hints and semantic tokens: what their requests share (the views, the
// model decks, the semantic tokens of each document, the last completion list's document). Requests
// work on a view of the tree that does not wait for the debounced check (views.ts); routes.ts
// registers each through the guard (a failure logs and answers empty).

import type {
  ClientCapabilities,
  CompletionItem,
  CompletionList,
  CompletionParams,
  Hover,
  HoverParams,
  InlayHint,
  InlayHintParams,
  SemanticTokens,
  SemanticTokensDelta,
  SemanticTokensDeltaParams,
  SemanticTokensParams,
  SemanticTokensRangeParams,
} from 'vscode-languageserver';
import { wantsModels } from '../ide/index.js';
import { lspRangeToRange, positionToOffset } from '../syntax/positions.js';
import type { FileId } from '../workspace/session.js';
import { completionList, completionOptions, resolveCompletion } from './completion.js';
import { hover } from './hover.js';
import { inlayHints } from './inlayHints.js';
import { clientFormats } from './markup.js';
import { ModelDecks } from './runner/modelDecks.js';
import type { ModelCatalog } from '../language/modelCatalog.js';
import { SemanticTokenStore } from './semanticTokens.js';
import type { RunnerSettings } from './settings.js';
import type { Views } from './views.js';

export interface AssistHost {
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
}

/**
 * The completion, hover, inlay hint and semantic token requests (routes.ts registers them). Each
 * answers from a view of the tree that does not wait for the debounced check.
 */
export class Assist {
  private readonly decks: ModelDecks;
  private readonly tokens = new SemanticTokenStore();
  // completionItem/resolve names no document: it documents an item of the last list.
  private lastCompletionUri: string | undefined;

  constructor(private readonly host: AssistHost) {
    this.decks = new ModelDecks({ builtIn: host.builtInModels, settings: host.runner, token: host.runnerToken, log: host.log });
  }

  private viewOf(uri: string): ReturnType<Views['viewOf']> {
    const file = this.host.ourFile(uri);
    return file === undefined ? undefined : this.host.views.viewOf(file);
  }

  async completion(params: CompletionParams): Promise<CompletionList | null> {
    // The view is taken before any wait: the position belongs to the text of this request.
    const view = this.viewOf(params.textDocument.uri);
    if (!view) return null;
    const offset = positionToOffset(view.bundle.doc.lineStarts, view.text, params.position);
    const models = wantsModels(view.bundle, offset) ? await this.decks.catalog() : this.host.builtInModels();
    this.lastCompletionUri = params.textDocument.uri;
    return completionList(view, params, models, completionOptions(this.host.capabilities()));
  }

  resolveCompletion(item: CompletionItem): CompletionItem {
    return this.lastCompletionUri === undefined ? item : resolveCompletion(item, this.viewOf(this.lastCompletionUri), completionOptions(this.host.capabilities()).documentation);
  }

  hover(params: HoverParams): Hover | null {
    const view = this.viewOf(params.textDocument.uri);
    return view ? hover(view, params, this.decks.cached(), clientFormats(this.host.capabilities()).hover) : null;
  }

  inlayHints(params: InlayHintParams): InlayHint[] | null {
    const view = this.viewOf(params.textDocument.uri);
    return view ? inlayHints(view, params, clientFormats(this.host.capabilities()).tooltip) : null;
  }

  semanticTokens(params: SemanticTokensParams): SemanticTokens {
    const view = this.viewOf(params.textDocument.uri);
    return view ? this.tokens.full(params.textDocument.uri, view) : { data: [] };
  }

  semanticTokensDelta(params: SemanticTokensDeltaParams): SemanticTokens | SemanticTokensDelta {
    const view = this.viewOf(params.textDocument.uri);
    return view ? this.tokens.delta(params.textDocument.uri, view, params.previousResultId) : { data: [] };
  }

  semanticTokensRange(params: SemanticTokensRangeParams): SemanticTokens {
    const view = this.viewOf(params.textDocument.uri);
    return view ? this.tokens.range(view, lspRangeToRange(view.bundle.doc.lineStarts, view.text, params.range)) : { data: [] };
  }
}
