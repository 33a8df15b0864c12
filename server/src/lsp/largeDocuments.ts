// What a bundle past the analysed size (`workspace/documentSize.ts`) still gets: folding and an
// outline read from its table headers line by line, never parsed (the client colours it with its
// grammar), and a message when formatting is asked. A line opening a table inside a multi-line
// string is told apart by counting the string delimiters before it, as a reader skimming would.

import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import { sizePastLimit } from '../workspace/documentSize.js';
import { runInSlices } from '../util/steps.js';
import type { FeatureHost } from './featureContext.js';

export interface Header {
  line: number;
  /** The last line of its table that is not blank, and its length. */
  last: number;
  lastLength: number;
  /** The header's dotted path, as written between the brackets. */
  path: string;
  /** Where the path starts on its line. */
  column: number;
}

/** How many lines the header scan reads between two pauses (a few milliseconds). */
const LINES_PER_STEP = 20_000;
/** How long a slice of the header scan runs before queued messages go (ms). */
const SCAN_SLICE_MS = 8;
/**
 * The most folding ranges and outline entries a document past the analysed size gets (the client's
 * `rangeLimit` for folding when lower): a 50 MB bundle declares about 460,000 pipes, and written
 * out whole those lists took seconds to make and to send, holding every other request.
 */
export const MAX_LARGE_ENTRIES = 5_000;

/**
 * A text to scan: a string, or the pieces it is kept in, in order (lsp/pieceDocument.ts), read one
 * by one so that the rope they make is never flattened (one copy of the whole text at once).
 */
export type ScannedText = string | readonly string[];

// The folding and the outline of a document just opened are asked together: the scan under way
// serves both. Kept only while it runs: it holds the whole text.
let scanning: { source: ScannedText; headers: Promise<Header[]> } | undefined;

/** The table headers of a text, scanned in slices. */
function headersOf(source: ScannedText, pause: () => Promise<void>): Promise<Header[]> {
  if (scanning?.source === source) return scanning.headers;
  const headers = runInSlices(headersSteps(typeof source === 'string' ? [source] : source), SCAN_SLICE_MS, pause);
  const scan = { source, headers };
  scanning = scan;
  void headers.finally(() => {
    if (scanning === scan) scanning = undefined;
  }).catch(() => undefined);
  return headers;
}

/**
 * The table headers of a text given as pieces, each with the lines its table spans: a pause every
 * LINES_PER_STEP lines and every piece. A line may run over several pieces: it is read a part at a
 * time, never joined.
 */
export function* headersSteps(pieces: readonly string[]): Generator<void, Header[]> {
  const lines = new HeaderLines();
  for (const piece of pieces) {
    lines.piece(piece);
    for (let start = 0; ; ) {
      const end = piece.indexOf('\n', start);
      lines.part(start, end < 0 ? piece.length : end);
      if (end < 0) break;
      if (lines.endLine() % LINES_PER_STEP === 0) yield;
      // The features list the first entries only: the rest of the text is not read.
      if (lines.enough()) return lines.closedHeaders();
      start = end + 1;
    }
    yield;
  }
  lines.endLine();
  return lines.headers();
}

const SPACE = 0x20;
const TAB = 0x09;
const OPEN_BRACKET = 0x5b;
/** Past any position of a piece: no such delimiter in the rest of it. */
const NONE = Number.MAX_SAFE_INTEGER;

/** The line-by-line state of the header scan, fed a line in parts. */
class HeaderLines {
  private readonly out: Header[] = [];
  /** The piece being read and where its next string delimiters are (searched again once passed). */
  private text = '';
  private nextBasic = NONE;
  private nextLiteral = NONE;
  /** The line being read, its length so far. */
  private line = 0;
  private length = 0;
  /** Still in the line's leading blanks. */
  private leading = true;
  private filled = false;
  /** The string open at the start of the line, and as read so far. */
  private stringAtStart: Delimiter | undefined;
  private inString: Delimiter | undefined;
  /** The last two characters read that may begin a delimiter cut by the end of a part. */
  private tail = '';
  /** A `[` opening the line: where, what follows it so far, whether its `]` was met. */
  private bracket: { column: number; after: string; closed: boolean } | undefined;
  private lastFilled = 0;
  private lastFilledLength = 0;
  /** How many headers whose table is over (a header followed) make a folding range, an outline entry. */
  private folds = 0;
  private symbols = 0;

