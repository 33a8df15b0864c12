// Folding ranges from the located TOML: tables (header to their last statement), multi-line arrays,
// inline tables and strings (the closing delimiter stays visible), and blocks of comment lines.

import { FoldingRangeKind, type FoldingRange, type FoldingRangeParams } from 'vscode-languageserver';
import { lineOfOffset } from '../syntax/positions.js';
import type { LValue, TomlDocument } from '../syntax/types.js';
import type { FeatureContext } from './featureContext.js';

export function foldingRanges(ctx: FeatureContext, params: FoldingRangeParams): FoldingRange[] | null {
  const doc = ctx.docOf(params.textDocument.uri);
  if (!doc) return null;
  return foldingOf(ctx.tomlOf(doc));
}

export function foldingOf(doc: TomlDocument): FoldingRange[] {
  const ls = doc.lineStarts;
  const text = doc.text;
  const line = (offset: number): number => lineOfOffset(ls, offset);
  const out: FoldingRange[] = [];
  const add = (start: number, end: number, kind?: FoldingRangeKind): void => {
    if (end > start) out.push(kind ? { startLine: start, endLine: end, kind } : { startLine: start, endLine: end });
  };
  /** A construct closing at `close` (offset of its closing delimiter): keep that line visible when it starts with it. */
  const closingLine = (close: number): number => {
    const l = line(close);
    return /^[ \t]*$/.test(text.slice(ls[l]!, close)) ? l - 1 : l;
  };
  const value = (v: LValue): void => {
    if (v.type === 'array' && !v.ofTables) {
      add(line(v.range.start), closingLine(v.range.end - 1));
      v.items.forEach(value);
    } else if (v.type === 'table' && v.origin === 'inline') {
      add(line(v.range.start), closingLine(v.range.end - 1));
      for (const e of v.entries) value(e.value);
    } else if (v.type === 'table' && v.origin === 'dotted') {
      for (const e of v.entries) value(e.value);
    } else if (v.type === 'string' && (v.style === 'ml-basic' || v.style === 'ml-literal')) {
      add(line(v.range.start), closingLine(v.contentEnd));
    }
  };

  const statements = doc.statements;
  let header: { line: number; last: number } | undefined;
  const closeHeader = (): void => {
    if (header) add(header.line, header.last);
    header = undefined;
  };
  let comments: { first: number; last: number } | undefined;
  const closeComments = (): void => {
    if (comments && comments.last > comments.first) add(comments.first, comments.last, FoldingRangeKind.Comment);
    comments = undefined;
  };
  let prevEndLine = -1;
  let prevEnd = 0;
  for (const st of statements) {
    const startLine = line(st.range.start);
    const endLine = line(Math.max(st.range.start, st.range.end - 1));
    if (st.kind === 'comment') {
      // Comments inside a value, or after a statement on its line, are no comment block.
      if (st.range.start < prevEnd || startLine === prevEndLine) continue;
      if (comments && startLine === comments.last + 1) comments.last = startLine;
      else {
        closeComments();
        comments = { first: startLine, last: startLine };
      }
      continue;
    }
    closeComments();
    prevEndLine = endLine;
    prevEnd = st.range.end;
    if (st.kind === 'header') {
      closeHeader();
      header = { line: startLine, last: startLine };
    } else {
      if (header) header.last = endLine;
      if (st.kind === 'keyvalue') value(st.value);
    }
  }
  closeComments();
  closeHeader();
  out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  return out;
}
