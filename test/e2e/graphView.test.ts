// The method graph view against the REAL server: the panel controller (with a fake `vscode`) asks
// the built server for `mthds/methodGraph`, and the webview's renderer draws the answer. Checks
// that the client reads the server's actual wire format (severities as names, roots as URIs).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => import('../unit/client/fakeVscode.js'));
import { panels, resetFakes, Uri } from '../unit/client/fakeVscode.js';
import type * as vscode from 'vscode';
import { GraphPanel, graphBackend } from '../../client/src/graph/panel.js';
import { renderGraph } from '../../client/src/graph/render.js';
import type { MethodGraphResult, ToWebview } from '../../client/src/graph/types.js';
import { LspClient, PULL_CAPABILITIES, REPO, startClient, tempWorkspace, textAt, uriOf } from './lsp/harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  GraphPanel.disposeCurrent();
  await client?.shutdown();
  client = undefined;
});

async function graphOf(relative: string): Promise<{ message: ToWebview; ws: string }> {
  resetFakes();
  const ws = tempWorkspace({}, { broken: path.join(REPO, 'examples/broken'), invoices: path.join(REPO, 'examples/invoices'), news: path.join(REPO, 'examples/news') });
  client = await startClient({ folders: [ws], capabilities: PULL_CAPABILITIES });
  const c = client;
  const backend = graphBackend({ sendRequest: (method, params) => c.connection.sendRequest(method, params) }, async () => undefined);
  GraphPanel.show(Uri.parse('file:///ext') as unknown as vscode.Uri, backend, Uri.parse(uriOf(path.join(ws, relative))) as unknown as vscode.Uri);
  await vi.waitFor(() => expect(panels[0]?.posted.length).toBeGreaterThan(0), { timeout: 15_000 });
  return { message: panels[0]!.posted[0] as ToWebview, ws };
}

describe('the method graph of real bundles', () => {
  it('draws the news method: a sequence and its two steps, in order', async () => {
    const { message, ws } = await graphOf('news/news.mthds');
    if (message.type !== 'graph') throw new Error(`no graph: ${JSON.stringify(message)}`);
    const result: MethodGraphResult = message.result;
    expect(message.title).toMatch(/^news\.mthds: 1 tree, 3 pipes\./);
    const tree = result.trees[0]!;
    expect(tree.nodes.map((n) => n.id).sort()).toEqual(['news.brief_article', 'news.summarize_article', 'news.write_briefing']);
    expect(tree.edges.map((e) => [e.from, e.to, e.kind, e.label])).toEqual([
      ['news.brief_article', 'news.summarize_article', 'step', 'summary'],
      ['news.brief_article', 'news.write_briefing', 'step', 'briefing'],
    ]);
    // Every node's range is its name in its file: what a click reveals.
    for (const node of tree.nodes) {
      const text = readFileSync(new URL(node.file), 'utf8');
      expect(textAt(text, node.range)).toBe(node.code);
    }
    const html = renderGraph(result);
    expect(html).toContain('<h2>news</h2>');
    expect(html).toContain('class="node node-controller node-root"');
    expect(html.match(/class="edge edge-step"/g)).toHaveLength(2);
    expect(html).not.toContain('badge');
  });

  it('draws the broken method with its diagnostics as badges on the pipes', async () => {
    const { message } = await graphOf('broken/broken.mthds');
    if (message.type !== 'graph') throw new Error(`no graph: ${JSON.stringify(message)}`);
    const nodes = message.result.trees[0]!.nodes;
    const suggest = nodes.find((n) => n.code === 'suggest_recipe')!;
    expect(suggest.diagnostics.length).toBeGreaterThan(0);
    // The server names severities ('error'); the client reads them as LSP numbers.
    expect(suggest.diagnostics.every((d) => d.severity === 1 || d.severity === 2)).toBe(true);
    expect(suggest.diagnostics.map((d) => d.code)).toContain('method.schema_violation');
    const html = renderGraph(message.result);
    expect(html).toMatch(/data-node="recipes\.suggest_recipe"[^>]*>/);
    expect(html).toContain('has-errors');
    expect(html).toContain('badge badge-error');
    expect(message.title).toMatch(/\d+ errors?/);
  });
});
