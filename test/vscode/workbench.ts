// The VS Code window in Chromium, driven as a user drives it (command palette, Go to Line, Quick
// Open, the Problems panel, the editor's squiggles), for the tests of the packaged extension in
// code-server; and what `mthds check` says of a file, to compare the window with.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CODE_SERVER_BIN, REPO, type CodeServer } from './codeServer.js';

const run = promisify(execFile);

export const CHROMIUM = process.env['MTHDS_CHROMIUM'] ?? '/usr/bin/chromium';
export const SHOTS = path.resolve(REPO, process.env['MTHDS_VSCODE_SCREENSHOTS'] ?? '.cache/vscode-screenshots');
/** A loaded machine renders slowly: every UI condition gets this long. */
export const UI_TIMEOUT = 90_000;

/**
 * What the VS Code tests need and is missing (code-server, Chromium). CI sets
 * MTHDS_REQUIRE_VSCODE: there a missing one is a failure (thrown here), not a skip.
 */
export function missingForVscode(testFile: string): string[] {
  const missing = [
    !existsSync(CODE_SERVER_BIN) && `code-server (${CODE_SERVER_BIN}: \`npm run test:vscode\` installs it)`,
    !existsSync(CHROMIUM) && `Chromium (${CHROMIUM}: Debian's \`chromium\` package)`,
  ].filter((m): m is string => typeof m === 'string');
  if (missing.length > 0 && process.env['MTHDS_REQUIRE_VSCODE']) throw new Error(`MTHDS_REQUIRE_VSCODE is set but ${missing.join(' and ')} is missing`);
  if (missing.length > 0) console.warn(`${testFile}: SKIPPED — ${missing.join(' and ')} is missing.`);
  return missing;
}

/** Debian's Chromium, headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Root in a container has no user namespaces for Chromium's sandbox.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** Chromium on the window of `server` for `folder`, once its explorer shows; `prepare` sees the page before it loads. */
export async function openWindow(server: CodeServer, folder: string, prepare: (page: Page) => void = () => undefined): Promise<{ browser: Browser; page: Page; ui: Workbench }> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(UI_TIMEOUT);
  prepare(page);
  await page.goto(`${server.url}?folder=${encodeURIComponent(folder)}`, { timeout: UI_TIMEOUT });
  await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: UI_TIMEOUT });
  return { browser, page, ui: new Workbench(page) };
}

