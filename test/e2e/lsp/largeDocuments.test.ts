// A bundle past the size the language server analyses (workspace/documentSize.ts): open or on
// disk, it gets one coded diagnostic and the light features only (folding and the outline from its
// headers, formatting refused with a message), while the other documents keep being served and
// shutdown is answered.

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EDITOR_TEMPLATE_LIMIT } from '../../../server/src/language/templates/analyze.js';
import { LARGE_BODY_BYTES } from '../../../server/src/lsp/framing.js';
import { runCli } from '../../helpers/cli.js';
import { MAX_ANALYZED_BYTES } from '../../../server/src/workspace/documentSize.js';
import { LspClient, startClient, tempWorkspace, uriOf } from './harness.js';
import { largeDocumentFolding, largeDocumentSymbols, MAX_LARGE_ENTRIES } from '../../../server/src/lsp/largeDocuments.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

/** A bundle of `count` pipes (about 110 bytes each), one of them with a prompt whose lines open tables. */
function pipes(count: number): string {
  const out = ['domain = "big"', 'description = "A large bundle"', ''];
  out.push('[pipe.first]', 'type = "PipeLLM"', 'description = "A prompt with brackets"', 'output = "Text"', 'prompt = """', '[not.a.table]', 'Say it', '"""', '');
  for (let i = 0; i < count; i++) out.push(`[pipe.p${i}]`, 'type = "PipeLLM"', `description = "Pipe ${i} of the large bundle"`, 'output = "Text"', `prompt = "Say ${i}"`, '');
  return out.join('\n');
}

const SMALL = 'domain = "small"\ndescription = "Small"\n\n[concept.Note]\ndescription = "A note"\n\n[pipe.write]\ntype = "PipeLLM"\ndescription = "Writes"\noutput = "Note"\nprompt = "Write"\n';

/**
 * A client on a workspace of the small bundle, and a bundle of 1.5 times the analysed size to open
 * (and past the size from which a message crosses stdio as bytes, framing.ts).
 */
async function largeInWorkspace(): Promise<{ started: LspClient; count: number; uri: string }> {
  const ws = tempWorkspace({ 'small.mthds': SMALL });
  const started = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
  // Shut down after the test even when the check below fails.
  client = started;
  await started.workspaceChecked(60_000);
  return { started, count: Math.ceil((Math.max(MAX_ANALYZED_BYTES, LARGE_BODY_BYTES) * 1.5) / 100), uri: uriOf(path.join(ws, 'large.mthds')) };
}

