// textDocument/semanticTokens (full, range, delta): the occurrences of the model
// (language/occurrences.ts) as tokens. Concepts are types, pipes functions, pipe types classes,
// model references read-only variables, template variables parameters, input names parameter
// declarations, step results variables, domains namespaces. Nothing here reads the text itself.

import type { SemanticTokens, SemanticTokensDelta, SemanticTokensLegend } from 'vscode-languageserver';
import { occurrencesOf, type Occurrence, type OccurrenceKind } from '../ide/index.js';
import { offsetToPosition } from '../syntax/positions.js';
import type { Range } from '../syntax/types.js';
import type { FileView } from './views.js';

const TOKEN_TYPES = ['type', 'function', 'class', 'variable', 'parameter', 'namespace'] as const;
const TOKEN_MODIFIERS = ['declaration', 'defaultLibrary', 'readonly'] as const;

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

type TokenType = (typeof TOKEN_TYPES)[number];
type TokenModifier = (typeof TOKEN_MODIFIERS)[number];

const TYPE_OF: Readonly<Record<OccurrenceKind, TokenType>> = {
  concept: 'type',
  pipe: 'function',
  'pipe-type': 'class',
  model: 'variable',
  'template-variable': 'parameter',
  input: 'parameter',
  result: 'variable',
  domain: 'namespace',
};

function modifiersOf(o: Occurrence): number {
  const mods: TokenModifier[] = [];
  if (o.role === 'declaration') mods.push('declaration');
  if ((o.kind === 'concept' && o.key.startsWith('native.')) || o.kind === 'pipe-type') mods.push('defaultLibrary');
  if (o.kind === 'model') mods.push('readonly');
  return mods.reduce((bits, m) => bits | (1 << TOKEN_MODIFIERS.indexOf(m)), 0);
}

/** The encoded tokens of the occurrences overlapping `range` (all of them without one). */
export function encodeTokens(occurrences: readonly Occurrence[], lineStarts: readonly number[], range?: Range): number[] {
  const data: number[] = [];
  let prevLine = 0;
  let prevChar = 0;
  let lastEnd = -1;
  for (const o of occurrences) {
    if (o.range.end <= o.range.start || o.range.start < lastEnd) continue;
    if (range && (o.range.end < range.start || o.range.start > range.end)) continue;
    const start = offsetToPosition(lineStarts, o.range.start);
    const end = offsetToPosition(lineStarts, o.range.end);
    // Tokens never span lines (clients without multiline token support drop them).
    if (end.line !== start.line) continue;
    data.push(start.line - prevLine, start.line === prevLine ? start.character - prevChar : start.character, end.character - start.character, TOKEN_TYPES.indexOf(TYPE_OF[o.kind]), modifiersOf(o));
    prevLine = start.line;
    prevChar = start.character;
    lastEnd = o.range.end;
  }
  return data;
}

/** The one edit turning `before` into `after`: the middle between their common prefix and suffix. */
export function diffTokens(before: readonly number[], after: readonly number[]): { start: number; deleteCount: number; data: number[] } | undefined {
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  if (prefix === before.length && prefix === after.length) return undefined;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return { start: prefix, deleteCount: before.length - prefix - suffix, data: after.slice(prefix, after.length - suffix) };
}

const MAX_DOCUMENTS = 64;

/** Full and delta results per document, with the result ids a delta request refers to. */
export class SemanticTokenStore {
  private readonly last = new Map<string, { resultId: string; data: number[] }>();
  private counter = 0;

  private tokens(view: FileView): number[] {
    return encodeTokens(occurrencesOf(view.tree, view.bundle), view.bundle.doc.lineStarts);
  }

  full(uri: string, view: FileView): SemanticTokens {
    const data = this.tokens(view);
    const resultId = String(++this.counter);
    this.remember(uri, resultId, data);
    return { resultId, data };
  }

  delta(uri: string, view: FileView, previousResultId: string): SemanticTokens | SemanticTokensDelta {
    const previous = this.last.get(uri);
    if (!previous || previous.resultId !== previousResultId) return this.full(uri, view);
    const data = this.tokens(view);
    const resultId = String(++this.counter);
    this.remember(uri, resultId, data);
    const edit = diffTokens(previous.data, data);
    return { resultId, edits: edit ? [edit] : [] };
  }

  range(view: FileView, range: Range): SemanticTokens {
    return { data: encodeTokens(occurrencesOf(view.tree, view.bundle), view.bundle.doc.lineStarts, range) };
  }

  /** Keeps the last result of a bounded number of documents (closed ones age out). */
  private remember(uri: string, resultId: string, data: number[]): void {
    this.last.delete(uri);
    this.last.set(uri, { resultId, data });
    if (this.last.size > MAX_DOCUMENTS) this.last.delete(this.last.keys().next().value!);
  }
}
