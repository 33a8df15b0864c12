// The graph view's page body: every tree of a result drawn by the shared SVG drawing of the method
// graph (server/src/ide/graphSvg.ts and util/markup.ts, pure and dependency-free, bundled into the webview).

import { renderTree } from '../../../server/src/ide/graphSvg.js';
import { escapeMarkup } from '../../../server/src/util/markup.js';
import type { GraphTree, MethodGraphResult } from './types.js';

/** Every tree of a result, one section each; a sentence when there is nothing to draw. */
export function renderGraph(result: MethodGraphResult): string {
  if (result.trees.length === 0 || result.trees.every((t) => t.nodes.length === 0)) {
    return '<p class="empty">No pipes to draw in this method.</p>';
  }
  return result.trees
    .map((tree, i) => (tree.nodes.length === 0 ? '' : `<section class="tree"><h2>${escapeMarkup(treeHeading(tree))}</h2>${renderTree(tree, i).svg}</section>`))
    .join('');
}

/** A tree's heading: its root pipe, else the last segment of its root URI (package folder or file). */
export function treeHeading(tree: GraphTree): string {
  const root = tree.nodes.find((n) => n.id === tree.root);
  if (root) return `${root.domain ? `${root.domain}.` : ''}${root.code}`;
  const uri = /^[a-z][a-z0-9+.-]*:/i.test(tree.root) ? tree.root.replace(/[?#].*$/, '').replace(/\/+$/, '') : undefined;
  if (uri === undefined) return tree.root;
  const last = uri.slice(uri.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || tree.root;
  } catch {
    return last || tree.root;
  }
}