/** Closes what a test file opened: the browser, code-server (its whole process group), the scratch folder. */
export async function closeAll(browser: Browser | undefined, server: CodeServer | undefined, scratch: string | undefined): Promise<void> {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

interface Finding {
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

/** One row of the Problems panel, as shown: source, code, message, position. */
export interface Problem {
  source: string;
  code: string;
  message: string;
  line: number;
  column: number;
}

/** What `mthds check` run in `folder` says about `file` (relative to it, with `/`). */
export async function cliProblems(folder: string, file: string): Promise<Problem[]> {
  const result = await run(process.execPath, [path.join(REPO, 'server/bin/mthds.js'), 'check', '.', '--format', 'json'], { cwd: folder, timeout: 60_000 }).catch(
    (error: { stdout?: string; code?: number }) => {
      // Exit 1: findings reported (the broken bundle is broken on purpose).
      if (error.code === 1 && error.stdout) return { stdout: error.stdout };
      throw error;
    },
  );
  const report = JSON.parse(result.stdout) as { findings: Finding[] };
  return sortProblems(report.findings.filter((f) => f.file === file).map((f) => ({ source: 'mthds', code: f.code, message: f.message, line: f.line, column: f.column })));
}

function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}

/** Polls `read` until it equals `expected` (UI state settles at its own pace); the last reading fails the test. */
export async function until<T>(read: () => Promise<T>, expected: T): Promise<void> {
  await expect.poll(read, { timeout: UI_TIMEOUT, interval: 250 }).toEqual(expected);
}

/** The editor of the active tab while it has the keyboard's focus. */
const EDITOR_FOCUSED = '.editor-instance .monaco-editor.focused';

/** The window of one page: the user's gestures, and what the window shows. */
export class Workbench {
  constructor(readonly page: Page) {}

  /** A picture of the window in SHOTS. */
  async screenshot(name: string): Promise<void> {
    mkdirSync(SHOTS, { recursive: true });
    // Animations finished: a hover caught mid fade-in is half transparent.
    await this.page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
  }

  /** Runs a command of the command palette by its exact label. */
  async command(label: string): Promise<void> {
    const page = this.page;
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
  async goTo(line: number, column: number): Promise<void> {
    const page = this.page;
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await input.fill(`:${line}:${column}`);
    await page.keyboard.press('Enter');
    const box = page.locator('.quick-input-widget');
    // With no text editor active the box stays open and says so: fail with what it says.
    await box.waitFor({ state: 'hidden', timeout: UI_TIMEOUT }).catch(async (error: unknown) => {
      throw new Error(`Go to Line stayed open: ${JSON.stringify(await box.innerText().catch(() => ''))}`, { cause: error });
    });
    // The box closes before the editor has its focus back: a key pressed in between goes nowhere.
    await page.locator(EDITOR_FOCUSED).first().waitFor({ timeout: UI_TIMEOUT });
  }

  /**
   * Opens the suggestions at the cursor with Ctrl+Space, as a user does, and returns the widget
   * once a row showing `text` is in it. On a loaded machine the press can reach the window before
   * the editor has its focus back from the Go to Line box, and nothing opens: the press waits for
   * the editor's focus, and is made again (as a user would) only while no widget shows. A widget
   * that shows without the row fails at once, with what it shows.
   */
  async suggest(text: string): Promise<Locator> {
    const page = this.page;
    const widget = page.locator('.suggest-widget');
    const row = widget.locator('.monaco-list-row', { hasText: text }).first();
    const deadline = Date.now() + UI_TIMEOUT;
    const missed: string[] = [];
    while (Date.now() < deadline) {
      await page.locator(EDITOR_FOCUSED).first().waitFor({ timeout: UI_TIMEOUT });
      await page.keyboard.press('Control+Space');
      try {
        await row.waitFor({ state: 'visible', timeout: 15_000 });
        if (missed.length > 0) console.warn(`suggest: Ctrl+Space opened nothing ${missed.length} time(s) before it did`);
        return widget;
      } catch (error) {
        if (await widget.isVisible()) throw new Error(`the suggestions show no "${text}": ${JSON.stringify(await widget.innerText())}`, { cause: error });
        missed.push(new Date().toISOString());
      }
    }
    throw new Error(`Ctrl+Space opened no suggestions in ${UI_TIMEOUT} ms (pressed at ${missed.join(', ')})`);
  }

  /** The rows of the Problems panel for the open file. */
  async panelProblems(): Promise<Problem[]> {
    const rows = this.page.locator('.markers-panel .monaco-list-row .marker-message-details-container');
    const problems: Problem[] = [];
    for (const row of await rows.all()) {
      const text = async (selector: string): Promise<string> => (await row.locator(selector).allInnerTexts()).join('\n').trim();
      const position = /Ln (\d+), Col (\d+)/.exec(await text('.marker-line'));
      problems.push({ source: await text('.marker-source'), code: await text('.marker-code'), message: await text('.marker-message'), line: Number(position?.[1]), column: Number(position?.[2]) });
    }
    return sortProblems(problems);
  }

  /** Opens a file of the workspace by name (Quick Open) and waits for its tab. */
  async openFile(name: string): Promise<void> {
    const page = this.page;
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill(name);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: UI_TIMEOUT });
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: UI_TIMEOUT });
    await page.locator(EDITOR_FOCUSED).first().waitFor({ timeout: UI_TIMEOUT });
  }

  /**
   * Opens `name` of the workspace folder `folder` from the Explorer, which needs no file search
   * (Quick Open waits for the server's search provider, which may come late in a web worker window).
   * A double click, as a user does to edit: a single click opens a preview and leaves the keyboard's
   * focus in the Explorer, where the next shortcut (Go to Line) finds no text editor and does nothing.
   * It returns once the file's editor has the focus.
   */
  async openFromExplorer(folder: string, name: string): Promise<void> {
    const row = (label: string): Locator => this.page.locator('.explorer-folders-view .monaco-list-row').filter({ has: this.page.getByText(label, { exact: true }) }).first();
    const dir = row(folder);
    await dir.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    if ((await dir.getAttribute('aria-expanded')) !== 'true') await dir.click();
    await row(name).dblclick();
    await this.page.locator('.tab.active', { hasText: name }).waitFor({ timeout: UI_TIMEOUT });
    await this.page.locator(EDITOR_FOCUSED).first().waitFor({ timeout: UI_TIMEOUT });
  }

  /** The editor of the active tab. */
  get editor(): Locator {
    return this.page.locator('.editor-instance .monaco-editor').first();
  }

  /** The 1-based lines of the editor that carry an error squiggle. */
  async squiggledLines(editor: Locator = this.editor): Promise<number[]> {
    const numbers = await editor.locator('.margin-view-overlays .line-numbers').evaluateAll((els) => els.map((e) => ({ line: Number(e.textContent), top: e.getBoundingClientRect().top })));
    const squiggles = await editor.locator('.view-overlays .squiggly-error').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    const lines = new Set<number>();
    for (const top of squiggles) {
      const hit = numbers.find((n) => Math.abs(n.top - top) < 4);
      if (hit) lines.add(hit.line);
    }
    return [...lines].sort((a, b) => a - b);
  }
}
