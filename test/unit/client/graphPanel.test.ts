// The graph panel's controller (against a fake `vscode`): it asks the server for the graph of the
// document, posts it to the webview, redraws as the user types (debounced), follows the active
// method document, opens a pipe's source on click, and says why when there is no graph.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => import('./fakeVscode.js'));
import { events, panels, resetFakes, Uri, ViewColumn, window } from './fakeVscode.js';
import type * as vscode from 'vscode';
import { GraphPanel, type GraphBackend } from '../../../client/src/graph/panel.js';
import type { MethodGraphResult } from '../../../client/src/graph/types.js';

const DOC = 'file:///w/recipes.mthds';
const RESULT: MethodGraphResult = {
  trees: [
    {
      root: 'file:///w',
      nodes: [
        { id: 'r.plan', code: 'plan', domain: 'r', type: 'PipeSequence', kind: 'controller', inputs: [], file: DOC, range: { start: { line: 10, character: 6 }, end: { line: 10, character: 10 } }, diagnostics: [] },
        { id: 'r.step', code: 'step', domain: 'r', type: 'PipeLLM', kind: 'operator', inputs: [], file: 'file:///w/other.mthds', range: { start: { line: 2, character: 6 }, end: { line: 2, character: 10 } }, diagnostics: [] },
      ],
      edges: [{ from: 'r.plan', to: 'r.step', kind: 'step', label: 'x' }],
    },
  ],
};

function backend(answer: (params: { uri?: string }) => Promise<unknown> = async () => RESULT): GraphBackend & { calls: { uri?: string }[] } {
  const calls: { uri?: string }[] = [];
  return {
    calls,
    ready: async () => undefined,
    request: (params) => {
      calls.push(params);
      return answer(params);
    },
  };
}

const EXTENSION = Uri.parse('file:///ext') as unknown as vscode.Uri;
const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

beforeEach(() => resetFakes());
afterEach(() => {
  GraphPanel.disposeCurrent();
  vi.useRealTimers();
});

