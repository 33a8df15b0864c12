// The text document of an open document too long to be one string cheaply: its text kept as the
// pieces it arrived in (lsp/packedStrings.ts makes a long text a rope of them), an edit rewriting
// the pieces it touches only. The library's document (vscode-languageserver-textdocument) keeps
// one flat string and its whole line table: for a 50 MB bundle its first edit built the table
// (a pass over the whole text, 0.6-1 s) and each edit made the edited text flat again and shifted
// the table (0.2-0.25 s), every other request waiting meanwhile. Here an edit costs the pieces it
// touches, the lines of the pieces before it are counted once, and the text is never made flat.
//
// Answers exactly as the library's document does (test/unit/lsp/pieceDocument.test.ts compares
// them under random edits): positions past the end clamped, `\r\n`, `\r` and `\n` line ends, a
// position inside a `\r\n` or after the line's end placed before the line end.

import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { utf8Size } from '../workspace/documentSize.js';

const CR = 13;
const LF = 10;

/** The longest piece an edit or a split makes (UTF-16 units): an edit rewrites two to four of them. */
export const PIECE_LENGTH = 64 * 1024;

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
const isEol = (c: number): boolean => c === CR || c === LF;

/**
 * Whether text cut between `a` and `b` would cut a `\r\n` or a surrogate pair. Pieces are never
 * cut there: the line ends of a piece are then its own, and so is its UTF-8 size.
 */
function cutsPair(a: number, b: number): boolean {
  return (a === CR && b === LF) || (isHighSurrogate(a) && isLowSurrogate(b));
}

/**
 * A copy of `s` that does not hold the string it was sliced from: a slice of a long string keeps
 * all of it alive, a rope made flat is a string of its own.
 */
function ownCopy(s: string): string {
  if (s.length < 2) return s;
  const own = s.charAt(0) + s.slice(1);
  own.charCodeAt(1);
  return own;
}

/** Pieces in order with none empty and no cut inside a pair (a character moved forward where needed). */
function cutBetweenPairs(pieces: readonly string[]): string[] {
  const out: string[] = [];
  for (let piece of pieces) {
    if (piece.length === 0) continue;
    const before = out[out.length - 1];
    if (before !== undefined && cutsPair(before.charCodeAt(before.length - 1), piece.charCodeAt(0))) {
      piece = before.charAt(before.length - 1) + piece;
      if (before.length === 1) out.pop();
      else out[out.length - 1] = before.slice(0, -1);
    }
    out.push(piece);
  }
  return out;
}

/** A text cut in pieces of `length` at most (2 at least), each a string of its own. */
function splitText(text: string, length: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + length);
    if (end < text.length && cutsPair(text.charCodeAt(end - 1), text.charCodeAt(end))) end -= 1;
    out.push(ownCopy(text.slice(at, end)));
    at = end;
  }
  return out;
}

/** Where the lines of a piece start, from its start: after each line end (a `\r\n` is one). */
function lineStartsIn(piece: string): Uint32Array {
  const starts: number[] = [];
  // Most texts have no `\r`: their line ends are found by the string search alone.
  if (piece.indexOf('\r') < 0) {
    for (let at = piece.indexOf('\n'); at >= 0; at = piece.indexOf('\n', at + 1)) starts.push(at + 1);
  } else {
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (c === LF) starts.push(i + 1);
      else if (c === CR) {
        if (piece.charCodeAt(i + 1) === LF) i++;
        starts.push(i + 1);
      }
    }
  }
  return Uint32Array.from(starts);
}

/** How many line ends a piece holds (a `\r\n` is one): lineStartsIn's length, without making it. */
function lineEndsIn(piece: string): number {
  if (piece.indexOf('\r') >= 0) return lineStartsIn(piece).length;
  let n = 0;
  for (let at = piece.indexOf('\n'); at >= 0; at = piece.indexOf('\n', at + 1)) n++;
  return n;
}

/** The balanced concatenation of pieces: a rope as deep as the log of their number, no copy. */
function joinPieces(pieces: readonly string[], from: number, to: number): string {
  if (to - from === 0) return '';
  if (to - from === 1) return pieces[from]!;
  const mid = (from + to) >> 1;
  return joinPieces(pieces, from, mid) + joinPieces(pieces, mid, to);
}

export class PieceTextDocument implements TextDocument {
  /** The pieces in order: a new array at each edit (a reader of the previous version keeps its own). */
  private parts: readonly string[];
  /** Where each piece starts in the text; one more entry: the text's length. */
  private starts: number[];
  /** The line starts of each piece (see lineStartsIn), counted when first needed. */
  private lines: Array<Uint32Array | undefined>;
  /** How many line ends come before each piece, known for the first `counted` + 1 pieces. */
  private linesBefore: number[];
  private counted = 0;
  /** The UTF-8 size of each piece (-1: not counted yet). */
  private sizes: number[];
  private joined: string | undefined;

