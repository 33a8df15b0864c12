// textDocument/hover: the language layer's hover in the client's format, over the range of the thing hovered.

import type { Hover, HoverParams } from 'vscode-languageserver';
import { hoverAt } from '../ide/index.js';
import type { ModelCatalog } from '../language/modelCatalog.js';
import { markup, type MarkupFormat } from './markup.js';
import { positionToOffset, rangeToLspRange } from '../syntax/positions.js';
import type { FileView } from './views.js';

export function hover(view: FileView, params: HoverParams, models: ModelCatalog, format: MarkupFormat): Hover | null {
  const lineStarts = view.bundle.doc.lineStarts;
  const offset = positionToOffset(lineStarts, view.text, params.position);
  const found = hoverAt({ tree: view.tree, bundle: view.bundle, offset, models, ...(view.findings ? { findings: view.findings } : {}) });
  if (!found) return null;
  return { contents: markup(found.markdown, format), range: rangeToLspRange(lineStarts, found.range) };
}
