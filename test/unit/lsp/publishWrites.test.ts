// A request answered while a large update publishes its diagnostics is not written behind them:
// vscode-jsonrpc writes one message per turn of the event loop, and a pause between two slices
// of publishing ends after two quiet turns, so the notifications of every slice piled up ahead of
// the answer (hundreds after 500 changed files). The server (in process, over streams) now lets a
// slice's notifications be written before it goes on, and leaves few unwritten per slice.

import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedPackage } from '../../helpers/generatedPackage.js';
import { frame, inProcessServer } from '../../helpers/inProcessServer.js';

const COUNT = 600;

describe('a request during the publishing of a large update', () => {
  it('is answered before the notifications of later slices, and behind few of the current one', async () => {
    const { dir, files, texts } = generatedPackage(COUNT, { folders: 4 });
    const { up, down, server, client } = inProcessServer();
    let checks = 0;
    client.onNotification('$/logTrace', (p: { message: string }) => {
      if (p.message.startsWith('mthds: checked')) checks += 1;
    });
    client.onRequest('window/workDoneProgress/create', () => null);
    client.onRequest('client/registerCapability', () => null);
    client.onRequest('workspace/configuration', () => []);
    // What the server writes, as it writes it: at every 50th changed file published, a hover is
    // sent; each answer is written after `behind` more of them.
    const changed = new Set(files.slice(100).map((f) => pathToFileURL(f).href));
    const open = pathToFileURL(files[3]!).href;
    let published = 0;
    const sentAt = new Map<string, number>();
    const behind: number[] = [];
    let lastWrite = 0;
    down.on('data', (chunk: Buffer) => {
      lastWrite = Date.now();
      const text = chunk.toString('utf8');
      const answered = /^\{"jsonrpc":"2.0","id":"(probe\d+)"/.exec(text)?.[1];
      if (answered !== undefined) behind.push(published - sentAt.get(answered)!);
      const uri = /"method":"textDocument\/publishDiagnostics","params":\{"uri":"([^"]+)"/.exec(text)?.[1];
      if (uri === undefined || !changed.has(uri)) return;
      published += 1;
      if (published % 50 !== 1) return;
      const id = `probe${published}`;
      sentAt.set(id, published);
      up.write(frame({ id, method: 'textDocument/hover', params: { textDocument: { uri: open }, position: { line: 0, character: 1 } } }));
    });
    client.listen();
    const until = async (what: () => boolean): Promise<void> => {
      for (let i = 0; i < 3000 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(what()).toBe(true);
    };

    await client.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(dir).href, trace: 'verbose', capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } }, initializationOptions: { diagnostics: { debounceMs: 0, dryRun: false, warmUpMs: 0 } } });
    await client.sendNotification('initialized', {});
    await client.sendNotification('$/setTrace', { value: 'verbose' });
    await until(() => checks >= 1);
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri: open, languageId: 'mthds', version: 1, text: texts[3]! } });
    await until(() => checks >= 2);

    // 500 files get a finding each (an unknown pipe type), told in one notification.
    for (let i = 100; i < COUNT; i++) writeFileSync(files[i]!, texts[i]!.replace('type = "PipeLLM"', 'type = "PipeLMM"'));
    await client.sendNotification('workspace/didChangeWatchedFiles', { changes: files.slice(100).map((f) => ({ uri: pathToFileURL(f).href, type: 2 })) });
    await until(() => published >= changed.size - 30);
    await until(() => behind.length === sentAt.size && checks >= 3);
    expect(behind.length).toBeGreaterThan(5);
    // Each answered behind at most about a slice's worth (before: behind most of the rest).
    expect(Math.max(...behind)).toBeLessThan(80);
    // The server says no more (the preparation at idle traces its end).
    await until(() => Date.now() - lastWrite > 300);
    client.dispose();
    server.dispose();
  }, 120_000);
});