  private constructor(
    readonly uri: string,
    readonly languageId: string,
    private currentVersion: number,
    pieces: readonly string[],
    /** The longest piece an edit makes (small in tests, to put edits across pieces). */
    private readonly pieceLength: number,
  ) {
    this.parts = [];
    this.starts = [0];
    this.lines = [];
    this.linesBefore = [0];
    this.sizes = [];
    this.replaceAll(cutBetweenPairs(pieces));
  }

  /** A document of the pieces a text arrived in, in order (lsp/textPieces.ts). */
  static ofPieces(uri: string, languageId: string, version: number, pieces: readonly string[], pieceLength = PIECE_LENGTH): PieceTextDocument {
    return new PieceTextDocument(uri, languageId, version, pieces, Math.max(2, pieceLength));
  }

  /** A document of a text in one string. */
  static ofText(uri: string, languageId: string, version: number, text: string, pieceLength = PIECE_LENGTH): PieceTextDocument {
    return PieceTextDocument.ofPieces(uri, languageId, version, splitText(text, Math.max(2, pieceLength)), pieceLength);
  }

  get version(): number {
    return this.currentVersion;
  }

  /** The pieces of the text, in order; the same array until the next edit. */
  get pieces(): readonly string[] {
    return this.parts;
  }

  get length(): number {
    return this.starts[this.parts.length]!;
  }

  /** The UTF-8 size of the text, counted piece by piece (an edit counts its pieces again only). */
  get utf8Size(): number {
    let size = 0;
    for (let i = 0; i < this.parts.length; i++) {
      if (this.sizes[i]! < 0) this.sizes[i] = utf8Size(this.parts[i]!);
      size += this.sizes[i]!;
    }
    return size;
  }

  get lineCount(): number {
    this.countThrough(this.parts.length);
    return this.linesBefore[this.parts.length]! + 1;
  }

