// The wire shape of the server's `mthds/methodGraph` request. Declared here rather than imported
// from server/: the client is a separate bundle and pulls in only the server's pure graph drawing
// (server/src/ide/graphLayout.ts, graphSvg.ts), nothing of the language server itself.

export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export type NodeKind = 'operator' | 'controller' | 'signature';
export type EdgeKind = 'step' | 'branch' | 'outcome' | 'default_outcome' | 'batch';

export interface GraphDiagnostic {
  code: string;
  /** LSP severity: 1 error, 2 warning, 3 information, 4 hint (names on the wire are mapped). */
  severity: number;
  message: string;
}

export interface GraphNode {
  id: string;
  code: string;
  domain: string;
  type: string;
  kind: NodeKind;
  description?: string;
  inputs: { name: string; concept: string }[];
  output?: { concept: string };
  /** A file URI. */
  file: string;
  range: LspRange;
  diagnostics: GraphDiagnostic[];
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  label?: string;
  concept?: string;
}

export interface GraphTree {
  /** The tree's root: a URI (the package folder, or the bundle of a lone file), or a pipe id. */
  root: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface MethodGraphParams {
  uri?: string;
}

export interface MethodGraphResult {
  trees: GraphTree[];
}

export const METHOD_GRAPH_REQUEST = 'mthds/methodGraph';

/** Messages between the webview and the extension. */
export type ToWebview =
  | { type: 'graph'; result: MethodGraphResult; title: string }
  | { type: 'message'; text: string };

export type FromWebview = { type: 'ready' } | { type: 'reveal'; tree: number; node: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Keeps what is well formed of a server answer (the request is new and written concurrently: a
 * malformed node or edge is dropped rather than breaking the whole view).
 */
export function sanitizeGraph(raw: unknown): MethodGraphResult {
  const trees: GraphTree[] = [];
  if (!isRecord(raw) || !Array.isArray(raw['trees'])) return { trees };
  for (const t of raw['trees']) {
    if (!isRecord(t) || !Array.isArray(t['nodes'])) continue;
    const nodes: GraphNode[] = [];
    const ids = new Set<string>();
    for (const n of t['nodes']) {
      if (!isRecord(n) || typeof n['id'] !== 'string' || ids.has(n['id'])) continue;
      ids.add(n['id']);
      const kind = n['kind'] === 'controller' || n['kind'] === 'signature' ? n['kind'] : 'operator';
      const node: GraphNode = {
        id: n['id'],
        code: typeof n['code'] === 'string' ? n['code'] : n['id'],
        domain: typeof n['domain'] === 'string' ? n['domain'] : '',
        type: typeof n['type'] === 'string' ? n['type'] : '',
        kind,
        inputs: Array.isArray(n['inputs']) ? n['inputs'].filter((i): i is { name: string; concept: string } => isRecord(i) && typeof i['name'] === 'string' && typeof i['concept'] === 'string') : [],
        file: typeof n['file'] === 'string' ? n['file'] : '',
        range: isRange(n['range']) ? n['range'] : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        diagnostics: Array.isArray(n['diagnostics'])
          ? n['diagnostics'].filter((d): d is Record<string, unknown> & { message: string } => isRecord(d) && typeof d['message'] === 'string').map((d) => ({ code: String(d['code'] ?? ''), severity: severityOf(d['severity']), message: d.message }))
          : [],
      };
      if (typeof n['description'] === 'string') node.description = n['description'];
      if (isRecord(n['output']) && typeof n['output']['concept'] === 'string') node.output = { concept: n['output']['concept'] };
      nodes.push(node);
    }
    const edges: GraphEdge[] = [];
    for (const e of Array.isArray(t['edges']) ? t['edges'] : []) {
      if (!isRecord(e) || typeof e['from'] !== 'string' || typeof e['to'] !== 'string' || !ids.has(e['from']) || !ids.has(e['to'])) continue;
      const kinds: EdgeKind[] = ['step', 'branch', 'outcome', 'default_outcome', 'batch'];
      const edge: GraphEdge = { from: e['from'], to: e['to'], kind: kinds.includes(e['kind'] as EdgeKind) ? (e['kind'] as EdgeKind) : 'step' };
      if (typeof e['label'] === 'string') edge.label = e['label'];
      if (typeof e['concept'] === 'string') edge.concept = e['concept'];
      edges.push(edge);
    }
    trees.push({ root: typeof t['root'] === 'string' ? t['root'] : (nodes[0]?.id ?? ''), nodes, edges });
  }
  return { trees };
}

const SEVERITY_NAMES: Record<string, number> = { error: 1, warning: 2, information: 3, info: 3, hint: 4 };

/** An LSP severity from a number (LSP) or a name (the checker's findings say 'error', 'warning'). */
export function severityOf(v: unknown): number {
  if (typeof v === 'number' && v >= 1 && v <= 4) return Math.floor(v);
  if (typeof v === 'string') return SEVERITY_NAMES[v.toLowerCase()] ?? 1;
  return 1;
}

function isPos(v: unknown): v is LspPosition {
  return isRecord(v) && typeof v['line'] === 'number' && typeof v['character'] === 'number';
}

function isRange(v: unknown): v is LspRange {
  return isRecord(v) && isPos(v['start']) && isPos(v['end']);
}
