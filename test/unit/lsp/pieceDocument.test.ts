// The document of pieces (lsp/pieceDocument.ts) answers as the library's TextDocument does, the
// oracle here: the same text, positions and offsets, whatever the edits and wherever the pieces are
// cut (tiny pieces put edits across them), with `\r\n`, lone `\r` and surrogate pairs in the text.

import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { describe, expect, it } from 'vitest';
import { clampChange } from '../../../server/src/lsp/clamp.js';
import { PieceTextDocument } from '../../../server/src/lsp/pieceDocument.js';

/** Texts rich in what a cut or an edit may split: line ends of every kind and surrogate pairs. */
const chunk = fc.constantFrom('a', 'b', 'xyz', '\n', '\r', '\r\n', '\n\r', '😀', '\ud83d', '\ude00', ' ', '[pipe.p]', '"""');
const text = fc.array(chunk, { maxLength: 40 }).map((parts) => parts.join(''));
/** Cut points of a text, as the pieces it may arrive in. */
const cuts = fc.array(fc.nat(60), { maxLength: 6 });

/** The pieces of `t` cut at `at` (anywhere: inside a `\r\n` or a pair too). */
function piecesOf(t: string, at: number[]): string[] {
  const points = [...new Set(at.map((a) => a % (t.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(t.slice(from, p));
    from = p;
  }
  out.push(t.slice(from));
  return out;
}

const position = fc.record({ line: fc.integer({ min: -2, max: 30 }), character: fc.integer({ min: -2, max: 30 }) });
const change = fc.oneof(
  { weight: 8, arbitrary: fc.record({ range: fc.record({ start: position, end: position }), text }) },
  { weight: 1, arbitrary: fc.record({ text }) },
);

/** Everything a reader may ask of both documents: they must agree. */
function expectSame(doc: PieceTextDocument, oracle: TextDocument, positions: Array<{ line: number; character: number }>, offsets: number[]): void {
  expect(doc.getText()).toBe(oracle.getText());
  expect(doc.lineCount).toBe(oracle.lineCount);
  expect(doc.version).toBe(oracle.version);
  expect(doc.utf8Size).toBe(Buffer.byteLength(oracle.getText(), 'utf8'));
  for (const p of positions) expect(doc.offsetAt(p), JSON.stringify(p)).toBe(oracle.offsetAt(p));
  for (const o of offsets) expect(doc.positionAt(o), String(o)).toEqual(oracle.positionAt(o));
  for (const { line } of positions) {
    expect(doc.getLineRange(line), `line ${line}`).toEqual(oracle.getLineRange(line));
    expect(doc.getEOLCharacters(line), `line ${line}`).toBe(oracle.getEOLCharacters(line));
  }
  for (let i = 0; i + 1 < positions.length; i += 2) {
    const range = { start: positions[i]!, end: positions[i + 1]! };
    expect(doc.getText(range), JSON.stringify(range)).toBe(oracle.getText(range));
  }
}

describe('the document of pieces', () => {
  it('equals the library document under random edits, wherever its pieces are cut', () => {
    fc.assert(
      fc.property(
        text,
        cuts,
        fc.integer({ min: 2, max: 9 }),
        fc.array(change, { maxLength: 8 }),
        fc.array(position, { maxLength: 10 }),
        fc.array(fc.integer({ min: -3, max: 200 }), { maxLength: 10 }),
        (initial, at, pieceLength, changes, positions, offsets) => {
          const doc = PieceTextDocument.ofPieces('file:///a.mthds', 'mthds', 1, piecesOf(initial, at), pieceLength);
          const oracle = TextDocument.create('file:///a.mthds', 'mthds', 1, initial);
          expectSame(doc, oracle, positions, offsets);
          let version = 1;
          for (const sent of changes) {
            version += 1;
            // Clamped as the server does (lsp/clamp.ts): the library miscounts lines given a range past the end.
            const c = clampChange(oracle, sent);
            doc.update([c], version);
            TextDocument.update(oracle, [c], version);
            expectSame(doc, oracle, positions, offsets);
          }
          // Every position of the text, and each offset through it, once more.
          const all = Array.from({ length: oracle.getText().length + 2 }, (_, o) => o);
          expectSame(doc, oracle, all.map((o) => oracle.positionAt(o)), all);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('takes several changes in one update, as a client sends them', () => {
    const doc = PieceTextDocument.ofText('file:///a.mthds', 'mthds', 1, 'one\r\ntwo\nthree\rfour', 3);
    const oracle = TextDocument.create('file:///a.mthds', 'mthds', 1, 'one\r\ntwo\nthree\rfour');
    const changes = [
      { range: { start: { line: 1, character: 1 }, end: { line: 2, character: 2 } }, text: 'X\r' },
      { range: { start: { line: 0, character: 3 }, end: { line: 0, character: 3 } }, text: '\n' },
      { range: { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } }, text: 'end😀' },
    ];
    doc.update(changes, 2);
    TextDocument.update(oracle, changes, 2);
    expect(doc.getText()).toBe('one\n\r\ntX\rree\rfourend😀');
    expectSame(doc, oracle, [{ line: 3, character: 9 }, { line: 1, character: 0 }], [0, 3, 4, 5, 30]);
  });

  it('keeps the pieces it was not edited in, and its text a string joined from them', () => {
    const pieces = ['[pipe.a]\n', 'x = 1\n', '[pipe.b]\n', 'y = 2\n'];
    const doc = PieceTextDocument.ofPieces('file:///a.mthds', 'mthds', 1, pieces, 4);
    expect(doc.pieces).toEqual(pieces);
    doc.update([{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 1 } }, text: 'z' }], 2);
    // The first piece is far from the edit: the same string, not a copy.
    expect(doc.pieces[0]).toBe(pieces[0]);
    expect(doc.pieces.join('')).toBe('[pipe.a]\nx = 1\n[pipe.b]\nz = 2\n');
    expect(doc.getText()).toBe(doc.getText());
  });

  it('counts its lines a piece a step ahead of need, an edit meanwhile taken into account', () => {
    const text = Array.from({ length: 200 }, (_, i) => `[pipe.p${i}]${i % 3 === 0 ? '\r\n' : '\n'}x = ${i}\r`).join('');
    const doc = PieceTextDocument.ofText('file:///a.mthds', 'mthds', 1, text, 50);
    const oracle = TextDocument.create('file:///a.mthds', 'mthds', 1, text);
    const steps = doc.lineCountSteps();
    let n = 0;
    for (; n < 40; n++) steps.next();
    const edit = { range: { start: { line: 30, character: 2 }, end: { line: 301, character: 1 } }, text: 'cut\n' };
    doc.update([edit], 2);
    TextDocument.update(oracle, [edit], 2);
    while (!steps.next().done) n++;
    // A step per piece: as many as the text has pieces, and a few counted again after the edit.
    expect(n).toBeGreaterThanOrEqual(doc.pieces.length - 1);
    const all = Array.from({ length: oracle.getText().length + 1 }, (_, o) => o);
    expectSame(doc, oracle, all.map((o) => oracle.positionAt(o)), all);
  });
});
