// A small layered ("Sugiyama") layout, top to bottom, written here rather than bundling a layout
// library: method graphs are small (tens of pipes), the webview must work offline, and a pure,
// deterministic function is easy to test. The steps are the classic ones:
//   1. break cycles (pipe loops through PipeCondition outcomes are legal) by reversing DFS back edges;
//   2. layer by longest path from the sources;
//   3. split edges spanning several layers with dummy points, so they route around nodes;
//   4. order each layer by barycentre sweeps, keeping the order with the fewest crossings;
//   5. place x by isotonic regression (closest to the neighbours' mean, order and gaps kept).

export interface LayoutNodeInput {
  id: string;
  width: number;
  height: number;
}

export interface LayoutEdgeInput {
  from: string;
  to: string;
}

export interface Point {
  x: number;
  y: number;
}

export interface PlacedNode {
  id: string;
  /** Top-left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
  layer: number;
  order: number;
}

export interface PlacedEdge {
  /** Index of the edge in the input. */
  index: number;
  from: string;
  to: string;
  /**
   * From the source's border to the target's border, in drawing order (source to target); through
   * each layer crossed, two points (the lane's top and bottom).
   */
  points: Point[];
  /** A back edge of a cycle (drawn upwards). */
  reversed: boolean;
  self: boolean;
}

export interface Layout {
  nodes: Map<string, PlacedNode>;
  edges: PlacedEdge[];
  width: number;
  height: number;
}

export interface LayoutOptions {
  /** Horizontal gap between neighbours in a layer. */
  nodeGap?: number;
  /** Vertical gap between layers. */
  layerGap?: number;
  margin?: number;
  /** Laid out first, so that it lands on the top layer and leftmost. */
  root?: string;
}

interface Vertex {
  id: string;
  width: number;
  height: number;
  dummy: boolean;
  layer: number;
  order: number;
  x: number;
}

const SWEEPS = 8;
const PARALLEL_OFFSET = 14;
const PLACEMENT_ROUNDS = 12;

