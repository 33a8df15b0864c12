// The completion vocabulary of the language layer (no LSP types): what to insert where, and how
// to present it. lsp/completion.ts turns these into LSP completion items.

import type { Range } from '../../syntax/types.js';
import type { Bundle } from '../../language/model.js';
import type { ModelCatalog } from '../../language/modelCatalog.js';
import type { MethodTree } from '../../language/tree.js';

export type CompletionKind =
  | 'key'
  | 'value'
  | 'pipe-type'
  | 'concept'
  | 'native'
  | 'pipe'
  | 'model'
  | 'variable'
  | 'field'
  | 'snippet'
  | 'module'
  | 'keyword';

export interface Completion {
  label: string;
  kind: CompletionKind;
  /** One line shown beside the label. */
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** Replaces `range` (a range on the cursor's line, holding the cursor). */
  insertText: string;
  /** `insertText` uses snippet syntax (`$1`, `${1:name}`). */
  snippet?: boolean;
  range: Range;
  sortText?: string;
  filterText?: string;
  /** Completion should be asked again after inserting (e.g. after `alias->`). */
  retrigger?: boolean;
  deprecated?: boolean;
  /**
   * Documentation left for later (completionItem/resolve): lists of the tree's concepts and pipes
   * can hold thousands of items, and their documentation is computed only for the one shown.
   */
  resolve?: LazyDocumentation;
}

/** What to document later: a concept or pipe of the tree, by `domain.code` (`.code` without a domain). */
export interface LazyDocumentation {
  kind: 'concept' | 'pipe';
  key: string;
}

export interface CompletionRequest {
  tree: MethodTree;
  bundle: Bundle;
  offset: number;
  /** The character that triggered the request, when one did. */
  trigger?: string;
  /** The models the runner (or the built-in deck) offers. */
  models?: ModelCatalog;
  /**
   * The caller sends what `narrow` (narrow.ts) keeps of the list: a long list of the tree's names
   * may then come narrowed already, without the items it would drop.
   */
  narrowed?: boolean;
}