  piece(text: string): void {
    this.text = text;
    this.nextBasic = -1;
    this.nextLiteral = -1;
  }

  /** Reads `[start, end)` of the piece, a part of the line being read (all of it when it ends at a newline). */
  part(start: number, end: number): void {
    if (start === end) return;
    const text = this.text;
    let from = start;
    if (this.leading) {
      for (let c = text.charCodeAt(from); from < end && (c === SPACE || c === TAB); c = text.charCodeAt(++from));
      if (from < end) {
        this.leading = false;
        this.filled = true;
        if (!this.stringAtStart && text.charCodeAt(from) === OPEN_BRACKET) this.bracket = { column: this.length + from - start, after: '', closed: false };
        from += 1;
      }
    }
    if (this.bracket && !this.bracket.closed) {
      const part = text.slice(from, end);
      const close = part.indexOf(']');
      this.bracket.after += close < 0 ? part : part.slice(0, close);
      this.bracket.closed = close >= 0;
    }
    // Most lines hold no delimiter: told by the next ones in the piece, found once, without a copy of the line.
    if (this.tail !== '' || end === text.length || this.delimiterBefore(start, end)) this.readStrings(text.slice(start, end));
    this.length += end - start;
  }

  /** Whether a delimiter that may change the string state starts in `[start, end)`. */
  private delimiterBefore(start: number, end: number): boolean {
    if (this.nextBasic < start && this.nextBasic !== NONE) this.nextBasic = found(this.text.indexOf(BASIC, start));
    if (this.nextLiteral < start && this.nextLiteral !== NONE) this.nextLiteral = found(this.text.indexOf(LITERAL, start));
    const next = this.inString === BASIC ? this.nextBasic : this.inString === LITERAL ? this.nextLiteral : Math.min(this.nextBasic, this.nextLiteral);
    return next < end;
  }

  /** Ends the line being read: the number of the next one. */
  endLine(): number {
    const b = this.bracket;
    if (b?.closed) {
      const previous = this.out[this.out.length - 1];
      if (previous) {
        previous.last = this.lastFilled;
        previous.lastLength = this.lastFilledLength;
        if (previous.last > previous.line) this.folds++;
        if (symbolOf(previous)) this.symbols++;
      }
      const doubled = b.after.startsWith('[');
      this.out.push({ line: this.line, last: this.line, lastLength: this.length, path: (doubled ? b.after.slice(1) : b.after).trim(), column: b.column + (doubled ? 2 : 1) });
    }
    // Plain assignments: this runs once a line, millions of times, and must not allocate.
    if (this.filled) {
      this.lastFilled = this.line;
      this.lastFilledLength = this.length;
    }
    this.stringAtStart = this.inString;
    this.length = 0;
    this.leading = true;
    this.filled = false;
    this.tail = '';
    this.bracket = undefined;
    return ++this.line;
  }

  /** Whether the headers of closed tables already give the most entries either feature lists. */
  enough(): boolean {
    return this.folds >= MAX_LARGE_ENTRIES && this.symbols >= MAX_LARGE_ENTRIES;
  }

  /** The headers found, the last one left out: its table may run on in the text not read. */
  closedHeaders(): Header[] {
    this.out.pop();
    return this.out;
  }

  headers(): Header[] {
    const final = this.out[this.out.length - 1];
    if (final && this.lastFilled > final.line) {
      final.last = this.lastFilled;
      final.lastLength = this.lastFilledLength;
    }
    return this.out;
  }

