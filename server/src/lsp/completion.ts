// textDocument/completion: the language layer's completions as LSP items. Ranges become text
// edits on the cursor's line; snippets keep their tab stops for clients that take snippets (others
// get the text with the defaults filled in); documentation comes in the client's format.
//
// Lists of the tree's concepts and pipes can hold thousands of items, so items stay small: their
// documentation comes on completionItem/resolve, their `data` is only what names them, and when
// the client accepts list defaults (LSP 3.17 `itemDefaults`), the shared edit range is sent once.

import { CompletionItemKind, CompletionItemTag, InsertTextFormat, type ClientCapabilities, type CompletionItem, type CompletionList, type CompletionParams } from 'vscode-languageserver';
import { complete, lazyDetail, lazyDocumentation, narrow, type Completion, type CompletionKind, type LazyDocumentation } from '../ide/index.js';
import { snippetText } from '../language/snippetText.js';
import type { ModelCatalog } from '../language/modelCatalog.js';
import { positionToOffset, rangeToLspRange, type LspRange } from '../syntax/positions.js';
import type { Range } from '../syntax/types.js';
import { clientFormats, markup, type MarkupFormat } from './markup.js';
import type { FileView } from './views.js';

/** The characters that open a completion: quotes, paths, sigils, Jinja, values, headers, spaces. */
export const COMPLETION_TRIGGERS = ['"', '.', '$', '@', '{', '=', '[', ' '];

const KINDS: Readonly<Record<CompletionKind, CompletionItemKind>> = {
  key: CompletionItemKind.Property,
  value: CompletionItemKind.EnumMember,
  'pipe-type': CompletionItemKind.Class,
  concept: CompletionItemKind.Struct,
  native: CompletionItemKind.Struct,
  pipe: CompletionItemKind.Function,
  model: CompletionItemKind.Constant,
  variable: CompletionItemKind.Variable,
  field: CompletionItemKind.Field,
  snippet: CompletionItemKind.Snippet,
  module: CompletionItemKind.Module,
  keyword: CompletionItemKind.Keyword,
};

/** The `data` of an item whose documentation is resolved later: `['c' | 'p', key]`. */
type CompletionData = ['c' | 'p', string];

function encodeData(lazy: LazyDocumentation): CompletionData {
  return [lazy.kind === 'concept' ? 'c' : 'p', lazy.key];
}

function decodeData(data: unknown): LazyDocumentation | undefined {
  if (!Array.isArray(data) || data.length !== 2 || typeof data[1] !== 'string') return undefined;
  return data[0] === 'c' ? { kind: 'concept', key: data[1] } : data[0] === 'p' ? { kind: 'pipe', key: data[1] } : undefined;
}

/** Adds what was left for later (documentation, and the detail in long lists) to an item the client shows. */
export function resolveCompletion(item: CompletionItem, view: FileView | undefined, format: MarkupFormat): CompletionItem {
  const lazy = decodeData(item.data);
  if (!lazy || !view) return item;
  const out = { ...item };
  if (out.documentation === undefined) {
    const markdown = lazyDocumentation(view.tree, view.bundle, lazy);
    if (markdown !== undefined) out.documentation = markup(markdown, format);
  }
  if (out.detail === undefined) {
    const detail = lazyDetail(view.tree, view.bundle, lazy);
    if (detail !== undefined) out.detail = detail;
  }
  return out;
}

/** Past this many items, items documented on resolve get their detail on resolve too. */
const LONG_LIST = 200;

export { MAX_ITEMS, narrow } from '../ide/index.js';

/** The client-side command that opens completion again (VS Code's). */
export const RETRIGGER_COMMAND = 'editor.action.triggerSuggest';

/**
 * The client-side commands a client says it runs, in `experimental.commands.commands` (the
 * convention rust-analyzer reads). Another client would send an unknown command back to the
 * server, or warn its user, after the item is inserted.
 */
export function clientCommands(caps: ClientCapabilities): readonly string[] {
  const experimental: unknown = caps.experimental;
  const commands = typeof experimental === 'object' && experimental !== null ? (experimental as { commands?: { commands?: unknown } }).commands?.commands : undefined;
  return Array.isArray(commands) ? commands.filter((c): c is string => typeof c === 'string') : [];
}

