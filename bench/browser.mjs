// The language server's web worker (server/dist/browser.js): its size (minified, and gzipped as a
// web server sends it) and its start-up in Debian's Chromium, from `new Worker` to the first
// diagnostics of examples/broken/broken.mthds (initialize, the workspace's files sent as the
// browser client sends them, the document opened), and the first KEYSTROKES keystrokes after it.
// The median of RUNS starts, each in a fresh page, with the browser's defaults (no warm-up) and
// with the desktop's warm-up before initialize answers. `npm run bench:browser`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { targetLine } from './targets.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The worker measured; WORKER=path compares another build (the one of an earlier commit). */
const WORKER = process.env.WORKER ? path.resolve(process.env.WORKER) : path.join(REPO, 'server/dist/browser.js');
const CHROMIUM = process.env.MTHDS_CHROMIUM ?? '/usr/bin/chromium';
const RUNS = Number(process.env.RUNS ?? 7);
const KEYSTROKES = Number(process.env.KEYSTROKES ?? 30);
const ROOT = 'vscode-vfs://github/acme/methods';

const worker = readFileSync(WORKER);
const harness = readFileSync(path.join(REPO, 'test/e2e/browser/harness.html'));
const files = [];
for (const dir of readdirSync(path.join(REPO, 'examples'))) {
  for (const name of readdirSync(path.join(REPO, 'examples', dir))) files.push({ uri: `${ROOT}/${dir}/${name}`, text: readFileSync(path.join(REPO, 'examples', dir, name), 'utf8') });
}
const broken = files.find((f) => f.uri.endsWith('broken.mthds'));

const server = createServer((req, res) => {
  if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(harness);
  else if (req.url === '/browser.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
  else res.writeHead(404).end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-gpu', '--disable-dev-shm-usage'] });

/**
 * Milliseconds from `new Worker` to the first diagnostics of the broken bundle, then from each of
 * the first KEYSTROKES edits of it (typed one after the other, each once the previous one's
 * diagnostics came) to its diagnostics.
 */
async function startOnce(initializationOptions) {
  const page = await browser.newPage();
  await page.goto(url);
  const ms = await page.evaluate(async ({ root, files, broken, initializationOptions, keystrokes }) => {
    const lsp = globalThis.lsp;
    const t0 = lsp.start();
    await lsp.request('initialize', { processId: null, rootUri: root, workspaceFolders: [{ uri: root, name: 'methods' }], capabilities: { workspace: { configuration: true } }, initializationOptions });
    // The script fetched, evaluated, and initialize answered (the warm-up, when on, included).
    const initialized = performance.now() - t0;
    lsp.notify('initialized', {});
    lsp.notify('mthds/files', { changes: files });
    lsp.notify('textDocument/didOpen', { textDocument: { uri: broken.uri, languageId: 'mthds', version: 1, text: broken.text } });
    while (!(lsp.diagnostics[broken.uri]?.length > 0)) await new Promise((r) => setTimeout(r, 1));
    const first = performance.now() - t0;
    const edits = [];
    let text = broken.text;
    for (let i = 0; i < keystrokes; i++) {
      const before = lsp.diagnostics[broken.uri];
      // A keystroke in a description (the bundle's first line that has one), a new character each time.
      text = text.replace(/description = "/, `description = "${String.fromCharCode(97 + (i % 26))}`);
      const t = performance.now();
      lsp.notify('textDocument/didChange', { textDocument: { uri: broken.uri, version: i + 2 }, contentChanges: [{ text }] });
      while (lsp.diagnostics[broken.uri] === before) await new Promise((r) => setTimeout(r, 0));
      edits.push(performance.now() - t);
    }
    return { initialized, first, edits };
  }, { root: ROOT, files, broken, initializationOptions, keystrokes: KEYSTROKES });
  await page.close();
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`worker bundle: ${(worker.length / 1024).toFixed(0)} KB minified, ${(gzipSync(worker).length / 1024).toFixed(0)} KB gzipped (${path.relative(REPO, WORKER)}, built ${statSync(WORKER).mtime.toISOString()})`);
// The debounce off but in the defaults: a keystroke's time is then the check's and the publication's.
const CONFIGS = [
  ['default settings', {}],
  ['warm-up off (diagnostics.warmUpMs = 0), debounce 0', { diagnostics: { debounceMs: 0, warmUpMs: 0 } }],
  ['warm-up 1000 ms before initialize answers, debounce 0', { diagnostics: { debounceMs: 0, warmUpMs: 1000 } }],
];
let defaultLoadMs = NaN;
for (const [label, options] of CONFIGS) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await startOnce(options));
  const times = runs.map((r) => r.first);
  if (label === 'default settings') defaultLoadMs = median(times);
  const typed = runs.flatMap((r) => r.edits);
  const firstFive = runs.flatMap((r) => r.edits.slice(0, 5));
  console.log(`load -> first diagnostics, ${label}: median ${median(times).toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (${RUNS} starts); initialize answered after a median ${median(runs.map((r) => r.initialized)).toFixed(0)} ms`);
  console.log(`  first ${KEYSTROKES} keystrokes -> their diagnostics: median ${median(typed).toFixed(1)} ms, max ${Math.max(...typed).toFixed(1)} ms; the first 5 of each start: median ${median(firstFive).toFixed(1)} ms, max ${Math.max(...firstFive).toFixed(1)} ms`);
}
// The README calls these aims; printed as targets so that bench/targets-all.mjs collects them.
console.log(targetLine('browser worker', [['bundle, minified', worker.length / 2 ** 20, 1.5, 'MB'], ['load -> first diagnostics, default settings, median', defaultLoadMs, 300]]));
await browser.close();
server.close();
