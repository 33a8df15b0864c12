// The method graph's layered layout (the editor's graph view and `mthds graph --format svg`):
// layers follow the calls, nodes never overlap, cycles are drawn with their back edges marked, long
// edges route through their own points, crossings are reduced.

import { describe, expect, it } from 'vitest';
import { crossings, layoutGraph, placeInOrder, type Layout } from '../../../server/src/ide/graphLayout.js';

const box = (id: string, width = 100) => ({ id, width, height: 40 });

function noOverlaps(layout: Layout, gap = 0): void {
  const byLayer = new Map<number, { x: number; width: number }[]>();
  for (const n of layout.nodes.values()) (byLayer.get(n.layer) ?? byLayer.set(n.layer, []).get(n.layer)!).push(n);
  for (const nodes of byLayer.values()) {
    nodes.sort((a, b) => a.x - b.x);
    for (let i = 1; i < nodes.length; i++) expect(nodes[i]!.x).toBeGreaterThanOrEqual(nodes[i - 1]!.x + nodes[i - 1]!.width + gap - 1e-6);
  }
}

describe('layoutGraph', () => {
  it('puts a sequence and its steps on successive layers, the root on top', () => {
    const layout = layoutGraph([box('b'), box('root'), box('c')], [
      { from: 'root', to: 'b' },
      { from: 'b', to: 'c' },
    ], { root: 'root' });
    expect(layout.nodes.get('root')!.layer).toBe(0);
    expect(layout.nodes.get('b')!.layer).toBe(1);
    expect(layout.nodes.get('c')!.layer).toBe(2);
    expect(layout.nodes.get('root')!.y).toBeLessThan(layout.nodes.get('b')!.y);
    // A chain is drawn straight.
    expect(layout.nodes.get('b')!.x).toBeCloseTo(layout.nodes.get('root')!.x);
  });

  it('keeps siblings apart and centres the parent above them', () => {
    const kids = ['k1', 'k2', 'k3', 'k4'];
    const layout = layoutGraph([box('p'), ...kids.map((k) => box(k, 140))], kids.map((k) => ({ from: 'p', to: k })), { root: 'p', nodeGap: 20 });
    noOverlaps(layout, 20);
    const centres = kids.map((k) => layout.nodes.get(k)!.x + 70);
    const parent = layout.nodes.get('p')!;
    expect(parent.x + 50).toBeCloseTo((Math.min(...centres) + Math.max(...centres)) / 2, 0);
    expect(layout.width).toBeGreaterThanOrEqual(4 * 140 + 3 * 20);
    // Every node inside the drawing.
    for (const n of layout.nodes.values()) {
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.x + n.width).toBeLessThanOrEqual(layout.width);
      expect(n.y + n.height).toBeLessThanOrEqual(layout.height);
    }
  });

  it('breaks a cycle (a loop through a condition) and marks the back edge', () => {
    const layout = layoutGraph([box('cond'), box('work')], [
      { from: 'cond', to: 'work' },
      { from: 'work', to: 'cond' },
    ], { root: 'cond' });
    const back = layout.edges.find((e) => e.from === 'work')!;
    expect(back.reversed).toBe(true);
    expect(layout.edges.find((e) => e.from === 'cond')!.reversed).toBe(false);
    // Drawn from the source (below) to the target (above).
    expect(back.points[0]!.y).toBeGreaterThan(back.points[back.points.length - 1]!.y);
    expect(layout.nodes.get('work')!.layer).toBe(1);
  });

  it('routes a long edge through points of its own between the layers it spans', () => {
    const layout = layoutGraph([box('a'), box('b'), box('c'), box('d')], [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'd' },
      { from: 'a', to: 'd' },
    ], { root: 'a' });
    const long = layout.edges.find((e) => e.from === 'a' && e.to === 'd')!;
    expect(long.points).toHaveLength(6); // a's bottom, a lane through each of two layers, d's top
    const a = layout.nodes.get('a')!;
    const d = layout.nodes.get('d')!;
    expect(long.points[0]).toEqual({ x: a.x + a.width / 2, y: a.y + a.height });
    expect(long.points[5]).toEqual({ x: d.x + d.width / 2, y: d.y });
    // The lanes run straight down beside b and c, not through them.
    for (const [id, top, bottom] of [['b', 1, 2], ['c', 3, 4]] as const) {
      const n = layout.nodes.get(id)!;
      expect(long.points[top]!.x).toBe(long.points[bottom]!.x);
      expect(long.points[top]!.y).toBe(n.y);
      expect(long.points[bottom]!.y).toBe(n.y + n.height);
      expect(long.points[top]!.x < n.x || long.points[top]!.x > n.x + n.width).toBe(true);
    }
  });

  it('orders layers to remove avoidable crossings', () => {
    // Input order crosses: a1->b2, a2->b1.
    const layout = layoutGraph([box('r'), box('a1'), box('a2'), box('b1'), box('b2')], [
      { from: 'r', to: 'a1' },
      { from: 'r', to: 'a2' },
      { from: 'a1', to: 'b2' },
      { from: 'a2', to: 'b1' },
      { from: 'r', to: 'b1' },
    ], { root: 'r' });
    const x = (id: string): number => layout.nodes.get(id)!.x;
    const aOrder = x('a1') < x('a2');
    const bOrder = x('b2') < x('b1');
    expect(aOrder).toBe(bOrder);
  });

  it('draws a self call as a loop beside the node', () => {
    const layout = layoutGraph([box('x')], [{ from: 'x', to: 'x' }]);
    const loop = layout.edges[0]!;
    expect(loop.self).toBe(true);
    const n = layout.nodes.get('x')!;
    expect(loop.points[0]!.x).toBe(n.x + n.width);
    expect(layout.width).toBeGreaterThan(n.x + n.width);
  });

  it('is deterministic, ignores unknown ends and duplicate nodes, and handles nothing', () => {
    const nodes = [box('a'), box('b'), box('a'), box('c')];
    const edges = [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'a', to: 'ghost' },
    ];
    const one = layoutGraph(nodes, edges);
    const two = layoutGraph(nodes, edges);
    expect([...one.nodes.values()]).toEqual([...two.nodes.values()]);
    expect(one.nodes.size).toBe(3);
    expect(one.edges).toHaveLength(2);
    const empty = layoutGraph([], []);
    expect(empty.nodes.size).toBe(0);
    expect(Number.isFinite(empty.width) && Number.isFinite(empty.height)).toBe(true);
  });

  it('lays out a wide, deep graph quickly', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => box(`n${i}`));
    const edges = nodes.slice(1).map((n, i) => ({ from: `n${Math.floor(i / 3)}`, to: n.id }));
    const started = performance.now();
    const layout = layoutGraph(nodes, edges, { root: 'n0' });
    expect(performance.now() - started).toBeLessThan(2000);
    noOverlaps(layout);
  });
});

