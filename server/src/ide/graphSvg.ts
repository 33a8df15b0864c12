// The method graph drawn as SVG markup, a pure function of the data (no DOM): the editor's graph
// view inserts the string, `mthds graph --format svg|html` writes it, and tests read it. Colours
// come from CSS classes (the editor maps them to theme colours, the CLI embeds a stylesheet); no
// inline `style` attributes, which the editor webview's Content-Security-Policy forbids.

import { layoutGraph, type Layout, type Point } from './graphLayout.js';
import { escapeMarkup } from '../util/markup.js';

/** What drawing needs of a pipe: the wire shape of `mthds/methodGraph` and `mthds graph` both fit. */
export interface DrawNode {
  id: string;
  code: string;
  domain: string;
  type: string;
  kind: string;
  description?: string;
  inputs: { name: string; concept: string }[];
  output?: { concept: string };
  /** LSP severities: 1 error, 2 warning, 3 information, 4 hint. */
  diagnostics: { code: string; severity: number; message: string }[];
}

export interface DrawEdge {
  from: string;
  to: string;
  kind: string;
  label?: string;
  concept?: string;
}

export interface DrawTree {
  root: string;
  nodes: DrawNode[];
  edges: DrawEdge[];
}

const NODE_HEIGHT = 58;
const CHAR_WIDTH = 7.2;
const NODE_PADDING = 24;
const MIN_WIDTH = 120;
const MAX_WIDTH = 280;
const MAX_CHARS = Math.floor((MAX_WIDTH - NODE_PADDING) / CHAR_WIDTH);

/** Cuts a label to what fits a node, with an ellipsis. */
export function truncate(text: string, max = MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

export function subtitleOf(node: DrawNode): string {
  return node.domain ? `${node.type} · ${node.domain}` : node.type;
}

export function outputLine(node: DrawNode): string {
  return node.output ? `→ ${node.output.concept}` : '';
}

export function nodeWidth(node: DrawNode): number {
  const longest = Math.max(node.code.length * 1.1, subtitleOf(node).length * 0.9, outputLine(node).length * 0.9);
  return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, longest * CHAR_WIDTH + NODE_PADDING)));
}

export interface DiagnosticCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export function countDiagnostics(node: DrawNode): DiagnosticCounts {
  const counts = { errors: 0, warnings: 0, infos: 0 };
  for (const d of node.diagnostics) {
    if (d.severity === 1) counts.errors++;
    else if (d.severity === 2) counts.warnings++;
    else counts.infos++;
  }
  return counts;
}

/** The hover text of a node: what it is, what it reads and makes, and what is wrong with it. */
export function tooltipOf(node: DrawNode): string {
  const lines = [`${node.domain ? `${node.domain}.` : ''}${node.code} (${node.type}, ${node.kind})`];
  if (node.description) lines.push(node.description);
  if (node.inputs.length > 0) lines.push(`inputs: ${node.inputs.map((i) => `${i.name}: ${i.concept}`).join(', ')}`);
  if (node.output) lines.push(`output: ${node.output.concept}`);
  for (const d of node.diagnostics) lines.push(`${d.severity === 1 ? 'error' : d.severity === 2 ? 'warning' : 'info'} ${d.code}: ${d.message}`);
  return lines.join('\n');
}

export function edgeText(edge: DrawEdge): string {
  if (edge.kind === 'default_outcome') return edge.label ?? 'default';
  return edge.label ?? edge.concept ?? '';
}

