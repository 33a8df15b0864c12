// Pure helpers of the graph panel: the heading above the drawing, the sentence for a failed
// request, and the node a click in the webview names.

import type { GraphNode, MethodGraphResult } from './types.js';

/** JSON-RPC's "method not found": a server without `mthds/methodGraph`. */
const METHOD_NOT_FOUND = -32601;

export function graphTitle(result: MethodGraphResult, documentName: string): string {
  const pipes = result.trees.reduce((n, t) => n + t.nodes.length, 0);
  let errors = 0;
  let warnings = 0;
  for (const t of result.trees) {
    for (const node of t.nodes) {
      for (const d of node.diagnostics) {
        if (d.severity === 1) errors++;
        else if (d.severity === 2) warnings++;
      }
    }
  }
  const problems = [errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}` : '', warnings > 0 ? `${warnings} warning${warnings === 1 ? '' : 's'}` : ''].filter((s) => s !== '');
  const trees = result.trees.filter((t) => t.nodes.length > 0).length;
  return `${documentName}: ${trees} tree${trees === 1 ? '' : 's'}, ${pipes} pipe${pipes === 1 ? '' : 's'}${problems.length > 0 ? `, ${problems.join(', ')}` : ''}. Click a pipe to open its source.`;
}

export function graphErrorText(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === METHOD_NOT_FOUND) return 'This version of the MTHDS language server does not draw method graphs (no mthds/methodGraph request).';
  const message = error instanceof Error ? error.message : String(error);
  return `The method graph could not be computed: ${message}`;
}

export function findNode(result: MethodGraphResult | undefined, tree: number, id: string): GraphNode | undefined {
  return result?.trees[tree]?.nodes.find((n) => n.id === id);
}
