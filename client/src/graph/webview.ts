// The script inside the graph webview (bundled by esbuild as a browser IIFE, no network): it draws
// what the extension posts, and posts node clicks back. The drawing itself is render.ts, pure.
// The DOM is declared minimally here instead of adding the DOM library to the whole project (the
// server's code must keep Node's timer and event types).

import { renderGraph } from './render.js';
import type { FromWebview, ToWebview } from './types.js';

interface MiniElement {
  innerHTML: string;
  textContent: string | null;
  hidden: boolean;
  closest(selector: string): MiniElement | null;
  getAttribute(name: string): string | null;
  addEventListener(type: string, listener: (event: MiniEvent) => void): void;
}

interface MiniEvent {
  target: unknown;
  key?: string;
  data?: unknown;
  preventDefault(): void;
}

declare const document: { getElementById(id: string): MiniElement | null };
declare const window: { addEventListener(type: 'message', listener: (event: MiniEvent) => void): void };
declare function acquireVsCodeApi(): { postMessage(message: FromWebview): void };

const vscode = acquireVsCodeApi();
const graph = document.getElementById('graph');
const status = document.getElementById('status');

function nodeOf(target: unknown): MiniElement | null {
  const el = target as Partial<MiniElement> | null;
  return el && typeof el.closest === 'function' ? el.closest('[data-node]') : null;
}

function reveal(el: MiniElement): void {
  const node = el.getAttribute('data-node');
  const tree = Number(el.getAttribute('data-tree'));
  if (node !== null && Number.isInteger(tree)) vscode.postMessage({ type: 'reveal', tree, node });
}

graph?.addEventListener('click', (event) => {
  const el = nodeOf(event.target);
  if (el) reveal(el);
});
graph?.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  const el = nodeOf(event.target);
  if (el) {
    event.preventDefault();
    reveal(el);
  }
});

window.addEventListener('message', (event) => {
  const message = event.data as ToWebview;
  if (!graph || !status) return;
  if (message.type === 'graph') {
    status.textContent = message.title;
    graph.innerHTML = renderGraph(message.result);
  } else if (message.type === 'message') {
    status.textContent = message.text;
    graph.innerHTML = '';
  }
});

vscode.postMessage({ type: 'ready' });