  /** The text whole: a rope of the pieces (never made flat here), the same string until the next edit. */
  getText(range?: Range): string {
    if (range) {
      const a = this.offsetAt(range.start);
      const b = this.offsetAt(range.end);
      return this.slice(Math.min(a, b), Math.max(a, b));
    }
    return (this.joined ??= joinPieces(this.parts, 0, this.parts.length));
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.length), 0);
    const line = this.lineAt(offset);
    const start = this.lineStart(line);
    return { line, character: this.beforeLineEnd(offset, start) - start };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (!this.hasLine(position.line)) return this.length;
    const start = this.lineStart(position.line);
    if (position.character <= 0) return start;
    return this.beforeLineEnd(Math.min(start + position.character, this.lineEnd(position.line)), start);
  }

  getLineRange(line: number): Range {
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    if (!this.hasLine(line)) {
      const last = this.lineCount - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.length - this.lineStart(last) } };
    }
    const start = this.lineStart(line);
    return { start: { line, character: 0 }, end: { line, character: this.beforeLineEnd(this.lineEnd(line), start) - start } };
  }

  getEOLCharacters(line: number): string {
    if (line < 0 || !this.hasLine(line)) return '';
    const end = this.lineEnd(line);
    return this.slice(this.beforeLineEnd(end, this.lineStart(line)), end);
  }

  /** Where the line after `line` (which exists) starts, or the text's end. */
  private lineEnd(line: number): number {
    return this.hasLine(line + 1) ? this.lineStart(line + 1) : this.length;
  }

  /**
   * Counts the line ends of every piece, a piece a step: run while nothing else waits, after the
   * document opens, so that its first edit or position has no lines to count (a pass over 50 MB,
   * 30-60 ms). An edit meanwhile only makes it count again from the pieces the edit made.
   */
  *lineCountSteps(): Generator<void, void> {
    while (this.counted < this.parts.length) {
      this.countThrough(this.counted + 1);
      yield;
    }
  }

  /** Applies changes as the library's `TextDocument.update` does, each to the pieces it touches. */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if ('range' in change && change.range !== undefined) {
        const { start, end } = change.range;
        const reversed = start.line > end.line || (start.line === end.line && start.character > end.character);
        const a = this.offsetAt(reversed ? end : start);
        const b = this.offsetAt(reversed ? start : end);
        this.replace(a, b, change.text);
      } else this.replaceAll(splitText(change.text, this.pieceLength));
    }
    this.currentVersion = version;
  }

  /** Replaces `[a, b)` by `text`: the pieces holding it and one each side made again, the others kept. */
  private replace(a: number, b: number, text: string): void {
    const n = this.parts.length;
    if (n === 0) return this.replaceAll(splitText(text, this.pieceLength));
    // The neighbours go with them: a pair cut at the edit's ends is made whole again.
    const from = Math.max(0, this.pieceAt(a) - 1);
    const to = Math.min(n, this.pieceAt(Math.max(a, b - 1)) + 2);
    const region = joinPieces(this.parts, from, to);
    const offset = this.starts[from]!;
    const made = splitText(region.slice(0, a - offset) + text + region.slice(b - offset), this.pieceLength);
    this.parts = [...this.parts.slice(0, from), ...made, ...this.parts.slice(to)];
    const keptSizes = this.sizes.slice(to);
    const keptLines = this.lines.slice(to);
    this.sizes.length = from;
    this.lines.length = from;
    for (const piece of made) {
      this.sizes.push(-1);
      this.lines.push(lineStartsIn(piece));
    }
    this.sizes.push(...keptSizes);
    this.lines.push(...keptLines);
    this.indexFrom(from);
  }

  private replaceAll(pieces: string[]): void {
    this.parts = pieces;
    this.lines = new Array<Uint32Array | undefined>(pieces.length).fill(undefined);
    this.sizes = new Array<number>(pieces.length).fill(-1);
    this.indexFrom(0);
  }

  /** Recomputes where the pieces from `from` on start; their line counts are known up to `from` at most. */
  private indexFrom(from: number): void {
    const n = this.parts.length;
    this.starts.length = from + 1;
    for (let i = from; i < n; i++) this.starts[i + 1] = this.starts[i]! + this.parts[i]!.length;
    this.counted = Math.min(this.counted, from);
    this.linesBefore.length = this.counted + 1;
    this.joined = undefined;
  }

  /** The line starts of piece `i`, counted on first need. */
  private linesOf(i: number): Uint32Array {
    return (this.lines[i] ??= lineStartsIn(this.parts[i]!));
  }

  /** Counts the line ends of the pieces before piece `i` (where they are is found only in the pieces read). */
  private countThrough(i: number): void {
    for (; this.counted < i; this.counted++) {
      const k = this.counted;
      this.linesBefore[k + 1] = this.linesBefore[k]! + (this.lines[k]?.length ?? lineEndsIn(this.parts[k]!));
    }
  }

  /** Whether line `line` exists; counts the pieces only as far as needed. */
  private hasLine(line: number): boolean {
    while (this.linesBefore[this.counted]! < line && this.counted < this.parts.length) this.countThrough(this.counted + 1);
    return this.linesBefore[this.counted]! >= line;
  }

  /** The offset where line `line` (which exists) starts. */
  private lineStart(line: number): number {
    if (line === 0) return 0;
    this.hasLine(line);
    // The piece holding the line end before the line: the last whose count before it is under `line`.
    let lo = 0;
    let hi = this.counted - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.linesBefore[mid]! < line) lo = mid;
      else hi = mid - 1;
    }
    return this.starts[lo]! + this.linesOf(lo)[line - this.linesBefore[lo]! - 1]!;
  }

  /** The line holding `offset` (within the text). */
  private lineAt(offset: number): number {
    if (this.parts.length === 0) return 0;
    const i = this.pieceAt(offset);
    this.countThrough(i + 1);
    const starts = this.linesOf(i);
    const local = offset - this.starts[i]!;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= local) lo = mid + 1;
      else hi = mid;
    }
    return this.linesBefore[i]! + lo;
  }

  /** The piece holding `offset`: the last piece for the text's end. */
  private pieceAt(offset: number): number {
    let lo = 0;
    let hi = this.parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private charCodeAt(offset: number): number {
    const i = this.pieceAt(offset);
    return this.parts[i]!.charCodeAt(offset - this.starts[i]!);
  }

  /** `offset` moved back over the line end before it, not past the line's start. */
  private beforeLineEnd(offset: number, lineStart: number): number {
    while (offset > lineStart && isEol(this.charCodeAt(offset - 1))) offset--;
    return offset;
  }

  /** The text of `[a, b)`, from the pieces holding it. */
  private slice(a: number, b: number): string {
    if (a >= b) return '';
    const first = this.pieceAt(a);
    const last = this.pieceAt(b - 1);
    if (first === last) return this.parts[first]!.slice(a - this.starts[first]!, b - this.starts[first]!);
    let out = this.parts[first]!.slice(a - this.starts[first]!);
    for (let i = first + 1; i < last; i++) out += this.parts[i]!;
    return out + this.parts[last]!.slice(0, b - this.starts[last]!);
  }
}