/** What the client declared about completion items. */
export interface ItemSupport {
  documentation: MarkupFormat;
  /** `completionItem.snippetSupport`. */
  snippets: boolean;
  /** The client runs `RETRIGGER_COMMAND`. */
  retrigger: boolean;
}

const FULL_SUPPORT: ItemSupport = { documentation: 'markdown', snippets: true, retrigger: true };

/** The item, with its edit unless the list's default range is its own. */
export function toCompletionItem(c: Completion, lineStarts: readonly number[], defaultRange?: Range, long = false, support: ItemSupport = FULL_SUPPORT): CompletionItem {
  const item: CompletionItem = { label: c.label, kind: KINDS[c.kind] };
  const snippet = c.snippet === true && support.snippets;
  const insertText = c.snippet && !snippet ? snippetText(c.insertText) : c.insertText;
  if (defaultRange && c.range.start === defaultRange.start && c.range.end === defaultRange.end) {
    if (insertText !== c.label) item.textEditText = insertText;
  } else {
    item.textEdit = { range: rangeToLspRange(lineStarts, c.range), newText: insertText };
  }
  if (snippet) item.insertTextFormat = InsertTextFormat.Snippet;
  if (c.detail !== undefined && !(long && c.resolve)) item.detail = c.detail;
  if (c.documentation !== undefined) item.documentation = markup(c.documentation, support.documentation);
  if (c.sortText !== undefined && c.sortText !== c.label) item.sortText = c.sortText;
  if (c.filterText !== undefined && c.filterText !== c.label) item.filterText = c.filterText;
  if (c.deprecated) item.tags = [CompletionItemTag.Deprecated];
  if (c.resolve) item.data = encodeData(c.resolve);
  if (c.retrigger && support.retrigger) item.command = { title: 'Complete', command: RETRIGGER_COMMAND };
  return item;
}

/** The range most items share (the one sent as the list default). */
function commonRange(items: readonly Completion[]): Range | undefined {
  const counts = new Map<string, { range: Range; n: number }>();
  let best: { range: Range; n: number } | undefined;
  for (const c of items) {
    const key = `${c.range.start}:${c.range.end}`;
    let entry = counts.get(key);
    if (!entry) counts.set(key, (entry = { range: c.range, n: 0 }));
    entry.n += 1;
    if (!best || entry.n > best.n) best = entry;
  }
  return best?.range;
}

export interface CompletionOptions extends ItemSupport {
  /** The client accepts `itemDefaults.editRange` (and `textEditText` on items). */
  editRangeDefault: boolean;
}

// Read once per client: its capabilities do not change after initialize, and completion runs per keystroke.
const optionsByClient = new WeakMap<ClientCapabilities, CompletionOptions>();

/** The completion options the client's capabilities declare. */
export function completionOptions(caps: ClientCapabilities): CompletionOptions {
  let options = optionsByClient.get(caps);
  if (!options) {
    const completion = caps.textDocument?.completion;
    options = {
      editRangeDefault: (completion?.completionList?.itemDefaults ?? []).includes('editRange'),
      documentation: clientFormats(caps).completion,
      snippets: completion?.completionItem?.snippetSupport === true,
      retrigger: clientCommands(caps).includes(RETRIGGER_COMMAND),
    };
    optionsByClient.set(caps, options);
  }
  return options;
}

export function completionList(view: FileView, params: CompletionParams, models: ModelCatalog, options: CompletionOptions): CompletionList {
  const lineStarts = view.bundle.doc.lineStarts;
  const offset = positionToOffset(lineStarts, view.text, params.position);
  const trigger = params.context?.triggerCharacter;
  const all = complete({ tree: view.tree, bundle: view.bundle, offset, models, narrowed: true, ...(trigger !== undefined ? { trigger } : {}) });
  const { items, incomplete } = narrow(all, view.text, offset);
  const shared = options.editRangeDefault && items.length > 1 ? commonRange(items) : undefined;
  const list: CompletionList = { isIncomplete: incomplete, items: items.map((c) => toCompletionItem(c, lineStarts, shared, items.length > LONG_LIST, options)) };
  if (shared) {
    const editRange: LspRange = rangeToLspRange(lineStarts, shared);
    list.itemDefaults = { editRange };
  }
  return list;
}
