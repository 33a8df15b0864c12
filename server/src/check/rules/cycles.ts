// method.cycle: refinement loops, structure containment loops and pipe call loops. A call loop
// that can only close through a PipeCondition outcome is recursion that can stop, and is allowed.

import type { ConceptDecl, PipeDecl } from '../../language/model.js';
import { resolveConcept, resolvePipe } from '../../language/tree.js';
import type { Range } from '../../syntax/types.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';

interface Edge<N> {
  to: N;
  file: string;
  range: Range;
}

/** Every elementary cycle reachable in a small graph, each reported once (by its smallest member). */
function findCycles<N>(nodes: readonly N[], edges: (n: N) => Edge<N>[]): Array<Array<{ node: N; edge: Edge<N> }>> {
  const index = new Map(nodes.map((n, i) => [n, i]));
  const cycles: Array<Array<{ node: N; edge: Edge<N> }>> = [];
  const seen = new Set<string>();
  // Tarjan's strongly connected components, then one cycle per component through its first node.
  let counter = 0;
  const low = new Map<N, number>();
  const order = new Map<N, number>();
  const stack: N[] = [];
  const onStack = new Set<N>();
  const components: N[][] = [];
  const strong = (v: N): void => {
    const work: Array<{ v: N; i: number; out: Edge<N>[] }> = [{ v, i: 0, out: edges(v) }];
    order.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.i < frame.out.length) {
        const w = frame.out[frame.i++]!.to;
        if (!order.has(w)) {
          order.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0, out: edges(w) });
        } else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, order.get(w)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(frame.v)!));
      if (low.get(frame.v) === order.get(frame.v)) {
        const component: N[] = [];
        let w: N;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.v);
        components.push(component);
      }
    }
  };
  for (const n of nodes) if (!order.has(n)) strong(n);
  for (const component of components) {
    const members = new Set(component);
    const start = component.reduce((a, b) => (index.get(a)! < index.get(b)! ? a : b));
    const selfLoop = edges(start).find((e) => e.to === start);
    if (component.length === 1 && !selfLoop) continue;
    // Walk from the start inside the component back to it (breadth first: the shortest loop).
    const prev = new Map<N, { node: N; edge: Edge<N> }>();
    const queue: N[] = [start];
    let closing: { node: N; edge: Edge<N> } | undefined;
    while (queue.length > 0 && !closing) {
      const v = queue.shift()!;
      for (const e of edges(v)) {
        if (!members.has(e.to)) continue;
        if (e.to === start) {
          closing = { node: v, edge: e };
          break;
        }
        if (!prev.has(e.to)) {
          prev.set(e.to, { node: v, edge: e });
          queue.push(e.to);
        }
      }
    }
    if (!closing) continue;
    const path: Array<{ node: N; edge: Edge<N> }> = [closing];
    let cur = closing.node;
    while (cur !== start) {
      const p = prev.get(cur)!;
      path.unshift(p);
      cur = p.node;
    }
    const key = path.map((p) => index.get(p.node)).join(',');
    if (!seen.has(key)) {
      seen.add(key);
      cycles.push(path);
    }
  }
  return cycles;
}

export function checkCycles(ctx: CheckContext): void {
  const concepts: ConceptDecl[] = ctx.tree.bundles.flatMap((b) => b.concepts);
  const refinesEdges = (c: ConceptDecl): Edge<ConceptDecl>[] => {
    if (!c.refines?.ref) return [];
    const r = resolveConcept(ctx.tree, c.bundle, c.refines.ref);
    return r.kind === 'concept' ? [{ to: r.decl, file: c.bundle.file, range: c.refines.node.range }] : [];
  };
  const structureEdges = (c: ConceptDecl): Edge<ConceptDecl>[] => {
    const out: Edge<ConceptDecl>[] = [];
    for (const f of c.structure ?? []) {
      for (const site of [f.conceptRef, f.itemConceptRef]) {
        if (!site?.ref) continue;
        const r = resolveConcept(ctx.tree, c.bundle, site.ref);
        if (r.kind === 'concept') out.push({ to: r.decl, file: c.bundle.file, range: site.node.range });
      }
    }
    return out;
  };
  const name = (c: ConceptDecl): string => `${c.bundle.domain?.value ?? ''}.${c.code}`.replace(/^\./, '');
  for (const [kind, edges] of [['refines', refinesEdges], ['structure', structureEdges]] as const) {
    for (const cycle of findCycles(concepts, edges)) report(ctx, kind, cycle.map((s) => name(s.node)), cycle.map((s) => s.edge));
  }
  const pipes: PipeDecl[] = ctx.tree.bundles.flatMap((b) => b.pipes);
  const callEdges = (p: PipeDecl): Edge<PipeDecl>[] => {
    // Outcomes of a condition may stop the recursion: they are not call-loop edges.
    if (p.spec?.name === 'PipeCondition') return [];
    const out: Edge<PipeDecl>[] = [];
    for (const site of p.pipeRefs) {
      if (site.special || !site.ref) continue;
      const r = resolvePipe(ctx.tree, p.bundle, site.ref);
      if (r.kind === 'pipe') out.push({ to: r.decl, file: p.bundle.file, range: site.node.range });
    }
    return out;
  };
  for (const cycle of findCycles(pipes, callEdges)) report(ctx, 'pipe', cycle.map((s) => s.node.code), cycle.map((s) => s.edge));
}

function report(ctx: CheckContext, kind: 'refines' | 'structure' | 'pipe', names: string[], edges: Edge<unknown>[]): void {
  const first = edges[0]!;
  const related = edges.slice(1).map((e, i) => ({ file: e.file, range: e.range, message: `${names[i + 1]} continues the cycle here` }));
  ctx.out.push(makeFinding('method.cycle', { kind, cycle: [...names, names[0]!] }, first.file, first.range, { related }));
}
