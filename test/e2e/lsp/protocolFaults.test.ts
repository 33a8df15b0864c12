// Protocol faults over stdio, as raw bytes: a broken frame ends the server with a message on
// stderr (the client starts it again); lifecycle and parameter faults are answered with their
// JSON-RPC error codes; requests sharing an id each get an answer.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_BIN } from './harness.js';

interface Raw {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  /** Every message the server wrote, decoded. */
  messages: Array<{ id?: unknown; method?: string; result?: unknown; error?: { code: number; message: string } }>;
  exited: Promise<number | null>;
}

const started: Raw[] = [];
afterEach(() => {
  for (const r of started.splice(0)) if (r.child.exitCode === null) r.child.kill();
});

function start(entry = SERVER_BIN): Raw {
  const child = spawn(process.execPath, [entry, '--stdio']);
  let err = '';
  let out = Buffer.alloc(0);
  const messages: Raw['messages'] = [];
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    out = Buffer.concat([out, d]);
    for (;;) {
      const end = out.indexOf('\r\n\r\n');
      if (end < 0) break;
      const length = Number(/Content-Length: (\d+)/i.exec(out.subarray(0, end).toString())?.[1]);
      if (out.length < end + 4 + length) break;
      messages.push(JSON.parse(out.subarray(end + 4, end + 4 + length).toString()));
      out = out.subarray(end + 4 + length);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const raw = { child, stderr: () => err, messages, exited };
  started.push(raw);
  return raw;
}

const frame = (message: unknown): string => {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};
const position = { textDocument: { uri: 'file:///nowhere/a.mthds' }, position: { line: 0, character: 0 } };

async function answerTo(raw: Raw, id: unknown, timeoutMs = 15_000): Promise<Raw['messages']> {
  const t0 = Date.now();
  while (!raw.messages.some((m) => m.id === id && m.method === undefined)) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`no answer to ${String(id)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return raw.messages.filter((m) => m.id === id && m.method === undefined);
}

async function initialized(raw: Raw): Promise<void> {
  raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
  await answerTo(raw, 1);
  raw.child.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
}

describe('the start over stdio', () => {
  // The command starts the thread reading stdin before the server's code loads, and that thread
  // waits for the server; the bundle alone starts it itself. What is written at once, before
  // either is ready, is read and answered, and `exit` after `shutdown` ends the process with 0.
  const entries: Array<[string, string]> = [
    ['its command (bin/mthds-language-server.js)', SERVER_BIN],
    ['its bundle alone (dist/server.js)', path.join(path.dirname(SERVER_BIN), '../dist/server.js')],
  ];
  for (const [what, entry] of entries) {
    it(`answers every message written before it was ready, started by ${what}`, async () => {
      const raw = start(entry);
      raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
      raw.child.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
      await answerTo(raw, 1);
      raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
      await answerTo(raw, 2);
      raw.child.stdin.write(frame({ jsonrpc: '2.0', method: 'exit' }));
      expect(await raw.exited).toBe(0);
      const answers = raw.messages.filter((m) => m.method === undefined).map((m) => m.id);
      expect(answers).toEqual([1, 2]);
      expect(raw.stderr()).toBe('');
    });
  }
});

describe('protocol faults over stdio', () => {
  const broken: Array<[string, string]> = [
    ['a Content-Length that is not a number', 'Content-Length: abc\r\n\r\n{}'],
    ['a header without Content-Length', 'Content-Type: application/vscode-jsonrpc\r\n\r\n{"jsonrpc":"2.0"}'],
    ['garbage bytes', '\u0000\u0001garbage\r\n\r\n'],
    ['an over-long header', `X-Padding: ${'a'.repeat(20_000)}`],
  ];
  for (const [what, bytes] of broken) {
    it(`exits with a message on stderr on ${what}, after a well-framed exchange`, async () => {
      const raw = start();
      await initialized(raw);
      raw.child.stdin.write(bytes);
      expect(await raw.exited).toBe(3);
      expect(raw.stderr()).toMatch(/breaks the protocol's framing: .*\(the header at byte \d+\)/);
    });
  }

  it('exits with a message on stderr when the thread reading stdin cannot start', async () => {
    // server.js without the stdinWorker.js it starts beside it.
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-lone-server-'));
    try {
      copyFileSync(path.join(path.dirname(SERVER_BIN), '../dist/server.js'), path.join(dir, 'server.js'));
      writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
      const child = spawn(process.execPath, [path.join(dir, 'server.js'), '--stdio']);
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(err).toMatch(/the thread reading stdin failed: .*stdinWorker\.js/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a message of 20 MB, then the messages after it, and answers them', async () => {
    const raw = start();
    await initialized(raw);
    const text = `domain = "big"\n${'# é€ filler line of a large document\n'.repeat(500_000)}[pipe.last_one]\ntype = "PipeLLM"\n`;
    raw.child.stdin.write(frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///nowhere/big.mthds', languageId: 'mthds', version: 1, text } } }));
    raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 9, method: 'textDocument/documentSymbol', params: { textDocument: { uri: 'file:///nowhere/big.mthds' } } }));
    const [answer] = await answerTo(raw, 9, 60_000);
    expect(answer!.error).toBeUndefined();
    // The outline of a document past the analysed size, read from its headers: the text came whole.
    expect(answer!.result).toMatchObject([{ name: 'last_one', selectionRange: { start: { line: 500_001, character: 6 } } }]);
  });

  it('answers -32002 before initialize, then serves normally', async () => {
    const raw = start();
    raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 7, method: 'textDocument/hover', params: position }));
    const [refused] = await answerTo(raw, 7);
    expect(refused!.error?.code).toBe(-32002);
    await initialized(raw);
    raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 8, method: 'textDocument/hover', params: position }));
    const [served] = await answerTo(raw, 8);
    expect(served!.error).toBeUndefined();
  });

  it('answers InvalidRequest after shutdown and exits 0 on exit', async () => {
    const raw = start();
    await initialized(raw);
    raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
    await answerTo(raw, 2);
    raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 3, method: 'textDocument/definition', params: position }));
    const [refused] = await answerTo(raw, 3);
    expect(refused!.error?.code).toBe(-32600);
    raw.child.stdin.write(frame({ jsonrpc: '2.0', method: 'exit' }));
    expect(await raw.exited).toBe(0);
  });

  it('answers params null with InvalidParams, not a crash message', async () => {
    const raw = start();
    await initialized(raw);
    raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 4, method: 'textDocument/definition', params: null }));
    const [refused] = await answerTo(raw, 4);
    expect(refused!.error?.code).toBe(-32602);
    expect(refused!.error?.message).not.toMatch(/Cannot read properties/);
  });

  it('answers each of the requests sharing an id', async () => {
    const raw = start();
    await initialized(raw);
    raw.child.stdin.write(
      frame({ jsonrpc: '2.0', id: 5, method: 'textDocument/hover', params: position }) +
        frame({ jsonrpc: '2.0', id: 5, method: 'textDocument/definition', params: position }) +
        frame({ jsonrpc: '2.0', id: 5, method: 'textDocument/references', params: { ...position, context: { includeDeclaration: true } } }) +
        frame({ jsonrpc: '2.0', id: 6, method: 'textDocument/hover', params: position }),
    );
    await answerTo(raw, 6);
    await new Promise((r) => setTimeout(r, 200));
    expect(raw.messages.filter((m) => m.id === 5 && m.method === undefined)).toHaveLength(3);
  });
});

describe('a large message over stdio', () => {
  it('answers a hover of another document written behind a didOpen of 50 MB; a request about the large one sees it whole; one warning', async () => {
    const raw = start();
    await initialized(raw);
    const small = 'file:///nowhere/small.mthds';
    const big = 'file:///nowhere/big.mthds';
    raw.child.stdin.write(frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: small, languageId: 'mthds', version: 1, text: 'domain = "small"\ndescription = "Small"\n\n[concept.Note]\ndescription = "A note"\n' } } }));
    raw.child.stdin.write(frame({ jsonrpc: '2.0', id: 10, method: 'textDocument/hover', params: { textDocument: { uri: small }, position: { line: 3, character: 10 } } }));
    await answerTo(raw, 10);
    const prompt = 'Say "it" with é and \\ a backslash, [not.a.table]\n'.repeat(900_000);
    const text = `domain = "big"\ndescription = "A large bundle"\n\n[pipe.first]\ntype = "PipeLLM"\noutput = "Text"\nprompt = """\n${prompt}"""\n\n[pipe.last_one]\ntype = "PipeLLM"\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(40 * 2 ** 20);
    raw.child.stdin.write(
      frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: big, languageId: 'mthds', version: 1, text } } }) +
        frame({ jsonrpc: '2.0', id: 20, method: 'textDocument/hover', params: { textDocument: { uri: small }, position: { line: 3, character: 10 } } }) +
        frame({ jsonrpc: '2.0', id: 21, method: 'textDocument/documentSymbol', params: { textDocument: { uri: big } } }),
    );
    const [hover] = await answerTo(raw, 20, 60_000);
    expect(hover!.error).toBeUndefined();
    const [symbols] = await answerTo(raw, 21, 120_000);
    // The outline read from the whole text: the request waited for the document it is about.
    expect((symbols!.result as Array<{ name: string }>).map((x) => x.name)).toEqual(['first', 'last_one']);
    const index = (pick: (m: Raw['messages'][number]) => boolean): number => raw.messages.findIndex(pick);
    const isPublished = (m: Raw['messages'][number]): boolean => m.method === 'textDocument/publishDiagnostics' && (m as { params?: { uri?: string } }).params?.uri === big;
    const t0 = Date.now();
    while (index(isPublished) < 0 && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 50));
    // The large document got its one warning, after the hover's answer.
    expect(index((m) => m.id === 20 && m.method === undefined)).toBeLessThan(index(isPublished));
    const published = raw.messages.filter(isPublished).map((m) => (m as { params: { diagnostics: Array<{ code: string }> } }).params.diagnostics.map((d) => d.code));
    expect(published).toEqual([['mthdsls.client.document_too_large']]);
  });
});

