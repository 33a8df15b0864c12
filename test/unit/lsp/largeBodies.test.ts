// The stdin thread's handling of large messages: their outline read from the bytes, their bytes
// framed apart, the order they are handed over in, their long strings moved as bytes.

import { describe, expect, it } from 'vitest';
import { ArrivalOrder } from '../../../server/src/lsp/arrivalOrder.js';
import { SplitFrameReader, type FrameBody } from '../../../server/src/lsp/framing.js';
import { JsonOutline } from '../../../server/src/lsp/jsonOutline.js';
import { packStrings, unpackStrings } from '../../../server/src/lsp/packedStrings.js';
import { outlineOf } from '../../../server/src/lsp/passingRules.js';
import type { StdinEvent } from '../../../server/src/lsp/stdinEvents.js';

/** The outline of a JSON text read in chunks of `size` bytes. */
function scan(json: string, size = 1_000_000): ReturnType<JsonOutline['outline']> {
  const bytes = Buffer.from(json);
  const outline = new JsonOutline();
  for (let i = 0; i < bytes.length; i += size) outline.push(bytes.subarray(i, i + size));
  return outline.outline();
}

const open = (uri: string, text = 'x'): object => ({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'mthds', version: 1, text } } });
const hover = (id: number, uri: string): object => ({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 0, character: 0 } } });

describe('JsonOutline', () => {
  it('reads what JSON.parse reads, whatever the key order, escapes and chunk size', () => {
    const messages: unknown[] = [
      open('file:///a.mthds', 'say "hi" \\ {not: "json"} [pipe.x]\n'.repeat(50)),
      { params: { textDocument: { text: '"}', uri: 'file:///b \\"q\\".mthds' }, contentChanges: [{ text: '}]"' }] }, method: 'textDocument/didChange', jsonrpc: '2.0' },
      hover(7, 'file:///é€😀.mthds'),
      { jsonrpc: '2.0', id: 'x-1', method: 'textDocument/documentSymbol', params: { textDocument: { uri: 'file:///c' } } },
      { jsonrpc: '2.0', id: null, method: 'textDocument/didSave', params: { textDocument: { uri: 'file:///d' } } },
      { jsonrpc: '2.0', method: 'workspace/didChangeConfiguration', params: { settings: { textDocument: { uri: 'file:///nested' } } } },
      { jsonrpc: '2.0', id: -12.5e3, method: 'textDocument/hover', params: [{ textDocument: { uri: 'file:///in-array' } }] },
    ];
    for (const message of messages) {
      const expected = outlineOf(message);
      const json = JSON.stringify(message, null, message === messages[1] ? 2 : undefined);
      for (const size of [1, 2, 3, 7, 64, 1_000_000]) expect(scan(json, size)).toEqual(expected);
    }
  });

  it('lets a later duplicate key replace an earlier one, as JSON.parse does', () => {
    const json = '{"method":"textDocument/hover","id":1,"params":{"textDocument":{"uri":"file:///first"}},"params":{"other":{"uri":"x"}},"id":null}';
    expect(scan(json)).toEqual(outlineOf(JSON.parse(json)));
    expect(scan(json)).toEqual({ method: 'textDocument/hover', request: false, uri: undefined });
  });

  it('gives an outline of nothing for what is not JSON or not whole', () => {
    const nothing = { method: undefined, request: false, uri: undefined };
    for (const bad of ['', '{"method":"textDocument/didOpen"', '"text"', '{"method":"a"}}', '{"method":"a"}]', 'garbage', '{"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","text":"no end']) expect(scan(bad)).toEqual(nothing);
  });
});

describe('SplitFrameReader', () => {
  it('gives small bodies as text and large ones as their own bytes with their outline, in order', () => {
    const bodies = [JSON.stringify(hover(1, 'file:///s')), JSON.stringify(open('file:///big', 'é'.repeat(400))), '{"a":"ü"}'];
    const stream = Buffer.concat(bodies.map((b) => Buffer.from(`Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`)));
    for (const size of [1, 5, 100, stream.length]) {
      const reader = new SplitFrameReader(500);
      const got: FrameBody[] = [];
      for (let i = 0; i < stream.length; i += size) expect(reader.push(stream.subarray(i, i + size), (b) => got.push(b))).toBeUndefined();
      expect(got.map((b) => ('text' in b ? b.text : Buffer.from(b.bytes).toString('utf8')))).toEqual(bodies);
      const large = got[1]!;
      if (!('bytes' in large)) throw new Error('the second body is large');
      expect(large.bytes.byteOffset).toBe(0);
      expect(large.bytes.buffer.byteLength).toBe(Buffer.byteLength(bodies[1]!));
      expect(large.outline).toEqual({ method: 'textDocument/didOpen', request: false, uri: 'file:///big' });
    }
  });
});

