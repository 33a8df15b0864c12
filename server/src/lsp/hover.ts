// textDocument/hover: the language layer's hover as markdown, over the range of the thing hovered.

import type { Hover, HoverParams } from 'vscode-languageserver';
import { hoverAt } from '../language/hoverInfo.js';
import type { ModelCatalog } from '../language/modelCatalog.js';
import { positionToOffset, rangeToLspRange } from '../syntax/positions.js';
import type { FileView } from './views.js';

export function hover(view: FileView, params: HoverParams, models: ModelCatalog): Hover | null {
  const lineStarts = view.bundle.doc.lineStarts;
  const offset = positionToOffset(lineStarts, view.text, params.position);
  const found = hoverAt({ tree: view.tree, bundle: view.bundle, offset, models, ...(view.findings ? { findings: view.findings } : {}) });
  if (!found) return null;
  return { contents: { kind: 'markdown', value: found.markdown }, range: rangeToLspRange(lineStarts, found.range) };
}
