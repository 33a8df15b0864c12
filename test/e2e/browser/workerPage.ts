// Serves the worker harness (harness.html) and the built worker (server/dist/browser.js) on
// loopback, opens it in Debian's Chromium, and gives the tests the page's LSP client.

import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const REPO = path.resolve(__dirname, '../../..');
export const CHROMIUM = process.env['MTHDS_CHROMIUM'] ?? '/usr/bin/chromium';
export const WORKER = path.join(REPO, 'server/dist/browser.js');

/**
 * What a browser test lacks (Chromium, the built worker), for `describe.skipIf`. CI installs
 * Chromium and sets MTHDS_REQUIRE_CHROMIUM: there a missing browser is a failure, not a skip.
 */
export function missingForBrowser(testFile: string): string[] {
  const missing = [!existsSync(CHROMIUM) && `Chromium (${CHROMIUM}: Debian's \`chromium\` package)`, !existsSync(WORKER) && `the worker (${WORKER}: npm run build)`].filter(
    (m): m is string => typeof m === 'string',
  );
  if (missing.length > 0 && process.env['MTHDS_REQUIRE_CHROMIUM']) throw new Error(`MTHDS_REQUIRE_CHROMIUM is set but ${missing.join(' and ')} is missing`);
  if (missing.length > 0) console.warn(`${testFile}: SKIPPED — ${missing.join(' and ')} is missing.`);
  return missing;
}

export interface WorkerPage {
  page: Page;
  url: string;
  close(): Promise<void>;
}

/** The harness page on a loopback server, in a headless Chromium. */
export async function openWorkerPage(): Promise<WorkerPage> {
  const harness = readFileSync(path.join(__dirname, 'harness.html'));
  const worker = readFileSync(WORKER);
  const server: Server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(harness);
    else if (req.url === '/browser.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Root in a container has no user namespaces for Chromium's sandbox.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const page = await browser.newPage();
    await page.goto(url);
    const opened = browser;
    return {
      page,
      url,
      close: async () => {
        await opened.close();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  } catch (error) {
    await browser?.close();
    server.close();
    throw error;
  }
}
