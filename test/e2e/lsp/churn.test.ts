// Files changing on disk in bursts (a branch switch, a code generator): the language server joins
// the watched-file notifications of a burst into one update, and answers requests while that
// update runs instead of after it.

import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, DocumentDiagnosticReport, DocumentSymbol, FoldingRange, Location } from 'vscode-languageserver-protocol';
import { PULL_CAPABILITIES, startClient, uriOf, type LspClient } from './harness.js';
import { bigPackage } from './generatedPackage.js';

let client: LspClient | undefined;

afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});


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
    const tracedBefore = client.traces.length;
    // 40 files change, each told by its own notification, one after the other: each breaks a reference.
    const changed = files.slice(0, 40);
    for (const [i, file] of changed.entries()) writeFileSync(file, texts[i]!.replace(/output = "B(\w*)Thing/, 'output = "Missing$1Thing'));
    await Promise.all(changed.map((file) => client!.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(file), type: 2 }] })));
    await client.waitFor(() => changed.every((f) => (client!.diagnostics.get(uriOf(f))?.diagnostics.length ?? 0) > 0), 'the findings of every changed file', 60_000);
    // Nothing else is due: no other check follows.
    await sleep(500);
    // One update per burst the server saw. The 40 notifications are sent at once, so one burst,
    // unless this client or the machine stalled between two of them for longer than the quiet
    // window and the update: the server then saw two bursts, after a quiet it traces.
    const quiets = client.traces.slice(tracedBefore).flatMap((t) => {
      const m = /^mthds: file events began a burst \(quiet before: (?:(\d+) ms|no earlier event)\)/.exec(t);
      return m ? [m[1] === undefined ? Infinity : Number(m[1])] : [];
    });
    expect(quiets.length).toBeGreaterThanOrEqual(1);
    for (const quiet of quiets.slice(1)) expect(quiet).toBeGreaterThanOrEqual(15);
    expect(checked(client) - before).toBe(quiets.length);
    expect(quiets.length, `bursts seen by the server, quiets before them: ${quiets.join(', ')} ms`).toBeLessThanOrEqual(3);
  }, 120_000);

  it('restarts the update while a burst told file by file is still arriving: one update, on the whole burst', async () => {
    const { ws, files, texts } = bigPackage(1200);
    client = await startClient({ folders: [ws], trace: 'verbose' });
    await client.workspaceChecked(120_000);
    await client.waitFor(() => checked(client!) >= 1, 'the start-up check');
    const before = checked(client);
    // 100 files, each told by its own notification, 5 ms apart: the burst lasts well past the
    // 15 ms an update waits for the next event, and an update's check outlasts the gaps.
    const changed = files.slice(0, 100);
    for (const [i, file] of changed.entries()) writeFileSync(file, texts[i]!.replace(/output = "B(\w*)Thing/, 'output = "Missing$1Thing'));
    const sent: number[] = [];
    for (const file of changed) {
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(file), type: 2 }] });
      sent.push(performance.now());
      await sleep(5);
    }
    await client.waitFor(() => changed.every((f) => (client!.diagnostics.get(uriOf(f))?.diagnostics.length ?? 0) > 0), 'the findings of every changed file', 120_000);
    await sleep(500);
    // The updates started on a half-told burst were stopped unfinished: one check ended. A busy
    // machine may stall this client between two notifications for longer than a whole check: the
    // update then ends in the pause, as it should (the burst had paused), and the next starts.
    const checkMs = Math.min(...client.traces.filter((t) => t.startsWith('mthds: checked')).map((t) => Number(/ in ([\d.]+) ms/.exec(t)![1])));
    const pauses = sent.slice(1).filter((t, i) => t - sent[i]! > checkMs).length;
    // Past 5 s from its first event, a burst that never pauses gets its update to the end (a
    // machine slow enough to stretch these 100 notifications that far): each notification sent
    // after may then end one.
    const late = sent.filter((t) => t - sent[0]! > 5_000 - 50).length;
    const ended = checked(client) - before;
    expect(ended).toBeGreaterThanOrEqual(1);
    expect(ended, `pauses longer than a check (${checkMs.toFixed(0)} ms): ${pauses}; notifications past the restart window: ${late}`).toBeLessThanOrEqual(1 + pauses + late);
    // While the burst went on, the changed files were read ahead of the update (one step each).
    const readAhead = client.traces.map((t) => /^mthds: read (\d+) changed files ahead/.exec(t)).reduce((n, m) => n + (m ? Number(m[1]) : 0), 0);
    expect(readAhead).toBeGreaterThan(0);
    expect(readAhead).toBeLessThanOrEqual(changed.length);
  }, 240_000);

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

  it('answers definition, symbols, folding, code actions and pulls during a large update and a pending keystroke check, for the current text', async () => {
    const { ws, files, texts } = bigPackage(1200);
    client = await startClient({ folders: [ws], trace: 'verbose', capabilities: PULL_CAPABILITIES });
    await client.workspaceChecked(120_000);
    await client.waitFor(() => checked(client!) >= 1, 'the start-up check', 60_000);
    // The open document has an unknown pipe type (a finding with a fix).
    const open = files[3]!;
    const uri = uriOf(open);
    const text = texts[3]!.replace('type = "PipeLLM"', 'type = "PipeLMM"');
    client.open(uri, text);
    await client.waitFor(() => checked(client!) >= 2, 'the check of the opened document', 60_000);
    const lineOf = (search: string): number => text.slice(0, text.indexOf(search)).split('\n').length - 1;
    const typeLine = lineOf('type = "PipeLMM"');
    const conceptLine = lineOf('[concept.B3Thing0]');
    const outputLine = lineOf('output = "B3Thing0"');
    const pulled = (await client.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as DocumentDiagnosticReport;
    expect(pulled.kind === 'full' && pulled.items.some((d) => d.range.start.line === typeLine)).toBe(true);
    const before = checked(client);

    // Every other file changes on disk (one notification); the open document gets a line on top.
    const changes = files.filter((f) => f !== open).map((file) => {
      const i = files.indexOf(file);
      writeFileSync(file, texts[i]!.replaceAll('Generated pipe', 'Regenerated pipe'));
      return { uri: uriOf(file), type: 2 };
    });
    const refreshes = client.refreshes;
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes });
    await sleep(50);
    client.replace(uri, 'domain = "d3"', '# A note on top\ndomain = "d3"');
    const asked = checked(client);
    const typeAt = { line: typeLine + 1, character: 'type = "'.length };
    const [definition, symbols, folding, actions, report] = await Promise.all([
      client.connection.sendRequest<Location[] | null>('textDocument/definition', { textDocument: { uri }, position: { line: outputLine + 1, character: 'output = "'.length + 2 } }),
      client.connection.sendRequest<DocumentSymbol[] | null>('textDocument/documentSymbol', { textDocument: { uri } }),
      client.connection.sendRequest<FoldingRange[] | null>('textDocument/foldingRange', { textDocument: { uri } }),
      client.connection.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: { start: typeAt, end: typeAt }, context: { diagnostics: [], only: ['quickfix'] } }),
      client.connection.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } }),
    ]);
    const answered = checked(client);
    // Neither the update nor the keystroke's check had ended when these were sent or answered.
    expect(asked).toBe(before);
    expect(answered).toBe(before);

    // Every range is one line down: the text with the new first line.
    expect(definition?.map((l) => [l.uri, l.range.start.line])).toEqual([[uri, conceptLine + 1]]);
    expect(symbols?.find((s) => s.name === 'B3Thing0')?.selectionRange.start.line).toBe(conceptLine + 1);
    expect(folding?.some((f) => f.startLine === conceptLine + 1)).toBe(true);
    const fix = actions.find((a) => a.edit?.changes?.[uri]?.some((e) => e.newText.includes('PipeLLM')));
    expect(fix?.edit?.changes?.[uri]?.map((e) => e.range.start.line)).toEqual([typeLine + 1]);
    expect(fix?.diagnostics?.[0]?.range.start.line).toBe(typeLine + 1);
    expect(report.kind).toBe('full');
    if (report.kind === 'full') expect(report.items.filter((d) => d.range.start.line === typeLine + 1).map((d) => d.code)).toEqual([fix?.diagnostics?.[0]?.code]);

    // Once checked, the pull client is asked to pull again, and the new answer agrees.
    await client.waitFor(() => client!.refreshes > refreshes && checked(client!) > before, 'the end of the update and a refresh', 120_000);
    // The keystroke's check, when the update read the older text.
    await sleep(500);
    const after = (await client.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as DocumentDiagnosticReport;
    expect(after.kind === 'full' && after.items.map((d) => [d.code, d.range.start.line])).toEqual(report.kind === 'full' && report.items.map((d) => [d.code, d.range.start.line]));
  }, 240_000);

  it('ends a large update while the open document is typed in faster than a check takes', async () => {
    const { ws, files, texts } = bigPackage(1200);
    client = await startClient({ folders: [ws], trace: 'verbose', initializationOptions: { diagnostics: { debounceMs: 0, dryRun: false } } });
    await client.workspaceChecked(120_000);
    await client.waitFor(() => checked(client!) >= 1, 'the start-up check', 60_000);
    const open = files[3]!;
    const uri = uriOf(open);
    client.open(uri, texts[3]!);
    await client.waitFor(() => checked(client!) >= 2, 'the check of the opened document', 60_000);
    const before = checked(client);
    // Every other file gets a finding; one notification.
    const changed = files.filter((f) => f !== open);
    for (const file of changed) writeFileSync(file, texts[files.indexOf(file)]!.replace('type = "PipeLLM"', 'type = "PipeLMM"'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: changed.map((file) => ({ uri: uriOf(file), type: 2 })) });
    // A keystroke every 40 ms (each one makes the tree due, with no debounce), for at most 60 s.
    const started = Date.now();
    let keystrokes = 0;
    while (checked(client) === before && Date.now() - started < 60_000) {
      client.replace(uri, 'Generated pipe 0', 'Generated pipe 0.');
      keystrokes += 1;
      await sleep(40);
    }
    // A check ended while typing went on, and it was the update's: every changed file has its finding.
    expect(checked(client)).toBeGreaterThan(before);
    expect(keystrokes).toBeGreaterThan(1);
    await client.waitFor(() => changed.every((f) => (client!.diagnostics.get(uriOf(f))?.diagnostics.length ?? 0) > 0), 'the findings of every changed file', 60_000);
  }, 240_000);
});
