// Floods of notifications (`npm run bench:lsp-floods`, builds first): a language server on a small
// generated package with one document open gets CANCELS (default 200,000) `$/cancelRequest` for
// requests it never had, or OPENS (default 10,000) `didOpen` of small documents, written at once;
// a hover sent right behind the flood measures how long a request waits; hovers sent every 20 ms
// while the flood is read measure the answers between. Prints the figures with the load average.

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeOnePackage } from './generate.mjs';
import { percentile, startServer, stopServer } from './lspClient.mjs';

const CANCELS = Number(process.env.CANCELS ?? 200_000);
const OPENS = Number(process.env.OPENS ?? 10_000);
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-floods-'));
const { files, texts } = writeOnePackage(dir, 200);
const server = await startServer(dir, { capabilities: { window: { workDoneProgress: true } }, initializationOptions: { diagnostics: { debounceMs: 0 } } });
await server.checked;
const { connection } = server;
const openUri = pathToFileURL(files[3]).href;
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: openUri, languageId: 'mthds', version: 1, text: texts[3] } });
await sleep(500);
const hover = () => connection.sendRequest('textDocument/hover', { textDocument: { uri: openUri }, position: { line: 0, character: 2 } });
console.log(`language server under floods of notifications: a package of 200 bundles, one document open; node ${process.version}; ${load()}`);

/** The messages framed as the base protocol has them, in one buffer (written at once, as a fast client would). */
const framed = (messages) => Buffer.concat(messages.map((m) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m }));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
}));

async function flood(name, messages) {
  const bytes = framed(messages);
  const t0 = performance.now();
  // Straight onto the server's input: the benchmark's own writer would send them one turn each.
  server.child.stdin.write(bytes);
  const behind = hover();
  let over = false;
  const between = [];
  const meanwhile = (async () => {
    while (!over) {
      const t = performance.now();
      await hover();
      between.push(performance.now() - t);
      await sleep(20);
    }
  })();
  await behind;
  const ms = performance.now() - t0;
  await sleep(200);
  over = true;
  await meanwhile;
  console.log(`  ${name}: the hover sent behind the flood answered after ${fmt(ms)} ms; hovers meanwhile p50 ${fmt(percentile(between, 50))} p95 ${fmt(percentile(between, 95))} max ${fmt(Math.max(...between))} ms (${between.length}); ${load()}`);
  await sleep(1000);
}

await flood(`${CANCELS} $/cancelRequest of unknown requests`, Array.from({ length: CANCELS }, (_, i) => ({ method: '$/cancelRequest', params: { id: 1_000_000 + i } })));
await flood(
  `${OPENS} didOpen of small documents`,
  Array.from({ length: OPENS }, (_, i) => ({ method: 'textDocument/didOpen', params: { textDocument: { uri: `untitled:flood${i}`, languageId: 'mthds', version: 1, text: `domain = "flood"\ndescription = "Flood ${i}"\n` } } })),
);
await stopServer(server);
rmSync(dir, { recursive: true, force: true });
