// The language services of an editor, free of LSP, of the disk and of Node: each answers a question
// about a method tree (and a bundle and an offset in it) with plain data, and `lsp/` translates the
// answer for the client (the module of `lsp/` of the same name, or the one named beside it below).
// The language server imports them from here; `mthds graph` and the VS Code extension take the
// graph drawing from its own modules (the extension bundles nothing else of the server).
//
// The services, by the `lsp/` module that serves them:

// lsp/hover.ts: what the thing under the cursor is (descriptions rendered by lsp/markup.ts).
export { hoverAt, type HoverInfo, type HoverRequest } from './hover.js';
// lsp/completion.ts: what may be written at the cursor; its items documented lazily.
export {
  complete,
  lazyDetail,
  lazyDocumentation,
  NATIVE_DOCUMENTATION,
  prepareCompletionList,
  prepareSharedConceptLists,
  wantsModels,
  type Completion,
  type CompletionKind,
  type CompletionRequest,
  type LazyDocumentation,
} from './completion/index.js';
export { MAX_ITEMS, narrow } from './completion/narrow.js';
// lsp/inlayHints.ts: the concept a step stores and a template variable reads.
export { inlaysOf, type Inlay } from './inlayHints.js';
// lsp/navigation.ts (definition, references, highlight) and lsp/semanticTokens.ts: every named
// thing of a bundle with its key, and the tree's index of them.
export { occurrenceAt, occurrencesOf, type Occurrence, type OccurrenceKind } from './occurrences.js';
export { occurrencesOfSymbol, targetsOf, type Target } from './symbolIndex.js';
// lsp/rename.ts: a rename checked, then planned across the tree.
export { planRename, prepareRename, type Prepared, type RenameEdit, type RenamePlan } from './rename.js';
// lsp/callHierarchy.ts: who calls whom, and which pipes implement a signature.
export { implementationsAt, incomingCalls, outgoingCalls, pipeAt, type PipeCall } from './callHierarchy.js';
// lsp/symbols.ts: a bundle's outline, the names it declares, and their ranking against a query.
export { bundleOutline, declaredNames, tableOutline, type DeclaredName, type OutlineSymbol, type SymbolKind } from './symbols.js';
export { fuzzyScore } from './fuzzy.js';
// lsp/codeActions.ts: the repairs offered beyond a finding's own fix.
export { repairsFor } from './repairs.js';
// lsp/graphRequest.ts (and `mthds graph`): the method graph as data; drawn by graphLayout.ts and
// graphSvg.ts.
export { buildMethodGraph, type GraphEdge, type GraphFinding, type GraphNode, type MethodGraph } from './graph.js';
