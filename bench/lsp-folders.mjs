// Workspace folders in bursts and past any method tree's size, over stdio: how long a hover waits
// (1) after `/` (`file:///`) is added and removed ROUNDS times in a row, (2) while one add of `/`
// is being walked, the event loop's longest stall meanwhile read from the hovers' waits.
// MTHDS_SERVER runs another build (to compare two builds in the same minutes).
//
//   npm run bench:lsp-folders          ROUNDS=200 (default)

import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile, startServer, stopServer, SERVER } from './lspClient.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 200);
const ROOT = { uri: 'file:///', name: 'root' };

const ws = mkdtempSync(path.join(tmpdir(), 'mthds-bench-folders-'));
mkdirSync(path.join(ws, 'a'));
const file = path.join(ws, 'a/a.mthds');
const text = 'domain = "alpha"\ndescription = "d"\n\n[pipe.x]\ntype = "PipeLLM"\ndescription = "x"\noutput = "Text"\nprompt = "hi"\n';
writeFileSync(file, text);
const uri = pathToFileURL(file).href;

const capabilities = { workspace: { workspaceFolders: true }, window: { workDoneProgress: true } };
const server = await startServer(ws, { capabilities, initializationOptions: { diagnostics: { warmUpMs: 0 } } });
await server.checked;
const { connection } = server;
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version: 1, text } });
const hover = () => connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 4, character: 2 } });
await hover();

// (1) The burst: every add and remove sent at once, then a hover.
const t0 = performance.now();
for (let i = 0; i < ROUNDS; i++) {
  void connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [ROOT], removed: [] } });
  void connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [ROOT] } });
}
await hover();
const burstMs = performance.now() - t0;

// (2) One add of `/`: hovers every 20 ms for 3 s (or until the walk's message), their waits.
let told = false;
connection.onNotification('window/showMessage', () => (told = true));
await connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [ROOT], removed: [] } });
const waits = [];
const t1 = performance.now();
while (performance.now() - t1 < 3000 && !told) {
  const h0 = performance.now();
  await hover();
  waits.push(performance.now() - h0);
  await new Promise((r) => setTimeout(r, 20));
}
await connection.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [ROOT] } });
await stopServer(server);

console.log(`server: ${SERVER}`);
console.log(`${ROUNDS} adds and removes of file:/// then a hover: answered after ${burstMs.toFixed(0)} ms`);
console.log(`one add of file:///: ${waits.length} hovers, wait p50 ${percentile(waits, 50).toFixed(1)} ms, p99 ${percentile(waits, 99).toFixed(1)} ms, max ${Math.max(...waits).toFixed(1)} ms; bound message ${told ? 'shown' : 'not yet'} after ${(performance.now() - t1).toFixed(0)} ms`);
console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
