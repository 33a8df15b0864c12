// Method graphs as text: Mermaid flowcharts (Markdown, GitHub) and Graphviz DOT. Controllers,
// operators and signatures get different shapes; edges say what they carry (`result: Concept`, or
// the outcome). A call to a pipe that is not in the tree gets a dashed placeholder node.

import type { GraphEdge, GraphNode, MethodGraph } from '../ide/graph.js';

export interface NamedGraph {
  /** What the graph is of (the tree's root, shown as its title). */
  title: string;
  graph: MethodGraph;
}

function shortConcept(concept: string | undefined): string | undefined {
  return concept?.replace(/^native\./, '');
}

function edgeLabel(e: GraphEdge): string {
  const concept = shortConcept(e.concept);
  if (e.kind === 'outcome') return concept ? `${e.label ?? ''} → ${concept}` : (e.label ?? '');
  if (e.kind === 'default_outcome') return concept ? `default → ${concept}` : 'default';
  const head = e.kind === 'batch' ? `each ${e.label ?? 'item'}` : e.label;
  if (head && concept) return `${head}: ${concept}`;
  return head ?? concept ?? '';
}

function mermaidText(s: string): string {
  return s.replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}

export function toMermaid(graphs: readonly NamedGraph[]): string {
  const lines = ['flowchart LR'];
  let counter = 0;
  const several = graphs.length > 1;
  for (const { title, graph } of graphs) {
    const ids = new Map<string, string>();
    const indent = several ? '    ' : '  ';
    if (several) lines.push(`  subgraph t${counter++}["${mermaidText(title)}"]`);
    const idOf = (key: string): string => {
      let id = ids.get(key);
      if (!id) ids.set(key, (id = `n${counter++}`));
      return id;
    };
    for (const n of graph.nodes) {
      const label = `${mermaidText(n.code)}<br/><small>${mermaidText(n.type)}</small>`;
      const [open, close] = n.kind === 'controller' ? ['{{"', '"}}'] : n.kind === 'signature' ? ['(["', '"])'] : ['["', '"]'];
      lines.push(`${indent}${idOf(n.id)}${open}${label}${close}${hasError(n) ? ':::error' : ''}`);
    }
    const known = new Set(graph.nodes.map((n) => n.id));
    for (const e of graph.edges) {
      if (!known.has(e.to)) {
        lines.push(`${indent}${idOf(e.to)}["${mermaidText(e.to)}?"]:::missing`);
        known.add(e.to);
      }
      const arrow = e.kind === 'outcome' || e.kind === 'default_outcome' ? '-.->' : e.kind === 'batch' ? '==>' : '-->';
      const label = edgeLabel(e);
      lines.push(`${indent}${idOf(e.from)} ${arrow}${label ? `|"${mermaidText(label)}"|` : ''} ${idOf(e.to)}`);
    }
    if (several) lines.push('  end');
  }
  lines.push('  classDef error stroke:#d00,stroke-width:2px');
  lines.push('  classDef missing stroke-dasharray:4 3,color:#888');
  return `${lines.join('\n')}\n`;
}

function hasError(n: GraphNode): boolean {
  return n.diagnostics.some((d) => d.severity === 'error');
}

function dotText(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export function toDot(graphs: readonly NamedGraph[]): string {
  const lines = ['digraph mthds {', '  rankdir=LR;', '  node [shape=box, style=rounded, fontname="Helvetica"];', '  edge [fontname="Helvetica", fontsize=10];'];
  graphs.forEach(({ title, graph }, i) => {
    const several = graphs.length > 1;
    const indent = several ? '    ' : '  ';
    if (several) lines.push(`  subgraph cluster_${i} {`, `    label=${dotText(title)};`);
    for (const n of graph.nodes) {
      const shape = n.kind === 'controller' ? 'hexagon' : n.kind === 'signature' ? 'note' : 'box';
      const color = hasError(n) ? ', color="#dd0000", penwidth=2' : '';
      lines.push(`${indent}${dotText(n.id)} [label=${dotText(`${n.code}\n${n.type}`)}, shape=${shape}${color}];`);
    }
    const known = new Set(graph.nodes.map((n) => n.id));
    for (const e of graph.edges) {
      if (!known.has(e.to)) {
        lines.push(`${indent}${dotText(e.to)} [label=${dotText(`${e.to}?`)}, style=dashed, fontcolor="#888888"];`);
        known.add(e.to);
      }
      const style = e.kind === 'outcome' || e.kind === 'default_outcome' ? 'dashed' : e.kind === 'batch' ? 'bold' : 'solid';
      const label = edgeLabel(e);
      lines.push(`${indent}${dotText(e.from)} -> ${dotText(e.to)} [style=${style}${label ? `, label=${dotText(label)}` : ''}];`);
    }
    if (several) lines.push('  }');
  });
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
