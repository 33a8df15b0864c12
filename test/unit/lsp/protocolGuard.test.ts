import { describe, expect, it } from 'vitest';
import { ErrorCodes, type Message } from 'vscode-languageserver';
import { FrameReader, TextFrameReader, MAX_HEADER_BYTES, parseHeader } from '../../../server/src/lsp/framing.js';
import { ProtocolGuard } from '../../../server/src/lsp/protocolGuard.js';

const frame = (body: string): Buffer => Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
const request = (id: number | string, method: string, params?: unknown): Message => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }) as Message;
const notification = (method: string): Message => ({ jsonrpc: '2.0', method, params: {} }) as Message;
const answer = (id: number | string): Message => ({ jsonrpc: '2.0', id, result: null }) as Message;
const errorCode = (a: ReturnType<ProtocolGuard['admit']>): number | undefined => ('answer' in a ? a.answer.error?.code : undefined);

describe('FrameReader', () => {
  /** Every body the reader gives for the stream cut into chunks of `size` bytes, or the fault. */
  const read = (stream: Buffer, size: number): { bodies: string[]; fault?: string } => {
    const reader = new FrameReader();
    const bodies: string[] = [];
    for (let i = 0; i < stream.length; i += size) {
      const fault = reader.push(stream.subarray(i, i + size), (body) => bodies.push(Buffer.from(body).toString('utf8')));
      if (fault !== undefined) return { bodies, fault };
    }
    return { bodies };
  };

  it('follows well-framed messages split at any byte', () => {
    const stream = Buffer.concat([frame('{"a":1}'), frame('{"é":"ü"}'), Buffer.from('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n'), frame('{}')]);
    for (let size = 1; size <= stream.length; size += 7) {
      const watch = new FrameReader();
      for (let i = 0; i < stream.length; i += size) expect(watch.push(stream.subarray(i, i + size))).toBeUndefined();
    }
  });

  it('gives each body whole and in order, the stream split at every byte or several messages to a chunk', () => {
    const bodies = ['{"a":1}', '{"é":"ü","t":"' + 'x'.repeat(300) + '"}', '', '{}', '{"last":"€"}'];
    const stream = Buffer.concat([...bodies.slice(0, 3).map(frame), Buffer.from('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n'), ...bodies.slice(3).map(frame)]);
    for (let size = 1; size <= stream.length + 1; size++) expect(read(stream, size)).toEqual({ bodies });
  });

  it('decodes the text of each body, characters of several bytes cut at any byte', () => {
    const bodies = ['{"t":"é€😀 ' + 'ü'.repeat(50) + '"}', '', '{"a":"plain"}', '{"z":"𝄞"}'];
    const stream = Buffer.concat(bodies.map(frame));
    for (let size = 1; size <= stream.length + 1; size++) {
      const reader = new TextFrameReader();
      const got: string[] = [];
      for (let i = 0; i < stream.length; i += size) expect(reader.push(stream.subarray(i, i + size), (body) => got.push(body))).toBeUndefined();
      expect(got).toEqual(bodies);
    }
  });

  it('names the fault and its byte', () => {
    expect(new FrameReader().push(Buffer.from('Content-Length: abc\r\n\r\n{}'))).toMatch(/Content-Length that is not a number.*"abc".*byte 0/);
    expect(new FrameReader().push(Buffer.from('Content-Type: x\r\n\r\n{}'))).toMatch(/without Content-Length/);
    const watch = new FrameReader();
    expect(watch.push(frame('{}'))).toBeUndefined();
    expect(watch.push(Buffer.from('\u0000garbage\r\n\r\n'))).toMatch(/not "Name: value".*byte 23/);
    expect(new FrameReader().push(Buffer.from('Content-Length: 99999999999\r\n\r\n'))).toMatch(/more than/);
  });

  it('gives the bodies before a fault, then reads no further', () => {
    const stream = Buffer.concat([frame('{"a":1}'), frame('{"b":2}'), Buffer.from('garbage\r\n\r\n'), frame('{"c":3}')]);
    for (const size of [1, 5, stream.length]) {
      const { bodies, fault } = read(stream, size);
      expect(bodies).toEqual(['{"a":1}', '{"b":2}']);
      expect(fault).toMatch(/not "Name: value".*byte 56/);
    }
    const reader = new FrameReader();
    const fault = reader.push(Buffer.from('Content-Length: x\r\n\r\n'));
    const later: Uint8Array[] = [];
    expect(reader.push(frame('{}'), (b) => later.push(b))).toBe(fault);
    expect(later).toEqual([]);
  });

  it('bounds a header that never ends', () => {
    const watch = new FrameReader();
    expect(watch.push(Buffer.alloc(MAX_HEADER_BYTES, 'a'))).toBeUndefined();
    expect(watch.push(Buffer.from('a'))).toMatch(/longer than 8192 bytes/);
  });

  it('parses a header part', () => {
    expect(parseHeader([...Buffer.from('content-length:  12 ')])).toBe(12);
    expect(parseHeader([...Buffer.from('Content-Length: -1')])).toMatch(/not a number/);
    expect(parseHeader(Buffer.from('Content-Length: 4096'))).toBe(4096);
    expect(parseHeader(Buffer.from('Content-Length: 999999999'))).toMatch(/more than/);
    expect(parseHeader(Buffer.from('Content-Length: 12a'))).toMatch(/not a number/);
    expect(parseHeader(Buffer.from('Content-Length: 12\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8'))).toBe(12);
  });
});