export function layoutGraph(nodesIn: readonly LayoutNodeInput[], edgesIn: readonly LayoutEdgeInput[], options: LayoutOptions = {}): Layout {
  const nodeGap = options.nodeGap ?? 32;
  const layerGap = options.layerGap ?? 56;
  const margin = options.margin ?? 16;

  // Unique nodes in input order, the root first.
  const seen = new Set<string>();
  const nodeList: LayoutNodeInput[] = [];
  const ordered = options.root !== undefined ? [...nodesIn.filter((n) => n.id === options.root), ...nodesIn.filter((n) => n.id !== options.root)] : [...nodesIn];
  for (const n of ordered) {
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    nodeList.push(n);
  }
  const index = new Map(nodeList.map((n, i) => [n.id, i]));
  const count = nodeList.length;

  // 1. Cycle breaking: an edge to a vertex on the DFS stack is reversed.
  const out: number[][] = nodeList.map(() => []);
  edgesIn.forEach((e, i) => {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a !== undefined && b !== undefined && a !== b) out[a]!.push(i);
  });
  const reversed = new Set<number>();
  const state = new Uint8Array(count); // 0 new, 1 on stack, 2 done
  const dfsOrder: number[] = [];
  for (let start = 0; start < count; start++) {
    if (state[start] !== 0) continue;
    // Iterative DFS: deep sequences must not overflow the stack.
    const stack: { v: number; next: number }[] = [{ v: start, next: 0 }];
    state[start] = 1;
    dfsOrder.push(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const edges = out[top.v]!;
      if (top.next >= edges.length) {
        state[top.v] = 2;
        stack.pop();
        continue;
      }
      const ei = edges[top.next++]!;
      const w = index.get(edgesIn[ei]!.to)!;
      if (state[w] === 1) reversed.add(ei);
      else if (state[w] === 0) {
        state[w] = 1;
        dfsOrder.push(w);
        stack.push({ v: w, next: 0 });
      }
    }
  }

  // The acyclic edges (u -> v), reversed ones turned around; duplicates merged for layering.
  const dagEdges: { u: number; v: number; edge: number }[] = [];
  edgesIn.forEach((e, i) => {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) return;
    dagEdges.push(reversed.has(i) ? { u: b, v: a, edge: i } : { u: a, v: b, edge: i });
  });

  // 2. Longest-path layering in topological order (Kahn; ties by DFS order for stability).
  const layer = new Array<number>(count).fill(0);
  const indegree = new Array<number>(count).fill(0);
  const succ: number[][] = nodeList.map(() => []);
  for (const { u, v } of dagEdges) {
    succ[u]!.push(v);
    indegree[v]!++;
  }
  const rank = new Array<number>(count);
  dfsOrder.forEach((v, i) => (rank[v] = i));
  const queue = dfsOrder.filter((v) => indegree[v] === 0);
  for (let qi = 0; qi < queue.length; qi++) {
    const u = queue[qi]!;
    for (const v of succ[u]!) {
      layer[v] = Math.max(layer[v]!, layer[u]! + 1);
      if (--indegree[v]! === 0) queue.push(v);
    }
  }

  // 3. Vertices: real nodes, then dummies for long edges.
  const vertices: Vertex[] = nodeList.map((n, i) => ({ id: n.id, width: n.width, height: n.height, dummy: false, layer: layer[i]!, order: 0, x: 0 }));
  const chains = new Map<number, number[]>(); // input edge -> vertex chain (dag direction)
  const links: { a: number; b: number }[] = [];
  for (const { u, v, edge } of dagEdges) {
    const chain = [u];
    for (let l = layer[u]! + 1; l < layer[v]!; l++) {
      vertices.push({ id: `\u0000dummy${vertices.length}`, width: 0, height: 0, dummy: true, layer: l, order: 0, x: 0 });
      chain.push(vertices.length - 1);
    }
    chain.push(v);
    for (let k = 0; k + 1 < chain.length; k++) links.push({ a: chain[k]!, b: chain[k + 1]! });
    chains.set(edge, chain);
  }
  const up: number[][] = vertices.map(() => []);
  const down: number[][] = vertices.map(() => []);
  for (const { a, b } of links) {
    down[a]!.push(b);
    up[b]!.push(a);
  }

  // 4. Ordering. Initial: real nodes by DFS order, dummies after their source.
  const layerCount = vertices.reduce((m, v) => Math.max(m, v.layer + 1), 0);
  let layers: number[][] = Array.from({ length: layerCount }, () => []);
  const initialKey = vertices.map((_, vi) => (vi < count ? rank[vi]! : Infinity));
  // Dummies inherit the key of the vertex above them, resolved in layer order down each chain.
  const byLayer = [...vertices.keys()].sort((a, b) => vertices[a]!.layer - vertices[b]!.layer);
  for (const vi of byLayer) if (vi >= count) initialKey[vi] = initialKey[up[vi]![0] ?? vi] ?? vi;
  for (const vi of byLayer) layers[vertices[vi]!.layer]!.push(vi);
  for (const l of layers) l.sort((a, b) => initialKey[a]! - initialKey[b]! || a - b);
  setOrders(vertices, layers);
  let best = layers.map((l) => [...l]);
  let bestCrossings = crossings(layers, down, vertices);
  for (let sweep = 0; sweep < SWEEPS && bestCrossings > 0; sweep++) {
    const downward = sweep % 2 === 0;
    const range = downward ? [...layers.keys()].slice(1) : [...layers.keys()].reverse().slice(1);
    for (const li of range) {
      const neighbours = downward ? up : down;
      const layerVs = layers[li]!;
      const key = new Map<number, number>();
      for (const vi of layerVs) {
        const ns = neighbours[vi]!;
        key.set(vi, ns.length > 0 ? ns.reduce((s, n) => s + vertices[n]!.order, 0) / ns.length : vertices[vi]!.order);
      }
      layerVs.sort((a, b) => key.get(a)! - key.get(b)! || vertices[a]!.order - vertices[b]!.order);
      layerVs.forEach((vi, i) => (vertices[vi]!.order = i));
    }
    const c = crossings(layers, down, vertices);
    if (c < bestCrossings) {
      bestCrossings = c;
      best = layers.map((l) => [...l]);
    }
  }
  layers = best;
  setOrders(vertices, layers);

  // 5. Placement. y by layer; x packed, then pulled toward neighbours.
  const layerY: number[] = [];
  let y = margin;
  for (const l of layers) {
    layerY.push(y);
    const h = l.reduce((m, vi) => Math.max(m, vertices[vi]!.height), 0);
    y += h + layerGap;
  }
  const gapOf = (a: Vertex, b: Vertex): number => (a.width + b.width) / 2 + (a.dummy || b.dummy ? nodeGap / 2 : nodeGap);
  for (const l of layers) {
    let x = 0;
    l.forEach((vi, i) => {
      if (i > 0) x += gapOf(vertices[l[i - 1]!]!, vertices[vi]!);
      vertices[vi]!.x = x;
    });
  }
  for (let round = 0; round < PLACEMENT_ROUNDS; round++) {
    const downward = round % 2 === 0;
    const order = downward ? [...layers.keys()] : [...layers.keys()].reverse();
    for (const li of order) {
      const l = layers[li]!;
      const desired = l.map((vi) => {
        const ns = [...(downward ? up[vi]! : down[vi]!), ...(round >= PLACEMENT_ROUNDS - 2 ? (downward ? down[vi]! : up[vi]!) : [])];
        return ns.length > 0 ? ns.reduce((s, n) => s + vertices[n]!.x, 0) / ns.length : vertices[vi]!.x;
      });
      const gaps = l.slice(1).map((vi, i) => gapOf(vertices[l[i]!]!, vertices[vi]!));
      const placed = placeInOrder(desired, gaps);
      l.forEach((vi, i) => (vertices[vi]!.x = placed[i]!));
    }
  }
  let minLeft = Infinity;
  let maxRight = -Infinity;
  for (const v of vertices) {
    minLeft = Math.min(minLeft, v.x - v.width / 2);
    maxRight = Math.max(maxRight, v.x + v.width / 2);
  }
  if (vertices.length === 0) {
    minLeft = 0;
    maxRight = 0;
  }
  const shift = margin - minLeft;

  const nodes = new Map<string, PlacedNode>();
  for (let vi = 0; vi < count; vi++) {
    const v = vertices[vi]!;
    nodes.set(v.id, { id: v.id, x: v.x + shift - v.width / 2, y: layerY[v.layer]!, width: v.width, height: v.height, layer: v.layer, order: v.order });
  }

  const edges: PlacedEdge[] = [];
  const pairCount = new Map<string, number>();
  let extraRight = 0;
  edgesIn.forEach((e, i) => {
    const a = nodes.get(e.from);
    const b = nodes.get(e.to);
    if (!a || !b) return;
    if (a.id === b.id) {
      // A pipe calling itself: a loop on the right side.
      const right = a.x + a.width;
      const loop = 24;
      extraRight = Math.max(extraRight, loop);
      edges.push({ index: i, from: e.from, to: e.to, self: true, reversed: false, points: [{ x: right, y: a.y + a.height * 0.3 }, { x: right + loop, y: a.y + a.height * 0.3 }, { x: right + loop, y: a.y + a.height * 0.7 }, { x: right, y: a.y + a.height * 0.7 }] });
      return;
    }
    const chain = chains.get(i)!;
    const points: Point[] = chain.flatMap((vi, k) => {
      const v = vertices[vi]!;
      const cx = v.x + shift;
      // Through a layer it crosses, an edge runs straight down its own lane, beside the nodes.
      if (v.dummy) return [{ x: cx, y: layerY[v.layer]! }, { x: cx, y: layerY[v.layer]! + maxHeight(layers[v.layer]!, vertices) }];
      // Leave the upper vertex at its bottom, enter the lower one at its top.
      return [k === 0 ? { x: cx, y: layerY[v.layer]! + v.height } : { x: cx, y: layerY[v.layer]! }];
    });
    const isReversed = reversed.has(i);
    // Edges between the same two nodes (a call back up a loop, two steps calling the same pipe)
    // would be drawn on top of each other: each further one is moved aside.
    const pair = isReversed ? `${e.to}\u0000${e.from}` : `${e.from}\u0000${e.to}`;
    const seen = pairCount.get(pair) ?? 0;
    pairCount.set(pair, seen + 1);
    const offset = seen * PARALLEL_OFFSET;
    const shifted = offset === 0 ? points : points.map((p) => ({ x: p.x + offset, y: p.y }));
    edges.push({ index: i, from: e.from, to: e.to, self: false, reversed: isReversed, points: isReversed ? shifted.reverse() : shifted });
  });

  const height = layers.length > 0 ? y - layerGap + margin : 2 * margin;
  return { nodes, edges, width: maxRight - minLeft + 2 * margin + extraRight, height };
}

