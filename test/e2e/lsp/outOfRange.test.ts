// Positions past the document are legal LSP (a line past the end means the end; a character past
// its line's end means that end). A change with such a range, then "\n", then any ordinary edit once
// made the text-document library write line index 2^31-1 and the server grow until it aborted.

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspClient, startClient, tempWorkspace, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const TEXT = 'domain = "demo"\ndescription = "Demo"\n\n[concept.Ticket]\ndescription = "A ticket"\n';
const LAST = 2 ** 31 - 1;

describe('out-of-range positions over stdio', () => {
  it('survives a change past the end followed by ordinary edits, and stays small', async () => {
    const ws = tempWorkspace();
    client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
    const uri = uriOf(path.join(ws, 'demo.mthds'));
    let after = client.published.length;
    client.open(uri, TEXT);
    await client.nextDiagnostics(uri, () => true, after);

    // The exact sequence: a one-line range far past the end, replaced by a line break, then an edit.
    client.sendRawChanges(uri, [{ range: { start: { line: LAST - 1, character: 0 }, end: { line: LAST, character: 0 } }, text: '\n' }]);
    client.sendRawChanges(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# x\n' }]);
    client.sendRawChanges(uri, [{ range: { start: { line: 1, character: 3 }, end: { line: 1, character: 3 } }, text: 'z' }]);
    // Negative, fractional and reversed ranges, a character past its line.
    client.sendRawChanges(uri, [{ range: { start: { line: -4, character: -9 }, end: { line: 0, character: 0 } }, text: '' }]);
    client.sendRawChanges(uri, [{ range: { start: { line: 2, character: 1e9 }, end: { line: 2, character: 0.5 } }, text: '' }]);
    client.sendRawChanges(uri, [{ range: { start: { line: 5, character: 0 }, end: { line: 3, character: 0 } }, text: '[concept.Other]\ndescription = "Other"\n' }]);

    // The server still answers, on the text those changes mean.
    const version = client.version(uri);
    after = client.published.length;
    const symbols = (await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as Array<{ name: string }>;
    expect(symbols.map((s) => s.name)).toContain('Other');
    const hover = await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: LAST, character: LAST } });
    expect(hover === null || typeof hover === 'object').toBe(true);
    const formatted = (await client.connection.sendRequest('textDocument/rangeFormatting', {
      textDocument: { uri },
      range: { start: { line: LAST, character: 0 }, end: { line: -1, character: -1 } },
      options: { tabSize: 2, insertSpaces: true },
    })) as Array<{ range: { start: { line: number }; end: { line: number } } }>;
    const lines = client.text(uri).split('\n').length;
    for (const e of formatted ?? []) expect(e.range.end.line).toBeLessThan(lines);
    await client.waitFor(() => client!.published.slice(after).some((p) => p.uri === uri && p.version === version) || client!.diagnostics.get(uri)?.version === version, 'diagnostics of the last version');

    // The server's text is the text the changes mean: a fresh document of the client's copy agrees.
    const twin = uriOf(path.join(ws, 'twin/demo.mthds'));
    after = client.published.length;
    client.open(twin, client.text(uri));
    const fresh = await client.nextDiagnostics(twin, () => true, after);
    const strip = (ds: Array<{ code?: unknown; range: unknown; message: string }>): string[] => ds.map((d) => JSON.stringify([d.code, d.range, d.message])).sort();
    expect(strip(client.diagnostics.get(uri)!.diagnostics)).toEqual(strip(fresh));

    expect(client.alive()).toBe(true);
    const rss = client.rssMb();
    console.log(`server RSS after the out-of-range sequence: ${rss.toFixed(1)} MB`);
    // The fault grew the server to its heap limit (gigabytes); an idle server's RSS here is 145-245 MB,
    // as V8 returns the pages of the start-up's warm-up sooner or later (measured over ten runs).
    expect(rss).toBeLessThan(300);
  }, 60_000);
});
