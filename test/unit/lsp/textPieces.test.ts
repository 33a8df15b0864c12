// A long text arrives as pieces (lsp/packedStrings.ts) and the header scan of a document past the
// analysed size reads them one by one (lsp/largeDocuments.ts `headersSteps`): whatever the cut
// points, even inside a header, a delimiter or a CRLF, the headers are those of the joined text,
// as the scan of the whole string found them line by line.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headersSteps, type Header } from '../../../server/src/lsp/largeDocuments.js';
import { documentTextPath, keepPiecesOnlyAt, piecesOf, rememberPieces, takePieces } from '../../../server/src/lsp/textPieces.js';
import { runSteps } from '../../../server/src/util/steps.js';

/** The scan of the whole string, line by line, as it was written before the pieces: the oracle. */
function headersOfWhole(text: string): Header[] {
  const out: Header[] = [];
  let inString: string | undefined;
  let [lastFilled, lastFilledLength] = [0, 0];
  const lines = text.split('\n');
  lines.forEach((line, number) => {
    let at = 0;
    while (at < line.length && (line[at] === ' ' || line[at] === '\t')) at++;
    if (!inString && line[at] === '[') {
      const close = line.indexOf(']', at);
      if (close > at) {
        const previous = out[out.length - 1];
        if (previous) [previous.last, previous.lastLength] = [lastFilled, lastFilledLength];
        const open = line[at + 1] === '[' ? at + 2 : at + 1;
        out.push({ line: number, last: number, lastLength: line.length, path: line.slice(open, close).trim(), column: open });
      }
    }
    if (at < line.length) [lastFilled, lastFilledLength] = [number, line.length];
    for (let i = 0; ; ) {
      if (inString) {
        const close = line.indexOf(inString, i);
        if (close < 0) break;
        [i, inString] = [close + 3, undefined];
      } else {
        const found = ['"""', "'''"].map((d) => [line.indexOf(d, i), d] as const).filter(([p]) => p >= 0).sort((a, b) => a[0] - b[0])[0];
        if (!found) break;
        [i, inString] = [found[0] + 3, found[1]];
      }
    }
  });
  const final = out[out.length - 1];
  if (final && lastFilled > final.line) [final.last, final.lastLength] = [lastFilled, lastFilledLength];
  return out;
}

/** `text` cut at `cuts` (positions, any order, repeats allowed). */
function cut(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((start, i) => text.slice(start, i < at.length ? at[i] : text.length));
}

const token = fc.constantFrom('[', ']', '[[', ']]', 'pipe.a', 'concept.B', ' ', '\t', '\n', '\r\n', '"""', "'''", '"', "'", 'x = 1', '😀', '');
const text = fc.array(token, { maxLength: 60 }).map((t) => t.join(''));

describe('the header scan over pieces', () => {
  it('finds the headers of the joined text, whatever the cut points', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 12 }), (whole, cuts) => {
        const pieces = cut(whole, cuts);
        expect(pieces.join('')).toBe(whole);
        expect(runSteps(headersSteps(pieces))).toEqual(headersOfWhole(whole));
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads a bundle cut every few characters as it reads it whole', () => {
    const out = ['domain = "big"', ''];
    for (let i = 0; i < 200; i++) out.push(`[pipe.p${i}]`, 'type = "PipeLLM"', `prompt = """`, `[not.a.header]`, `"""`, '');
    const whole = out.join('\n');
    const expected = headersOfWhole(whole);
    expect(expected.map((h) => h.path)).toEqual(Array.from({ length: 200 }, (_, i) => `pipe.p${i}`));
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const pieces = Array.from({ length: Math.ceil(whole.length / size) }, (_, i) => whole.slice(i * size, (i + 1) * size));
      expect(runSteps(headersSteps(pieces))).toEqual(expected);
    }
  });
});

describe('the pieces kept for a document', () => {
  it('are those of the text its open or full change set, at that version only, until it changes or closes', () => {
    const open = { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///a', languageId: 'mthds', version: 1, text: '' } } } as const;
    expect(documentTextPath(open)).toEqual({ uri: 'file:///a', version: 1, path: ['params', 'textDocument', 'text'] });
    const full = { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///a', version: 2 }, contentChanges: [{ text: '' }] } };
    expect(documentTextPath(full)).toEqual({ uri: 'file:///a', version: 2, path: ['params', 'contentChanges', 0, 'text'] });
    const ranged = { ...full, params: { ...full.params, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '' }] } };
    expect(documentTextPath(ranged)).toBeUndefined();
    const hover = { jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///a' } } };
    expect(documentTextPath(hover)).toBeUndefined();

    rememberPieces('file:///a', 1, ['ab', 'cd']);
    expect(piecesOf('file:///a', 1)).toEqual(['ab', 'cd']);
    expect(piecesOf('file:///a', 2)).toBeUndefined();
    expect(piecesOf('file:///b', 1)).toBeUndefined();
    keepPiecesOnlyAt('file:///a', 1);
    expect(piecesOf('file:///a', 1)).toEqual(['ab', 'cd']);
    // Edited: the pieces of the old text go (else they would hold a copy of it).
    keepPiecesOnlyAt('file:///a', 2);
    expect(piecesOf('file:///a', 1)).toBeUndefined();
    rememberPieces('file:///a', 3, ['ab', 'cd']);
    keepPiecesOnlyAt('file:///a', undefined);
    expect(piecesOf('file:///a', 3)).toBeUndefined();
    // A text in one piece is kept as nothing.
    rememberPieces('file:///a', 4, ['abcd']);
    expect(piecesOf('file:///a', 4)).toBeUndefined();
    // Taken once by the document made of them (lsp/clamp.ts), then no longer kept.
    rememberPieces('file:///a', 5, ['ab', 'cd']);
    expect(takePieces('file:///a', 4)).toBeUndefined();
    expect(takePieces('file:///a', 5)).toEqual(['ab', 'cd']);
    expect(piecesOf('file:///a', 5)).toBeUndefined();
    expect(takePieces('file:///a', 5)).toBeUndefined();
  });
});
