// Code actions on a document with 30,000 unused inputs, over stdio: a `textDocument/codeAction`
// without `only` sent right behind the document's didOpen (its first check running), then the
// fix-all's `codeAction/resolve`; with RESOLVE=0 the client does not resolve edits (the fix-all is
// made within the codeAction answer, as for such clients); with RESOLVE=0 APPLY=1 it does not
// resolve them but applies the server's edits (`workspace/applyEdit`): the fix-all comes as the
// command `mthds.fixAll`, run after the answer. MTHDS_SERVER runs another build. GAP_LOG=1: the
// server's stretches without a turn of its event loop from didOpen to the diagnostics
// (bench/gapLog.mjs). A hover sent while the diagnostics' message (megabytes) is on the wire gets
// its answer after the client has read that message: such hovers are told apart.
//
//   node bench/lsp-wide-fixall.mjs        N=30000 (default)

import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarizeGaps } from './gapLog.mjs';
import { startServer, stopServer, SERVER } from './lspClient.mjs';
import { targetLine } from './targets.mjs';

const GAP_LOG = process.env.GAP_LOG ? path.join(mkdtempSync(path.join(tmpdir(), 'mthds-bench-gaps-')), 'gaps.log') : undefined;
if (GAP_LOG) {
  const gapLog = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'gapLog.mjs')).href;
  process.env.SERVER_NODE_ARGS = `${process.env.SERVER_NODE_ARGS ?? ''} --import ${gapLog}`;
  process.env.MTHDS_BENCH_GAP_LOG = GAP_LOG;
}

const N = Number(process.env.N ?? 30_000);
const RESOLVE = process.env.RESOLVE !== '0';
const APPLY = !RESOLVE && process.env.APPLY === '1';
const ws = mkdtempSync(path.join(tmpdir(), 'mthds-bench-wide-'));
const file = path.join(ws, 'wide.mthds');
const text = `domain = "demo"\ndescription = "Demo"\n\n[pipe.wide]\ntype = "PipeLLM"\ndescription = "Wide"\ninputs = { used = "Text", ${Array.from({ length: N }, (_, i) => `u${i} = "Text"`).join(', ')} }\noutput = "Text"\nprompt = "Use $used"\n`;
const uri = pathToFileURL(file).href;
// Another document, hovered every 25 ms meanwhile: how long the other requests wait.
const otherWs = mkdtempSync(path.join(tmpdir(), 'mthds-bench-wide-other-'));
const small = path.join(otherWs, 'small.mthds');
const smallText = 'domain = "other"\ndescription = "Other"\n\n[pipe.x]\ntype = "PipeLLM"\ndescription = "x"\noutput = "Text"\nprompt = "hi"\n';
writeFileSync(small, smallText);
const smallUri = pathToFileURL(small).href;

const codeAction = RESOLVE ? { dataSupport: true, resolveSupport: { properties: ['edit'] } } : { dataSupport: true };
const capabilities = { window: { workDoneProgress: true }, workspace: { applyEdit: APPLY }, textDocument: { codeAction, publishDiagnostics: {} } };
const server = await startServer(ws, { capabilities, initializationOptions: { diagnostics: { warmUpMs: 0, dryRun: false } } });
await server.checked;
const { connection } = server;
let published;
let applied;
connection.onRequest('workspace/applyEdit', (p) => {
  applied = p.edit.changes?.[uri]?.length;
  return { applied: true };
});
const settled = new Promise((r) => (published = r));
// When the full diagnostics arrived (the client's clock), and their message's size.
let publishedAt = Infinity;
let publishedMessage;
connection.onNotification('textDocument/publishDiagnostics', (p) => {
  if (p.uri !== uri || p.diagnostics.length < N) return;
  publishedAt = performance.now();
  publishedMessage = p;
  published();
});
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: smallUri, languageId: 'mthds', version: 1, text: smallText } });
const hover = () => connection.sendRequest('textDocument/hover', { textDocument: { uri: smallUri }, position: { line: 4, character: 2 } });
await hover();
let probing = true;
const waits = [];
const probe = (async () => {
  while (probing) {
    const h0 = performance.now();
    await hover();
    waits.push({ start: h0, end: performance.now(), ms: performance.now() - h0 });
    await new Promise((r) => setTimeout(r, 25));
  }
})();
const t0 = performance.now();
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version: 1, text } });
const actions = await connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } });
const answered = performance.now() - t0;
const fixAll = actions.find((a) => a.kind === 'source.fixAll.mthds');
let resolvedMs;
let edits = fixAll?.edit?.changes?.[uri]?.length;
if (fixAll && !fixAll.edit && !fixAll.command) {
  const t1 = performance.now();
  const resolved = await connection.sendRequest('codeAction/resolve', fixAll);
  resolvedMs = performance.now() - t1;
  edits = resolved.edit?.changes?.[uri]?.length;
}
let commandMs;
if (fixAll?.command) {
  const t1 = performance.now();
  await connection.sendRequest('workspace/executeCommand', { command: fixAll.command.command, arguments: fixAll.command.arguments });
  commandMs = performance.now() - t1;
  edits = applied;
}
await settled;
const diagnosticsMs = performance.now() - t0;
probing = false;
await probe;
await stopServer(server);
console.log(`server: ${SERVER}; client ${RESOLVE ? 'resolves edits' : APPLY ? 'does not resolve edits, applies the server\'s' : 'does not resolve edits'}`);
console.log(`${N.toLocaleString('en')} unused inputs: codeAction answered ${answered.toFixed(0)} ms after didOpen (${actions.length} actions)${resolvedMs !== undefined ? `; fix-all resolved in ${resolvedMs.toFixed(0)} ms` : ''}${commandMs !== undefined ? `; fix-all command applied in ${commandMs.toFixed(0)} ms` : ''}; ${edits ?? 0} edits; diagnostics published ${diagnosticsMs.toFixed(0)} ms after didOpen`);
// The targets were set for 30,000 inputs: the answer within 1 s, the fix-all (resolved, or its
// command applied) within 2 s; a client that resolves nothing gets the fix-all in the answer.
if (N === 30_000) {
  const entries = [['codeAction answered', answered, 1000]];
  if (RESOLVE) entries.push(['fix-all resolved', resolvedMs ?? NaN, 2000]);
  if (APPLY) entries.push(['fix-all command applied', commandMs ?? NaN, 2000]);
  const client = RESOLVE ? 'client resolving edits' : APPLY ? "client applying the server's edits" : 'client resolving nothing';
  console.log(targetLine(`${N.toLocaleString('en')} unused inputs, ${client}`, entries));
}
// Behind the diagnostics: sent before they arrived, answered in the same read (within 2 ms after).
const behind = waits.filter((w) => w.start < publishedAt && w.end >= publishedAt && w.end - publishedAt < 2);
const others = waits.filter((w) => !behind.includes(w));
const publishedBytes = Buffer.byteLength(JSON.stringify(publishedMessage));
const longest = (list) => (list.length > 0 ? `${Math.max(...list.map((w) => w.ms)).toFixed(0)} ms` : 'none');
console.log(
  `hovers of another document meanwhile: ${waits.length}, longest wait ${longest(waits)}; answered right behind the diagnostics' message (${(publishedBytes / 2 ** 20).toFixed(1)} MB, read by the client first): ${behind.length}, longest ${longest(behind)}; the others: longest ${longest(others)}`,
);
if (GAP_LOG) console.log(summarizeGaps(GAP_LOG, performance.timeOrigin + t0, diagnosticsMs, waits.map((w) => ({ start: performance.timeOrigin + w.start, ms: w.ms }))));
console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
