// What a bundle past the analysed size (`workspace/documentSize.ts`) still gets: folding and an
// outline read from its table headers line by line, never parsed (the client colours it with its
// grammar), and a message when formatting is asked. A line opening a table inside a multi-line
// string is told apart by counting the string delimiters before it, as a reader skimming would.

import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import { sizePastLimit } from '../workspace/documentSize.js';
import { runInSlices } from '../util/steps.js';
import type { FeatureHost } from './featureContext.js';

interface Header {
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

// The folding and the outline of a document just opened are asked together: the scan under way
// serves both. Kept only while it runs: it holds the whole text.
let scanning: { text: string; headers: Promise<Header[]> } | undefined;

/** The table headers of a text, scanned in slices. */
function headersOf(text: string, pause: () => Promise<void>): Promise<Header[]> {
  if (scanning?.text === text) return scanning.headers;
  const headers = runInSlices(headersSteps(text), SCAN_SLICE_MS, pause);
  const scan = { text, headers };
  scanning = scan;
  void headers.finally(() => {
    if (scanning === scan) scanning = undefined;
  }).catch(() => undefined);
  return headers;
}

/** The table headers of a text, each with the lines its table spans, in steps of LINES_PER_STEP lines. */
function* headersSteps(text: string): Generator<void, Header[]> {
  const out: Header[] = [];
  let inString: Delimiter | undefined;
  let line = 0;
  let lastFilled = 0;
  let lastFilledLength = 0;
  for (let start = 0; start <= text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let at = start;
    while (at < end && (text[at] === ' ' || text[at] === '\t')) at++;
    if (!inString && text[at] === '[') {
      const close = text.indexOf(']', at);
      if (close > at && close < end) {
        const previous = out[out.length - 1];
        if (previous) [previous.last, previous.lastLength] = [lastFilled, lastFilledLength];
        const open = text[at + 1] === '[' ? at + 2 : at + 1;
        out.push({ line, last: line, lastLength: end - start, path: text.slice(open, close).trim(), column: open - start });
      }
    }
    if (at < end) [lastFilled, lastFilledLength] = [line, end - start];
    inString = stringStateAfter(text, start, end, inString);
    start = end + 1;
    if (line % LINES_PER_STEP === LINES_PER_STEP - 1) yield;
  }
  const final = out[out.length - 1];
  if (final && lastFilled > final.line) [final.last, final.lastLength] = [lastFilled, lastFilledLength];
  return out;
}

/** Whether a multi-line string is open at the end of the line `[start, end)`, given the state at its start. */
function stringStateAfter(text: string, start: number, end: number, state: Delimiter | undefined): Delimiter | undefined {
  // Searched within the line only: a search from every line to the end of the text is quadratic.
  const line = text.slice(start, end);
  let at = 0;
  for (;;) {
    if (state) {
      const close = line.indexOf(state, at);
      if (close < 0) return state;
      at = close + 3;
      state = undefined;
    } else {
      const basic = line.indexOf(BASIC, at);
      const literal = line.indexOf(LITERAL, at);
      if (basic < 0 && literal < 0) return undefined;
      const first = basic < 0 ? literal : literal < 0 ? basic : Math.min(basic, literal);
      state = first === basic ? BASIC : LITERAL;
      at = first + 3;
    }
  }
}

const BASIC = '"""';
const LITERAL = "'''";
type Delimiter = typeof BASIC | typeof LITERAL;

/** One folding range per table, from its header to its last line: the first `limit` (MAX_LARGE_ENTRIES at most). */
export async function largeDocumentFolding(text: string, limit: number | undefined, pause: () => Promise<void>): Promise<FoldingRange[]> {
  const out: FoldingRange[] = [];
  const max = Math.min(limit ?? MAX_LARGE_ENTRIES, MAX_LARGE_ENTRIES);
  for (const h of await headersOf(text, pause)) {
    if (out.length >= max) break;
    if (h.last > h.line) out.push({ startLine: h.line, endLine: h.last, kind: FoldingRangeKind.Region });
  }
  return out;
}

/** The concepts and pipes declared by their headers (`[concept.X]`, `[pipe.x]`), as the outline lists them: the first MAX_LARGE_ENTRIES. */
export async function largeDocumentSymbols(text: string, pause: () => Promise<void>): Promise<DocumentSymbol[]> {
  const out: DocumentSymbol[] = [];
  for (const h of await headersOf(text, pause)) {
    if (out.length >= MAX_LARGE_ENTRIES) break;
    const parts = h.path.split('.');
    if (parts.length !== 2 || (parts[0] !== 'concept' && parts[0] !== 'pipe') || parts[1] === '') continue;
    const name = parts[1]!;
    const nameAt = h.column + parts[0].length + 1;
    out.push({
      name,
      kind: parts[0] === 'concept' ? SymbolKind.Class : SymbolKind.Function,
      range: { start: { line: h.line, character: 0 }, end: { line: h.last, character: h.lastLength } },
      selectionRange: { start: { line: h.line, character: nameAt }, end: { line: h.line, character: nameAt + name.length } },
    });
  }
  return out;
}

/** Why formatting is refused on such a document. */
export function formattingRefusedMessage(size: number, limit: number): string {
  return `mthds: the document is not formatted: it holds ${size} bytes, more than the ${limit} the language server analyses (mthds format formats it from the command line)`;
}

/** A document past the analysed size, with its text and size; undefined for any other. */
export function largeDocument(host: FeatureHost, uri: string): { text: string; size: number } | undefined {
  const file = host.ourFile(uri);
  const text = file === undefined ? undefined : host.session().textOf(file);
  const size = text === undefined ? undefined : sizePastLimit(text);
  return size === undefined ? undefined : { text: text!, size };
}
