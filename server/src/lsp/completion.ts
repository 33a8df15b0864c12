// textDocument/completion: the language layer's completions as LSP items. Ranges become text
// edits on the cursor's line; snippets keep their tab stops for clients that take snippets (others
// get the text with the defaults filled in); documentation comes in the client's format.
//
// Lists of the tree's concepts and pipes can hold thousands of items, so items stay small: their
// documentation comes on completionItem/resolve, their `data` is only what names them, and when
// the client accepts list defaults (LSP 3.17 `itemDefaults`), the shared edit range is sent once.

import { CompletionItemKind, CompletionItemTag, InsertTextFormat, type ClientCapabilities, type CompletionItem, type CompletionList, type CompletionParams } from 'vscode-languageserver';
import { complete, lazyDetail, lazyDocumentation, type Completion, type CompletionKind, type LazyDocumentation } from '../language/complete/index.js';
import { snippetText } from '../language/complete/snippets.js';
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
/**
 * The most items sent at once. A longer list is narrowed to what matches the text typed so far
 * (best ranked first) and marked incomplete: the client asks again as the user types.
 */
export const MAX_ITEMS = 500;

/** Whether `typed` (lower case) matches `candidate` as a subsequence, ignoring case (as editors filter). */
function fuzzyMatch(typed: string, candidate: string): boolean {
  if (typed === '') return true;
  let j = 0;
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate.charCodeAt(i);
    // ASCII folded by arithmetic (no lower-cased copy of each candidate); other text as toLowerCase folds it.
    if (c >= 128) return fuzzyMatchSlow(typed, candidate);
    if ((c >= 65 && c <= 90 ? c + 32 : c) === typed.charCodeAt(j) && ++j === typed.length) return true;
  }
  return false;
}

// Text beyond ASCII (a lower case may be longer than its capital): compared as the whole lower-cased text.
function fuzzyMatchSlow(typed: string, candidate: string): boolean {
  const c = candidate.toLowerCase();
  let j = 0;
  for (let i = 0; i < c.length && j < typed.length; i++) if (c[i] === typed[j]) j++;
  return j === typed.length;
}

const sortKey = (c: Completion): string => c.sortText ?? c.label;

/** The items to send: all of them, or the best `MAX_ITEMS` of those matching what was typed. */
export function narrow(items: readonly Completion[], text: string, offset: number): { items: readonly Completion[]; incomplete: boolean } {
  if (items.length <= MAX_ITEMS) return { items, incomplete: false };
  // Long lists come from large trees, right after a keystroke: what was typed is taken once per
  // start of range, and nothing is made per item.
  let lastStart = -1;
  let typed = '';
  // While the matches come in sort-text order (lists of the tree's names do), only the first
  // MAX_ITEMS are kept: the rest are checked for order, not collected.
  const matching: Completion[] = [];
  let last: Completion | undefined;
  let sorted = true;
  for (const c of items) {
    if (c.range.start !== lastStart) {
      lastStart = c.range.start;
      typed = text.slice(lastStart, Math.max(lastStart, offset)).toLowerCase();
    }
    if (!fuzzyMatch(typed, c.filterText ?? c.label)) continue;
    if (sorted && last !== undefined && sortKey(last) > sortKey(c)) {
      sorted = false;
      if (matching.length === MAX_ITEMS + 1) return sortedMatches(items, text, offset);
    }
    last = c;
    if (!sorted || matching.length <= MAX_ITEMS) matching.push(c);
  }
  if (matching.length <= MAX_ITEMS) return { items: matching, incomplete: true };
  if (sorted) return { items: matching.slice(0, MAX_ITEMS), incomplete: true };
  return bestOf(matching);
}

/** Every match of a list that turned out unsorted, then the best MAX_ITEMS of them. */
function sortedMatches(items: readonly Completion[], text: string, offset: number): { items: readonly Completion[]; incomplete: boolean } {
  let lastStart = -1;
  let typed = '';
  const matching: Completion[] = [];
  for (const c of items) {
    if (c.range.start !== lastStart) {
      lastStart = c.range.start;
      typed = text.slice(lastStart, Math.max(lastStart, offset)).toLowerCase();
    }
    if (fuzzyMatch(typed, c.filterText ?? c.label)) matching.push(c);
  }
  return bestOf(matching);
}

/** The first MAX_ITEMS of more matches than that, by sort text; equal ones keep their order (as a stable sort does). */
function bestOf(matching: Completion[]): { items: readonly Completion[]; incomplete: boolean } {
  const order = matching.map((_, i) => i);
  order.sort((a, b) => {
    const ka = sortKey(matching[a]!);
    const kb = sortKey(matching[b]!);
    return ka < kb ? -1 : ka > kb ? 1 : a - b;
  });
  return { items: order.slice(0, MAX_ITEMS).map((i) => matching[i]!), incomplete: true };
}

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
  const all = complete({ tree: view.tree, bundle: view.bundle, offset, models, ...(trigger !== undefined ? { trigger } : {}) });
  const { items, incomplete } = narrow(all, view.text, offset);
  const shared = options.editRangeDefault && items.length > 1 ? commonRange(items) : undefined;
  const list: CompletionList = { isIncomplete: incomplete, items: items.map((c) => toCompletionItem(c, lineStarts, shared, items.length > LONG_LIST, options)) };
  if (shared) {
    const editRange: LspRange = rangeToLspRange(lineStarts, shared);
    list.itemDefaults = { editRange };
  }
  return list;
}
