// What a bundle past the analysed size (`workspace/documentSize.ts`) still gets: folding and an
// outline read from its table headers line by line, never parsed (the client colours it with its
// grammar), and a message when formatting is asked. A line opening a table inside a multi-line
// string is told apart by counting the string delimiters before it, as a reader skimming would.

import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import { sizePastLimit } from '../workspace/documentSize.js';
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

/** The table headers of a text, each with the lines its table spans. */
function headersOf(text: string): Header[] {
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

/** One folding range per table, from its header to its last line. */
export function largeDocumentFolding(text: string): FoldingRange[] {
  return headersOf(text)
    .filter((h) => h.last > h.line)
    .map((h) => ({ startLine: h.line, endLine: h.last, kind: FoldingRangeKind.Region }));
}

/** The concepts and pipes declared by their headers (`[concept.X]`, `[pipe.x]`), as the outline lists them. */
export function largeDocumentSymbols(text: string): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  for (const h of headersOf(text)) {
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
