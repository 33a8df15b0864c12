// The server never crashes on bad input: garbage, NUL bytes, a huge single line, deep nesting.
// Each document still gets diagnostics, and the server answers afterwards.

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspClient, startClient, tempWorkspace, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const BAD_TEXTS: Record<string, string> = {
  garbage: '\u0001\u0002[[[===\ud800"""\'\'\'{{{ }}}]]]]\n= = =\n[pipe.\n',
  nul: 'domain = "demo\u0000"\ndescription = "x"\n\u0000\u0000\u0000\n[pipe.a]\ntype = "Pipe\u0000LLM"\n',
  hugeLine: `domain = "demo"\ndescription = "${'a'.repeat(2_000_000)}`,
  deepNesting: `a = ${'['.repeat(100_000)}`,
  manyErrors: Array.from({ length: 5000 }, (_, i) => `[pipe.p${i}]\ntype = ${i}\n`).join(''),
};

describe('language server robustness', () => {
  it('gives every bad document diagnostics and stays up', async () => {
    const ws = tempWorkspace({ 'disk/binary.mthds': Buffer.from([0x64, 0x6f, 0x6d, 0x00, 0xff, 0xfe, 0x0a]) });
    client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
    // A closed file with bytes that are not text: located, not fatal.
    const binary = await client.nextDiagnostics(uriOf(path.join(ws, 'disk/binary.mthds')), (d) => d.length > 0, 0);
    expect(binary.map((d) => d.code)).toContain('method.syntax');
    for (const [name, text] of Object.entries(BAD_TEXTS)) {
      const uri = uriOf(path.join(ws, `open/${name}.mthds`));
      const after = client.published.length;
      client.open(uri, text);
      const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, after, 30_000);
      expect(diagnostics.length, name).toBeGreaterThan(0);
      for (const d of diagnostics) expect(typeof d.code).toBe('string');
    }
    // Edits with ranges past the end are clamped, not fatal.
    const uri = uriOf(path.join(ws, 'open/garbage.mthds'));
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 50 },
      contentChanges: [{ range: { start: { line: 999, character: 5 }, end: { line: 1999, character: 0 } }, text: '\u0000' }],
    });
    // A request the server does not know, and one with nonsense params: errors, not a crash.
    await expect(client.connection.sendRequest('mthds/nonsense', {})).rejects.toBeDefined();
    await client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: 'file:///nowhere/x.mthds' }, range: { start: { line: -1, character: -1 }, end: { line: 1e9, character: 0 } }, context: { diagnostics: [] } });
    const actions = await client.codeActions(uriOf(path.join(ws, 'open/nul.mthds')), { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } });
    expect(Array.isArray(actions)).toBe(true);
    expect(client.alive()).toBe(true);
    // Still checking: a fresh good document gets its (empty) diagnostics.
    const good = uriOf(path.join(ws, 'open/good.mthds'));
    const after = client.published.length;
    client.open(good, 'domain = "demo"\ndescription = "Fine"\n');
    expect(await client.nextDiagnostics(good, () => true, after)).toEqual([]);
  });
});
