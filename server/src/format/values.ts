// Lays out one value. Scalars and strings are copied verbatim (their text IS their value, and a
// multi-line string's content is the author's); only the blanks between the parts of arrays and
// inline tables change. What lies between those parts is read from the source ("gaps"): blanks,
// commas and comments only, anything else means the tree and the text disagree, and formatting
// stops (FormatBail) rather than guessing.

import type { LArray, LTable, LValue } from '../syntax/types.js';
import type { ResolvedFormatOptions } from './options.js';

export class FormatBail extends Error {}

/** A part of an array or inline table in source order: an item, or a comment between items. */
type Element =
  | { kind: 'item'; node: LValue; key?: string; newlines: number }
  | { kind: 'comment'; text: string; newlines: number };

export class ValueLayout {
  constructor(
    private readonly text: string,
    private readonly eol: string,
    private readonly options: ResolvedFormatOptions,
  ) {}

  /** The value laid out, continuing a line indented `depth` levels. */
  value(node: LValue, depth: number): string {
    if (node.type === 'array' && !node.ofTables) return this.array(node, depth);
    if (node.type === 'table') {
      if (node.origin !== 'inline') throw new FormatBail('a table where a value was expected');
      return this.inlineTable(node, depth);
    }
    if (node.type === 'invalid') throw new FormatBail('an invalid value');
    return this.text.slice(node.range.start, node.range.end);
  }

  private array(node: LArray, depth: number): string {
    const elements: Element[] = [];
    let at = node.range.start + 1;
    for (const item of node.items) {
      const newlines = this.gap(at, item.range.start, elements);
      elements.push({ kind: 'item', node: item, newlines });
      at = item.range.end;
    }
    this.gap(at, node.range.end - 1, elements);
    if (this.text[node.range.end - 1] !== ']') throw new FormatBail('an array without its closing bracket');
    if (!elements.some((e) => e.newlines > 0 || e.kind === 'comment') && !this.endsOnNewLine(at, node.range.end - 1)) {
      return `[${node.items.map((i) => this.value(i, depth)).join(', ')}]`;
    }
    return this.multiline('[', ']', elements, depth, this.options.arrayTrailingComma);
  }

  private inlineTable(node: LTable, depth: number): string {
    const byStart = new Map<number, LValue>();
    collectValues(node, byStart);
    const elements: Element[] = [];
    const s = this.text;
    let at = node.range.start + 1;
    const close = node.range.end - 1;
    if (s[close] !== '}') throw new FormatBail('an inline table without its closing brace');
    let sawComma = false;
    for (;;) {
      const gapStart = at;
      const newlines = this.gap(at, close, elements, true);
      at = this.gapEnd;
      if (at >= close) {
        sawComma = s.slice(gapStart, close).includes(',') && elements.some((e) => e.kind === 'item');
        break;
      }
      const key = readKey(s, at);
      at = skipBlanks(s, key.end);
      if (s[at] !== '=') throw new FormatBail('an inline table key without `=`');
      at = skipBlanks(s, at + 1);
      const value = byStart.get(at);
      if (!value) throw new FormatBail('an inline table value not found in the tree');
      elements.push({ kind: 'item', node: value, key: key.text, newlines });
      at = value.range.end;
    }
    const items = elements.filter((e): e is Extract<Element, { kind: 'item' }> => e.kind === 'item');
    if (!elements.some((e) => e.newlines > 0 || e.kind === 'comment')) {
      if (items.length === 0) return '{}';
      return `{ ${items.map((e) => `${e.key} = ${this.value(e.node, depth)}`).join(', ')} }`;
    }
    // Line breaks in an inline table are a TOML 1.1 form: keep the author's trailing comma choice.
    return this.multiline('{', '}', elements, depth, sawComma);
  }

  private multiline(open: string, close: string, elements: readonly Element[], depth: number, trailingComma: boolean): string {
    const inner = this.options.indentString.repeat(depth + 1);
    const lines: string[] = [];
    let current = open;
    const lastItem = elements.reduce((last, e, i) => (e.kind === 'item' ? i : last), -1);
    elements.forEach((e, i) => {
      if (e.kind === 'comment' && e.newlines === 0) {
        current += ` ${e.text}`;
        return;
      }
      lines.push(current);
      if (e.newlines >= 2 && i > 0) lines.push('');
      if (e.kind === 'comment') current = `${inner}${e.text}`;
      else {
        const body = e.key !== undefined ? `${e.key} = ${this.value(e.node, depth + 1)}` : this.value(e.node, depth + 1);
        current = `${inner}${body}${i !== lastItem || trailingComma ? ',' : ''}`;
      }
    });
    lines.push(current);
    lines.push(`${this.options.indentString.repeat(depth)}${close}`);
    return lines.join(this.eol);
  }

  /** Where the last gap scan stopped (inline tables: at the next key). */
  private gapEnd = 0;

  /**
   * Reads the blanks, commas and comments between two parts, pushing the comments; returns the line
   * breaks before the part that follows (0: it continues the line). With `stopAtKey`, stops at the
   * first character of a key instead of failing on it.
   */
  private gap(from: number, to: number, out: Element[], stopAtKey = false): number {
    const s = this.text;
    let newlines = 0;
    let p = from;
    while (p < to) {
      const c = s[p]!;
      if (c === ' ' || c === '\t' || c === '\r' || c === ',') p++;
      else if (c === '\n') {
        newlines++;
        p++;
      } else if (c === '#') {
        let e = p;
        while (e < to && s[e] !== '\n') e++;
        out.push({ kind: 'comment', text: s.slice(p, e).trimEnd(), newlines });
        newlines = 0;
        p = e;
      } else if (stopAtKey) break;
      else throw new FormatBail(`unexpected '${c}' between the parts of a value`);
    }
    this.gapEnd = p;
    return newlines;
  }

  /** True when a line break comes before the closing bracket (keep the layout multi-line). */
  private endsOnNewLine(from: number, to: number): boolean {
    return this.text.slice(from, to).includes('\n');
  }
}

/** Values of an inline table by their start offset, through dotted keys (`a.b = 1`). */
function collectValues(table: LTable, out: Map<number, LValue>): void {
  for (const entry of table.entries) {
    if (entry.value.type === 'table' && entry.value.origin === 'dotted') collectValues(entry.value, out);
    else out.set(entry.value.range.start, entry.value);
  }
}

function skipBlanks(s: string, p: number): number {
  while (s[p] === ' ' || s[p] === '\t') p++;
  return p;
}

/** A (dotted) key as written, blanks around its dots removed. */
export function readKey(s: string, start: number): { text: string; end: number } {
  const parts: string[] = [];
  let p = start;
  for (;;) {
    const segStart = p;
    const c = s[p];
    if (c === '"') {
      p++;
      while (p < s.length && s[p] !== '"') p += s[p] === '\\' ? 2 : 1;
      p++;
    } else if (c === "'") {
      p = s.indexOf("'", p + 1) + 1;
      if (p === 0) throw new FormatBail('an unterminated key');
    } else {
      while (p < s.length && /[A-Za-z0-9_-]/.test(s[p]!)) p++;
    }
    if (p === segStart || p > s.length) throw new FormatBail('an empty key');
    parts.push(s.slice(segStart, p));
    const after = skipBlanks(s, p);
    if (s[after] !== '.') return { text: parts.join('.'), end: p };
    p = skipBlanks(s, after + 1);
  }
}
