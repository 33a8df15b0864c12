// The graph webview's pure parts: the SVG drawn from a `mthds/methodGraph` answer (kinds, badges,
// edges, escaping), the answer's sanitizing, the page's security policy, and the script inside the
// webview (run against a tiny fake DOM: it draws what it is posted and posts node clicks back).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { graphHtml, makeNonce } from '../../../client/src/graph/html.js';
import { renderGraph, treeHeading } from '../../../client/src/graph/render.js';
import { countDiagnostics, pathThrough, pointAlong, renderTree, tooltipOf, truncate } from '../../../server/src/ide/graphSvg.js';
import { escapeMarkup } from '../../../server/src/util/markup.js';
import { findNode, graphErrorText, graphTitle } from '../../../client/src/graph/state.js';
import { sanitizeGraph, severityOf, type GraphNode, type MethodGraphResult } from '../../../client/src/graph/types.js';

const R = { start: { line: 3, character: 0 }, end: { line: 3, character: 14 } };

function node(id: string, kind: GraphNode['kind'], extra: Partial<GraphNode> = {}): GraphNode {
  return { id, code: id.split('.').pop()!, domain: 'recipes', type: kind === 'controller' ? 'PipeSequence' : kind === 'signature' ? 'signature' : 'PipeLLM', kind, inputs: [], file: 'file:///w/recipes.mthds', range: R, diagnostics: [], ...extra };
}

const GRAPH: MethodGraphResult = {
  trees: [
    {
      root: 'recipes.plan',
      nodes: [
        node('recipes.plan', 'controller', { description: 'Plan a dinner', inputs: [{ name: 'ingredients', concept: 'Text[]' }], output: { concept: 'Recipe' } }),
        node('recipes.suggest', 'operator', {
          output: { concept: 'Recipe' },
          diagnostics: [
            { code: 'method.schema_violation', severity: 1, message: 'Unknown key promt' },
            { code: 'method.concept_unresolved', severity: 1, message: 'Ingredient is unknown' },
            { code: 'method.input_unused', severity: 2, message: 'extra is never read' },
          ],
        }),
        node('recipes.later', 'signature'),
      ],
      edges: [
        { from: 'recipes.plan', to: 'recipes.suggest', kind: 'step', label: 'recipe', concept: 'Recipe' },
        { from: 'recipes.plan', to: 'recipes.later', kind: 'batch', label: 'each' },
      ],
    },
  ],
};

