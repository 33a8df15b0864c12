// method.cycle: refinement loops, structure containment loops and pipe call loops. A call loop
// that can only close through a PipeCondition outcome is recursion that can stop, and is allowed.

import type { Bundle, ConceptDecl, ConceptRefSite, PipeDecl } from '../../language/model.js';
import { bundleIndex, bundleOfFile, resolveConcept, resolvePipe, type MethodTree } from '../../language/tree.js';
import type { Range } from '../../syntax/types.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';

interface Edge<N> {
  to: N;
  file: string;
  range: Range;
}

/** One step of a cycle: a node and the edge (and its position among the node's edges) it leaves by. */
interface CycleStep<N> {
  node: N;
  edge: Edge<N>;
  index: number;
}

/** What Tarjan's walk knows of a node. */
interface Visit<N> {
  node: N;
  order: number;
  low: number;
  onStack: boolean;
  /** The node's edges, asked once. */
  out: Edge<N>[];
  /** The next edge to follow. */
  next: number;
}

/** How much of a walk (edges asked for, edges followed) runs between two pauses. */
const WALK_PER_STEP = 512;

/**
 * Every elementary cycle reachable in a graph, each reported once (by its smallest member), in
 * steps: the walk pauses (yields) after every `WALK_PER_STEP` units of work, so that a check of a
 * large tree never holds the message loop for the whole search. The graph must not change while
 * the walk is paused (a check works on one tree version).
 */
function* findCycleSteps<N>(nodes: readonly N[], edges: (n: N) => Edge<N>[]): Generator<void, Array<{ path: Array<CycleStep<N>>; members: N[] }>> {
  // Positions in `nodes`, built when a cycle needs them (most graphs have none).
  let index: Map<N, number> | undefined;
  const indexOf = (n: N): number | undefined => {
    if (index === undefined) {
      index = new Map();
      for (let i = 0; i < nodes.length; i++) index.set(nodes[i]!, i);
    }
    return index.get(n);
  };
  const cycles: Array<{ path: Array<CycleStep<N>>; members: N[] }> = [];
  const seen = new Set<string>();
  // Tarjan's strongly connected components, then one cycle per component through its first node.
  let counter = 0;
  const visits = new Map<N, Visit<N>>();
  const stack: N[] = [];
  // The components, in the order found, one after the other: members[ends[k - 1], ends[k]).
  const members: N[] = [];
  const ends: number[] = [];
  const visit = (v: N, out: Edge<N>[]): Visit<N> => {
    const state: Visit<N> = { node: v, order: counter, low: counter++, onStack: true, out, next: 0 };
    visits.set(v, state);
    stack.push(v);
    return state;
  };
  // A node without edges is a component of its own that no cycle goes through: it is marked
  // visited and left out (the other components, and their order, are the same).
  const sink: Visit<N> = { node: undefined as N, order: -1, low: -1, onStack: false, out: NONE, next: 0 };
  const edgesOf = (v: N): Edge<N>[] => visits.get(v)?.out ?? edges(v);
  const work: Visit<N>[] = [];
  let units = 0;
  for (const v of nodes) {
    if (++units % WALK_PER_STEP === 0) yield;
    if (visits.has(v)) continue;
    const first = edges(v);
    if (first.length === 0) {
      visits.set(v, sink);
      continue;
    }
    work.push(visit(v, first));
    while (work.length > 0) {
      if (++units % WALK_PER_STEP === 0) yield;
      const frame = work[work.length - 1]!;
      if (frame.next < frame.out.length) {
        const w = frame.out[frame.next++]!.to;
        const seenW = visits.get(w);
        if (seenW === undefined) {
          const out = edges(w);
          if (out.length === 0) visits.set(w, sink);
          else work.push(visit(w, out));
        } else if (seenW.onStack) frame.low = Math.min(frame.low, seenW.order);
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) parent.low = Math.min(parent.low, frame.low);
      if (frame.low === frame.order) {
        let w: N;
        do {
          w = stack.pop()!;
          visits.get(w)!.onStack = false;
          members.push(w);
        } while (w !== frame.node);
        ends.push(members.length);
      }
    }
  }
  for (let k = 0; k < ends.length; k++) {
    if (++units % WALK_PER_STEP === 0) yield;
    const begin = k === 0 ? 0 : ends[k - 1]!;
    if (ends[k]! - begin === 1) {
      // A lone node is a cycle only through an edge to itself.
      const only = members[begin]!;
      if (!edgesOf(only).some((e) => e.to === only)) continue;
    }
    const component = members.slice(begin, ends[k]);
    const inComponent = new Set(component);
    const start = component.reduce((a, b) => (indexOf(a)! < indexOf(b)! ? a : b));
    // Walk from the start inside the component back to it (breadth first: the shortest loop).
    const prev = new Map<N, CycleStep<N>>();
    const queue: N[] = [start];
    let closing: CycleStep<N> | undefined;
    while (queue.length > 0 && !closing) {
      const v = queue.shift()!;
      const out = edgesOf(v);
      for (let index = 0; index < out.length; index++) {
        const e = out[index]!;
        if (!inComponent.has(e.to)) continue;
        if (e.to === start) {
          closing = { node: v, edge: e, index };
          break;
        }
        if (!prev.has(e.to)) {
          prev.set(e.to, { node: v, edge: e, index });
          queue.push(e.to);
        }
      }
    }
    if (!closing) continue;
    const path: Array<CycleStep<N>> = [closing];
    let cur = closing.node;
    while (cur !== start) {
      const p = prev.get(cur)!;
      path.unshift(p);
      cur = p.node;
    }
    const key = path.map((p) => indexOf(p.node)).join(',');
    if (!seen.has(key)) {
      seen.add(key);
      cycles.push({ path, members: component });
    }
  }
  return cycles;
}

