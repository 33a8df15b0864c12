// The end of the language server's start-up over stdio: what the documents of the workspace's
// trees share is made, and the start-up check's garbage is collected (by V8's concurrent marking,
// or at once when V8 had not begun it by the end), before the progress ends, unless a document
// changed within the last second (someone is typing: a collection would land on the keystrokes).
// Neither changes what is published.

import { afterEach, describe, expect, it } from 'vitest';
import { startClient, uriOf, type LspClient } from './harness.js';
import { bigPackage } from './generatedPackage.js';

const clients: LspClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.shutdown();
});

const COLLECTED = /^mthds: collected the start-up check's garbage (concurrently|at once) in \d+\.\d ms$/;
const PREPARED = /^mthds: prepared what the documents of 1 tree share in \d+\.\d ms$/;

describe('the end of start-up', () => {
  it('collects the garbage of the start-up check when no document changed lately, and publishes what a typing client gets', async () => {
    const { ws, files, texts } = bigPackage(40);
    const options = { folders: [ws], trace: 'verbose' as const, initializationOptions: { diagnostics: { debounceMs: 0, warmUpMs: 0 } } };
    const quiet = await startClient(options);
    clients.push(quiet);
    await quiet.workspaceChecked(120_000);
    // Both before the end of the progress (the traces came before it).
    expect(quiet.traces.filter((t) => PREPARED.test(t))).toHaveLength(1);
    expect(quiet.traces.filter((t) => COLLECTED.test(t))).toHaveLength(1);

    // A client typing in a document from the start, until the check has ended: no collection.
    const typing = await startClient(options);
    clients.push(typing);
    const open = uriOf(files[3]!);
    typing.open(open, texts[3]!);
    const keys = setInterval(() => typing.edit(open, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, newText: ' ' }]), 50);
    try {
      await typing.workspaceChecked(120_000);
    } finally {
      clearInterval(keys);
    }
    expect(typing.traces.filter((t) => PREPARED.test(t))).toHaveLength(1);
    expect(typing.traces.some((t) => t.startsWith('mthds: collected'))).toBe(false);

    // The same findings for every closed file either way.
    const closed = (c: LspClient): Array<[string, unknown]> => [...c.diagnostics].filter(([uri]) => uri !== open).map(([uri, p]) => [uri, p.diagnostics] as [string, unknown]).sort(([a], [b]) => (a < b ? -1 : 1));
    expect(closed(quiet).length).toBeGreaterThan(0);
    expect(closed(typing)).toEqual(closed(quiet));
  }, 180_000);
});
