// The method graph of a tree: one node per pipe (a signature and its implementation are one node,
// the implementation's), one edge per pipe call (steps, parallel branches, condition outcomes, the
// default outcome, a batch's branch pipe), each edge with the concept it carries. Pure data, for
// the `mthds/methodGraph` request and `mthds graph`.

import type { Range } from '../syntax/types.js';
import { getEntry } from '../syntax/lookup.js';
import type { Bundle, IoRefSite, PipeDecl, PipeRefSite } from '../language/model.js';
import { pipeKeyOf, conceptKeyOf } from './occurrences.js';
import { formatMultiplicity } from '../language/references.js';
import { resolveConcept, resolvePipe, type MethodTree } from '../language/tree.js';

export interface GraphNode {
  /** `domain.code` */
  id: string;
  code: string;
  domain: string;
  /** The pipe type, or 'signature'. */
  type: string;
  kind: 'operator' | 'controller' | 'signature';
  description?: string;
  inputs: { name: string; concept: string }[];
  output?: { concept: string };
  file: string;
  /** The pipe's name in its header. */
  range: Range;
  diagnostics: { code: string; severity: string; message: string }[];
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: 'step' | 'branch' | 'outcome' | 'default_outcome' | 'batch';
  /** The result name, or the outcome key. */
  label?: string;
  /** The concept carried (the called pipe's output). */
  concept?: string;
}

export interface MethodGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** What the graph needs of a finding (structurally a check finding). */
export interface GraphFinding {
  file: string;
  range: Range;
  code: string;
  severity: string;
  message: string;
}

export function buildMethodGraph(tree: MethodTree, findings: readonly GraphFinding[] = []): MethodGraph {
  const nodes = new Map<string, { node: GraphNode; pipe: PipeDecl }>();
  for (const bundle of tree.bundles) {
    for (const pipe of bundle.pipes) {
      const id = pipeKeyOf(bundle.domain?.value, pipe.code);
      const existing = nodes.get(id);
      // The implementation stands for its signature; the first of two implementations wins.
      if (existing && (pipe.typeless || !existing.pipe.typeless)) continue;
      nodes.set(id, { node: nodeOf(tree, bundle, pipe, id, findings), pipe });
    }
  }
  const edges: GraphEdge[] = [];
  for (const { node, pipe } of nodes.values()) edges.push(...edgesOf(tree, pipe, node.id));
  return { nodes: [...nodes.values()].map((n) => n.node), edges };
}

function nodeOf(tree: MethodTree, bundle: Bundle, pipe: PipeDecl, id: string, findings: readonly GraphFinding[]): GraphNode {
  const kind: GraphNode['kind'] = pipe.typeless ? 'signature' : pipe.spec?.kind ?? 'operator';
  const node: GraphNode = {
    id,
    code: pipe.code,
    domain: bundle.domain?.value ?? '',
    type: pipe.typeless ? 'signature' : (pipe.type?.value ?? ''),
    kind,
    inputs: pipe.inputs.map((i) => ({ name: i.name, concept: i.ref ? conceptLabel(tree, bundle, i.ref) : '' })),
    file: bundle.file,
    range: unquoted(bundle.doc.text, pipe.codeRange),
    diagnostics: findings
      .filter((f) => f.file === bundle.file && f.range.start >= pipe.range.start && f.range.end <= pipe.range.end)
      .map((f) => ({ code: f.code, severity: f.severity, message: f.message })),
  };
  if (pipe.description) node.description = pipe.description.value;
  if (pipe.output) node.output = { concept: conceptLabel(tree, bundle, pipe.output) };
  return node;
}

/** A concept reference as the graph shows it: canonical (`domain.Code`), multiplicity, marker. */
export function conceptLabel(tree: MethodTree, bundle: Bundle, site: IoRefSite): string {
  if (!site.io) return site.raw;
  const r = resolveConcept(tree, bundle, site.io);
  const written = site.raw.slice(site.io.refStart, site.io.refEnd);
  const base = r.kind === 'native' ? `native.${r.native.code}` : r.kind === 'concept' ? conceptKeyOf(r.decl.bundle.domain?.value, r.decl.code) : written;
  return `${base}${formatMultiplicity(site.io.multiplicity)}${site.io.marker ?? ''}`;
}

function edgesOf(tree: MethodTree, pipe: PipeDecl, from: string): GraphEdge[] {
  const edges: GraphEdge[] = [];
  const bundle = pipe.bundle;
  const target = (site: PipeRefSite | undefined): { to: string; decl?: PipeDecl } | undefined => {
    if (!site || site.special || !site.ref) return undefined;
    const r = resolvePipe(tree, bundle, site.ref);
    if (r.kind === 'pipe') return { to: pipeKeyOf(r.decl.bundle.domain?.value, r.decl.code), decl: r.decl };
    return { to: site.raw };
  };
  const carried = (decl: PipeDecl | undefined, batched = false): string | undefined => {
    if (!decl?.output) return undefined;
    const label = conceptLabel(tree, decl.bundle, decl.output);
    return batched && !label.endsWith(']') ? `${label.replace(/\?$/, '')}[]` : label;
  };
  const push = (edge: GraphEdge, concept: string | undefined): void => {
    if (concept !== undefined) edge.concept = concept;
    edges.push(edge);
  };
  const parallel = getEntry(pipe.table, 'branches')?.value?.type === 'array' && getEntry(pipe.table, 'steps') === undefined;
  for (const step of pipe.steps) {
    const t = target(step.pipe);
    if (!t) continue;
    const edge: GraphEdge = { from, to: t.to, kind: parallel ? 'branch' : 'step' };
    if (step.result) edge.label = step.result.value;
    push(edge, carried(t.decl, step.batchOver !== undefined));
  }
  const outcomes = getEntry(pipe.table, 'outcomes')?.value;
  if (outcomes?.type === 'table') {
    for (const entry of outcomes.entries) {
      const site = pipe.pipeRefs.find((s) => s.context === 'outcome' && s.node === entry.value);
      const t = target(site);
      if (t) push({ from, to: t.to, kind: 'outcome', label: entry.key }, carried(t.decl));
    }
  }
  const fallback = target(pipe.pipeRefs.find((s) => s.context === 'default_outcome'));
  if (fallback) push({ from, to: fallback.to, kind: 'default_outcome' }, carried(fallback.decl));
  const batch = target(pipe.pipeRefs.find((s) => s.context === 'branch_pipe_code'));
  if (batch) {
    const edge: GraphEdge = { from, to: batch.to, kind: 'batch' };
    const item = getEntry(pipe.table, 'input_item_name')?.value;
    if (item?.type === 'string') edge.label = item.value;
    push(edge, carried(batch.decl));
  }
  return edges;
}

function unquoted(text: string, range: Range): Range {
  const c = text[range.start];
  return (c === '"' || c === "'") && range.end - range.start >= 2 ? { start: range.start + 1, end: range.end - 1 } : range;
}
