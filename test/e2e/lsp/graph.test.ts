// The custom request mthds/methodGraph over real stdio: the graph of one document's tree, or of
// every tree of the workspace, with URIs, LSP ranges and the findings of each pipe.

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textAt } from './harness.js';
import { startFixture, type Fixture } from './treeFixture.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.client.shutdown();
  fx = undefined;
});

interface Graph {
  trees: Array<{
    root: string;
    nodes: Array<{ id: string; type: string; kind: string; file: string; range: { start: { line: number; character: number }; end: { line: number; character: number } }; inputs: Array<{ name: string; concept: string }>; output?: { concept: string }; diagnostics: Array<{ code: string }> }>;
    edges: Array<{ from: string; to: string; kind: string; label?: string; concept?: string }>;
  }>;
}

describe('mthds/methodGraph', () => {
  it('returns the graph of a document’s tree: nodes, edges with what they carry, ranges', async () => {
    fx = await startFixture();
    const uri = fx.open('invoices/check.mthds');
    const graph: Graph = await fx.client.connection.sendRequest('mthds/methodGraph', { uri });
    expect(graph.trees).toHaveLength(1);
    const tree = graph.trees[0]!;
    expect(tree.root).toBe(fx.uri('invoices'));
    const ids = tree.nodes.map((n) => n.id).sort();
    expect(ids).toEqual(['invoices.check_invoice', 'invoices.extract_pages', 'invoices.read_invoice', 'invoices.render_invoice', 'invoices.review_invoice', 'invoices.summarize_invoice', 'invoices.verify_total']);
    // The implementation stands for its signature.
    const summarize = tree.nodes.find((n) => n.id === 'invoices.summarize_invoice')!;
    expect([summarize.type, summarize.kind, path.basename(new URL(summarize.file).pathname)]).toEqual(['PipeLLM', 'operator', 'impl.mthds']);
    expect(summarize.inputs).toEqual([{ name: 'invoice', concept: 'invoices.Invoice' }]);
    expect(summarize.output).toEqual({ concept: 'invoices.Summary' });
    const check = tree.nodes.find((n) => n.id === 'invoices.check_invoice')!;
    expect(check.kind).toBe('controller');
    expect(textAt(fx.text('invoices/check.mthds'), check.range)).toBe('check_invoice');
    expect(tree.edges.filter((e) => e.from === 'invoices.check_invoice')).toEqual([
      { from: 'invoices.check_invoice', to: 'invoices.extract_pages', kind: 'step', label: 'pages', concept: 'native.Page[]' },
      { from: 'invoices.check_invoice', to: 'invoices.read_invoice', kind: 'step', label: 'invoice', concept: 'invoices.Invoice' },
      { from: 'invoices.check_invoice', to: 'invoices.verify_total', kind: 'step', label: 'verdict', concept: 'native.YesNo' },
    ]);
  });

  it('returns every tree without a uri, with outcomes, batches and findings', async () => {
    const FLOW = `domain = "flow"
description = "Flow"

[pipe.route]
type = "PipeCondition"
description = "Route"
inputs = { text = "Text" }
output = "Text"
expression = "text"
outcomes = { short = "shorten", long = "missing_pipe" }
default_outcome = "fail"

[pipe.shorten]
type = "PipeLLM"
description = "Shorten"
inputs = { text = "Text" }
output = "Text"
prompt = "Shorten $text"

[pipe.each]
type = "PipeBatch"
description = "Each"
inputs = { texts = "Text[]" }
output = "Text[]"
branch_pipe_code = "shorten"
input_list_name = "texts"
input_item_name = "text"
`;
    fx = await startFixture({ extra: { 'flow/flow.mthds': FLOW } });
    const graph: Graph = await fx.client.connection.sendRequest('mthds/methodGraph', {});
    expect(graph.trees.length).toBeGreaterThanOrEqual(3);
    const flow = graph.trees.find((t) => t.nodes.some((n) => n.id === 'flow.route'))!;
    expect(flow.edges).toEqual([
      { from: 'flow.route', to: 'flow.shorten', kind: 'outcome', label: 'short', concept: 'native.Text' },
      { from: 'flow.route', to: 'missing_pipe', kind: 'outcome', label: 'long' },
      { from: 'flow.each', to: 'flow.shorten', kind: 'batch', label: 'text', concept: 'native.Text' },
    ]);
    const route = flow.nodes.find((n) => n.id === 'flow.route')!;
    expect(route.diagnostics.map((d) => d.code)).toContain('method.pipe_unresolved');
    expect(graph.trees.some((t) => t.nodes.some((n) => n.id === 'news.brief_article'))).toBe(true);
  });
});
