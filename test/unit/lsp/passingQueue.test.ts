import { describe, expect, it } from 'vitest';
import type { Message } from 'vscode-languageserver';
import { KnownRequests } from '../../../server/src/lsp/knownRequests.js';
import { PassingQueue } from '../../../server/src/lsp/passingQueue.js';

const open = (uri: string): Message => ({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'mthds', version: 1, text: '' } } }) as Message;
const change = (uri: string): Message => ({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [] } }) as Message;
const request = (id: number, method: string, uri?: string): Message => ({ jsonrpc: '2.0', id, method, params: uri === undefined ? {} : { textDocument: { uri }, position: { line: 0, character: 0 } } }) as Message;
const notification = (method: string): Message => ({ jsonrpc: '2.0', method, params: {} }) as Message;
const name = (m: Message): string => {
  const { id, method, params } = m as unknown as { id?: number; method: string; params: { textDocument?: { uri: string } } };
  return `${method.replace('textDocument/', '')}${id !== undefined ? `#${id}` : ''}${params.textDocument ? ` ${params.textDocument.uri}` : ''}`;
};

/** A queue whose turns the test runs by hand, and what it delivered. */
function harness() {
  const delivered: string[] = [];
  const turns: Array<() => void> = [];
  const queue = new PassingQueue((m) => delivered.push(name(m)), (fn) => turns.push(fn));
  const turn = (): void => turns.shift()?.();
  const drain = (): void => {
    while (turns.length > 0) turn();
  };
  return { queue, delivered, turn, drain };
}

describe('PassingQueue', () => {
  it('hands a message over at once when nothing waits, then one per turn in order', () => {
    const { queue, delivered, turn, drain } = harness();
    queue.push(open('a'));
    expect(delivered).toEqual(['didOpen a']);
    queue.push(change('a'));
    queue.push(change('b'));
    expect(delivered).toEqual(['didOpen a']);
    turn();
    expect(delivered).toEqual(['didOpen a', 'didChange a']);
    drain();
    expect(delivered).toEqual(['didOpen a', 'didChange a', 'didChange b']);
  });

  it('lets a hover pass the notifications about other documents, never one about its own', () => {
    const { queue, delivered, drain } = harness();
    queue.push(open('first'));
    for (let i = 0; i < 1000; i++) queue.push(open(`flood${i}`));
    queue.push(open('mine'));
    for (let i = 0; i < 1000; i++) queue.push(change(`other${i}`));
    queue.push(request(1, 'textDocument/hover', 'mine'));
    drain();
    expect(delivered.indexOf('hover#1 mine')).toBe(delivered.indexOf('didOpen mine') + 1);
    expect(delivered.filter((d) => d.startsWith('didChange other')).length).toBe(1000);
    expect(delivered.slice(-1000).every((d) => d.startsWith('didChange other'))).toBe(true);
  });

  it('keeps requests in their order, and never lets one pass a workspace notification or a request about its document', () => {
    const { queue, delivered, drain } = harness();
    queue.push(open('x'));
    queue.push(open('a'));
    queue.push(request(1, 'textDocument/definition', 'h'));
    queue.push(open('b'));
    queue.push(request(2, 'textDocument/hover', 'h'));
    queue.push(notification('workspace/didChangeConfiguration'));
    queue.push(open('c'));
    queue.push(request(3, 'textDocument/hover', 'h'));
    queue.push(request(4, 'textDocument/rename', 'h'));
    queue.push(open('d'));
    queue.push(request(5, 'workspace/symbol'));
    drain();
    expect(delivered).toEqual([
      'didOpen x',
      'didOpen a',
      'definition#1 h',
      'hover#2 h',
      'didOpen b',
      'workspace/didChangeConfiguration',
      'hover#3 h',
      'didOpen c',
      'rename#4 h',
      'didOpen d',
      'workspace/symbol#5',
    ]);
  });

  it('lets a hover pass the requests about another document, never one about its own nor a workspace request', () => {
    const { queue, delivered, drain } = harness();
    queue.push(open('first'));
    queue.push(open('big'));
    queue.push(request(1, 'textDocument/foldingRange', 'big'));
    queue.push(request(2, 'textDocument/documentSymbol', 'big'));
    queue.push(request(3, 'textDocument/hover', 'small'));
    queue.push(request(4, 'textDocument/hover', 'big'));
    queue.push(request(5, 'textDocument/definition', 'other'));
    queue.push(request(6, 'textDocument/hover', 'small'));
    // What an editor asks after each change of a large document: code actions, pulled diagnostics.
    queue.push(request(7, 'textDocument/codeAction', 'big'));
    queue.push(request(8, 'textDocument/diagnostic', 'big'));
    queue.push(request(9, 'workspace/symbol'));
    queue.push(request(10, 'textDocument/codeAction', 'small'));
    queue.push(request(11, 'textDocument/hover', 'small'));
    drain();
    expect(delivered).toEqual([
      'didOpen first',
      'hover#3 small',
      'hover#6 small',
      'didOpen big',
      'foldingRange#1 big',
      'documentSymbol#2 big',
      'hover#4 big',
      'definition#5 other',
      'codeAction#7 big',
      'diagnostic#8 big',
      'workspace/symbol#9',
      'codeAction#10 small',
      'hover#11 small',
    ]);
  });

  it('lets a completion pass a flood of 100,000 opens at the cost of one look back', () => {
    const { queue, delivered, turn } = harness();
    queue.push(open('start'));
    for (let i = 0; i < 100_000; i++) queue.push(open(`f${i}`));
    queue.push(request(9, 'textDocument/completion', 'mine'));
    turn();
    expect(delivered).toEqual(['didOpen start', 'completion#9 mine']);
    expect(queue.size).toBe(100_000);
  });
});

