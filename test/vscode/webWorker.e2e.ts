// The packaged extension's browser entry in a REAL VS Code web worker extension host: the same
// code-server (VS Code 1.100.3) and Chromium as vscode.e2e.ts, with the user setting
// `remote.extensionKind` naming the extension "ui". In a browser window VS Code adds "web" to that
// kind for an extension with a `browser` entry, and its picker (BrowserExtensionHostKindPicker of
// src/vs/workbench/services/extensions/browser/extensionService.ts) then runs the extension,
// installed on the server, in the browser's web worker host rather than the server's Node host.
// The package itself is unchanged: without the setting it runs on the server (vscode.e2e.ts).
// The extension is there the one of vscode.dev and github.dev: its language server is a nested web
// worker started from a blob: of server/dist/browser.js (a worker from the extension's
// vscode-remote: URI is refused by the host), and reads the workspace through the editor's file
// system. Checked from the window: the running extensions view says "web worker", the
// browser-only answers come (the graph, the runner), the broken bundle's findings with their codes
// fill the Problems panel as `mthds check` says, and a concept of another file of a package is
// found through the files the client read.

import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packageVsix } from '../helpers/vsix.js';
import { CodeServer, REPO } from './codeServer.js';
import { cliProblems, closeAll, missingForVscode, openWindow, SHOTS, UI_TIMEOUT, until, type Workbench } from './workbench.js';

const missing = missingForVscode('webWorker.e2e.ts');

const EXTENSION_ID = 'mthds.mthds-tools';

let scratch: string | undefined;
let examples: string;
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;
let ui: Workbench;
/** The window's console: the web worker host's errors land there, shown when a test fails. */
const consoleLines: string[] = [];

/** The toast of a notification whose text holds `text`. */
const toast = (text: string) => page.locator('.notifications-toasts .notification-toast', { hasText: text });

describe.skipIf(missing.length > 0)('the packaged extension in VS Code\'s web worker extension host (code-server, Chromium)', () => {
  beforeAll(async () => {
    if (existsSync(SHOTS)) for (const old of readdirSync(SHOTS)) if (old.startsWith('failure-web-worker-')) rmSync(path.join(SHOTS, old));
    scratch = mkdtempSync(path.join(tmpdir(), 'mthds-vscode-web-'));
    examples = path.join(scratch, 'examples');
    cpSync(path.join(REPO, 'examples'), examples, { recursive: true });
    const vsix = path.join(scratch, 'mthds.vsix');
    await packageVsix(vsix);
    server = await CodeServer.start(vsix, examples, { 'remote.extensionKind': { [EXTENSION_ID]: ['ui'] } });
    ({ browser, page, ui } = await openWindow(server, examples, (p) => p.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`))));
  }, 600_000);

  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    console.error(`the window's console:\n${consoleLines.join('\n')}`);
    if (browser) await ui.screenshot(`failure-web-worker-${context.task.name.replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  afterAll(() => closeAll(browser, server, scratch), 60_000);

  it('shows the broken bundle\'s findings with their codes in the Problems panel, as `mthds check` does', async () => {
    const expected = await cliProblems(examples, 'broken/broken.mthds');
    expect(expected.length).toBeGreaterThanOrEqual(5);
    await ui.openFromExplorer('broken', 'broken.mthds');
    await until(() => ui.squiggledLines(), [...new Set(expected.map((p) => p.line))].sort((a, b) => a - b));
    await ui.command('View: Focus Problems (Errors, Warnings, Infos)');
    await until(() => ui.panelProblems(), expected);
    await ui.screenshot('vscode-web-worker-diagnostics');
  });

  it('runs in the web worker extension host, not on the server', async () => {
    // The view draws only the rows in sight: a tall window shows every running extension.
    await page.setViewportSize({ width: 1280, height: 2400 });
    try {
      await ui.command('Developer: Show Running Extensions');
      const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'MTHDS' }).first();
      await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await until(async () => /web worker/.test(await row.innerText()), true);
      // Not the server's host: no "remote" label, and none of the desktop client's status bar item.
      expect(await row.innerText()).not.toMatch(/127\.0\.0\.1/);
      expect(await page.locator('.statusbar-item', { hasText: 'MTHDS runner' }).count()).toBe(0);
      await ui.screenshot('vscode-web-worker-running');
      await page.keyboard.press('Control+W');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('resolves a concept of another file of the package, never opened, through the files the client read', async () => {
    await ui.openFromExplorer('invoices', 'check.mthds');
    const lines = readFileSync(path.join(examples, 'invoices/check.mthds'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('output      = "Invoice"'));
    expect(line).toBeGreaterThanOrEqual(0);
    await ui.goTo(line + 1, lines[line]!.indexOf('Invoice') + 3);
    await ui.command('Show or Focus Hover');
    const hover = page.locator('.monaco-hover:not(.hidden)').first();
    await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await until(async () => (await hover.innerText()).includes('A commercial document from a seller'), true);
    await page.keyboard.press('Escape');
    // Go to Definition lands in the file that declares it.
    await page.keyboard.press('F12');
    await page.locator('.tab.active', { hasText: 'concepts.mthds' }).waitFor({ timeout: UI_TIMEOUT });
    const declaration = readFileSync(path.join(examples, 'invoices/concepts.mthds'), 'utf8').split('\n').findIndex((l) => l === '[concept.Invoice]');
    await until(async () => (await page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first().innerText()).match(/^Ln (\d+)/)?.[1], String(declaration + 1));
  });

  it('says that a runner is needed when none is configured', async () => {
    await ui.command('MTHDS: Show Runner Version');
    const notice = toast('A runner is needed');
    await notice.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    expect(await notice.innerText()).toContain('mthds.runner.url');
    await ui.screenshot('vscode-web-worker-runner');
  });

  it('answers the browser client\'s own way for what the browser lacks (the graph view)', async () => {
    await ui.command('MTHDS: Show Method Graph');
    await toast('The method graph view is not available in the browser yet').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  });
});