describe('GraphPanel', () => {
  it('opens a scripted webview limited to the bundled assets, and posts the graph of the document', async () => {
    const b = backend();
    GraphPanel.show(EXTENSION, b, Uri.parse(DOC) as unknown as vscode.Uri);
    await flush();
    const panel = panels[0]!;
    expect(panel.options).toEqual({ enableScripts: true, localResourceRoots: [Uri.parse('file:///ext/client/dist')] });
    expect(panel.webview.html).toContain('src="file:///ext/client/dist/graph.js"');
    expect(panel.webview.html).toContain("default-src 'none'");
    expect(b.calls).toEqual([{ uri: DOC }]);
    expect(panel.title).toBe('Method Graph: recipes.mthds');
    expect(panel.posted).toEqual([{ type: 'graph', result: RESULT, title: 'recipes.mthds: 1 tree, 2 pipes. Click a pipe to open its source.' }]);
    // A second "show" brings the same panel forward.
    GraphPanel.show(EXTENSION, b, undefined);
    expect(panels).toHaveLength(1);
    expect(panel.revealed).toBe(1);
  });

  it('gives a reloaded webview the last drawing', async () => {
    GraphPanel.show(EXTENSION, backend(), Uri.parse(DOC) as unknown as vscode.Uri);
    await flush();
    const panel = panels[0]!;
    panel.fromWebview.fire({ type: 'ready' });
    expect(panel.posted).toHaveLength(2);
    expect(panel.posted[1]).toEqual(panel.posted[0]);
  });

  it('opens the source of a clicked pipe, selecting its name', async () => {
    GraphPanel.show(EXTENSION, backend(), Uri.parse(DOC) as unknown as vscode.Uri);
    await flush();
    panels[0]!.fromWebview.fire({ type: 'reveal', tree: 0, node: 'r.step' });
    await flush();
    expect(window.showTextDocument).toHaveBeenCalledTimes(1);
    const [uri, options] = window.showTextDocument.mock.calls[0]! as unknown as [Uri, { viewColumn: number; selection: unknown }];
    expect(uri.toString()).toBe('file:///w/other.mthds');
    // The panel is in column Two and the file is not visible: column One.
    expect(options).toMatchObject({ viewColumn: ViewColumn.One, selection: { startLine: 2, startCharacter: 6, endLine: 2, endCharacter: 10 } });
    // Unknown nodes are ignored.
    panels[0]!.fromWebview.fire({ type: 'reveal', tree: 0, node: 'nope' });
    await flush();
    expect(window.showTextDocument).toHaveBeenCalledTimes(1);
  });

  it('redraws once after a burst of edits or diagnostics, not for other languages', async () => {
    vi.useFakeTimers();
    const b = backend();
    GraphPanel.show(EXTENSION, b, Uri.parse(DOC) as unknown as vscode.Uri);
    await vi.advanceTimersByTimeAsync(0);
    expect(b.calls).toHaveLength(1);
    const doc = { languageId: 'mthds', uri: Uri.parse(DOC) };
    for (let i = 0; i < 5; i++) {
      events.textChanged.fire({ document: doc, contentChanges: [{}] });
      await vi.advanceTimersByTimeAsync(100);
    }
    events.diagnosticsChanged.fire({ uris: [Uri.parse(DOC)] });
    expect(b.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(400);
    expect(b.calls).toHaveLength(2);
    events.textChanged.fire({ document: { languageId: 'python', uri: Uri.parse('file:///w/x.py') }, contentChanges: [{}] });
    events.diagnosticsChanged.fire({ uris: [Uri.parse('file:///w/x.py')] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(b.calls).toHaveLength(2);
  });

  it('follows the active method document', async () => {
    const b = backend();
    GraphPanel.show(EXTENSION, b, Uri.parse(DOC) as unknown as vscode.Uri);
    await flush();
    events.activeEditor.fire({ document: { languageId: 'mthds', uri: Uri.parse('file:///w/news.mthds') } });
    events.activeEditor.fire({ document: { languageId: 'markdown', uri: Uri.parse('file:///w/README.md') } });
    events.activeEditor.fire(undefined);
    await flush();
    expect(b.calls.map((c) => c.uri)).toEqual([DOC, 'file:///w/news.mthds']);
  });

  it('explains a server without the request, and a missing document', async () => {
    GraphPanel.show(EXTENSION, backend(async () => Promise.reject(Object.assign(new Error('Unhandled method mthds/methodGraph'), { code: -32601 }))), Uri.parse(DOC) as unknown as vscode.Uri);
    await flush();
    expect(panels[0]!.posted).toEqual([{ type: 'message', text: expect.stringContaining('does not draw method graphs') }]);
    GraphPanel.disposeCurrent();
    GraphPanel.show(EXTENSION, backend(), undefined);
    await flush();
    expect(panels[1]!.posted).toEqual([{ type: 'message', text: 'Open a method bundle (.mthds) to see its graph.' }]);
  });

  it('drops an answer overtaken by a newer one', async () => {
    let releaseFirst: (() => void) | undefined;
    let n = 0;
    const b = backend(async (params) => {
      if (n++ === 0) await new Promise<void>((r) => (releaseFirst = r));
      return { trees: [{ root: params.uri, nodes: [], edges: [] }] };
    });
    GraphPanel.show(EXTENSION, b, Uri.parse(DOC) as unknown as vscode.Uri);
    await flush();
    events.activeEditor.fire({ document: { languageId: 'mthds', uri: Uri.parse('file:///w/news.mthds') } });
    await flush();
    releaseFirst!();
    await flush();
    const posted = panels[0]!.posted as { type: string; result: MethodGraphResult }[];
    expect(posted.map((p) => p.result.trees[0]!.root)).toEqual(['file:///w/news.mthds']);
  });

  it('stops listening when closed', async () => {
    vi.useFakeTimers();
    const b = backend();
    GraphPanel.show(EXTENSION, b, Uri.parse(DOC) as unknown as vscode.Uri);
    await vi.advanceTimersByTimeAsync(0);
    panels[0]!.dispose();
    events.textChanged.fire({ document: { languageId: 'mthds', uri: Uri.parse(DOC) }, contentChanges: [{}] });
    events.activeEditor.fire({ document: { languageId: 'mthds', uri: Uri.parse('file:///w/news.mthds') } });
    await vi.advanceTimersByTimeAsync(1000);
    expect(b.calls).toHaveLength(1);
    GraphPanel.show(EXTENSION, b, undefined);
    expect(panels).toHaveLength(2);
  });
});