describe('documents past the analysed size', () => {
  it('get one coded diagnostic and the light features; the others are served; shutdown is answered', async () => {
    const count = Math.ceil((MAX_ANALYZED_BYTES * 1.5) / 100);
    const big = pipes(count);
    expect(Buffer.byteLength(big)).toBeGreaterThan(MAX_ANALYZED_BYTES);
    const ws = tempWorkspace({ 'small.mthds': SMALL, 'disk/large.mthds': big });
    client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
    await client.workspaceChecked(60_000);
    // On disk: the one diagnostic, nothing parsed.
    const onDisk = client.diagnostics.get(uriOf(path.join(ws, 'disk/large.mthds')))?.diagnostics ?? [];
    expect(onDisk.map((d) => d.code)).toEqual(['mthdsls.client.document_too_large']);

    const smallUri = uriOf(path.join(ws, 'small.mthds'));
    client.open(smallUri, SMALL);
    const uri = uriOf(path.join(ws, 'large.mthds'));
    const after = client.published.length;
    client.open(uri, big);
    const [diagnostic, ...others] = await client.nextDiagnostics(uri, (d) => d.length > 0, after, 30_000);
    expect(others).toEqual([]);
    expect(diagnostic!.code).toBe('mthdsls.client.document_too_large');
    expect(diagnostic!.severity).toBe(2);
    expect(diagnostic!.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    expect(diagnostic!.message).toContain(`${MAX_ANALYZED_BYTES} bytes`);

    // The light features: the outline and folding from the headers (the bracketed prompt line is no
    // table), the first MAX_LARGE_ENTRIES of each (the document declares three times as many).
    expect(count + 1).toBeGreaterThan(MAX_LARGE_ENTRIES);
    const symbols = await client.connection.sendRequest<Array<{ name: string; kind: number; range: { start: { line: number } }; selectionRange: { start: { line: number; character: number } } }>>('textDocument/documentSymbol', { textDocument: { uri } });
    expect(symbols.length).toBe(MAX_LARGE_ENTRIES);
    expect(symbols[0]).toMatchObject({ name: 'first', kind: 12, range: { start: { line: 3 } }, selectionRange: { start: { line: 3, character: 6 } } });
    expect(symbols[MAX_LARGE_ENTRIES - 1]!.name).toBe(`p${MAX_LARGE_ENTRIES - 2}`);
    const folding = await client.connection.sendRequest<Array<{ startLine: number; endLine: number }>>('textDocument/foldingRange', { textDocument: { uri } });
    expect(folding.length).toBe(MAX_LARGE_ENTRIES);
    expect(folding[0]).toMatchObject({ startLine: 3, endLine: 10 });
    // Formatting refused, with a message; the analysed features answer nothing.
    const messages = client.messages.length;
    expect(await client.connection.sendRequest('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })).toBeNull();
    await client.waitFor(() => client!.messages.length > messages, 'the formatting message');
    expect(client.messages.at(-1)!.message).toContain('not formatted');
    expect(await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 4, character: 2 } })).toBeNull();

    // The other document is served meanwhile.
    const hover = await client.connection.sendRequest<{ contents: unknown } | null>('textDocument/hover', { textDocument: { uri: smallUri }, position: { line: 9, character: 11 } });
    expect(hover).not.toBeNull();

    // Cut below the size, the document is checked again like any other.
    const cut = client.published.length;
    client.replaceAll(uri, 'domain = "big"\ndescription = "Now small"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "p"\noutput = "Missing"\nprompt = "x"\n');
    const checked = await client.nextDiagnostics(uri, (d) => d.length > 0 && d.every((x) => x.code !== 'mthdsls.client.document_too_large'), cut, 30_000);
    expect(checked.map((d) => d.code)).toContain('method.concept_unresolved');

    const answered = await Promise.race([client.connection.sendRequest('shutdown').then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
    expect(answered).toBe(true);
  });

  it('keep their outline true to the text through ranged and full changes, the text arriving in pieces', async () => {
    const { started, count, uri } = await largeInWorkspace();
    client = started;
    type Symbol = { name: string; range: { start: { line: number } } };
    const outline = (): Promise<Symbol[]> => client!.connection.sendRequest<Symbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    const firstNames = async (): Promise<string[]> => (await outline()).slice(0, 3).map((s) => `${s.name}@${s.range.start.line}`);

    // Past LARGE_BODY_BYTES the text crosses stdio as bytes and is made a string in pieces (lsp/textPieces.ts).
    client.open(uri, pipes(count));
    expect(await firstNames()).toEqual(['first@3', 'p0@12', 'p1@18']);

    // Ranged edits: the server's text is the edited one, not the pieces it arrived in.
    client.replace(uri, '[pipe.first]', '[pipe.renamed]');
    client.edit(uri, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, newText: '[concept.Added]\ndescription = "new"\n\n' }]);
    expect(await firstNames()).toEqual(['Added@3', 'renamed@6', 'p0@15']);

    // A full change with another large text: its own pieces, then a ranged edit on it.
    const other = pipes(count).replace('[pipe.first]', '[pipe.second]').replace('[pipe.p0]', '[pipe.zero]');
    client.sendRawChanges(uri, [{ text: other }]);
    expect(await firstNames()).toEqual(['second@3', 'zero@12', 'p1@18']);
    client.replace(uri, '[pipe.p1]', '[pipe.one]');
    expect(await firstNames()).toEqual(['second@3', 'zero@12', 'one@18']);
    const folding = await client.connection.sendRequest<Array<{ startLine: number; endLine: number }>>('textDocument/foldingRange', { textDocument: { uri } });
    expect(folding.slice(0, 2)).toEqual([
      { startLine: 3, endLine: 10, kind: 'region' },
      { startLine: 12, endLine: 16, kind: 'region' },
    ]);

    // Closed and opened again with the first text: read afresh.
    client.close(uri);
    client.open(uri, pipes(count));
    expect(await firstNames()).toEqual(['first@3', 'p0@12', 'p1@18']);
  });

  it('keep their folding and outline true to the text through ranged edits deep in it, across its pieces', async () => {
    const { started, count, uri } = await largeInWorkspace();
    client = started;
    const c = client;
    const lineOf = (search: string): number => {
      const at = c.text(uri).indexOf(search);
      if (at < 0) throw new Error(`${search} is not in the text`);
      return c.text(uri).slice(0, at).split('\n').length - 1;
    };
    const pause = (): Promise<void> => Promise.resolve();
    /** The server's folding and outline equal those the scan reads in the client's copy of the text. */
    const expectTrue = async (): Promise<void> => {
      const text = c.text(uri);
      const [folding, symbols] = await Promise.all([c.connection.sendRequest('textDocument/foldingRange', { textDocument: { uri } }), c.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })]);
      expect(folding).toEqual(await largeDocumentFolding(text, undefined, pause));
      expect(symbols).toEqual(await largeDocumentSymbols(text, pause));
    };
    client.open(uri, pipes(count));
    await expectTrue();

    // Typed one character at a time inside a header, as an editor sends keystrokes.
    const at = lineOf('[pipe.p50]');
    for (const [i, ch] of [...'xyz'].entries()) client.edit(uri, [{ range: { start: { line: at, character: 9 + i }, end: { line: at, character: 9 + i } }, newText: ch }]);
    expect(c.text(uri)).toContain('[pipe.p50xyz]');
    await expectTrue();
    // A cut of about 300 KB, over the pieces the text came in, then lines ended by CRLF pasted in.
    client.edit(uri, [{ range: { start: { line: lineOf('[pipe.p100]'), character: 0 }, end: { line: lineOf('[pipe.p2900]'), character: 7 } }, newText: '[pipe.cut' }]);
    client.edit(uri, [{ range: { start: { line: lineOf('[pipe.p3500]'), character: 0 }, end: { line: lineOf('[pipe.p3500]'), character: 0 } }, newText: '[concept.Pasted]\r\ndescription = "pasted"\r\n\r\n' }]);
    // Several changes in one notification, each applying to the text the previous one left.
    client.edit(uri, [
      { range: { start: { line: lineOf('[pipe.p3000]'), character: 6 }, end: { line: lineOf('[pipe.p3000]'), character: 11 } }, newText: 'three_thousand' },
      { range: { start: { line: lineOf('[pipe.p4000]'), character: 0 }, end: { line: lineOf('[pipe.p4001]'), character: 0 } }, newText: '' },
    ]);
    await expectTrue();
    const names = ((await c.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as Array<{ name: string }>).map((x) => x.name);
    for (const name of ['p50xyz', 'cut2900', 'Pasted', 'three_thousand']) expect(names).toContain(name);
    expect(names).not.toContain('p4000');

    // Nothing to fix in such a document; a position past its end is taken as its end.
    expect(await client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: at, character: 2 }, end: { line: at, character: 2 } }, context: { diagnostics: [] } })).toEqual([]);
    expect(await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 10 ** 8, character: 5 } })).toBeNull();

    // Cut below the analysed size by a ranged edit: analysed again, with the text edited.
    const cut = client.published.length;
    client.edit(uri, [{ range: { start: { line: lineOf('[pipe.p1]'), character: 0 }, end: { line: 10 ** 8, character: 0 } }, newText: '[pipe.last]\ntype = "PipeLLM"\ndescription = "last"\noutput = "Missing"\nprompt = "x"\n' }]);
    const checked = await client.nextDiagnostics(uri, (d) => d.length > 0 && d.every((x) => x.code !== 'mthdsls.client.document_too_large'), cut, 30_000);
    expect(checked.map((d) => d.code)).toContain('method.concept_unresolved');
    const small = (await c.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as Array<{ name: string }>;
    expect(small.map((x) => x.name)).toEqual(['first', 'p0', 'last']);
  });
});

