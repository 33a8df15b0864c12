// Positions a client sends, made to denote a place in the document before anything uses them. LSP
// 3.17 lets a client send a line past the end (the end of the document) or a character past the end
// of its line (the end of the line); peers also send negative, fractional, missing or reversed
// ones. Two doors: the text sync (every content change, before the document updates its line
// table: the library's indexes it with the raw line numbers; the documents it makes are here too)
// and `guardRequest`, which every request handler is registered through.

import { ResponseError, type TextDocumentContentChangeEvent, type TextDocumentsConfiguration } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { clampLspRange, clampPosition, lspInteger, type LspRange, type Position } from '../syntax/positions.js';
import { MAX_ANALYZED_BYTES, utf8Size } from '../workspace/documentSize.js';
import { PieceTextDocument } from './pieceDocument.js';
import { takePieces } from './textPieces.js';

function offsetIn(doc: TextDocument, pos: Partial<Position> | undefined): number {
  return doc.offsetAt({ line: lspInteger(pos?.line), character: lspInteger(pos?.character) });
}

/** A content change whose range lies in the document and is in order (a full change as it is). */
export function clampChange(doc: TextDocument, change: TextDocumentContentChangeEvent): TextDocumentContentChangeEvent {
  if (!('range' in change) || change.range === undefined || change.range === null) return { text: change.text };
  const a = offsetIn(doc, change.range.start);
  const b = offsetIn(doc, change.range.end);
  return { range: { start: doc.positionAt(Math.min(a, b)), end: doc.positionAt(Math.max(a, b)) }, text: change.text };
}

/**
 * The text documents of the server, each change clamped against the text it applies to. A text
 * past `largeFrom` bytes (the analysed size: such a document is never parsed, its edits must stay
 * cheap) is kept in pieces (lsp/pieceDocument.ts), any other by the library; an edit across that
 * size moves the document from one to the other.
 */
export function clampedTextDocuments(largeFrom: number = MAX_ANALYZED_BYTES): TextDocumentsConfiguration<TextDocument> {
  // The length alone tells most texts apart (a UTF-16 unit is one to three bytes).
  const isLarge = (text: string): boolean => text.length > largeFrom || (text.length * 3 > largeFrom && utf8Size(text) > largeFrom);
  const fresh = (uri: string, languageId: string, version: number, text: string): TextDocument => {
    const pieces = takePieces(uri, version);
    if (pieces !== undefined) {
      const doc = PieceTextDocument.ofPieces(uri, languageId, version, pieces);
      return doc.utf8Size > largeFrom ? doc : TextDocument.create(uri, languageId, version, text);
    }
    return isLarge(text) ? PieceTextDocument.ofText(uri, languageId, version, text) : TextDocument.create(uri, languageId, version, text);
  };
  return {
    create: fresh,
    update: (document, changes, version) => {
      let doc = document;
      for (const change of changes) {
        // A change without text is not a change (the library would throw on it).
        if (typeof change?.text !== 'string') continue;
        const clamped = clampChange(doc, change);
        // A whole new text is a document made again (its pieces taken when it came in pieces).
        if (!('range' in clamped)) doc = fresh(doc.uri, doc.languageId, version, clamped.text);
        else if (doc instanceof PieceTextDocument) doc.update([clamped], version);
        else doc = TextDocument.update(doc, [clamped], version);
      }
      if (doc instanceof PieceTextDocument) {
        doc.update([], version);
        // Back under the size: the library's document again (the text is to be parsed whole anyway).
        return doc.utf8Size > largeFrom ? doc : TextDocument.create(doc.uri, doc.languageId, version, doc.getText());
      }
      doc = TextDocument.update(doc, [], version);
      const text = doc.getText();
      return isLarge(text) ? PieceTextDocument.ofText(doc.uri, doc.languageId, version, text) : doc;
    },
  };
}

export const CLAMPED_TEXT_DOCUMENTS = clampedTextDocuments();

/**
 * What a request's positions are clamped against: a text and its line starts, or the open document
 * itself (a document in pieces: its line starts are never made for the whole text at once).
 */
export type ClampText = { text: string; lineStarts: readonly number[] } | { document: TextDocument };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const ORIGIN: Position = { line: 0, character: 0 };

/** The positions `doc` gives, clamped into it (the same as clampPosition and clampLspRange give for its text). */
function clampsOf(doc: ClampText): { position(p: Position): Position; range(r: LspRange): LspRange } {
  if ('text' in doc) return { position: (p) => clampPosition(doc.lineStarts, doc.text, p), range: (r) => clampLspRange(doc.lineStarts, doc.text, r) };
  const d = doc.document;
  const position = (p: Position): Position => d.positionAt(offsetIn(d, p));
  return {
    position,
    range: (r) => {
      const a = offsetIn(d, r.start ?? ORIGIN);
      const b = offsetIn(d, r.end ?? r.start ?? ORIGIN);
      return { start: d.positionAt(Math.min(a, b)), end: d.positionAt(Math.max(a, b)) };
    },
  };
}

/**
 * The params with `position`, `range` and `positions` clamped to the document the request names;
 * params of an unknown document (or none) as they are.
 */
export function clampRequestParams<P>(params: P, documentOf: (uri: string) => ClampText | undefined): P {
  if (!isObject(params) || !isObject(params['textDocument']) || typeof params['textDocument']['uri'] !== 'string') return params;
  // Most requests carry no position (symbols, full tokens, formatting): the text is not even fetched.
  if (!('position' in params) && !('range' in params) && !('positions' in params)) return params;
  const doc = documentOf(params['textDocument']['uri']);
  if (!doc) return params;
  const clamp = clampsOf(doc);
  const out: Record<string, unknown> = { ...params };
  const position = (p: unknown): Position => clamp.position(isObject(p) ? (p as unknown as Position) : ORIGIN);
  if ('position' in out) out['position'] = position(out['position']);
  if ('range' in out) out['range'] = clamp.range(isObject(out['range']) ? (out['range'] as unknown as LspRange) : { start: ORIGIN, end: ORIGIN });
  if (Array.isArray(out['positions'])) out['positions'] = out['positions'].map(position);
  return out as P;
}

/** How a request handler is registered: params clamped, a failure logged and answered `empty`. */
export type RequestGuard = <P, R>(name: string, empty: R, fn: (params: P) => R | Promise<R>) => (params: P) => R | Promise<R>;

/**
 * The one wrapper of every request handler. A ResponseError is the handler's answer (a refused
 * rename) and passes; anything else is logged, and the editor gets `empty` rather than an error.
 */
export function guardRequest(log: (message: string) => void, documentOf: (uri: string) => ClampText | undefined): RequestGuard {
  return <P, R>(name: string, empty: R, fn: (params: P) => R | Promise<R>) => {
    const failed = (error: unknown): R => {
      if (error instanceof ResponseError) throw error;
      log(`mthds: ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return empty;
    };
    return (params: P): R | Promise<R> => {
      try {
        const result = fn(clampRequestParams(params, documentOf));
        return result instanceof Promise ? result.catch(failed) : result;
      } catch (error) {
        return failed(error);
      }
    };
  };
}