/** A smooth path through the points: vertical tangents, as layered drawings usually have. */
export function pathThrough(points: readonly Point[]): string {
  if (points.length === 0) return '';
  const f = (n: number): string => String(Math.round(n * 10) / 10);
  let d = `M${f(points[0]!.x)},${f(points[0]!.y)}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const my = (a.y + b.y) / 2;
    d += ` C${f(a.x)},${f(my)} ${f(b.x)},${f(my)} ${f(b.x)},${f(b.y)}`;
  }
  return d;
}

function selfLoopPath(points: readonly Point[]): string {
  const [a, b, c, d] = points;
  if (!a || !b || !c || !d) return '';
  return `M${a.x},${a.y} C${b.x},${b.y} ${c.x},${c.y} ${d.x},${d.y}`;
}

/** The point at fraction `t` of the way along the polyline (by length). */
export function pointAlong(points: readonly Point[], t: number): Point {
  if (points.length === 0) return { x: 0, y: 0 };
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i]!.x, p.y - points[i]!.y));
  let left = lengths.reduce((a, b) => a + b, 0) * t;
  for (let i = 0; i < lengths.length; i++) {
    const len = lengths[i]!;
    if (left <= len && len > 0) {
      const a = points[i]!;
      const b = points[i + 1]!;
      return { x: a.x + ((b.x - a.x) * left) / len, y: a.y + ((b.y - a.y) * left) / len };
    }
    left -= len;
  }
  return points[points.length - 1]!;
}

export interface RenderedTree {
  svg: string;
  width: number;
  height: number;
  layout: Layout;
}

/**
 * The pipes called that are not in the tree (an unresolved step): drawn as dashed placeholders
 * named `code?`, as the Mermaid and DOT outputs draw them, rather than dropped with their edges.
 */
export function missingTargets(tree: DrawTree): string[] {
  const known = new Set(tree.nodes.map((n) => n.id));
  return [...new Set(tree.edges.map((e) => e.to).filter((to) => !known.has(to)))];
}

const missingLabel = (id: string): string => truncate(`${id}?`);

export function layoutTree(tree: DrawTree): Layout {
  return layoutGraph(
    [
      ...tree.nodes.map((n) => ({ id: n.id, width: nodeWidth(n), height: NODE_HEIGHT })),
      ...missingTargets(tree).map((id) => ({ id, width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.ceil(missingLabel(id).length * CHAR_WIDTH) + NODE_PADDING)), height: NODE_HEIGHT })),
    ],
    tree.edges.map((e) => ({ from: e.from, to: e.to })),
    { root: tree.root },
  );
}

export function renderTree(tree: DrawTree, treeIndex: number): RenderedTree {
  const layout = layoutTree(tree);
  const marker = `mthds-arrow-${treeIndex}`;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="mthds-graph" width="${Math.ceil(layout.width)}" height="${Math.ceil(layout.height)}" viewBox="0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}" role="group" aria-label="${escapeMarkup(`Method graph of ${tree.root}`)}">`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path class="arrow" d="M0,0 L10,5 L0,10 z"/></marker></defs>`,
  );
  parts.push('<g class="edges">');
  for (const placed of layout.edges) {
    const edge = tree.edges[placed.index]!;
    const d = placed.self ? selfLoopPath(placed.points) : pathThrough(placed.points);
    const classes = ['edge', `edge-${edge.kind}`, ...(placed.reversed ? ['edge-back'] : [])].join(' ');
    parts.push(`<path class="${classes}" d="${d}" fill="none" marker-end="url(#${marker})"><title>${escapeMarkup(`${edge.kind}${edge.label ? ` ${edge.label}` : ''}${edge.concept ? ` (${edge.concept})` : ''}`)}</title></path>`);
    const text = edgeText(edge);
    if (text !== '') {
      // A call back up a loop runs beside a forward edge: its label sits nearer its target.
      const m = placed.self ? { x: placed.points[1]!.x + 4, y: (placed.points[1]!.y + placed.points[2]!.y) / 2 } : pointAlong(placed.points, placed.reversed ? 0.8 : 0.5);
      parts.push(`<text class="edge-label" x="${Math.round(m.x + 6)}" y="${Math.round(m.y)}">${escapeMarkup(truncate(text, 32))}</text>`);
    }
  }
  parts.push('</g><g class="nodes">');
  const called = new Set(tree.edges.filter((e) => e.from !== e.to).map((e) => e.to));
  for (const node of tree.nodes) {
    const p = layout.nodes.get(node.id);
    if (!p) continue;
    const counts = countDiagnostics(node);
    // Entry points (called by no other pipe) get a heavier border, as the tree's root does.
    const classes = ['node', `node-${node.kind}`, ...(node.id === tree.root || !called.has(node.id) ? ['node-root'] : []), ...(counts.errors > 0 ? ['has-errors'] : counts.warnings > 0 ? ['has-warnings'] : [])].join(' ');
    parts.push(
      `<g class="${classes}" data-tree="${treeIndex}" data-node="${escapeMarkup(node.id)}" transform="translate(${Math.round(p.x)},${Math.round(p.y)})" tabindex="0" role="button" aria-label="${escapeMarkup(`${node.code}, ${node.type}${counts.errors > 0 ? `, ${counts.errors} errors` : ''}`)}">`,
      `<title>${escapeMarkup(tooltipOf(node))}</title>`,
      `<rect class="node-box" width="${p.width}" height="${p.height}" rx="6" ry="6"/>`,
      `<text class="node-code" x="10" y="19">${escapeMarkup(truncate(node.code))}</text>`,
      `<text class="node-type" x="10" y="35">${escapeMarkup(truncate(subtitleOf(node)))}</text>`,
    );
    const out = outputLine(node);
    if (out !== '') parts.push(`<text class="node-output" x="10" y="50">${escapeMarkup(truncate(out))}</text>`);
    parts.push(badges(counts, p.width));
    parts.push('</g>');
  }
  for (const id of missingTargets(tree)) {
    const p = layout.nodes.get(id);
    if (!p) continue;
    // Dashed by attribute, so that every stylesheet (the editor's, the command line's) draws it so.
    parts.push(
      `<g class="node node-missing" data-tree="${treeIndex}" data-missing="${escapeMarkup(id)}" transform="translate(${Math.round(p.x)},${Math.round(p.y)})" role="img" aria-label="${escapeMarkup(`${id}, not found`)}">`,
      `<title>${escapeMarkup(`${id}: no such pipe in the tree`)}</title>`,
      `<rect class="node-box" width="${p.width}" height="${p.height}" rx="6" ry="6" stroke-dasharray="4 3"/>`,
      `<text class="node-code" x="10" y="33">${escapeMarkup(missingLabel(id))}</text>`,
      '</g>',
    );
  }
  parts.push('</g></svg>');
  return { svg: parts.join(''), width: layout.width, height: layout.height, layout };
}

/** Diagnostic counts at the node's top-right corner: red for errors, amber for warnings. */
function badges(counts: DiagnosticCounts, width: number): string {
  const items: string[] = [];
  let x = width;
  for (const [n, cls] of [
    [counts.errors, 'badge-error'],
    [counts.warnings, 'badge-warning'],
  ] as const) {
    if (n === 0) continue;
    items.push(`<g class="badge ${cls}" transform="translate(${x},0)"><circle r="9"/><text text-anchor="middle" y="4">${n > 99 ? '99+' : n}</text></g>`);
    x -= 20;
  }
  return items.join('');
}
