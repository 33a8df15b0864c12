// What may pass what on the way in: a request that answers about its own document only (a hover, a
// completion, the outline) may be handed over before queued notifications about OTHER documents
// (open, change, close, save) and before queued requests about other documents (the protocol lets
// a server answer requests out of order, and a document request changes nothing: neither changes
// what the other answers); nothing passes anything else. The protocol's order still holds for what
// it guarantees: a request sees every earlier notification about its document, every earlier
// request about it, and every earlier workspace notification, workspace request and
// cancellation. An editor opening a 50 MB bundle asks its folding and outline at once, and after
// each change of a large bundle its code actions, highlights, tokens, hints, links and pulled
// diagnostics: a hover of another document no longer waits behind those, which wait for the
// bundle, only behind the one running. Read from a message's outline (its
// method, whether it is a request, its `params.textDocument.uri`), so that the stdin thread can
// apply the rule to a large message it has framed but not yet decoded (jsonOutline.ts) as the
// passing queue applies it to decoded ones (passingQueue.ts).

/** What the rule reads of a message. */
export interface MessageOutline {
  method: string | undefined;
  /** Whether it carries a request id (a number or a string) beside its method. */
  request: boolean;
  /** That id. */
  id?: number | string;
  /** `params.textDocument.uri`, when a string. */
  uri: string | undefined;
}

/** Notifications about one document (`params.textDocument.uri`) that a request about another may pass. */
const DOCUMENT_NOTIFICATIONS = new Set(['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose', 'textDocument/didSave', 'textDocument/willSave']);

/** Requests whose answer is about their own document only: what other documents' pending edits change is not theirs. */
const SELF_CONTAINED_REQUESTS = new Set([
  'textDocument/hover',
  'textDocument/completion',
  'textDocument/signatureHelp',
  'textDocument/documentHighlight',
  'textDocument/documentSymbol',
  'textDocument/foldingRange',
  'textDocument/selectionRange',
  'textDocument/semanticTokens/full',
  'textDocument/semanticTokens/full/delta',
  'textDocument/semanticTokens/range',
  'textDocument/inlayHint',
  'textDocument/codeLens',
  'textDocument/documentLink',
]);

const objectOrUndefined = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined);

/** The outline of a decoded message. */
export function outlineOf(message: unknown): MessageOutline {
  const m = objectOrUndefined(message);
  const method = typeof m?.method === 'string' ? m.method : undefined;
  const id = m?.id;
  const uri = objectOrUndefined(objectOrUndefined(m?.params)?.textDocument)?.uri;
  const request = method !== undefined && (typeof id === 'number' || typeof id === 'string');
  return { method, request, ...(request ? { id: id as number | string } : {}), uri: typeof uri === 'string' ? uri : undefined };
}

/** A request that may pass notifications about other documents: its document's URI. */
export function passingDocument(o: MessageOutline): string | undefined {
  return o.method !== undefined && o.request && SELF_CONTAINED_REQUESTS.has(o.method) ? o.uri : undefined;
}

/** A notification a request about another document may pass: its document's URI. */
export function passableDocument(o: MessageOutline): string | undefined {
  return o.method !== undefined && !o.request && DOCUMENT_NOTIFICATIONS.has(o.method) ? o.uri : undefined;
}

/** A request about one document (`textDocument/...`) that a request about another may pass: its document's URI. */
function passableRequest(o: MessageOutline): string | undefined {
  return o.request && o.method !== undefined && o.method.startsWith('textDocument/') ? o.uri : undefined;
}

/** Whether a message may pass one before it: a self-contained request passing a notification or a request about another document. */
export function mayPass(later: MessageOutline, earlier: MessageOutline): boolean {
  const uri = passingDocument(later);
  if (uri === undefined) return false;
  const passed = passableDocument(earlier) ?? passableRequest(earlier);
  return passed !== undefined && passed !== uri;
}