describe('ProtocolGuard', () => {
  it('answers -32002 before initialize and drops notifications but exit', () => {
    const guard = new ProtocolGuard();
    expect(errorCode(guard.admit(request(1, 'textDocument/hover', {})))).toBe(ErrorCodes.ServerNotInitialized);
    expect(guard.admit(notification('textDocument/didOpen'))).toEqual({ drop: true });
    expect('pass' in guard.admit(notification('exit'))).toBe(true);
    expect('pass' in guard.admit(request(2, 'initialize', {}))).toBe(true);
    expect(errorCode(guard.admit(request(3, 'initialize', {})))).toBe(ErrorCodes.InvalidRequest);
    expect('pass' in guard.admit(request(4, 'textDocument/hover', {}))).toBe(true);
  });

  it('answers InvalidRequest after shutdown', () => {
    const guard = new ProtocolGuard();
    guard.admit(request(1, 'initialize', {}));
    expect(guard.shutDown).toBe(false);
    expect('pass' in guard.admit(request(2, 'shutdown'))).toBe(true);
    expect(guard.shutDown).toBe(true);
    expect(errorCode(guard.admit(request(3, 'textDocument/definition', {})))).toBe(ErrorCodes.InvalidRequest);
    expect(errorCode(guard.admit(request(4, 'shutdown')))).toBe(ErrorCodes.InvalidRequest);
    expect(guard.admit(notification('textDocument/didChange'))).toEqual({ drop: true });
    expect('pass' in guard.admit(notification('exit'))).toBe(true);
  });

  it('drops cancels of requests not waiting for an answer, passes the others', () => {
    const guard = new ProtocolGuard();
    guard.admit(request(1, 'initialize', {}));
    guard.answered(answer(1));
    const cancel = (id: unknown): Message => ({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } }) as Message;
    expect(guard.admit(cancel(9))).toEqual({ drop: true });
    expect(guard.admit(cancel(1))).toEqual({ drop: true });
    guard.admit(request(9, 'textDocument/hover', {}));
    expect('pass' in guard.admit(cancel(9))).toBe(true);
    guard.answered(answer(9));
    expect(guard.admit(cancel(9))).toEqual({ drop: true });
  });

  it('refuses params that are not an object', () => {
    const guard = new ProtocolGuard();
    guard.admit(request(1, 'initialize', {}));
    for (const params of [null, 3, 'x', [1]]) {
      const a = guard.admit(request(2, 'textDocument/definition', params));
      expect(errorCode(a)).toBe(ErrorCodes.InvalidParams);
      expect('answer' in a && a.answer.id).toBe(2);
    }
  });

  it('passes a reused id under an id of its own and gives the answer back its id', () => {
    const guard = new ProtocolGuard();
    guard.admit(request(1, 'initialize', {}));
    const first = guard.admit(request(5, 'textDocument/hover', {}));
    const second = guard.admit(request(5, 'textDocument/definition', {}));
    const third = guard.admit(request(5, 'textDocument/references', {}));
    const ids = [first, second, third].map((a) => ('pass' in a ? (a.pass as unknown as { id: unknown }).id : undefined));
    expect(ids[0]).toBe(5);
    expect(new Set(ids).size).toBe(3);
    expect((guard.answered(answer(ids[1] as string)) as unknown as { id: unknown }).id).toBe(5);
    expect((guard.answered(answer(5)) as unknown as { id: unknown }).id).toBe(5);
    expect((guard.answered(answer(ids[2] as string)) as unknown as { id: unknown }).id).toBe(5);
    // Every answer given: the id is free again.
    const again = guard.admit(request(5, 'textDocument/hover', {}));
    expect('pass' in again && (again.pass as unknown as { id: unknown }).id).toBe(5);
  });
});
