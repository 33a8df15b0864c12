// The pieces a long document text arrived in (lsp/packedStrings.ts makes it a slice per turn, so
// the text is a rope of them). Reading a rope by index or search makes V8 copy it whole into one
// flat string first: for a document of 50 MB, one step of about 0.2 s on the main thread while
// every other request waits. The text documents take them here when they make the document
// (lsp/clamp.ts: a document past the analysed size keeps its text in these pieces,
// lsp/pieceDocument.ts). The pieces are the rope's own leaves: keeping them costs an array, not a
// copy, as long as the rope is not flattened; those not taken go when their document is edited
// or closed.
//
// Kept by document and version, never looked up by the text: two strings are compared by content
// when they are not the same one, and comparing two ropes of equal length flattens both.

import type { Message } from 'vscode-languageserver/node.js';

interface Kept {
  version: number;
  pieces: readonly string[];
}

const kept = new Map<string, Kept>();

/** The document text a message sets whole, where it sits in the message, and its document. */
export function documentTextPath(message: Message): { uri: string; version: number; path: Array<string | number> } | undefined {
  const m = message as { method?: unknown; params?: { textDocument?: { uri?: unknown; version?: unknown }; contentChanges?: unknown } };
  const uri = m.params?.textDocument?.uri;
  const version = m.params?.textDocument?.version;
  if (typeof uri !== 'string' || typeof version !== 'number') return undefined;
  if (m.method === 'textDocument/didOpen') return { uri, version, path: ['params', 'textDocument', 'text'] };
  // A full change replaces the text with the one sent (a ranged change makes a new string anyway).
  const changes = m.params?.contentChanges;
  if (m.method === 'textDocument/didChange' && Array.isArray(changes) && changes.length === 1 && typeof changes[0] === 'object' && changes[0] !== null && !('range' in changes[0])) {
    return { uri, version, path: ['params', 'contentChanges', 0, 'text'] };
  }
  return undefined;
}

/** Remembers the pieces a document's text at `version` was joined from, in order. */
export function rememberPieces(uri: string, version: number, pieces: readonly string[]): void {
  if (pieces.length < 2) kept.delete(uri);
  else kept.set(uri, { version, pieces });
}

/** The pieces of a document's text at `version`, or undefined when they are not known. */
export function piecesOf(uri: string, version: number | undefined): readonly string[] | undefined {
  const entry = kept.get(uri);
  return entry !== undefined && entry.version === version ? entry.pieces : undefined;
}

/** The pieces of a document's text at `version`, given once: they are the document's from then on. */
export function takePieces(uri: string, version: number): readonly string[] | undefined {
  const pieces = piecesOf(uri, version);
  if (pieces !== undefined) kept.delete(uri);
  return pieces;
}

/** Drops what is kept for a document unless it is of `version` (edited to another, or closed: undefined). */
export function keepPiecesOnlyAt(uri: string, version: number | undefined): void {
  if (kept.get(uri)?.version !== version) kept.delete(uri);
}
