// Files changing on disk in bursts (a branch switch, a code generator): the language server joins
// the watched-file notifications of a burst into one update, and answers requests while that
// update runs instead of after it.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startClient, tempWorkspace, uriOf, type LspClient } from './harness.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { workspaceBundle } from '../../../bench/generate.mjs';

let client: LspClient | undefined;

afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

/** A package of `count` generated bundles (10 domains); returns the folder and the bundle paths. */
function bigPackage(count: number): { ws: string; files: string[]; texts: string[] } {
  const ws = tempWorkspace({ 'pkg/METHODS.toml': '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n' });
  const files: string[] = [];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const dir = path.join(ws, 'pkg', `group${i % 8}`);
    mkdirSync(dir, { recursive: true });
    const { text } = workspaceBundle(i, { pipes: 5, domain: `d${i % 10}` }) as { text: string };
    const file = path.join(dir, `bundle${i}.mthds`);
    writeFileSync(file, text);
    files.push(file);
    texts.push(text);
  }
  return { ws, files, texts };
}

const checked = (c: LspClient): number => c.traces.filter((t) => t.startsWith('mthds: checked')).length;

/**
 * A package of 1,200 bundles with its fourth file open, checked: the files, their texts, the open
 * file, how many checks were traced so far, and a position to hover in the open file.
 */
async function openedBigPackage(): Promise<{ files: string[]; texts: string[]; open: string; before: number; hoverAt: { line: number; character: number }; lsp: LspClient }> {
  const { ws, files, texts } = bigPackage(1200);
  const lsp = await startClient({ folders: [ws], trace: 'verbose' });
  // Shut down after the test, whatever happens next.
  client = lsp;
  await client.workspaceChecked(120_000);
  const open = files[3]!;
  client.open(uriOf(open), texts[3]!);
  await client.nextDiagnostics(uriOf(open), () => true, 0, 60_000);
  await client.waitFor(() => checked(client!) >= 2, 'the check of the opened document');
  const text = texts[3]!;
  const at = text.indexOf('output = "') + 'output = "'.length + 1;
  const hoverAt = { line: text.slice(0, at).split('\n').length - 1, character: at - (text.lastIndexOf('\n', at - 1) + 1) };
  return { files, texts, open, before: checked(lsp), hoverAt, lsp };
}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('files changing on disk in bursts', () => {
  it('joins the notifications of a burst into one update', async () => {
    const { ws, files, texts } = bigPackage(200);
    client = await startClient({ folders: [ws], trace: 'verbose' });
    await client.workspaceChecked();
    await client.waitFor(() => checked(client!) >= 1, 'the start-up check');
    const before = checked(client);
    // 40 files change, each told by its own notification, one after the other: each breaks a reference.
    const changed = files.slice(0, 40);
    for (const [i, file] of changed.entries()) writeFileSync(file, texts[i]!.replace(/output = "B(\w*)Thing/, 'output = "Missing$1Thing'));
    await Promise.all(changed.map((file) => client!.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(file), type: 2 }] })));
    await client.waitFor(() => changed.every((f) => (client!.diagnostics.get(uriOf(f))?.diagnostics.length ?? 0) > 0), 'the findings of every changed file', 60_000);
    // Nothing else is due: no other check follows.
    await sleep(500);
    expect(checked(client) - before).toBe(1);
  }, 120_000);

  it('answers a request sent during a large update before the update ends', async () => {
    const { files, texts, open, before, hoverAt, lsp } = await openedBigPackage();
    client = lsp;
    // Every other file changes inside its descriptions; one notification tells it all.
    const changes = files.slice(4).map((file, i) => {
      writeFileSync(file, texts[i + 4]!.replaceAll('Generated pipe', 'Regenerated pipe'));
      return { uri: uriOf(file), type: 2 };
    });
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes });
    await sleep(50);
    const asked = checked(client);
    const hover = await client.connection.sendRequest<{ contents: unknown } | null>('textDocument/hover', { textDocument: { uri: uriOf(open) }, position: hoverAt });
    const answered = checked(client);
    expect(hover?.contents).toBeDefined();
    // The update had not ended when the hover was sent, nor when it was answered.
    expect(asked).toBe(before);
    expect(answered).toBe(before);
    await client.waitFor(() => checked(client!) > before, 'the end of the update', 120_000);
    expect(checked(client) - before).toBe(1);
  }, 240_000);

  it('answers requests while the diagnostics of a large update are being published', async () => {
    const { files, texts, open, before, hoverAt, lsp } = await openedBigPackage();
    client = lsp;
    // 1,000 files each get a finding (an unknown pipe type): 1,000 files to publish.
    const changed = files.slice(100, 1100);
    const changedUris = new Set(changed.map(uriOf));
    for (const [k, file] of changed.entries()) writeFileSync(file, texts[k + 100]!.replace('type = "PipeLLM"', 'type = "PipeLMM"'));
    const from = client.published.length;
    const publishedSoFar = (): number => client!.published.slice(from).filter((p) => changedUris.has(p.uri) && p.diagnostics.length > 0).length;
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: changed.map((file) => ({ uri: uriOf(file), type: 2 })) });
    // A hover every 2 ms until the update ends; how many changed files were published at each answer.
    const seen: number[] = [];
    const answers: Array<Promise<unknown>> = [];
    while (checked(client) === before) {
      answers.push(
        client.connection.sendRequest<{ contents: unknown } | null>('textDocument/hover', { textDocument: { uri: uriOf(open) }, position: hoverAt }).then((hover) => {
          expect(hover?.contents).toBeDefined();
          seen.push(publishedSoFar());
        }),
      );
      await sleep(2);
    }
    await Promise.all(answers);
    expect(publishedSoFar()).toBe(changed.length);
    // Some answers came after the first of these files was published and before the last.
    expect(seen.some((n) => n > 0 && n < changed.length)).toBe(true);
  }, 240_000);
});
