// The extension in a REAL VS Code: packaged as `npm run package` does, installed into code-server
// 4.100.3 (VS Code 1.100.3, extension host on Node 20) served on loopback, and driven with the
// system's Chromium through playwright-core, as a user would: open the examples folder, open the
// broken bundle, read its squiggles and its Problems panel (the same findings as `mthds check`),
// hover a concept, ask completion, apply a quick fix and see the findings follow, find the status
// bar item, read on hover what a pipe takes and gives, and run it from its "Run" code lens,
// answering (or escaping) its input prompts. Run by `npm run test:vscode` (which installs
// code-server into `.cache/`), not by `npm test`. Screenshots go to $MTHDS_VSCODE_SCREENSHOTS
// (default `.cache/vscode-screenshots/`; the extension page's come from
// `MTHDS_VSCODE_SCREENSHOTS=client/images npm run test:vscode`).

import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { post, withRunner } from '../e2e/runner/helpers.js';
import { packageVsix } from '../helpers/vsix.js';
import { CodeServer, REPO } from './codeServer.js';
import { cliProblems as cliProblemsOf, closeAll, missingForVscode, openWindow, SHOTS, UI_TIMEOUT, until, type Workbench } from './workbench.js';

const missing = missingForVscode('vscode.e2e.ts');

/** What `mthds check` says about `examples/broken/broken.mthds` of a copy of the examples. */
const cliProblems = (examples: string): ReturnType<typeof cliProblemsOf> => cliProblemsOf(examples, 'broken/broken.mthds');

/**
 * The bundle the "Run" lens runs: its pipe takes a structured concept (typed as JSON) and a text,
 * composes them (so that the output shows what was typed) and hands the line to a model (the
 * built-in runner's mock provider answers).
 */
const HELPDESK = `domain = "helpdesk"
description = "Answers a support ticket"

[concept.Ticket]
description = "A support ticket"

[concept.Ticket.structure]
title = { type = "text", description = "What went wrong", required = true }
severity = { description = "How bad it is", choices = ["low", "high"], required = true }

[pipe.answer_ticket]
type = "PipeSequence"
description = "Sum up the ticket, then draft a reply"
inputs = { ticket = "Ticket", note = "Text" }
output = "Text"
steps = [
  { pipe = "sum_up", result = "summary" },
  { pipe = "draft_reply", result = "reply" },
]

[pipe.sum_up]
type = "PipeCompose"
description = "One line on the ticket"
inputs = { ticket = "Ticket", note = "Text" }
output = "Text"
template = "[{{ ticket.severity|upper }}] {{ ticket.title }} / $note"

[pipe.draft_reply]
type = "PipeLLM"
description = "Draft a reply"
inputs = { summary = "Text" }
output = "Text"
prompt = "Draft a reply to this ticket: $summary"
`;
const HELPDESK_PIPE = 'helpdesk.answer_ticket';
/** Where the language server writes the output of a run it executed (runnerCommands.ts), in its temp folder. */
const runOutputs = (): string => path.join(server!.tmpDir, 'mthds-runs');

/** The output files of runs of the helpdesk pipe. */
function helpdeskOutputs(): string[] {
  return existsSync(runOutputs()) ? readdirSync(runOutputs()).filter((f) => f.startsWith(`${HELPDESK_PIPE}-`)) : [];
}

let scratch: string | undefined;
let examples: string;
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;
let ui: Workbench;

/**
 * The code lens titled `title` drawn above the editor line whose text is `lineText`: lenses sit in
 * a zone just above their line, so the nearest lens line above it is the one.
 */
async function lensAbove(editor: Locator, lineText: string, title: string): Promise<Locator> {
  const line = editor.locator('.view-line', { hasText: lineText }).first();
  await line.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const lenses = editor.locator('.codelens-decoration');
  // The lenses come once the server has checked the bundle: wait for the one of this line.
  const index = async (): Promise<number> => {
    const lineTop = (await line.boundingBox())?.y ?? 0;
    const tops = await lenses.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    let best = -1;
    for (const [i, top] of tops.entries()) if (top < lineTop && lineTop - top < 40 && (best < 0 || top > tops[best]!)) best = i;
    return best;
  };
  await expect.poll(index, { timeout: UI_TIMEOUT, interval: 250 }).toBeGreaterThanOrEqual(0);
  return lenses.nth(await index()).locator('a', { hasText: new RegExp(`^${title}$`) });
}