describe('ArrivalOrder', () => {
  const name = (m: unknown): string => {
    const o = outlineOf(m);
    return `${o.method?.replace('textDocument/', '')}${o.id !== undefined ? `#${o.id}` : ''} ${o.uri ?? ''}`.trim();
  };
  function harness() {
    const posted: string[] = [];
    const order = new ArrivalOrder((event: StdinEvent) => {
      if (event.kind === 'messages') posted.push(...event.messages.map(name));
      else if (event.kind === 'packed') posted.push(`packed ${name(event.message)}`);
      else posted.push(event.kind);
    });
    return { order, posted };
  }

  it('lets a request about another document pass a large message being decoded, and nothing else', () => {
    const { order, posted } = harness();
    order.message(open('a'));
    order.large(1, outlineOf(open('big')));
    order.message(hover(1, 'a'));
    order.message(open('e'));
    order.message(hover(5, 'a'));
    order.message(hover(2, 'big'));
    order.message(open('c'));
    order.message(hover(3, 'a'));
    order.message({ jsonrpc: '2.0', method: 'workspace/didChangeConfiguration', params: {} });
    order.message(hover(4, 'd'));
    order.event({ kind: 'end' });
    order.flush();
    // hover#5 passes notifications about other documents; hover#3 also passes a hover about another
    // document (hover#2), which waits for its own; hover#4 never passes the workspace notification.
    expect(posted).toEqual(['didOpen a', 'hover#1 a', 'hover#5 a', 'hover#3 a']);
    order.decoded(1, { kind: 'packed', message: open('big'), strings: [] });
    expect(posted).toEqual(['didOpen a', 'hover#1 a', 'hover#5 a', 'hover#3 a', 'packed didOpen big', 'didOpen e', 'hover#2 big', 'didOpen c', 'workspace/didChangeConfiguration', 'hover#4 d', 'end']);
    expect(order.waiting).toBe(0);
  });

  it('hands large messages over in the order read, whichever is decoded first', () => {
    const { order, posted } = harness();
    order.large(1, outlineOf(open('one')));
    order.large(2, outlineOf(open('two')));
    order.message(hover(1, 'three'));
    order.flush();
    expect(posted).toEqual(['hover#1 three']);
    order.decoded(2, { kind: 'packed', message: open('two'), strings: [] });
    expect(posted).toEqual(['hover#1 three']);
    order.decoded(1, { kind: 'error', message: 'not JSON' });
    expect(posted).toEqual(['hover#1 three', 'error', 'packed didOpen two']);
    expect(order.waiting).toBe(0);
  });
});

describe('packed strings', () => {
  it('moves the long strings as bytes and puts them back whole', () => {
    const latin = 'domain = "x"\n'.repeat(10) + 'é';
    const wide = 'ü€😀'.repeat(20);
    const message = { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///a' }, contentChanges: [{ text: latin }, { text: 'short' }, { text: wide }] } };
    const copy = structuredClone(message);
    const strings = packStrings(copy, 50);
    expect(strings.map((s) => [s.path.join('.'), s.latin1, s.bytes.byteLength])).toEqual(
      expect.arrayContaining([
        ['params.contentChanges.0.text', true, latin.length],
        ['params.contentChanges.2.text', false, wide.length * 2],
      ]),
    );
    expect(strings.length).toBe(2);
    expect(copy.params.contentChanges[0]!.text).toBe('');
    for (const sliceBytes of [1, 2, 3, 8, 1 << 20]) {
      const turns: Array<() => void> = [];
      const sizes: Array<[string, number]> = [];
      let whole: unknown;
      const pieces: Array<[string, string, number]> = [];
      const onString = (text: string, size: number, of: readonly string[], at: ReadonlyArray<string | number>): void => {
        sizes.push([text, size]);
        pieces.push([at.join('.'), of.join(''), of.length]);
        expect(of.length === 1 ? of[0] : text).toBe(text);
      };
      unpackStrings(structuredClone(copy), strings, (m) => (whole = m), { later: (fn) => turns.push(fn), sliceBytes, onString });
      // A slice a turn: nothing whole before the last.
      let ran = 0;
      while (turns.length > 0) {
        expect(whole).toBeUndefined();
        turns.shift()!();
        ran += 1;
      }
      if (sliceBytes < 100) expect(ran).toBeGreaterThan(10);
      expect(whole).toEqual(message);
      expect(sizes).toEqual(expect.arrayContaining([latin, wide].map((t) => [t, Buffer.byteLength(t)])));
      expect(sizes.length).toBe(2);
      // The pieces each string was joined from, in order, and where it sits (lsp/textPieces.ts).
      expect(pieces.map(([at, joined]) => [at, joined])).toEqual([
        ['params.contentChanges.0.text', latin],
        ['params.contentChanges.2.text', wide],
      ].sort((a, b) => strings.findIndex((s) => s.path.join('.') === a[0]) - strings.findIndex((s) => s.path.join('.') === b[0])));
      if (sliceBytes < 100) expect(pieces.every(([, , count]) => count > 1)).toBe(true);
    }
  });
});
