// textDocument/formatting and rangeFormatting over the formatter (format/). The indentation comes
// from the request (tab size, spaces or tabs); the formatter's own options may ride along as extra
// properties of the request's options, named as taplo names them (alignEntries, arrayTrailingComma,
// indentString, reorderKeys). A document with syntax errors gets no edits.

import type { DocumentFormattingParams, Range as LspRange, TextEdit } from 'vscode-languageserver';
import { formatEdits, type FormatOptions } from '../format/index.js';
import { lspRangeToRange, rangeToLspRange } from '../syntax/positions.js';
import type { FeatureContext } from './featureContext.js';

export function formattingEdits(ctx: FeatureContext, params: DocumentFormattingParams, range?: LspRange): TextEdit[] | null {
  const doc = ctx.docOf(params.textDocument.uri);
  if (!doc) return null;
  const toml = ctx.tomlOf(doc);
  const options = formatOptionsOf(params.options);
  const wanted = range ? lspRangeToRange(doc.lineStarts, doc.text, range) : undefined;
  const result = formatEdits(doc.text, options, wanted, toml);
  if (!result.ok) return [];
  return result.edits.map((e) => ({ range: rangeToLspRange(doc.lineStarts, e.range), newText: e.newText }));
}

/** The formatter's options from the LSP formatting options. */
export function formatOptionsOf(options: DocumentFormattingParams['options']): FormatOptions {
  const out: FormatOptions = {};
  const extra = options as unknown as Record<string, unknown>;
  if (typeof options.tabSize === 'number' && options.tabSize > 0) out.indentString = options.insertSpaces === false ? '\t' : ' '.repeat(Math.min(options.tabSize, 16));
  if (typeof extra['indentString'] === 'string') out.indentString = extra['indentString'];
  for (const key of ['alignEntries', 'arrayTrailingComma', 'reorderKeys'] as const) {
    const v = extra[key];
    if (typeof v === 'boolean') out[key] = v;
  }
  return out;
}