describe('KnownRequests', () => {
  const cancel = (id: number | string): unknown => ({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
  it('drops the cancels of ids never sent as requests, passes the others and every other message', () => {
    const known = new KnownRequests();
    expect(known.passes(cancel(1))).toBe(false);
    expect(known.passes(request(1, 'textDocument/hover', 'a'))).toBe(true);
    expect(known.passes(cancel(1))).toBe(true);
    expect(known.passes(cancel('1'))).toBe(false);
    expect(known.passes(open('a'))).toBe(true);
    expect(known.passes({ jsonrpc: '2.0', id: 1, result: null })).toBe(true);
    expect(known.passes({ jsonrpc: '2.0', method: '$/cancelRequest', params: null })).toBe(true);
  });

  it('once it forgot old ids, passes a cancel that may be of one of them', () => {
    const known = new KnownRequests(3);
    for (let id = 1; id <= 5; id++) known.passes(request(id, 'textDocument/hover', 'a'));
    expect(known.passes(cancel(5))).toBe(true);
    expect(known.passes(cancel(1))).toBe(true);
    expect(known.passes(cancel('old'))).toBe(true);
    expect(known.passes(cancel(6))).toBe(false);
  });
});

describe('PassingQueue following the connection', () => {
  /** A connection that dispatches one queued message per turn, as vscode-jsonrpc does. */
  function connected() {
    const turns: Array<() => void> = [];
    const later = (fn: () => void): void => void turns.push(fn);
    const inConnection: Message[] = [];
    const dispatched: string[] = [];
    let count = 0;
    let connectionScheduled = false;
    const deliver = (m: Message): void => {
      inConnection.push(m);
      if (connectionScheduled) return;
      connectionScheduled = true;
      later(function dispatch() {
        connectionScheduled = false;
        const next = inConnection.shift();
        if (!next) return;
        count += 1;
        dispatched.push(name(next));
        if (inConnection.length > 0) {
          connectionScheduled = true;
          later(dispatch);
        }
      });
    };
    const queue = new PassingQueue(deliver, later, () => count);
    // A turn of the loop: every callback due runs (those they schedule wait for the next turn),
    // and only then is input read (a message pushed).
    const turn = (): void => {
      for (const fn of turns.splice(0)) fn();
    };
    const drain = (): void => {
      for (let i = 0; i < 1000 && turns.length > 0; i++) turn();
    };
    return { queue, dispatched, inConnection, turn, drain, dropQueued: () => inConnection.splice(0) };
  }

  it('never leaves a message waiting in the connection: a hover read during a step passes what was read before it', () => {
    const { queue, dispatched, inConnection, turn, drain } = connected();
    for (const m of [request(1, 'textDocument/codeAction', 'big'), request(2, 'textDocument/documentHighlight', 'big'), request(3, 'textDocument/inlayHint', 'big')]) queue.push(m);
    // The first is dispatched (a long step, say) and this queue's turn follows it at once: what
    // was read meanwhile comes in only after both.
    turn();
    expect(dispatched).toEqual(['codeAction#1 big']);
    expect(inConnection).toEqual([]);
    queue.push(request(4, 'textDocument/hover', 'small'));
    for (let i = 0; i < 20; i++) {
      turn();
      expect(inConnection.length).toBeLessThanOrEqual(1);
    }
    drain();
    expect(dispatched).toEqual(['codeAction#1 big', 'hover#4 small', 'documentHighlight#2 big', 'inlayHint#3 big']);
  });

  it('goes on when a message it handed over is never dispatched (a cancellation took it)', () => {
    const { queue, dispatched, dropQueued, turn, drain } = connected();
    queue.push(request(1, 'textDocument/hover', 'a'));
    dropQueued();
    queue.push(request(2, 'textDocument/hover', 'b'));
    queue.push(request(3, 'textDocument/hover', 'b'));
    turn();
    drain();
    expect(dispatched).toEqual(['hover#2 b', 'hover#3 b']);
  });
});