describe('placeInOrder', () => {
  it('keeps the order and the gaps, as close as it can to where the nodes want to be', () => {
    expect(placeInOrder([0, 100, 200], [50, 50])).toEqual([0, 100, 200]);
    // Two nodes wanting the same place are split evenly around it.
    expect(placeInOrder([100, 100], [40])).toEqual([80, 120]);
    const placed = placeInOrder([10, 0, 5, 300], [30, 30, 30]);
    for (let i = 1; i < placed.length; i++) expect(placed[i]! - placed[i - 1]!).toBeGreaterThanOrEqual(30 - 1e-9);
    expect(placed[3]).toBe(300);
  });
});

describe('crossings', () => {
  it('counts the crossings between adjacent layers', () => {
    const vertices = [{ order: 0 }, { order: 1 }, { order: 0 }, { order: 1 }];
    expect(crossings([[0, 1], [2, 3]], [[3], [2], [], []], vertices)).toBe(1);
    expect(crossings([[0, 1], [2, 3]], [[2], [3], [], []], vertices)).toBe(0);
  });
});

describe('parallel edges', () => {
  it('moves a second edge between the same nodes aside, including a call back up a loop', () => {
    const layout = layoutGraph([box('route'), box('retry')], [
      { from: 'route', to: 'retry' },
      { from: 'retry', to: 'route' },
      { from: 'route', to: 'retry' },
    ], { root: 'route' });
    const [down, back, again] = layout.edges;
    expect(back!.points[0]!.x).not.toBe(down!.points[down!.points.length - 1]!.x);
    expect(new Set([down!.points[0]!.x, back!.points[back!.points.length - 1]!.x, again!.points[0]!.x]).size).toBe(3);
  });
});
