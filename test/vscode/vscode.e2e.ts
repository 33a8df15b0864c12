// The extension in a REAL VS Code: packaged as `npm run package` does, installed into code-server
// 4.100.3 (VS Code 1.100.3, extension host on Node 20) served on loopback, and driven with the
// system's Chromium through playwright-core, as a user would: open the examples folder, open the
// broken bundle, read its squiggles and its Problems panel (the same findings as `mthds check`),
// hover a concept, ask completion, apply a quick fix and see the findings follow, and find the
// status bar item. Run by `npm run test:vscode` (which installs code-server into `.cache/`), not by
// `npm test`. Screenshots go to $MTHDS_VSCODE_SCREENSHOTS (default `.cache/vscode-screenshots/`;
// the extension page's come from `MTHDS_VSCODE_SCREENSHOTS=client/images npm run test:vscode`).

import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packageVsix } from '../helpers/vsix.js';
import { CODE_SERVER_BIN, CodeServer, REPO } from './codeServer.js';

const run = promisify(execFile);

const CHROMIUM = process.env['MTHDS_CHROMIUM'] ?? '/usr/bin/chromium';
const SHOTS = path.resolve(REPO, process.env['MTHDS_VSCODE_SCREENSHOTS'] ?? '.cache/vscode-screenshots');
/** A loaded machine renders slowly: every UI condition gets this long. */
const UI_TIMEOUT = 90_000;

const missing = [
  !existsSync(CODE_SERVER_BIN) && `code-server (${CODE_SERVER_BIN}: \`npm run test:vscode\` installs it)`,
  !existsSync(CHROMIUM) && `Chromium (${CHROMIUM}: Debian's \`chromium\` package)`,
].filter((m): m is string => typeof m === 'string');
// CI sets MTHDS_REQUIRE_VSCODE: there a missing code-server or Chromium is a failure, not a skip.
if (missing.length > 0 && process.env['MTHDS_REQUIRE_VSCODE']) throw new Error(`MTHDS_REQUIRE_VSCODE is set but ${missing.join(' and ')} is missing`);
if (missing.length > 0) console.warn(`vscode.e2e.ts: SKIPPED — ${missing.join(' and ')} is missing.`);

interface Finding {
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

/** One row of the Problems panel, as shown: source, code, message, position. */
interface Problem {
  source: string;
  code: string;
  message: string;
  line: number;
  column: number;
}

/** What `mthds check` says about `examples/broken/broken.mthds` of a copy of the examples. */
async function cliProblems(examples: string): Promise<Problem[]> {
  const result = await run(process.execPath, [path.join(REPO, 'server/bin/mthds.js'), 'check', '.', '--format', 'json'], { cwd: examples, timeout: 60_000 }).catch(
    (error: { stdout?: string; code?: number }) => {
      // Exit 1: findings reported (the broken bundle is broken on purpose).
      if (error.code === 1 && error.stdout) return { stdout: error.stdout };
      throw error;
    },
  );
  const report = JSON.parse(result.stdout) as { findings: Finding[] };
  return sortProblems(report.findings.filter((f) => f.file === 'broken/broken.mthds').map((f) => ({ source: 'mthds', code: f.code, message: f.message, line: f.line, column: f.column })));
}

function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}

let scratch: string | undefined;
let examples: string;
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

async function screenshot(name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // Animations finished: a hover caught mid fade-in is half transparent.
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
}

/** Runs a command of the command palette by its exact label. */
async function command(label: string): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await input.fill(`>${label}`);
  // Enter runs the highlighted entry: it must be this command, not a near namesake ranked first.
  const focused = page.locator('.quick-input-list .monaco-list-row.focused .label-name');
  await focused.first().waitFor({ timeout: UI_TIMEOUT });
  await until(async () => (await focused.first().innerText()).trim(), label);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

