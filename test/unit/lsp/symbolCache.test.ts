// The workspace symbols' cache holds what the workspace holds: a closed document's entry (which
// held its buffer's text) goes when it is closed, a deleted file's at the next request. Before,
// every document ever opened kept a copy of its text there until the next workspace/symbol
// request, and every deleted file its entry for good. The server runs in process, over streams.

import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import { createConnection, ProposedFeatures, type SymbolInformation } from 'vscode-languageserver/node.js';
import { startServer } from '../../../server/src/lsp/server.js';
import { fileSymbols } from '../../../server/src/lsp/symbols.js';
import { nodeHost } from '../../../server/src/lsp/nodeHost.js';

const MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';
const bundle = (pipe: string): string => `domain = "d"\ndescription = "Probe"\n\n[pipe.${pipe}]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Text"\nprompt = "x"\n`;

let dir: string | undefined;
let client: MessageConnection | undefined;
afterEach(() => {
  client?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the workspace symbols cache', () => {
  it('lets go of a closed document and of a deleted file', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mthds-symbol-cache-'));
    writeFileSync(path.join(dir, 'METHODS.toml'), MANIFEST);
    const files = ['a', 'b', 'c'].map((name) => path.join(dir!, `${name}.mthds`));
    files.forEach((f, i) => writeFileSync(f, bundle(`on_disk_${i}`)));
    const up = new PassThrough();
    const down = new PassThrough();
    startServer(createConnection(ProposedFeatures.all, new StreamMessageReader(up), new StreamMessageWriter(down)), { host: nodeHost() });
    client = createMessageConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
    client.onNotification('textDocument/publishDiagnostics', () => undefined);
    client.onRequest('window/workDoneProgress/create', () => null);
    client.onRequest('client/registerCapability', () => null);
    client.onRequest('workspace/configuration', () => []);
    client.listen();
    await client.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(dir).href, capabilities: {}, initializationOptions: { diagnostics: { debounceMs: 0, dryRun: false } } });
    await client.sendNotification('initialized', {});
    const names = async (): Promise<string[]> => ((await client!.sendRequest('workspace/symbol', { query: '' })) as SymbolInformation[]).map((s) => s.name).sort();

    const uri = pathToFileURL(files[0]!).href;
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version: 1, text: bundle('in_buffer') } });
    expect(await names()).toEqual(['in_buffer', 'on_disk_1', 'on_disk_2']);
    expect(fileSymbols.size).toBe(3);

    await client.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await client.sendRequest('textDocument/hover', { textDocument: { uri: pathToFileURL(files[1]!).href }, position: { line: 0, character: 0 } });
    expect(fileSymbols.size).toBe(2);
    expect(await names()).toEqual(['on_disk_0', 'on_disk_1', 'on_disk_2']);

    unlinkSync(files[2]!);
    await client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(files[2]!).href, type: 3 }] });
    expect(await names()).toEqual(['on_disk_0', 'on_disk_1']);
    expect(fileSymbols.size).toBe(2);
  });
});
