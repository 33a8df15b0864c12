// The custom request `mthds/methodGraph`: the method graph of the tree of a document (`uri`), or
// of every tree of the workspace, with files as URIs and LSP ranges.

import type { Range as LspRange } from 'vscode-languageserver';
import { buildMethodGraph, type GraphEdge, type GraphNode } from '../ide/index.js';
import type { TreeCheck } from '../workspace/session.js';
import { toLspRange } from './convert.js';
import { locatorFor, type FeatureContext } from './featureContext.js';

export const METHOD_GRAPH_REQUEST = 'mthds/methodGraph';

export interface MethodGraphParams {
  uri?: string;
}

export interface LspGraphNode extends Omit<GraphNode, 'range'> {
  range: LspRange;
}

export interface MethodGraphResult {
  trees: Array<{ root: string; nodes: LspGraphNode[]; edges: GraphEdge[] }>;
}

export function methodGraphResult(ctx: FeatureContext, params: MethodGraphParams): MethodGraphResult {
  const session = ctx.host.session();
  const checks: TreeCheck[] = [];
  if (typeof params.uri === 'string') {
    const file = ctx.host.ourFile(params.uri);
    const check = file !== undefined ? ctx.host.ensureCurrent(file) : undefined;
    if (check) checks.push(check);
  } else {
    for (const id of session.treeIds()) {
      const last = session.lastCheck(id.key);
      const check = last?.tree && !session.isDirty(id.key) ? last : ctx.host.checkTree(id.key);
      if (check) checks.push(check);
    }
  }
  const trees: MethodGraphResult['trees'] = [];
  for (const check of checks) {
    const tree = check.tree;
    if (!tree) continue;
    const locator = locatorFor(tree, ctx.host.locator);
    const graph = buildMethodGraph(tree, [...check.findings.values()].flat());
    const root = tree.root !== '' ? locator.uriOf(tree.root) : tree.bundles[0] ? locator.uriOf(tree.bundles[0].file) : '';
    trees.push({
      root,
      nodes: graph.nodes.map((n) => ({ ...n, file: locator.uriOf(n.file), range: toLspRange(locator, n.file, n.range) })),
      edges: graph.edges,
    });
    // A tree checked only for this answer gives its parsed documents back.
    if (typeof params.uri !== 'string') session.releaseTree(check.id.key);
  }
  return { trees };
}
