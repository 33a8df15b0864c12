// The one renderer of the documentation the server sends (hover, completion documentation, inlay
// tooltips): the language layer writes markdown; a client that declares markdown gets it as is,
// any other gets a plain-text rendering (no markdown syntax; tables as aligned columns). The
// markdown is parsed by markdown-it, so escapes, code spans and tables are read as markdown reads
// them rather than by patterns.

import MarkdownIt, { type Token } from 'markdown-it';
import { lazy } from '../util/lazy.js';
import type { ClientCapabilities, MarkupContent } from 'vscode-languageserver';

export type MarkupFormat = 'markdown' | 'plaintext';

/** The formats the client declared for each place the server sends documentation. */
export interface ClientFormats {
  hover: MarkupFormat;
  completion: MarkupFormat;
  /** Inlay tooltips have no format of their own in LSP: the hover's is the client's rendering of markup. */
  tooltip: MarkupFormat;
}

/**
 * The first format of the client's list (its order is its preference) that this server writes.
 * A client that declares none gets plain text: markdown is sent only to who asked for it.
 */
export function chooseFormat(declared: readonly string[] | undefined): MarkupFormat {
  for (const f of declared ?? []) if (f === 'markdown' || f === 'plaintext') return f;
  return 'plaintext';
}

export function clientFormats(caps: ClientCapabilities): ClientFormats {
  const hover = chooseFormat(caps.textDocument?.hover?.contentFormat);
  return { hover, completion: chooseFormat(caps.textDocument?.completion?.completionItem?.documentationFormat), tooltip: hover };
}

/** Markdown as the client reads it. */
export function markup(markdown: string, format: MarkupFormat): MarkupContent {
  return format === 'markdown' ? { kind: 'markdown', value: markdown } : { kind: 'plaintext', value: plainText(markdown) };
}

/** Made on the first plain-text rendering (constructing it compiles link patterns it never uses here). */
const parser = lazy(() => new MarkdownIt({ html: false, linkify: false }));
/** Completion lists render the same spec documentation many times. */
const rendered = new Map<string, string>();
const CACHE_LIMIT = 2000;

/** Whether `plainText` keeps the rendering of `markdown` already (the warm-up renders what completion will show). */
export function renderedAlready(markdown: string): boolean {
  return rendered.has(markdown);
}

/** A readable plain-text rendering of markdown: paragraphs, indented code, aligned tables, bullets. */
export function plainText(markdown: string): string {
  let text = rendered.get(markdown);
  if (text === undefined) {
    text = blocks(parser().parse(markdown, {})).join('\n\n');
    if (rendered.size >= CACHE_LIMIT) rendered.clear();
    rendered.set(markdown, text);
  }
  return text;
}

/** The index of the token closing the one opened at `open` (same nesting level). */
function closing(tokens: readonly Token[], open: number): number {
  const type = tokens[open]!.type.replace(/_open$/, '_close');
  const level = tokens[open]!.level;
  for (let j = open + 1; j < tokens.length; j++) if (tokens[j]!.type === type && tokens[j]!.level === level) return j;
  return tokens.length - 1;
}

function indent(text: string, by: string, first = by): string {
  return text
    .split('\n')
    .map((line, i) => (line === '' ? line : (i === 0 ? first : by) + line))
    .join('\n');
}

/** The block-level text of a token stream, one string per block. */
function blocks(tokens: readonly Token[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    switch (t.type) {
      case 'inline':
        out.push(inline(t.children ?? []));
        break;
      case 'fence':
      case 'code_block':
        out.push(indent(t.content.replace(/\n$/, ''), '  '));
        break;
      case 'html_block':
        out.push(t.content.replace(/\n$/, ''));
        break;
      case 'table_open': {
        const end = closing(tokens, i);
        out.push(table(tokens.slice(i + 1, end)));
        i = end;
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const end = closing(tokens, i);
        out.push(list(tokens.slice(i + 1, end), t.type === 'ordered_list_open' ? Number(t.attrGet('start') ?? 1) : undefined));
        i = end;
        break;
      }
      case 'blockquote_open': {
        const end = closing(tokens, i);
        out.push(indent(blocks(tokens.slice(i + 1, end)).join('\n\n'), '  '));
        i = end;
        break;
      }
      default:
        // Paragraph and heading boundaries, rules: the blank line between blocks says it.
        break;
    }
  }
  return out.filter((b) => b !== '');
}

function inline(children: readonly Token[]): string {
  let out = '';
  let href: string | undefined;
  let linkStart = 0;
  for (const c of children) {
    switch (c.type) {
      case 'text':
      case 'code_inline':
      case 'html_inline':
        out += c.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        out += '\n';
        break;
      case 'image':
        out += c.content;
        break;
      case 'link_open':
        href = c.attrGet('href') ?? undefined;
        linkStart = out.length;
        break;
      case 'link_close':
        if (href !== undefined && href !== out.slice(linkStart)) out += ` (${href})`;
        href = undefined;
        break;
      default:
        // Emphasis and strike markers carry no text.
        break;
    }
  }
  return out;
}

function list(tokens: readonly Token[], start: number | undefined): string {
  const items: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.type !== 'list_item_open') continue;
    const end = closing(tokens, i);
    const bullet = start === undefined ? '• ' : `${start + items.length}. `;
    items.push(indent(blocks(tokens.slice(i + 1, end)).join('\n'), ' '.repeat(bullet.length), bullet));
    i = end;
  }
  return items.join('\n');
}

/** Display width: code points (the tables hold names, types and short descriptions). */
function width(text: string): number {
  return [...text].length;
}

function table(tokens: readonly Token[]): string {
  const rows: string[][] = [];
  let row: string[] | undefined;
  for (const t of tokens) {
    if (t.type === 'tr_open') rows.push((row = []));
    else if (t.type === 'inline' && row) row.push(inline(t.children ?? []).replace(/\s*\n\s*/g, ' '));
  }
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, c) => Math.max(0, ...rows.map((r) => width(r[c] ?? ''))));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell + ' '.repeat(widths[c]! - width(cell)))).join('  ').trimEnd()).join('\n');
}
