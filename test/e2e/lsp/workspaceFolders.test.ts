// Workspace folders that change in bursts, or that hold far more files than a method tree, over
// stdio: a client adding and removing `/` (`file:///`) 200 times leaves a server that answers at
// once and walks only the folder set that stands; a folder past the walk's bound is walked that
// far, its method files among them checked, and the user told once.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startClient, tempWorkspace, uriOf, type LspClient } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

/** A bundle whose only pipe outputs a concept nobody declares (one concept_unresolved finding). */
const faulty = (domain: string): string => `domain = "${domain}"\ndescription = "d"\n\n[pipe.x]\ntype = "PipeLLM"\ndescription = "x"\noutput = "Nothing"\nprompt = "hi"\n`;
const ROOT = { uri: 'file:///', name: 'root' };

describe('workspace folders', () => {
  it('answers at once after `/` is added and removed 200 times, and walks only the set that stands', async () => {
    const ws = tempWorkspace({ 'a/a.mthds': faulty('alpha') });
    client = await startClient({ folders: [ws] });
    const first = uriOf(path.join(ws, 'a/a.mthds'));
    await client.nextDiagnostics(first, (d) => d.some((x) => x.code === 'method.concept_unresolved'), 0);
    for (let i = 0; i < 200; i++) {
      void client.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [ROOT], removed: [] } });
      void client.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [ROOT] } });
    }
    // Before, each notification walked `/` (up to 100,000 files) before reading the next one.
    const hover = await client.connection.sendRequest('textDocument/hover', { textDocument: { uri: first }, position: { line: 0, character: 1 } });
    expect(hover).not.toBeUndefined();
    // A folder added after the burst is walked and checked: the server listens.
    const second = tempWorkspace({ 'b/b.mthds': faulty('beta') });
    const added = uriOf(path.join(second, 'b/b.mthds'));
    await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [{ uri: uriOf(second), name: 'second' }], removed: [] } });
    const found = await client.nextDiagnostics(added, (d) => d.length > 0, 0);
    expect(found.map((d) => d.code)).toEqual(['method.concept_unresolved']);
    // `/` never stood long enough for its walk to end: nothing outside the two folders was published.
    const outside = client.published.filter((p) => !p.uri.startsWith(uriOf(ws)) && !p.uri.startsWith(uriOf(second)));
    expect(outside.map((p) => p.uri)).toEqual([]);
    expect(client.messages.filter((m) => m.message.includes('holds more than'))).toEqual([]);
  });

  it('walks a folder holding more files than the bound that far, checks what it found and says so once', async () => {
    const big = mkdtempSync(path.join(tmpdir(), 'mthds-lsp-big-'));
    // Sorted first: `a.mthds` is among the files walked; the package `zz` (after 60 other files) is not found.
    writeFileSync(path.join(big, 'a.mthds'), faulty('alpha'));
    for (let i = 0; i < 60; i++) writeFileSync(path.join(big, `m${String(i).padStart(3, '0')}.txt`), 'not a method file\n');
    mkdirSync(path.join(big, 'zz'));
    writeFileSync(path.join(big, 'zz/METHODS.toml'), '[package]\naddress = "github.com/acme/zz"\nversion = "0.1.0"\ndescription = "zz"\n');
    writeFileSync(path.join(big, 'zz/z.mthds'), faulty('omega'));
    client = await startClient({ folders: [big], initializationOptions: { mthds: { workspace: { maxFiles: 50 } } } });
    await client.workspaceChecked();
    const seen = await client.nextDiagnostics(uriOf(path.join(big, 'a.mthds')), (d) => d.length > 0, 0);
    expect(seen.map((d) => d.code)).toEqual(['method.concept_unresolved']);
    await client.waitFor(() => client!.messages.some((m) => m.message.includes('holds more than')), 'the bound message');
    const told = client.messages.filter((m) => m.message.includes('holds more than'));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ type: 2 });
    expect(told[0]!.message).toContain(big);
    expect(told[0]!.message).toContain('50');
    expect(client.published.some((p) => p.uri.startsWith(uriOf(path.join(big, 'zz'))))).toBe(false);
    // The same set walked again (a manifest event regroups trees) tells nothing new.
    await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [] } });
    await client.connection.sendRequest('textDocument/hover', { textDocument: { uri: uriOf(path.join(big, 'a.mthds')) }, position: { line: 0, character: 1 } });
    expect(client.messages.filter((m) => m.message.includes('holds more than'))).toHaveLength(1);
  });
});