/** No edges (shared; never mutated). */
const NONE: never[] = [];

type CycleKind = 'refines' | 'structure' | 'pipe';
const KINDS: readonly CycleKind[] = ['refines', 'structure', 'pipe'];

type Decl = ConceptDecl | PipeDecl;

/**
 * The three graphs of a tree: refinement and structure over concepts, calls over pipes. Only
 * declarations of the tree itself are nodes: a dependency's cycles are its own package's findings.
 */
function graphs(tree: MethodTree): {
  refines: (c: ConceptDecl) => Edge<ConceptDecl>[];
  structure: (c: ConceptDecl) => Edge<ConceptDecl>[];
  pipe: (p: PipeDecl) => Edge<PipeDecl>[];
} {
  const home = (d: Decl): boolean => bundleOfFile(tree, d.bundle.file) === d.bundle;
  return {
    refines: (c) => {
      if (!c.refines?.ref) return NONE;
      const r = resolveConcept(tree, c.bundle, c.refines.ref);
      return r.kind === 'concept' && home(r.decl) ? [{ to: r.decl, file: c.bundle.file, range: c.refines.node.range }] : [];
    },
    structure: (c) => {
      let out: Edge<ConceptDecl>[] = NONE;
      const add = (site: ConceptRefSite | undefined): void => {
        if (!site?.ref) return;
        const r = resolveConcept(tree, c.bundle, site.ref);
        if (r.kind !== 'concept' || !home(r.decl)) return;
        if (out === NONE) out = [];
        out.push({ to: r.decl, file: c.bundle.file, range: site.node.range });
      };
      for (const f of c.structure ?? []) {
        if (f.conceptRef) add(f.conceptRef);
        if (f.itemConceptRef) add(f.itemConceptRef);
      }
      return out;
    },
    pipe: (p) => {
      // Outcomes of a condition may stop the recursion: they are not call-loop edges.
      if (p.spec?.name === 'PipeCondition' || p.pipeRefs.length === 0) return NONE;
      const out: Edge<PipeDecl>[] = [];
      for (const site of p.pipeRefs) {
        if (site.special || !site.ref) continue;
        const r = resolvePipe(tree, p.bundle, site.ref);
        if (r.kind === 'pipe' && home(r.decl)) out.push({ to: r.decl, file: p.bundle.file, range: site.node.range });
      }
      return out;
    },
  };
}