describe('templates past the editor limit', () => {
  it('get one warning on the template in the editor and leave their inputs untold; `mthds check` reads them whole', async () => {
    const prompt = `Use $a and {{ c }} ${'word '.repeat(Math.ceil(EDITOR_TEMPLATE_LIMIT / 5))}`;
    const text = `domain = "long"\ndescription = "A long prompt"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text", b = "Text" }\noutput = "Text"\nprompt = """\n${prompt}\n"""\n`;
    const ws = tempWorkspace({ 'small.mthds': SMALL, 'long.mthds': text });
    client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 } });
    await client.workspaceChecked(60_000);
    const uri = uriOf(path.join(ws, 'long.mthds'));
    const after = client.published.length;
    client.open(uri, text);
    const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, after, 30_000);
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([['mthdsls.client.template_too_long', 2]]);
    expect(diagnostics[0]!.range.start.line).toBe(8);
    // The other document is served.
    const smallUri = uriOf(path.join(ws, 'small.mthds'));
    client.open(smallUri, SMALL);
    expect(await client.connection.sendRequest('textDocument/hover', { textDocument: { uri: smallUri }, position: { line: 4, character: 2 } })).not.toBeNull();

    const cli = runCli(['check', '--format', 'json', path.join(ws, 'long.mthds')]);
    const found = (JSON.parse(cli.stdout) as { findings: Array<{ code: string; params: { variables?: string[] } }> }).findings;
    expect(found.map((f) => f.code).sort()).toEqual(['method.input_undeclared', 'method.input_unused']);
  });
});
