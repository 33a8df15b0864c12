// The door positions come in by: content changes with any range (past the end, negative,
// fractional, huge, reversed) give the text LSP says they mean and a sound line table, and request
// params are clamped to the document.

import fc from 'fast-check';
import type { TextDocumentsConfiguration } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { describe, expect, it } from 'vitest';
import { CLAMPED_TEXT_DOCUMENTS, clampedTextDocuments, clampRequestParams } from '../../../server/src/lsp/clamp.js';
import { PieceTextDocument } from '../../../server/src/lsp/pieceDocument.js';
import { computeLineStarts } from '../../../server/src/syntax/positions.js';
import { applyLspChange } from '../../e2e/lsp/harness.js';

const number = fc.oneof(fc.integer({ min: -3, max: 12 }), fc.constantFrom(2 ** 31 - 1, 2 ** 31 - 2, -(2 ** 31), 0.5, 1e9));
const position = fc.record({ line: number, character: number });
const change = fc.record({ range: fc.record({ start: position, end: position }), text: fc.constantFrom('', '\n', 'ab', '\r\n', 'x\ny\n', '😀', '\ud83d') });

/**
 * Random batches of changes through `documents`: each gives the text LSP means and the line table a
 * fresh document of that text has; `seen` is told each document made.
 */
function syncsSoundly(documents: TextDocumentsConfiguration<TextDocument>, seed: number, seen: (doc: TextDocument, text: string) => void = () => undefined): void {
  fc.assert(
    fc.property(fc.constantFrom('', 'a', 'a\nb', 'one\r\ntwo\n\nthree', '😀\n\n'), fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { maxLength: 8 }), (start, batches) => {
      let doc = documents.create('file:///a.mthds', 'mthds', 1, start);
      let expected: string = start;
      let version = 1;
      for (const changes of batches) {
        doc = documents.update(doc, changes, ++version);
        for (const c of changes) expected = applyLspChange(expected, c);
        expect(doc.getText()).toBe(expected);
        seen(doc, expected);
        // The document's line table is the one a fresh document of the text has.
        const fresh = TextDocument.create('file:///b.mthds', 'mthds', 0, expected);
        expect(doc.lineCount).toBe(fresh.lineCount);
        for (let line = 0; line < fresh.lineCount; line++) expect(doc.offsetAt({ line, character: 0 })).toBe(fresh.offsetAt({ line, character: 0 }));
      }
      expect(doc.version).toBe(version);
    }),
    { numRuns: 400, seed },
  );
}

describe('clamped text sync', () => {
  it('applies any change as LSP means it, and keeps the line table sound', () => {
    syncsSoundly(CLAMPED_TEXT_DOCUMENTS, 20261125);
  });

  it('does the same with documents past a size kept in pieces, moving across that size both ways', () => {
    // A size of 6 bytes: edits of these texts go from one kind of document to the other.
    const kinds = new Set<boolean>();
    syncsSoundly(clampedTextDocuments(6), 20261128, (doc, text) => {
      expect(doc instanceof PieceTextDocument).toBe(Buffer.byteLength(text) > 6);
      kinds.add(doc instanceof PieceTextDocument);
    });
    expect(kinds).toEqual(new Set([true, false]));
  });

  it('survives the change that once corrupted the line table, then ordinary edits', () => {
    let doc = CLAMPED_TEXT_DOCUMENTS.create('file:///a.mthds', 'mthds', 1, 'a\nb\n');
    doc = CLAMPED_TEXT_DOCUMENTS.update(doc, [{ range: { start: { line: 2 ** 31 - 2, character: 0 }, end: { line: 2 ** 31 - 1, character: 0 } }, text: '\n' }], 2);
    doc = CLAMPED_TEXT_DOCUMENTS.update(doc, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'z' }], 3);
    expect(doc.getText()).toBe('za\nb\n\n');
    expect(doc.lineCount).toBe(4);
  });
});

describe('clampRequestParams', () => {
  const text = 'ab\ncd\r\nef';
  const doc = { text, lineStarts: computeLineStarts(text) };
  const of = (params: unknown): unknown => clampRequestParams(params, (uri) => (uri === 'file:///x' ? doc : undefined));
  it('clamps positions, ranges and position lists of a known document', () => {
    const textDocument = { uri: 'file:///x' };
    expect(of({ textDocument, position: { line: 1, character: 99 } })).toEqual({ textDocument, position: { line: 1, character: 2 } });
    expect(of({ textDocument, position: { line: 2 ** 31 - 1, character: 0 } })).toEqual({ textDocument, position: { line: 2, character: 2 } });
    expect(of({ textDocument, position: { line: -5, character: -1 } })).toEqual({ textDocument, position: { line: 0, character: 0 } });
    expect(of({ textDocument, position: { line: 0.7, character: 'x' } })).toEqual({ textDocument, position: { line: 0, character: 0 } });
    expect(of({ textDocument, range: { start: { line: 9, character: 0 }, end: { line: 0, character: 1 } } })).toEqual({ textDocument, range: { start: { line: 0, character: 1 }, end: { line: 2, character: 2 } } });
    expect(of({ textDocument, positions: [{ line: 0, character: 9 }, null] })).toEqual({ textDocument, positions: [{ line: 0, character: 2 }, { line: 0, character: 0 }] });
  });
  it('clamps against a document kept in pieces as against its text', () => {
    const inPieces = (uri: string) => (uri === 'file:///x' ? { document: PieceTextDocument.ofText('file:///x', 'mthds', 1, text, 2) } : undefined);
    fc.assert(
      fc.property(position, position, (start, end) => {
        const textDocument = { uri: 'file:///x' };
        const params = { textDocument, position: start, range: { start, end }, positions: [end, start] };
        expect(clampRequestParams(params, inPieces)).toEqual(of(params));
      }),
      { numRuns: 500 },
    );
  });
  it('leaves params of unknown documents as they are', () => {
    const params = { textDocument: { uri: 'file:///other' }, position: { line: -1, character: -1 } };
    expect(of(params)).toBe(params);
  });
});