/** The nodes of one graph a bundle holds, and the edges of that graph. */
function declsOf(kind: CycleKind, bundle: Bundle): readonly Decl[] {
  return kind === 'pipe' ? bundle.pipes : bundle.concepts;
}

function edgesOf(g: ReturnType<typeof graphs>, kind: CycleKind): (d: Decl) => Edge<Decl>[] {
  return kind === 'pipe' ? (d) => g.pipe(d as PipeDecl) : (d) => g[kind](d as ConceptDecl);
}

/** A declaration by position: its bundle's file and its index among the bundle's concepts or pipes. */
export interface DeclKey {
  file: string;
  index: number;
}

/** A cycle found, by positions (so that it can be reported again with the ranges of a later version). */
export interface CycleFact {
  kind: CycleKind;
  steps: Array<{ node: DeclKey; edge: number }>;
  /** Every node of its strongly connected component (`file#index`): what an edit there may change. */
  members: string[];
}

function factOf(kind: CycleKind, found: { path: Array<CycleStep<Decl>>; members: Decl[] }): CycleFact {
  const at = (d: Decl): DeclKey => ({ file: d.bundle.file, index: declsOf(kind, d.bundle).indexOf(d) });
  return {
    kind,
    steps: found.path.map((s) => ({ node: at(s.node), edge: s.index })),
    members: found.members.map((d) => {
      const { file, index } = at(d);
      return `${file}#${index}`;
    }),
  };
}