/**
 * The whole text of an output channel of the extension: VS Code writes each one to a file of the
 * extension host's log folder (the view itself draws only the lines in sight).
 */
function channelLog(name: string): string {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name.endsWith(`-${name}.log`)) found.push(path.join(dir, entry.name));
    }
  };
  const logs = path.join(server!.userDataDir, 'logs');
  if (existsSync(logs)) walk(logs);
  return found.map((f) => readFileSync(f, 'utf8')).join('');
}

describe.skipIf(missing.length > 0)('the packaged extension in VS Code (code-server, Chromium)', () => {
  beforeAll(async () => {
    // Failure pictures of an earlier run would mislead.
    if (existsSync(SHOTS)) for (const old of readdirSync(SHOTS)) if (old.startsWith('failure-')) rmSync(path.join(SHOTS, old));
    scratch = mkdtempSync(path.join(tmpdir(), 'mthds-vscode-'));
    // A copy of the examples: the quick fix edits and saves the broken bundle.
    examples = path.join(scratch, 'examples');
    cpSync(path.join(REPO, 'examples'), examples, { recursive: true });
    mkdirSync(path.join(examples, 'helpdesk'));
    writeFileSync(path.join(examples, 'helpdesk/helpdesk.mthds'), HELPDESK);
    const vsix = path.join(scratch, 'mthds.vsix');
    await packageVsix(vsix);
    server = await CodeServer.start(vsix, examples);
    ({ browser, page, ui } = await openWindow(server, examples));
  }, 600_000);

  afterEach(async (context) => {
    // A failure leaves a picture of the window behind it.
    if (context.task.result?.state === 'fail' && browser) await ui.screenshot(`failure-${context.task.name.replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  afterAll(() => closeAll(browser, server, scratch), 60_000);

  it('activates on the examples folder and shows the runner status bar item', async () => {
    const item = page.locator('.statusbar-item', { hasText: 'MTHDS runner (built-in)' });
    await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    expect(await item.innerText()).toMatch(/MTHDS runner \(built-in\)/);
    // The check mark: the built-in runner answered the extension's probe.
    expect(await item.locator('.codicon-check').count()).toBe(1);
  });

  it('shows the broken bundle\'s findings as squiggles and in the Problems panel, as `mthds check` does', async () => {
    const expected = await cliProblems(examples);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('broken.mthds');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'broken.mthds' }).first().waitFor({ timeout: UI_TIMEOUT });
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await page.locator('.tab.active', { hasText: 'broken.mthds' }).waitFor({ timeout: UI_TIMEOUT });
    await until(() => ui.squiggledLines(editor), [...new Set(expected.map((p) => p.line))].sort((a, b) => a - b));

    await ui.command('View: Focus Problems (Errors, Warnings, Infos)');
    await until(() => ui.panelProblems(), expected);
    await ui.screenshot('vscode-diagnostics');
  });

  it('shows a concept\'s description on hover', async () => {
    // `output = "Recipe"` of suggest_recipe.
    await ui.goTo(16, 13);
    await ui.command('Show or Focus Hover');
    const hover = page.locator('.monaco-hover:not(.hidden)').first();
    await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await until(async () => (await hover.innerText()).includes('concept of domain recipes'), true);
    expect(await hover.innerText()).toContain('The name of the dish');
    await ui.screenshot('vscode-hover');
    await page.keyboard.press('Escape');
  });

  it('offers completion of concepts in an output', async () => {
    // Just after the opening quote of `output = "Recipe"`.
    await ui.goTo(16, 11);
    const suggest = await ui.suggest('Recipe');
    const labels = await suggest.locator('.monaco-list-row .label-name').allInnerTexts();
    // The bundle's concept, with its description, and native ones (the list shows its first rows only).
    expect(labels).toEqual(expect.arrayContaining(['Recipe', 'Image', 'Number']));
    expect(await suggest.locator('.monaco-list-row', { hasText: 'Recipe' }).first().innerText()).toContain('A recipe');
    await ui.screenshot('vscode-completion');
    await page.keyboard.press('Escape');
  });

  it('applies a quick fix, and the findings follow', async () => {
    const file = path.join(examples, 'broken/broken.mthds');
    const before = readFileSync(file, 'utf8');
    // `pipe = "sugest_recipe"`: an unknown pipe whose fix names the right one.
    await ui.goTo(24, 22);
    await page.keyboard.press('Control+.');
    const title = 'Replace with `suggest_recipe`';
    await page.locator('.action-widget .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await ui.screenshot('vscode-quick-fix');
    // The menu is driven by the keyboard, as a user does (a click would land on its pointer guard).
    const focused = page.locator('.action-widget .monaco-list-row.focused');
    for (let i = 0; i < 10 && (await focused.getAttribute('aria-label')) !== title; i++) await page.keyboard.press('ArrowDown');
    expect(await focused.getAttribute('aria-label')).toBe(title);
    await page.keyboard.press('Enter');
    await page.locator('.action-widget').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await page.keyboard.press('Control+S');
    await until(async () => readFileSync(file, 'utf8'), before.replace('pipe = "sugest_recipe"', 'pipe = "suggest_recipe"'));
    // What the CLI says of the saved file, the Problems panel says of the edited document.
    const expected = await cliProblems(examples);
    expect(expected.map((p) => p.code)).not.toContain('method.pipe_unresolved');
    await until(() => ui.panelProblems(), expected);
    // The squiggle of line 24 is gone; the one of line 26 (no fix applied there) stays.
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await until(async () => {
      const lines = await ui.squiggledLines(editor);
      return { 24: lines.includes(24), 26: lines.includes(26) };
    }, { 24: false, 26: true });
    await ui.screenshot('vscode-after-fix');
  });

  it('fixes the safe problems of the active document from the command palette (MTHDS: Fix All Safe Problems)', async () => {
    const file = path.join(examples, 'broken/broken.mthds');
    const before = readFileSync(file, 'utf8');
    const problemsBefore = (await cliProblems(examples)).length;
    // The broken bundle is the active document (the quick fix above); the command takes it.
    await ui.command('MTHDS: Fix All Safe Problems');
    // The edit comes back from the server (`workspace/applyEdit`); saved once it is there.
    await until(async () => {
      await page.keyboard.press('Control+S');
      return readFileSync(file, 'utf8') !== before;
    }, true);
    expect(readFileSync(file, 'utf8')).toContain('prompt = "Suggest a recipe using $ingredients"');
    const expected = await cliProblems(examples);
    expect(expected.length).toBeLessThan(problemsBefore);
    await until(() => ui.panelProblems(), expected);
  });

  it('shows on hover what a pipe takes and gives', async () => {
    await ui.openFile('helpdesk.mthds');
    // Inside `answer_ticket` of the `[pipe.answer_ticket]` header.
    await ui.goTo(11, 10);
    await ui.command('Show or Focus Hover');
    const hover = page.locator('.monaco-hover:not(.hidden)').first();
    await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await until(async () => (await hover.innerText()).includes('Takes'), true);
    const shown = (await hover.innerText()).replace(/\s+/g, ' ');
    expect(shown).toContain('ticket: helpdesk.Ticket — object');
    expect(shown).toContain('note: native.Text — prose');
    expect(shown).toContain('Gives native.Text — prose');
    await page.keyboard.press('Escape');
  });

  it('Escape at the first input of the "Run" lens starts no run and says so', async () => {
    const before = helpdeskOutputs();
    await ui.openFile('helpdesk.mthds');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await (await lensAbove(editor, '[pipe.answer_ticket]', 'Run')).click();
    const box = page.locator('.quick-input-widget');
    await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await until(async () => (await box.locator('.quick-input-title').innerText()).trim(), 'Run: input 1 of 2');
    expect(await box.locator('.quick-input-message').innerText()).toContain('ticket: helpdesk.Ticket (object), as JSON');
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    // The status bar tells what happened, and no second box follows.
    const notice = page.locator('.statusbar-item', { hasText: `Run of ${HELPDESK_PIPE} cancelled: nothing sent` });
    await notice.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    expect(await notice.locator('.codicon-circle-slash').count()).toBe(1);
    await until(async () => channelLog('MTHDS Runs').includes(`Run of ${HELPDESK_PIPE} cancelled at input 1 of 2 (ticket): nothing was sent to the runner.`), true);
    await ui.screenshot('vscode-run-cancelled');
    expect(await box.isVisible()).toBe(false);
    // No run: no output written (the next test proves a run writes one), no output document opened.
    expect(helpdeskOutputs()).toEqual(before);
    expect(await page.locator('.tab', { hasText: `${HELPDESK_PIPE}-` }).count()).toBe(0);
  });

  it('the "Run" lens asks for each input and shows the mock run\'s output', async () => {
    const before = new Set(helpdeskOutputs());
    await ui.openFile('helpdesk.mthds');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await (await lensAbove(editor, '[pipe.answer_ticket]', 'Run')).click();
    const box = page.locator('.quick-input-widget');
    const input = box.locator('input');
    await until(async () => (await box.locator('.quick-input-title').innerText()).trim(), 'Run: input 1 of 2');
    // A structured concept is typed as JSON, starting from a content of its shape; a malformed
    // answer is refused in the box, not sent.
    expect(JSON.parse(await input.inputValue())).toEqual({ title: '…', severity: 'low' });
    await input.fill('{"title": "Printer on fire"');
    await until(async () => (await box.locator('.quick-input-message').innerText()).trim(), 'Not valid JSON.');
    const ticket = { title: 'Printer on fire', severity: 'high' };
    await input.fill(JSON.stringify(ticket));
    await until(async () => (await box.locator('.quick-input-message').innerText()).includes('ticket: helpdesk.Ticket'), true);
    await page.keyboard.press('Enter');
    await until(async () => (await box.locator('.quick-input-title').innerText()).trim(), 'Run: input 2 of 2');
    expect(await box.locator('.quick-input-message').innerText()).toContain('note: native.Text (prose), text');
    // Enter on an empty required answer keeps the box open with the reason.
    await input.fill('');
    await page.keyboard.press('Enter');
    await until(async () => (await box.locator('.quick-input-message').innerText()).trim(), 'note is required.');
    await input.fill('The customer waits');
    await page.keyboard.press('Enter');
    await box.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

    // The server opens the output it wrote, and the runs output shows the run.
    const tab = page.locator('.tab.active', { hasText: `${HELPDESK_PIPE}-` });
    await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // The word on the run cancelled before is gone from the status bar.
    expect(await page.locator('.statusbar-item', { hasText: 'cancelled: nothing sent' }).count()).toBe(0);
    const written = helpdeskOutputs().filter((f) => !before.has(f));
    expect(written).toHaveLength(1);
    expect((await tab.innerText()).trim()).toContain(written[0]);
    const output = JSON.parse(readFileSync(path.join(runOutputs(), written[0]!), 'utf8')) as { pipeline_run_id: string; working_memory: { root: Record<string, { concept: string; content: unknown }> } };
    const root = output.working_memory.root;
    expect(root['ticket']).toEqual({ concept: 'helpdesk.Ticket', content: ticket });
    expect(root['note']).toEqual({ concept: 'native.Text', content: { text: 'The customer waits' } });
    expect(root['summary']).toEqual({ concept: 'native.Text', content: { text: '[HIGH] Printer on fire / The customer waits' } });
    expect(root['reply']?.concept).toBe('native.Text');
    // The same request to a built-in runner of its own: the mock provider answers the same.
    const runner = await withRunner();
    try {
      const direct = await post(`${runner.url}/execute`, { pipe_code: HELPDESK_PIPE, mthds_contents: [HELPDESK], inputs: { ticket: { concept: 'helpdesk.Ticket', content: ticket }, note: { concept: 'native.Text', content: { text: 'The customer waits' } } } });
      expect(direct.status, direct.text).toBe(200);
      expect({ ...output, pipeline_run_id: '' }).toEqual({ ...direct.json.pipe_output, pipeline_run_id: '' });
    } finally {
      await runner.close();
    }
    // The runs output comes into view, at its end: the run's output as logged.
    const panel = page.locator('.part.panel');
    await panel.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const channel = panel.locator('select.monaco-select-box').first();
    await until(() => channel.evaluate((e) => (e as unknown as { selectedOptions: ArrayLike<{ text: string }> }).selectedOptions[0]?.text ?? ''), 'MTHDS Runs');
    await until(async () => (await panel.locator('.monaco-editor .view-lines').first().innerText()).replace(/\s+/g, ' ').includes('"main_stuff": "reply"'), true);
    // The whole log: the cancelled run of the test before, then this run with its id and its output file.
    const log = channelLog('MTHDS Runs');
    const cancelled = log.indexOf(`Run of ${HELPDESK_PIPE} cancelled at input 1 of 2 (ticket): nothing was sent to the runner.`);
    const ran = log.indexOf(`Run of ${HELPDESK_PIPE} (${pathToFileURL(path.join(examples, 'helpdesk/helpdesk.mthds')).href}): pipeline_run_id ${output.pipeline_run_id}\n  output written to ${pathToFileURL(path.join(runOutputs(), written[0]!)).href}\n`);
    expect(cancelled, log).toBeGreaterThanOrEqual(0);
    expect(ran, log).toBeGreaterThan(cancelled);
    await ui.screenshot('vscode-run-output');
  });
});
