// The dry run in the editor, over real stdio: once typing pauses, a tree whose static checks are
// clean is dry-run in the background and its findings join the diagnostics, exactly as
// `mthds check` reports them; a newer version cancels the stale run; it never delays the static
// diagnostics; the settings turn it off.

import path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { LspClient, startClient, tempWorkspace, uriOf } from './harness.js';
import { runCli } from '../../helpers/cli.js';

const HEADER = 'domain = "demo"\ndescription = "A demo bundle"\n';
/** A pipe whose template only fails when it renders: its only problem is the dry run's. */
const failing = (code: string): string =>
  `[pipe.${code}]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\ntemplate = "{{ doc.missing|tag }}"\n`;
const BUNDLE = `${HEADER}${failing('p')}`;
const DRY_CODE = 'method.template_invalid';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const hasDry = (d: Diagnostic[]): boolean => d.some((x) => x.code === DRY_CODE);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface CliFinding {
  code: string;
  message: string;
  severity: string;
  range: Diagnostic['range'];
}

/** Starts a traced server over a workspace holding `text` as main.mthds and opens it. */
async function openBundle(text: string, diagnostics: Record<string, unknown>): Promise<{ lsp: LspClient; uri: string; after: number }> {
  const ws = tempWorkspace({ 'main.mthds': text });
  const uri = uriOf(path.join(ws, 'main.mthds'));
  const lsp = await startClient({ folders: [ws], trace: 'verbose', initializationOptions: { diagnostics } });
  client = lsp;
  await lsp.workspaceChecked();
  const after = lsp.published.length;
  lsp.open(uri, text);
  return { lsp, uri, after };
}

function cliFindings(file: string, ...args: string[]): CliFinding[] {
  const r = runCli(['check', '--format', 'json', ...args, file], { cwd: process.cwd() });
  return (JSON.parse(r.stdout) as { findings: CliFinding[] }).findings;
}

describe('the dry run in the language server', () => {
  it('publishes the dry run findings after the static ones, as mthds check reports them', async () => {
    const ws = tempWorkspace({ 'main.mthds': BUNDLE });
    const file = path.join(ws, 'main.mthds');
    // The bundle checks clean statically: its only finding is the dry run's.
    expect(cliFindings(file, '--no-dry-run')).toEqual([]);
    const expected = cliFindings(file);
    expect(expected.map((f) => f.code)).toEqual([DRY_CODE]);

    client = await startClient({ folders: [ws], initializationOptions: { diagnostics: { dryRunDelayMs: 300 } } });
    await client.workspaceChecked();
    const uri = uriOf(file);
    const after = client.published.length;
    client.open(uri, BUNDLE);
    const dry = await client.nextDiagnostics(uri, hasDry, after);
    const mine = client.published.slice(after).filter((p) => p.uri === uri);
    // The static diagnostics came first, without the dry run's, for the same version.
    expect(mine[0]!.diagnostics).toEqual([]);
    expect(mine[0]!.version).toBe(1);
    expect(mine[mine.length - 1]!.version).toBe(1);
    expect(dry.map((d) => ({ code: d.code, message: d.message, range: d.range, severity: d.severity === 1 ? 'error' : 'warning' }))).toEqual(
      expected.map((f) => ({ code: f.code, message: f.message, range: f.range, severity: f.severity })),
    );
    expect(dry[0]!.source).toBe('mthds');
  });

  it('never publishes the findings of a version edited before the pause ended', async () => {
    const { lsp, uri, after } = await openBundle(BUNDLE, { dryRunDelayMs: 1500 });
    await lsp.nextDiagnostics(uri, () => true, after);
    // Within the pause: the template is fixed; the first version's dry run must never report.
    lsp.replace(uri, '{{ doc.missing|tag }}', '$doc');
    await lsp.waitFor(() => lsp.traces.some((t) => t.startsWith('mthds: dry-ran')), 'the dry run of the second version');
    await sleep(200);
    const mine = lsp.published.slice(after).filter((p) => p.uri === uri);
    expect(mine.some((p) => hasDry(p.diagnostics))).toBe(false);
    expect(mine[mine.length - 1]!.version).toBe(2);
    // One dry run only: the first version's never started.
    expect(lsp.traces.filter((t) => t.startsWith('mthds: dry run of') && t.endsWith('started'))).toHaveLength(1);
  });

  it('cancels a running dry run when the tree changes, and reports the new version only', async () => {
    // Many pipes, the last failing: the run yields between pipes, so that an edit arrives while it runs.
    const passing = (i: number): string => `[pipe.ok${i}]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\ntemplate = "Dear $doc"\n`;
    const big = HEADER + Array.from({ length: 3000 }, (_, i) => passing(i)).join('') + failing('last');
    const { lsp, uri, after } = await openBundle(big, { dryRunDelayMs: 100 });
    await lsp.waitFor(() => lsp.traces.some((t) => t.startsWith('mthds: dry run of') && t.endsWith('started')), 'the start of the dry run');
    lsp.replace(uri, 'description = "d"', 'description = "edited"');
    const dry = await lsp.nextDiagnostics(uri, hasDry, after, 60_000);
    expect(dry.filter((d) => d.code === DRY_CODE)).toHaveLength(1);
    expect(lsp.traces.some((t) => t.endsWith('cancelled'))).toBe(true);
    // Every publish holding the dry run's findings is of the edited version.
    for (const p of lsp.published.slice(after).filter((q) => q.uri === uri && hasDry(q.diagnostics))) expect(p.version).toBe(2);
  }, 90_000);

  it('does not dry-run a tree whose static checks found an error, as mthds check does not', async () => {
    const text = `${BUNDLE}[pipe.q]\ntype = "PipeLMM"\ndescription = "d"\noutput = "Text"\n`;
    const { lsp, uri, after } = await openBundle(text, { dryRunDelayMs: 50 });
    const statics = await lsp.nextDiagnostics(uri, (d) => d.length > 0, after);
    expect(statics.map((d) => d.code)).toContain('method.pipe_type_invalid');
    await sleep(800);
    expect(lsp.published.slice(after).some((p) => hasDry(p.diagnostics))).toBe(false);
    expect(lsp.traces.some((t) => t.startsWith('mthds: dry'))).toBe(false);
  });

  it.each([
    ['diagnostics.dryRun = false', { dryRun: false, dryRunDelayMs: 50 }],
    ['diagnostics.dryRunDelayMs = 0', { dryRunDelayMs: 0 }],
  ])('is turned off by %s', async (_name, diagnostics) => {
    const { lsp, uri, after } = await openBundle(BUNDLE, diagnostics);
    expect(await lsp.nextDiagnostics(uri, () => true, after)).toEqual([]);
    await sleep(800);
    expect(lsp.published.slice(after).some((p) => hasDry(p.diagnostics))).toBe(false);
    expect(lsp.traces.some((t) => t.startsWith('mthds: dry'))).toBe(false);
  });

  it('is turned on again by the configuration', async () => {
    const ws = tempWorkspace({ 'main.mthds': BUNDLE });
    const uri = uriOf(path.join(ws, 'main.mthds'));
    client = await startClient({ folders: [ws], initializationOptions: { diagnostics: { dryRun: false } }, configuration: { diagnostics: { dryRun: true, dryRunDelayMs: 50 } } });
    await client.workspaceChecked();
    client.open(uri, BUNDLE);
    expect((await client.nextDiagnostics(uri, hasDry, 0)).map((d) => d.code)).toEqual([DRY_CODE]);
  });
});