  /** Follows the multi-line strings opened and closed in a part of the line (delimiters searched within it only). */
  private readStrings(part: string): void {
    // A delimiter cut by the end of the previous part begins in its tail.
    const text = this.tail + part;
    let at = 0;
    for (;;) {
      if (this.inString) {
        const close = text.indexOf(this.inString, at);
        if (close < 0) break;
        at = close + 3;
        this.inString = undefined;
      } else {
        const basic = text.indexOf(BASIC, at);
        const literal = text.indexOf(LITERAL, at);
        if (basic < 0 && literal < 0) break;
        const first = basic < 0 ? literal : literal < 0 ? basic : Math.min(basic, literal);
        at = first + 3;
        this.inString = first === basic ? BASIC : LITERAL;
      }
    }
    this.tail = at >= text.length ? '' : text.slice(Math.max(at, text.length - 2));
  }
}

const found = (at: number): number => (at < 0 ? NONE : at);

const BASIC = '"""';
const LITERAL = "'''";
type Delimiter = typeof BASIC | typeof LITERAL;

/** One folding range per table, from its header to its last line: the first `limit` (MAX_LARGE_ENTRIES at most). */
export async function largeDocumentFolding(text: ScannedText, limit: number | undefined, pause: () => Promise<void>): Promise<FoldingRange[]> {
  const out: FoldingRange[] = [];
  const max = Math.min(limit ?? MAX_LARGE_ENTRIES, MAX_LARGE_ENTRIES);
  for (const h of await headersOf(text, pause)) {
    if (out.length >= max) break;
    if (h.last > h.line) out.push({ startLine: h.line, endLine: h.last, kind: FoldingRangeKind.Region });
  }
  return out;
}

/** The concepts and pipes declared by their headers (`[concept.X]`, `[pipe.x]`), as the outline lists them: the first MAX_LARGE_ENTRIES. */
export async function largeDocumentSymbols(text: ScannedText, pause: () => Promise<void>): Promise<DocumentSymbol[]> {
  const out: DocumentSymbol[] = [];
  for (const h of await headersOf(text, pause)) {
    if (out.length >= MAX_LARGE_ENTRIES) break;
    const symbol = symbolOf(h);
    if (!symbol) continue;
    const { name, kind } = symbol;
    const nameAt = h.column + kind.length + 1;
    out.push({
      name,
      kind: kind === 'concept' ? SymbolKind.Class : SymbolKind.Function,
      range: { start: { line: h.line, character: 0 }, end: { line: h.last, character: h.lastLength } },
      selectionRange: { start: { line: h.line, character: nameAt }, end: { line: h.line, character: nameAt + name.length } },
    });
  }
  return out;
}

/** The concept or pipe a header declares (`[concept.X]`, `[pipe.x]`), if any. */
function symbolOf(h: Header): { kind: 'concept' | 'pipe'; name: string } | undefined {
  const parts = h.path.split('.');
  if (parts.length !== 2 || (parts[0] !== 'concept' && parts[0] !== 'pipe') || parts[1] === '') return undefined;
  return { kind: parts[0], name: parts[1]! };
}

/** Why formatting is refused on such a document. */
export function formattingRefusedMessage(size: number, limit: number): string {
  return `mthds: the document is not formatted: it holds ${size} bytes, more than the ${limit} the language server analyses (mthds format formats it from the command line)`;
}

/**
 * A document past the analysed size, with its size and its text to scan (the pieces its open
 * document keeps); undefined for any other.
 */
export function largeDocument(host: FeatureHost, uri: string): { source: ScannedText; size: number } | undefined {
  const file = host.ourFile(uri);
  const text = file === undefined ? undefined : host.session().textOf(file);
  const size = text === undefined ? undefined : sizePastLimit(text);
  if (size === undefined) return undefined;
  return { source: host.piecesOf?.(uri) ?? text!, size };
}
