// Code actions asked right behind the didOpen of a document no check has seen, over stdio: the
// answer waits for the first check of its tree (run in slices, started at once instead of after
// the debounce delay), not for the publishing of its diagnostics, which comes after the answer;
// and the fix-all, resolved or made within the answer, writes what `mthds check --fix` writes.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientCapabilities, CodeAction } from 'vscode-languageserver-protocol';
import { runCli } from '../../helpers/cli.js';
import { startClient, tempWorkspace, uriOf, type LspClient } from './harness.js';
import { NOT_APPLYING, NOT_RESOLVING, RESOLVING, wideBundle } from './wideBundle.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const UNUSED = 400;
const text = wideBundle(UNUSED);
const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
/** The cursor on the first unused input (`u0`). */
const AT_U0 = { start: { line: 6, character: 27 }, end: { line: 6, character: 27 } };

/** The text `mthds check --fix` leaves of `source` (one run), as a process on a copy on disk. */
function cliFixed(source: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-fix-first-'));
  writeFileSync(path.join(dir, 'wide.mthds'), source);
  const r = runCli(['check', '--fix', 'wide.mthds'], { cwd: dir });
  expect(r.stderr).toBe('');
  return readFileSync(path.join(dir, 'wide.mthds'), 'utf8');
}

/**
 * Performs the fix-all as an editor does (resolved, run as a command, or applied as it came), then
 * asks again after each check, as `mthds check --fix` makes its passes (at most three): a fix
 * touching an edit taken waits for the next pass.
 */
async function fixUntilDone(uri: string, first: CodeAction): Promise<void> {
  let fixAll: CodeAction | undefined = first;
  for (let pass = 0; pass < 3 && fixAll; pass++) {
    const before = client!.published.length;
    const versionBefore = client!.version(uri);
    await client!.performAction(fixAll);
    expect(client!.version(uri)).toBeGreaterThan(versionBefore);
    // The diagnostics of the fixed text (those of the text before may still be on their way).
    await client!.waitFor(() => client!.published.some((p, i) => i >= before && p.uri === uri && p.version === client!.version(uri)), 'the diagnostics of the fixed text');
    fixAll = (await client!.codeActions(uri, ZERO)).find((a) => a.kind === 'source.fixAll.mthds');
  }
}

/** Opens the document outside the workspace's folders once the start-up check has ended, and asks at once. */
async function openAndAsk(capabilities: ClientCapabilities): Promise<{ uri: string; actions: CodeAction[]; publishedBefore: number }> {
  const ws = tempWorkspace({ 'demo/other.mthds': 'domain = "other"\ndescription = "Other"\n' });
  const outside = tempWorkspace();
  // The default debounce delay: the request does not wait for it.
  client = await startClient({ folders: [ws], capabilities, initializationOptions: { debounceMs: 1000 }, trace: 'verbose' });
  await client.workspaceChecked();
  const uri = uriOf(path.join(outside, 'wide.mthds'));
  const opened = client.published.length;
  client.open(uri, text);
  const actions = await client.codeActions(uri, AT_U0);
  const publishedBefore = client.published.slice(opened).filter((p) => p.uri === uri).length;
  return { uri, actions, publishedBefore };
}

describe('code actions on a document just opened', () => {
  it('answer from its first check before its diagnostics are published; the resolved fix-all writes what `mthds check --fix` writes', async () => {
    const { uri, actions, publishedBefore } = await openAndAsk(RESOLVING);
    // The findings of the check are there (a quick fix for `u0`, the fix-all offered unresolved)...
    expect(actions.filter((a) => a.kind === 'quickfix').map((a) => a.title)).toContain('Remove unused input `u0`');
    const fixAll = actions.find((a) => a.kind === 'source.fixAll.mthds')!;
    expect(fixAll.data).toEqual({ fixAll: uri });
    // ...and the diagnostics come after the answer (the debounce delay of 1 s was not waited for).
    expect(publishedBefore).toBe(0);
    const diagnostics = await client!.nextDiagnostics(uri, (d) => d.length === UNUSED, 0);
    expect(diagnostics.every((d) => d.code === 'method.input_unused')).toBe(true);
    // One check of the tree: the request waited for the scheduled one instead of making its own.
    await client!.codeActions(uri, AT_U0);
    const outsideKey = path.dirname(new URL(uri).pathname);
    expect(client!.traces.filter((t) => t.startsWith('mthds: checked ') && t.includes(outsideKey))).toHaveLength(1);

    await fixUntilDone(uri, fixAll);
    expect(client!.text(uri)).toBe(cliFixed(text));
  });

  it('for a client that applies edits but does not resolve them, offer the fix-all as a command whose edit equals `mthds check --fix`', async () => {
    const { uri, actions, publishedBefore } = await openAndAsk(NOT_RESOLVING);
    const fixAll = actions.find((a) => a.kind === 'source.fixAll.mthds')!;
    // No edit made before the answer: the command makes it when run.
    expect(fixAll.edit).toBeUndefined();
    expect(fixAll.command).toEqual({ title: fixAll.title, command: 'mthds.fixAll', arguments: [uri] });
    expect(client!.initializeResult.capabilities.executeCommandProvider?.commands).toContain('mthds.fixAll');
    expect(publishedBefore).toBe(0);
    await client!.nextDiagnostics(uri, (d) => d.length === UNUSED, 0);
    const before = client!.published.length;
    const answer = await client!.performAction(fixAll);
    expect(answer).toMatchObject({ ok: true, applied: true });
    expect(client!.requests).toContain('workspace/applyEdit');
    await client!.waitFor(() => client!.published.some((p, i) => i >= before && p.uri === uri && p.version === client!.version(uri)), 'the diagnostics of the fixed text');
    const next = (await client!.codeActions(uri, ZERO)).find((a) => a.kind === 'source.fixAll.mthds');
    if (next) await fixUntilDone(uri, next);
    expect(client!.text(uri)).toBe(cliFixed(text));
  });

  it('for a client that neither resolves nor applies edits, carry the fix-all within the answer, equal to `mthds check --fix`', async () => {
    // The answer waits for the fix-all's re-check, in slices: the diagnostics may go meanwhile.
    const { uri, actions } = await openAndAsk(NOT_APPLYING);
    const fixAll = actions.find((a) => a.kind === 'source.fixAll.mthds')!;
    expect(fixAll.command).toBeUndefined();
    // The removals of the unused inputs, adjacent, come as one edit per run of them.
    const edits = fixAll.edit?.changes?.[uri] ?? [];
    expect(edits.length).toBeGreaterThan(0);
    expect(edits.length).toBeLessThan(UNUSED / 100);
    await fixUntilDone(uri, fixAll);
    expect(client!.text(uri)).toBe(cliFixed(text));
  });

  it('a versioned fix-all made for a text since changed is refused, and nothing is lost', async () => {
    const { uri, actions } = await openAndAsk(NOT_RESOLVING);
    await client!.nextDiagnostics(uri, (d) => d.length === UNUSED, 0);
    const fixAll = actions.find((a) => a.kind === 'source.fixAll.mthds')!;
    // Typed in right behind the command: the fix-all is made again for the new text, or refused.
    const run = client!.performAction(fixAll);
    client!.replace(uri, 'description = "Wide"', 'description = "Wide pipe"');
    const answer = (await run) as { ok: boolean; applied?: boolean };
    expect(client!.text(uri)).toContain('description = "Wide pipe"');
    if (answer.ok && answer.applied) expect(client!.text(uri)).not.toContain('u0 = "Text"');
    else expect(client!.text(uri)).toContain('u0 = "Text"');
  });
});