function setOrders(vertices: Vertex[], layers: number[][]): void {
  for (const l of layers) l.forEach((vi, i) => (vertices[vi]!.order = i));
}

function maxHeight(layer: number[], vertices: Vertex[]): number {
  return layer.reduce((m, vi) => Math.max(m, vertices[vi]!.height), 0);
}

/** Edge crossings between adjacent layers (pairwise: graphs here are small). */
export function crossings(layers: number[][], down: number[][], vertices: { order: number }[]): number {
  let total = 0;
  for (let li = 0; li + 1 < layers.length; li++) {
    const segs: [number, number][] = [];
    for (const a of layers[li]!) for (const b of down[a]!) segs.push([vertices[a]!.order, vertices[b]!.order]);
    for (let i = 0; i < segs.length; i++) {
      for (let j = i + 1; j < segs.length; j++) {
        const [a1, b1] = segs[i]!;
        const [a2, b2] = segs[j]!;
        if ((a1 - a2) * (b1 - b2) < 0) total++;
      }
    }
  }
  return total;
}

/**
 * Positions as close as possible (least squares) to `desired`, in the same order, with at least
 * `gaps[i]` between item i and i+1. With y_i = x_i - (sum of gaps before i) the constraints become
 * y sorted ascending: an isotonic regression, solved exactly by pooling adjacent violators.
 */
export function placeInOrder(desired: readonly number[], gaps: readonly number[]): number[] {
  const offsets: number[] = [];
  let sum = 0;
  for (let i = 0; i < desired.length; i++) {
    offsets.push(sum);
    sum += gaps[i] ?? 0;
  }
  const blocks: { mean: number; size: number }[] = [];
  for (let i = 0; i < desired.length; i++) {
    blocks.push({ mean: desired[i]! - offsets[i]!, size: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.mean > blocks[blocks.length - 1]!.mean) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      blocks.push({ mean: (a.mean * a.size + b.mean * b.size) / (a.size + b.size), size: a.size + b.size });
    }
  }
  const out: number[] = [];
  for (const b of blocks) for (let k = 0; k < b.size; k++) out.push(b.mean + offsets[out.length]!);
  return out;
}