describe('floods over stdio', () => {
  it('answers a hover written behind 5,000 didOpen of other documents before it has handled them', async () => {
    const raw = start();
    await initialized(raw);
    const uri = 'file:///nowhere/mine.mthds';
    const opens = Array.from({ length: 5000 }, (_, i) => frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: `untitled:flood${i}`, languageId: 'mthds', version: 1, text: `domain = "flood"\ndescription = "Flood ${i}"\n` } } }));
    raw.child.stdin.write(frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'mthds', version: 1, text: 'domain = "mine"\n' } } }) + opens.join('') + frame({ jsonrpc: '2.0', id: 20, method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 0, character: 1 } } }));
    await answerTo(raw, 20, 60_000);
    const answeredAt = raw.messages.findIndex((m) => m.id === 20 && m.method === undefined);
    const published = (n: number): number => raw.messages.findIndex((m) => m.method === 'textDocument/publishDiagnostics' && (m as { params?: { uri?: string } }).params?.uri === `untitled:flood${n}`);
    // Every document is still checked and published, after the answer for most of them.
    const t0 = Date.now();
    while (published(4999) < 0 && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 50));
    expect(published(4999)).toBeGreaterThan(answeredAt);
    expect(published(2500)).toBeGreaterThan(answeredAt);
  });
});
