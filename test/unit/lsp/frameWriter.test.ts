// The stdio writer (lsp/frameWriter.ts): a message with a long array is made in slices and gives the
// same bytes as made at once; an answer written meanwhile passes it; everything else keeps its order.

import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from 'vscode-languageserver/node.js';
import { FrameWriter, frameOf, frameSteps, ITEMS_PER_SLICE, SLICED_ARRAY_MIN } from '../../../server/src/lsp/frameWriter.js';

/** What a frame is, for the assertions: an answer's id, else the notification's document and its diagnostics. */
type Seen = { id?: number | string; params?: { uri: string; diagnostics: unknown[] } };

/** A sink keeping what is written, and the frames cut back out of it. */
function sink(): { stream: Writable; frames(): Array<{ length: number; message: Message }> } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return {
    stream,
    frames() {
      const all = Buffer.concat(chunks);
      const out: Array<{ length: number; message: Message }> = [];
      for (let at = 0; at < all.length; ) {
        const end = all.indexOf('\r\n\r\n', at);
        const length = Number(/Content-Length: (\d+)/.exec(all.subarray(at, end).toString('ascii'))![1]);
        out.push({ length, message: JSON.parse(all.subarray(end + 4, end + 4 + length).toString('utf8')) as Message });
        at = end + 4 + length;
      }
      return out;
    },
  };
}

const run = (steps: Generator<void, Buffer[]>): { pieces: Buffer[]; turns: number } => {
  let turns = 0;
  for (;;) {
    const next = steps.next();
    if (next.done === true) return { pieces: next.value, turns };
    turns += 1;
  }
};

const diagnostics = (n: number, text = 'unused input'): unknown[] =>
  Array.from({ length: n }, (_, i) => ({ range: { start: { line: i, character: 0 }, end: { line: i, character: 4 } }, message: `${text} u${i}`, code: 'method.input_unused', severity: 2 }));

const publish = (n: number, uri = 'file:///w/wide.mthds'): Message => ({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri, version: 3, diagnostics: diagnostics(n) } }) as Message;

describe('the frame of a message with a long array', () => {
  it('is made in slices of the array and gives the bytes made at once, whatever the items', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: SLICED_ARRAY_MIN, maxLength: SLICED_ARRAY_MIN + 2 * ITEMS_PER_SLICE + 3 }), fc.string(), (items, id) => {
        const message = { jsonrpc: '2.0', id, result: { edit: { changes: { 'file:///a': items } }, title: 'é\u2028"' } } as unknown as Message;
        const { pieces, turns } = run(frameSteps(message));
        expect(Buffer.concat(pieces).equals(Buffer.concat(frameOf(message)))).toBe(true);
        expect(turns).toBe(Math.ceil(items.length / ITEMS_PER_SLICE));
      }),
      { numRuns: 20 },
    );
  });

  it('leaves a message without one whole, and the message unchanged', () => {
    const small = publish(SLICED_ARRAY_MIN - 1);
    const before = JSON.stringify(small);
    expect(run(frameSteps(small)).turns).toBe(0);
    const big = publish(SLICED_ARRAY_MIN * 3);
    const bigBefore = JSON.stringify(big);
    run(frameSteps(big));
    expect(JSON.stringify(small)).toBe(before);
    expect(JSON.stringify(big)).toBe(bigBefore);
  });
});

describe('the writer', () => {
  it('writes an answer ahead of a long message still being made, and keeps the order of the rest', async () => {
    const out = sink();
    const turns: Array<() => void> = [];
    const writer = new FrameWriter(out.stream, (step) => void turns.push(step));
    const written: string[] = [];
    const note = (what: string) => (): void => void written.push(what);
    const big = writer.write(publish(3000)).then(note('big'));
    const after = writer.write(publish(1, 'file:///w/other.mthds')).then(note('notification'));
    const answer = writer.write({ jsonrpc: '2.0', id: 7, result: { contents: 'hover' } } as Message).then(note('answer'));
    // The long message is made a slice per turn: nothing of it is written before.
    await new Promise((r) => setImmediate(r));
    expect(out.frames().map((f) => ('id' in f.message ? f.message.id : (f.message as Seen).params!.uri))).toEqual([7]);
    while (turns.length > 0) turns.shift()!();
    await Promise.all([big, after, answer]);
    const frames = out.frames();
    expect(frames.map((f) => ('id' in f.message ? `answer ${String(f.message.id)}` : (f.message as Seen).params!.diagnostics.length))).toEqual(['answer 7', 3000, 1]);
    expect(frames[1]!.message).toEqual(publish(3000));
    expect(written).toEqual(['answer', 'big', 'notification']);
  });

  it('keeps the order of messages written while nothing is being made', async () => {
    const out = sink();
    const writer = new FrameWriter(out.stream);
    await Promise.all([writer.write(publish(2, 'file:///a')), writer.write({ jsonrpc: '2.0', id: 1, result: null } as Message), writer.write(publish(2, 'file:///b'))]);
    expect(out.frames().map((f) => ('id' in f.message ? 'answer' : (f.message as Seen).params!.uri))).toEqual(['file:///a', 'answer', 'file:///b']);
  });

  it('writes the frames of one run of the program in one write, by the next tick', async () => {
    const writes: number[] = [];
    const stream = new Writable({
      write(_chunk: Buffer, _encoding, done) {
        writes.push(1);
        done();
      },
      writev(chunks, done) {
        writes.push(chunks.length);
        done();
      },
    });
    const writer = new FrameWriter(stream);
    const all = Array.from({ length: 40 }, (_, i) => writer.write(publish(1, `file:///f${i}`)));
    expect(writes).toEqual([]);
    await new Promise<void>((resolve) => process.nextTick(resolve));
    // One write of the 80 pieces (a header and a body each).
    expect(writes).toEqual([80]);
    await Promise.all(all);
    // Written alone later, a message goes out by itself.
    await writer.write(publish(1, 'file:///late'));
    expect(writes).toEqual([80, 2]);
  });

  it('drops a message that cannot be made JSON, reports it, and writes the next', async () => {
    const out = sink();
    const writer = new FrameWriter(out.stream);
    const errors: unknown[] = [];
    writer.onError((e) => errors.push(e));
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'x', params: {} };
    (cyclic['params'] as Record<string, unknown>)['self'] = cyclic;
    await expect(writer.write(cyclic as unknown as Message)).rejects.toThrow();
    await writer.write(publish(1));
    expect(errors).toHaveLength(1);
    expect(out.frames()).toHaveLength(1);
  });
});