describe('renderGraph', () => {
  it('draws one node per pipe, coloured by kind, clickable, with diagnostics badges', () => {
    const html = renderGraph(GRAPH);
    expect(html).toContain('<h2>recipes.plan</h2>');
    expect(html.match(/<g class="node /g)).toHaveLength(3);
    expect(html).toContain('class="node node-controller node-root"');
    expect(html).toContain('class="node node-operator has-errors"');
    expect(html).toContain('class="node node-signature"');
    expect(html).toContain('data-tree="0" data-node="recipes.suggest"');
    expect(html).toMatch(/<g class="badge badge-error"[^>]*><circle r="9"\/><text[^>]*>2<\/text><\/g>/);
    expect(html).toMatch(/<g class="badge badge-warning"[^>]*><circle r="9"\/><text[^>]*>1<\/text><\/g>/);
    expect(html).toContain('→ Recipe');
    expect(html).toContain('PipeSequence · recipes');
    // Edges: kinds as classes, labels drawn, arrows.
    expect(html).toContain('class="edge edge-step"');
    expect(html).toContain('class="edge edge-batch"');
    expect(html).toContain('>recipe</text>');
    expect(html).toContain('marker-end="url(#mthds-arrow-0)"');
    // No inline styles: the webview's policy would block them.
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('escapes every text taken from the bundle', () => {
    const evil = node('x."><script>alert(1)</script>', 'operator', { code: '<img src=x onerror=alert(1)>', description: '</title><script>' });
    const html = renderGraph({ trees: [{ root: evil.id, nodes: [evil], edges: [] }] });
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeMarkup(`a&b<"'>`)).toBe('a&amp;b&lt;&quot;&#39;&gt;');
  });

  it('says so when there is nothing to draw, and skips empty trees', () => {
    expect(renderGraph({ trees: [] })).toContain('No pipes');
    const html = renderGraph({ trees: [{ root: 'a', nodes: [], edges: [] }, GRAPH.trees[0]!] });
    expect(html.match(/<section/g)).toHaveLength(1);
    expect(html).toContain('data-tree="1"');
  });

  it('sizes the drawing to hold every node', () => {
    const { width, height, layout } = renderTree(GRAPH.trees[0]!, 0);
    for (const n of layout.nodes.values()) {
      expect(n.x + n.width).toBeLessThanOrEqual(width);
      expect(n.y + n.height).toBeLessThanOrEqual(height);
    }
  });

  it('has small helpers that say what a node is', () => {
    const suggest = GRAPH.trees[0]!.nodes[1]!;
    expect(countDiagnostics(suggest)).toEqual({ errors: 2, warnings: 1, infos: 0 });
    expect(tooltipOf(GRAPH.trees[0]!.nodes[0]!)).toBe('recipes.plan (PipeSequence, controller)\nPlan a dinner\ninputs: ingredients: Text[]\noutput: Recipe');
    expect(tooltipOf(suggest)).toContain('error method.schema_violation: Unknown key promt');
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    expect(pathThrough([{ x: 0, y: 0 }, { x: 10, y: 20 }])).toBe('M0,0 C0,10 10,10 10,20');
    expect(pointAlong([{ x: 0, y: 0 }, { x: 0, y: 10 }, { x: 10, y: 10 }], 0.5)).toEqual({ x: 0, y: 10 });
    expect(pointAlong([{ x: 0, y: 0 }, { x: 0, y: 10 }], 0.8)).toEqual({ x: 0, y: 8 });
  });
});

describe('sanitizeGraph', () => {
  it('keeps what is well formed and drops the rest', () => {
    const raw = {
      trees: [
        {
          root: 'a',
          nodes: [{ id: 'a', code: 'a', kind: 'weird', diagnostics: [{ message: 'm', severity: 2, code: 'c' }, 'junk'] }, { id: 'b' }, { id: 'a' }, { nope: 1 }],
          edges: [{ from: 'a', to: 'b', kind: 'outcome', label: 'yes' }, { from: 'a', to: 'zz', kind: 'step' }, { from: 'a', to: 'b', kind: 'nonsense' }],
        },
        'junk',
      ],
    };
    const g = sanitizeGraph(raw);
    expect(g.trees).toHaveLength(1);
    expect(g.trees[0]!.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(g.trees[0]!.nodes[0]!.kind).toBe('operator');
    expect(g.trees[0]!.nodes[0]!.diagnostics).toEqual([{ code: 'c', severity: 2, message: 'm' }]);
    expect(g.trees[0]!.edges).toEqual([
      { from: 'a', to: 'b', kind: 'outcome', label: 'yes' },
      { from: 'a', to: 'b', kind: 'step' },
    ]);
    expect(sanitizeGraph(null)).toEqual({ trees: [] });
  });

  it('reads severities given as LSP numbers or as names (the server sends the checker\'s names)', () => {
    expect([1, 2, 3, 4, 'error', 'warning', 'information', 'info', 'hint', 'Warning', 'odd', 0, undefined].map(severityOf)).toEqual([1, 2, 3, 4, 1, 2, 3, 3, 4, 2, 1, 1, 1]);
    const g = sanitizeGraph({ trees: [{ root: 'file:///w', nodes: [{ id: 'a', diagnostics: [{ code: 'x', severity: 'warning', message: 'm' }] }], edges: [] }] });
    expect(g.trees[0]!.nodes[0]!.diagnostics[0]!.severity).toBe(2);
    expect(sanitizeGraph({ trees: 'x' })).toEqual({ trees: [] });
  });
});

describe('treeHeading', () => {
  it('names a tree by its root pipe, else by the last segment of its root URI', () => {
    const tree = GRAPH.trees[0]!;
    expect(treeHeading(tree)).toBe('recipes.plan');
    expect(treeHeading({ ...tree, root: 'file:///home/me/my%20methods/invoices' })).toBe('invoices');
    expect(treeHeading({ ...tree, root: 'file:///home/me/my%20methods/' })).toBe('my methods');
    expect(treeHeading({ ...tree, root: 'file:///w/news.mthds' })).toBe('news.mthds');
    expect(treeHeading({ ...tree, root: 'untitled:Untitled-1' })).toBe('untitled:Untitled-1');
  });

  it('marks the entry pipes of a tree rooted at a folder', () => {
    const html = renderGraph({ trees: [{ ...GRAPH.trees[0]!, root: 'file:///w/recipes' }] });
    expect(html).toContain('<h2>recipes</h2>');
    expect(html).toContain('class="node node-controller node-root"');
    expect(html).not.toContain('node-operator node-root');
  });
});

describe('panel state', () => {
  it('titles the drawing, explains failures, and finds clicked nodes', () => {
    expect(graphTitle(GRAPH, 'recipes.mthds')).toBe('recipes.mthds: 1 tree, 3 pipes, 2 errors, 1 warning. Click a pipe to open its source.');
    expect(graphErrorText({ code: -32601, message: 'Unhandled method mthds/methodGraph' })).toMatch(/does not draw method graphs/);
    expect(graphErrorText(new Error('boom'))).toBe('The method graph could not be computed: boom');
    expect(findNode(GRAPH, 0, 'recipes.later')?.kind).toBe('signature');
    expect(findNode(GRAPH, 3, 'recipes.later')).toBeUndefined();
  });
});

describe('graphHtml', () => {
  it('allows only the bundled script (by nonce) and no network', () => {
    const nonce = makeNonce((n) => new Uint8Array(n).map((_, i) => i * 7));
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
    const html = graphHtml({ cspSource: 'vscode-webview://abc', nonce, scriptUri: 'vscode-webview://abc/client/dist/graph.js' });
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(csp).not.toMatch(/https?:/);
    expect(html).toContain(`<script nonce="${nonce}" src="vscode-webview://abc/client/dist/graph.js"></script>`);
    expect(html).not.toMatch(/https?:\/\//);
  });
});

// ---- the webview script, against a fake DOM ----------------------------------------------------

class FakeElement {
  innerHTML = '';
  textContent: string | null = null;
  hidden = false;
  private readonly listeners = new Map<string, ((e: unknown) => void)[]>();
  constructor(private readonly attrs: Record<string, string> = {}) {}
  closest(selector: string): FakeElement | null {
    return selector === '[data-node]' && 'data-node' in this.attrs ? this : null;
  }
  getAttribute(name: string): string | null {
    return this.attrs[name] ?? null;
  }
  addEventListener(type: string, listener: (e: unknown) => void): void {
    (this.listeners.get(type) ?? this.listeners.set(type, []).get(type)!).push(listener);
  }
  dispatch(type: string, event: Record<string, unknown>): void {
    for (const l of this.listeners.get(type) ?? []) l({ preventDefault: () => undefined, ...event });
  }
}

describe('the webview script', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('announces itself, draws posted graphs and messages, and posts clicks on nodes', async () => {
    const posted: unknown[] = [];
    const graph = new FakeElement();
    const status = new FakeElement();
    let onMessage: ((e: { data: unknown }) => void) | undefined;
    vi.stubGlobal('acquireVsCodeApi', () => ({ postMessage: (m: unknown) => posted.push(m) }));
    vi.stubGlobal('document', { getElementById: (id: string) => (id === 'graph' ? graph : id === 'status' ? status : null) });
    vi.stubGlobal('window', { addEventListener: (_: string, l: (e: { data: unknown }) => void) => (onMessage = l) });
    await import('../../../client/src/graph/webview.js');
    expect(posted).toEqual([{ type: 'ready' }]);

    onMessage!({ data: { type: 'graph', result: GRAPH, title: 'recipes.mthds: 3 pipes' } });
    expect(status.textContent).toBe('recipes.mthds: 3 pipes');
    expect(graph.innerHTML).toBe(renderGraph(GRAPH));

    graph.dispatch('click', { target: new FakeElement({ 'data-node': 'recipes.suggest', 'data-tree': '0' }) });
    graph.dispatch('click', { target: new FakeElement() });
    graph.dispatch('keydown', { key: 'Enter', target: new FakeElement({ 'data-node': 'recipes.plan', 'data-tree': '0' }) });
    graph.dispatch('keydown', { key: 'a', target: new FakeElement({ 'data-node': 'recipes.plan', 'data-tree': '0' }) });
    expect(posted.slice(1)).toEqual([
      { type: 'reveal', tree: 0, node: 'recipes.suggest' },
      { type: 'reveal', tree: 0, node: 'recipes.plan' },
    ]);

    onMessage!({ data: { type: 'message', text: 'No server' } });
    expect(status.textContent).toBe('No server');
    expect(graph.innerHTML).toBe('');
  });
});
