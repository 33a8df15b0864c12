// textDocument/inlayHint: type hints after step results and template reads, tooltips in the
// client's format.

import { InlayHintKind, type InlayHint, type InlayHintParams } from 'vscode-languageserver';
import { inlaysOf } from '../ide/index.js';
import { lspRangeToRange, offsetToPosition } from '../syntax/positions.js';
import { markup, type MarkupFormat } from './markup.js';
import type { FileView } from './views.js';

export function inlayHints(view: FileView, params: InlayHintParams, tooltipFormat: MarkupFormat): InlayHint[] {
  const lineStarts = view.bundle.doc.lineStarts;
  const range = lspRangeToRange(lineStarts, view.text, params.range);
  return inlaysOf(view.tree, view.bundle, range).map((i) => {
    const tooltip = markup(i.tooltip, tooltipFormat);
    // A client that reads no markdown gets the tooltip as a plain string (always allowed).
    return { position: offsetToPosition(lineStarts, i.offset), label: i.label, kind: InlayHintKind.Type, tooltip: tooltip.kind === 'markdown' ? tooltip : tooltip.value };
  });
}
