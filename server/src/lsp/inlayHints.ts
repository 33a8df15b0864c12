// textDocument/inlayHint: type hints after step results and template reads.

import { InlayHintKind, type InlayHint, type InlayHintParams } from 'vscode-languageserver';
import { inlaysOf } from '../language/inlays.js';
import { lspRangeToRange, offsetToPosition } from '../syntax/positions.js';
import type { FileView } from './views.js';

export function inlayHints(view: FileView, params: InlayHintParams): InlayHint[] {
  const lineStarts = view.bundle.doc.lineStarts;
  const range = lspRangeToRange(lineStarts, view.text, params.range);
  return inlaysOf(view.tree, view.bundle, range).map((i) => ({
    position: offsetToPosition(lineStarts, i.offset),
    label: i.label,
    kind: InlayHintKind.Type,
    tooltip: { kind: 'markdown', value: i.tooltip },
  }));
}