/** Cycles in one order whatever found them: by kind, then by the place of their first node in the tree. */
function sorted(tree: MethodTree, facts: CycleFact[]): CycleFact[] {
  const places = bundleIndex(tree);
  const rank = (f: CycleFact): [number, number, number] => [KINDS.indexOf(f.kind), places.get(f.steps[0]!.node.file) ?? -1, f.steps[0]!.node.index];
  return facts.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/** Every cycle of a tree, by positions, in steps (pauses as `findCycleSteps` does). */
export function* findTreeCycleSteps(tree: MethodTree): Generator<void, CycleFact[]> {
  const g = graphs(tree);
  const facts: CycleFact[] = [];
  for (const kind of KINDS) {
    const nodes = tree.bundles.flatMap((b) => declsOf(kind, b));
    for (const found of yield* findCycleSteps(nodes, edgesOf(g, kind))) facts.push(factOf(kind, found));
  }
  return sorted(tree, facts);
}

/**
 * The cycles of a tree after an edit, from those of the tree before it, where only the bundles of
 * `dirty` (files) may have other edges: the same facts `findTreeCycleSteps` gives. A cycle that
 * changed goes through a node of a dirty bundle, or lay in a component that held one: the search
 * runs again over what those nodes reach (a region closed under edges, so its components are the
 * tree's), the other cycles are kept. In steps, pausing as `findCycleSteps` does.
 */
export function* updateTreeCycleSteps(tree: MethodTree, previous: readonly CycleFact[], dirty: ReadonlySet<string>): Generator<void, CycleFact[]> {
  const g = graphs(tree);
  const facts: CycleFact[] = [];
  const fileOf = (key: string): string => key.slice(0, key.lastIndexOf('#'));
  let units = 0;
  for (const kind of KINDS) {
    const edges = edgesOf(g, kind);
    const at = (key: string): Decl | undefined => {
      const bundle = bundleOfFile(tree, fileOf(key));
      return bundle ? declsOf(kind, bundle)[Number(key.slice(key.lastIndexOf('#') + 1))] : undefined;
    };
    const region = new Set<Decl>();
    const queue: Decl[] = [];
    const reach = (d: Decl | undefined): void => {
      if (d === undefined || region.has(d)) return;
      region.add(d);
      queue.push(d);
    };
    for (const file of dirty) {
      const bundle = bundleOfFile(tree, file);
      if (bundle) for (const d of declsOf(kind, bundle)) reach(d);
    }
    const old = previous.filter((f) => f.kind === kind);
    for (const f of old) if (f.members.some((m) => dirty.has(fileOf(m)))) for (const m of f.members) reach(at(m));
    for (let i = 0; i < queue.length; i++) {
      if (++units % WALK_PER_STEP === 0) yield;
      for (const e of edges(queue[i]!)) reach(e.to);
    }
    for (const f of old) if (!f.members.some((m) => dirty.has(fileOf(m)) || (region as Set<Decl | undefined>).has(at(m)))) facts.push(f);
    if (region.size === 0) continue;
    // The region in the tree's order: a cycle starts at the first of its nodes, as from scratch.
    const places = bundleIndex(tree);
    const position = new Map<Decl, number>();
    for (const d of region) position.set(d, places.get(d.bundle.file)! * 65536 + declsOf(kind, d.bundle).indexOf(d));
    const nodes = [...region].sort((a, b) => position.get(a)! - position.get(b)!);
    for (const found of yield* findCycleSteps(nodes, edges)) facts.push(factOf(kind, found));
  }
  return sorted(tree, facts);
}

/**
 * Reports cycles found earlier in the tree as it is now. The caller vouches that the graphs are
 * the same but for ranges (check/index.ts: no declaration and no resolved edge changed).
 */
export function reportCycles(ctx: CheckContext, facts: readonly CycleFact[], bundleOf: (file: string) => Bundle): void {
  const g = graphs(ctx.tree);
  for (const fact of facts) {
    const names: string[] = [];
    const edges: Edge<unknown>[] = [];
    for (const step of fact.steps) {
      const bundle = bundleOf(step.node.file);
      if (fact.kind === 'pipe') {
        const p = bundle.pipes[step.node.index]!;
        names.push(p.code);
        edges.push(g.pipe(p)[step.edge]!);
      } else {
        const c = bundle.concepts[step.node.index]!;
        names.push(conceptName(c));
        edges.push(g[fact.kind](c)[step.edge]!);
      }
    }
    report(ctx, fact.kind, names, edges);
  }
}

/**
 * What the cycle rule sees of one bundle, without ranges: where each declaration's edges lead.
 * Equal for two versions of a bundle (in trees with the same declarations), the graphs are equal.
 */
export function cycleOutline(tree: MethodTree, bundle: Bundle): string {
  const g = graphs(tree);
  const to = (e: Edge<ConceptDecl | PipeDecl>, list: readonly (ConceptDecl | PipeDecl)[]): string => `${e.to.bundle.file}#${list.indexOf(e.to)}`;
  // The counts of nodes first: a node without edges still has its place.
  const parts: string[] = [`${bundle.concepts.length}/${bundle.pipes.length}`];
  for (const c of bundle.concepts) parts.push(`${g.refines(c).map((e) => to(e, e.to.bundle.concepts)).join(',')};${g.structure(c).map((e) => to(e, e.to.bundle.concepts)).join(',')}`);
  for (const p of bundle.pipes) parts.push(g.pipe(p).map((e) => to(e, e.to.bundle.pipes)).join(','));
  return parts.join('|');
}

const conceptName = (c: ConceptDecl): string => `${c.bundle.domain?.value ?? ''}.${c.code}`.replace(/^\./, '');

function report(ctx: CheckContext, kind: CycleKind, names: string[], edges: Edge<unknown>[]): void {
  const first = edges[0]!;
  const related = edges.slice(1).map((e, i) => ({ file: e.file, range: e.range, message: `${names[i + 1]} continues the cycle here` }));
  ctx.out.push(makeFinding('method.cycle', { kind, cycle: [...names, names[0]!] }, first.file, first.range, { related }));
}
