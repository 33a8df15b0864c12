// Benchmark of rename over real stdio (`npm run bench:lsp-rename`): a package of 200 bundles of one
// domain sharing their concepts; a concept referenced from every bundle (`Thing1`) is renamed from
// the open concepts bundle.
// - warm: prepareRename + rename on a tree already checked (p50, p95);
// - after a keystroke: a didChange of the open document, then at once prepareRename + rename, so
//   the request includes the re-check of the whole tree it has to wait for (p50, p95).
// Target: rename under 200 ms.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile, startServer, stopServer } from './lspClient.mjs';
import { generateTree } from './generate.mjs';
import { targetLine } from './targets.mjs';

const BUNDLES = Number(process.env.BUNDLES ?? 200);
const PIPES_PER_BUNDLE = Number(process.env.PIPES ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 40);

const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-rename-'));
const files = generateTree(BUNDLES * PIPES_PER_BUNDLE, BUNDLES);
let lines = 0;
for (const [name, text] of Object.entries(files)) {
  writeFileSync(path.join(dir, name), text);
  lines += text.split('\n').length;
}
writeFileSync(path.join(dir, 'METHODS.toml'), '[package]\nname = "bench"\naddress = "github.com/example/bench"\nversion = "1.0.0"\ndescription = "A benchmark package"\n');

const { child, connection, checked } = await startServer(dir, {
  capabilities: {
    window: { workDoneProgress: true },
    workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true, workspaceEdit: { documentChanges: true } },
    textDocument: { publishDiagnostics: { versionSupport: true } },
  },
  initializationOptions: { diagnostics: { debounceMs: 0 } },
});
await checked;

const file = path.join(dir, 'concepts.mthds');
const uri = pathToFileURL(file).href;
const text = readFileSync(file, 'utf8');
let version = 1;
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version, text } });
const docLines = text.split('\n');
const line = docLines.indexOf('[concept.Thing1]');
const position = { line, character: '[concept.Th'.length };
const descriptionLine = docLines.findIndex((l) => l.startsWith('description = "Generated concept'));

async function renameOnce() {
  const t = performance.now();
  const prepared = await connection.sendRequest('textDocument/prepareRename', { textDocument: { uri }, position });
  if (prepared?.placeholder !== 'Thing1') throw new Error(`unexpected prepareRename answer ${JSON.stringify(prepared)}`);
  const edit = await connection.sendRequest('textDocument/rename', { textDocument: { uri }, position, newName: 'Widget1' });
  const ms = performance.now() - t;
  const changes = edit.documentChanges ?? [];
  return { ms, files: changes.length, edits: changes.reduce((n, c) => n + c.edits.length, 0) };
}

// The first request checks the tree of the opened document.
const first = await renameOnce();
const warm = [];
let shape = first;
for (let i = 0; i < ROUNDS; i++) {
  shape = await renameOnce();
  warm.push(shape.ms);
}
const afterEdit = [];
let typed = false;
for (let i = 0; i < ROUNDS; i++) {
  version += 1;
  const at = { line: descriptionLine, character: 15 };
  const change = typed ? { range: { start: at, end: { line: descriptionLine, character: 16 } }, text: '' } : { range: { start: at, end: at }, text: 'x' };
  typed = !typed;
  await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
  afterEdit.push((await renameOnce()).ms);
}

await stopServer({ child, connection });
rmSync(dir, { recursive: true, force: true });

const fmt = (n) => n.toFixed(1);
console.log(`rename over stdio, ${BUNDLES + 1} bundles (${lines} lines), \`Thing1\` -> \`Widget1\`: ${shape.edits} edits in ${shape.files} files`);
console.log(`  first request (checks the tree): ${fmt(first.ms)} ms`);
console.log(`  warm (prepareRename + rename, ${ROUNDS} rounds): p50 ${fmt(percentile(warm, 50))} ms, p95 ${fmt(percentile(warm, 95))} ms, max ${fmt(Math.max(...warm))} ms`);
console.log(`  right after a keystroke (includes the re-check of the tree): p50 ${fmt(percentile(afterEdit, 50))} ms, p95 ${fmt(percentile(afterEdit, 95))} ms, max ${fmt(Math.max(...afterEdit))} ms`);
console.log(`  ${targetLine('rename', [['warm p95', percentile(warm, 95), 200], ['right after a keystroke p95', percentile(afterEdit, 95), 200]])}`);