/** Moves the cursor of the active editor to a 1-based line and column (Go to Line). */
async function goTo(line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

/** The rows of the Problems panel for the open file. */
async function panelProblems(): Promise<Problem[]> {
  const rows = page.locator('.markers-panel .monaco-list-row .marker-message-details-container');
  const problems: Problem[] = [];
  for (const row of await rows.all()) {
    const text = async (selector: string): Promise<string> => (await row.locator(selector).allInnerTexts()).join('\n').trim();
    const position = /Ln (\d+), Col (\d+)/.exec(await text('.marker-line'));
    problems.push({ source: await text('.marker-source'), code: await text('.marker-code'), message: await text('.marker-message'), line: Number(position?.[1]), column: Number(position?.[2]) });
  }
  return sortProblems(problems);
}

/** Polls `read` until it equals `expected` (UI state settles at its own pace); the last reading fails the test. */
async function until<T>(read: () => Promise<T>, expected: T): Promise<void> {
  await expect.poll(read, { timeout: UI_TIMEOUT, interval: 250 }).toEqual(expected);
}

/** The 1-based lines of the editor that carry an error squiggle. */
async function squiggledLines(editor: Locator): Promise<number[]> {
  const numbers = await editor.locator('.margin-view-overlays .line-numbers').evaluateAll((els) => els.map((e) => ({ line: Number(e.textContent), top: e.getBoundingClientRect().top })));
  const squiggles = await editor.locator('.view-overlays .squiggly-error').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
  const lines = new Set<number>();
  for (const top of squiggles) {
    const hit = numbers.find((n) => Math.abs(n.top - top) < 4);
    if (hit) lines.add(hit.line);
  }
  return [...lines].sort((a, b) => a - b);
}

describe.skipIf(missing.length > 0)('the packaged extension in VS Code (code-server, Chromium)', () => {
  beforeAll(async () => {
    // Failure pictures of an earlier run would mislead.
    if (existsSync(SHOTS)) for (const old of readdirSync(SHOTS)) if (old.startsWith('failure-')) rmSync(path.join(SHOTS, old));
    scratch = mkdtempSync(path.join(tmpdir(), 'mthds-vscode-'));
    // A copy of the examples: the quick fix edits and saves the broken bundle.
    examples = path.join(scratch, 'examples');
    cpSync(path.join(REPO, 'examples'), examples, { recursive: true });
    const vsix = path.join(scratch, 'mthds.vsix');
    await packageVsix(vsix);
    server = await CodeServer.start(vsix, examples);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Root in a container has no user namespaces for Chromium's sandbox.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-gpu', '--disable-dev-shm-usage'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.goto(`${server.url}?folder=${encodeURIComponent(examples)}`, { timeout: UI_TIMEOUT });
    await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: UI_TIMEOUT });
  }, 600_000);

  afterEach(async (context) => {
    // A failure leaves a picture of the window behind it.
    if (context.task.result?.state === 'fail' && browser) await screenshot(`failure-${context.task.name.replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

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
    await until(() => squiggledLines(editor), [...new Set(expected.map((p) => p.line))].sort((a, b) => a - b));

    await command('View: Focus Problems (Errors, Warnings, Infos)');
    await until(panelProblems, expected);
    await screenshot('vscode-diagnostics');
  });

  it('shows a concept\'s description on hover', async () => {
    // `output = "Recipe"` of suggest_recipe.
    await goTo(16, 13);
    await command('Show or Focus Hover');
    const hover = page.locator('.monaco-hover:not(.hidden)').first();
    await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await until(async () => (await hover.innerText()).includes('concept of domain recipes'), true);
    expect(await hover.innerText()).toContain('The name of the dish');
    await screenshot('vscode-hover');
    await page.keyboard.press('Escape');
  });

  it('offers completion of concepts in an output', async () => {
    // Just after the opening quote of `output = "Recipe"`.
    await goTo(16, 11);
    await page.keyboard.press('Control+Space');
    const suggest = page.locator('.suggest-widget');
    await suggest.locator('.monaco-list-row', { hasText: 'Recipe' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const labels = await suggest.locator('.monaco-list-row .label-name').allInnerTexts();
    // The bundle's concept, with its description, and native ones (the list shows its first rows only).
    expect(labels).toEqual(expect.arrayContaining(['Recipe', 'Image', 'Number']));
    expect(await suggest.locator('.monaco-list-row', { hasText: 'Recipe' }).first().innerText()).toContain('A recipe');
    await screenshot('vscode-completion');
    await page.keyboard.press('Escape');
  });

  it('applies a quick fix, and the findings follow', async () => {
    const file = path.join(examples, 'broken/broken.mthds');
    const before = readFileSync(file, 'utf8');
    // `pipe = "sugest_recipe"`: an unknown pipe whose fix names the right one.
    await goTo(24, 22);
    await page.keyboard.press('Control+.');
    const title = 'Replace with `suggest_recipe`';
    await page.locator('.action-widget .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await screenshot('vscode-quick-fix');
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
    await until(panelProblems, expected);
    // The squiggle of line 24 is gone; the one of line 26 (no fix applied there) stays.
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await until(async () => {
      const lines = await squiggledLines(editor);
      return { 24: lines.includes(24), 26: lines.includes(26) };
    }, { 24: false, 26: true });
    await screenshot('vscode-after-fix');
  });
});
