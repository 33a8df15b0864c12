// Method graphs as pictures, drawn here rather than by Graphviz: one SVG document (the trees one
// under the other, each under its title) or a standalone HTML page. The drawing is the editor's
// (language/graphSvg.ts over the layered layout of language/graphLayout.ts); only the stylesheet,
// fixed light colours instead of the editor's theme, is the CLI's.

import type { GraphNode } from '../ide/graph.js';
import { renderTree, type DrawNode, type RenderedTree } from '../ide/graphSvg.js';
import type { NamedGraph } from './graphFormat.js';
import { escapeMarkup } from '../util/markup.js';

const FONT = `-apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif`;

export const PICTURE_CSS = `
text { font-family: ${FONT}; }
.title { font-size: 15px; font-weight: 600; fill: #1f2328; }
.node-box { fill: #ffffff; stroke-width: 1.5; }
.node-operator .node-box { stroke: #0969da; }
.node-controller .node-box { stroke: #8250df; fill: #fbf8ff; }
.node-signature .node-box { stroke: #9a6700; stroke-dasharray: 5 3; }
.node-missing .node-box { stroke: #888888; fill: #f6f8fa; }
.node-missing .node-code { fill: #888888; font-weight: 400; }
.node-root .node-box { stroke-width: 3; }
.has-errors .node-box { fill: #ffebe9; }
.node-code { font-size: 13px; font-weight: 600; fill: #1f2328; }
.node-type, .node-output { font-size: 11px; fill: #59636e; }
.badge circle { stroke: #ffffff; stroke-width: 2; }
.badge text { font-size: 10px; font-weight: 700; fill: #ffffff; }
.badge-error circle { fill: #cf222e; }
.badge-warning circle { fill: #9a6700; }
.edge { stroke: #59636e; stroke-width: 1.3; }
.edge-branch { stroke: #8250df; }
.edge-outcome { stroke: #1a7f37; }
.edge-default_outcome { stroke: #1a7f37; stroke-dasharray: 2 3; }
.edge-batch { stroke-dasharray: 6 3; stroke-width: 2; }
.edge-back { stroke-dasharray: 3 3; }
.arrow { fill: #59636e; }
.edge-label { font-size: 10px; fill: #59636e; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
`;

const SEVERITY: Record<string, number> = { error: 1, warning: 2, information: 3, info: 3, hint: 4 };

function drawable(node: GraphNode): DrawNode {
  return { ...node, diagnostics: node.diagnostics.map((d) => ({ ...d, severity: SEVERITY[d.severity] ?? 3 })) };
}

function drawTrees(graphs: readonly NamedGraph[]): Array<{ title: string; drawn: RenderedTree }> {
  return graphs.map((g, i) => {
    // The root is the tree's first entry point: laid out first, on the top layer.
    const called = new Set(g.graph.edges.map((e) => e.to));
    const root = g.graph.nodes.find((n) => !called.has(n.id))?.id ?? g.graph.nodes[0]?.id ?? '';
    return { title: g.title, drawn: renderTree({ root, nodes: g.graph.nodes.map(drawable), edges: g.graph.edges }, i) };
  });
}

const TITLE_HEIGHT = 28;
const MARGIN = 12;

/** One SVG document: every tree under its title, stacked. */
export function toSvg(graphs: readonly NamedGraph[]): string {
  const trees = drawTrees(graphs);
  const width = Math.ceil(Math.max(240, ...trees.map((t) => t.drawn.width)) + 2 * MARGIN);
  const parts: string[] = [];
  let y = MARGIN;
  for (const t of trees) {
    parts.push(`<text class="title" x="${MARGIN}" y="${y + 18}">${escapeMarkup(t.title)}</text>`);
    y += TITLE_HEIGHT;
    parts.push(`<g transform="translate(${MARGIN},${y})">${t.drawn.svg}</g>`);
    y += Math.ceil(t.drawn.height) + MARGIN;
  }
  const height = y;
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<style>${PICTURE_CSS}</style>
<rect width="100%" height="100%" fill="#ffffff"/>
${parts.join('\n')}
</svg>
`;
}

/** A standalone HTML page (no script, no network): every tree under its heading. */
export function toHtml(graphs: readonly NamedGraph[]): string {
  const sections = drawTrees(graphs).map((t) => `<section><h2>${escapeMarkup(t.title)}</h2>\n${t.drawn.svg}\n</section>`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<title>Method graph</title>
<style>
body { margin: 16px; font-family: ${FONT}; color: #1f2328; background: #ffffff; }
h2 { font-size: 15px; font-weight: 600; margin: 16px 0 6px; }
svg { display: block; overflow: visible; }
${PICTURE_CSS}</style>
</head>
<body>
${sections.join('\n')}
</body>
</html>
`;
}
