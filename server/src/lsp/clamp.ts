// Positions a client sends, made to denote a place in the document before anything uses them. LSP
// 3.17 lets a client send a line past the end (the end of the document) or a character past the end
// of its line (the end of the line); peers also send negative, fractional, missing or reversed
// ones. Two doors: the text sync (every content change, before the text-document library updates
// its line table, which it indexes with the raw line numbers) and `guardRequest`, which every
// request handler is registered through.

import { ResponseError, type TextDocumentContentChangeEvent, type TextDocumentsConfiguration } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { clampLspRange, clampPosition, lspInteger, type LspRange, type Position } from '../syntax/positions.js';

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

/** The text documents of the server, each change clamped against the text it applies to. */
export const CLAMPED_TEXT_DOCUMENTS: TextDocumentsConfiguration<TextDocument> = {
  create: (uri, languageId, version, content) => TextDocument.create(uri, languageId, version, content),
  update: (document, changes, version) => {
    let doc = document;
    for (const change of changes) {
      // A change without text is not a change (the library would throw on it).
      if (typeof change?.text !== 'string') continue;
      doc = TextDocument.update(doc, [clampChange(doc, change)], version);
    }
    return TextDocument.update(doc, [], version);
  },
};

/** What a request's positions are clamped against. */
export interface ClampText {
  text: string;
  lineStarts: readonly number[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

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
  const out: Record<string, unknown> = { ...params };
  const position = (p: unknown): Position => clampPosition(doc.lineStarts, doc.text, isObject(p) ? (p as unknown as Position) : { line: 0, character: 0 });
  if ('position' in out) out['position'] = position(out['position']);
  if ('range' in out) out['range'] = clampLspRange(doc.lineStarts, doc.text, isObject(out['range']) ? (out['range'] as unknown as LspRange) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
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
