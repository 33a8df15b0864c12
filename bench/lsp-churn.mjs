// The language server while files change on disk in bursts (`npm run bench:lsp-churn`, builds
// first): one package of COUNT (default 5,000) generated bundles, one document open, the client
// watching files as VS Code does. Each scenario changes files on disk, then tells the server and
// measures how long until the server's update has settled (its trace of the finished check, with
// every expected diagnostic published) and how long requests sent meanwhile wait (one at a time, as
// an editor has one request of a kind in flight, the next 20 ms after the answer, in turn: hover,
// completion, definition, document symbols, folding ranges, code actions), p50/p95/p99/max per kind:
// - 1,000 files changed (descriptions, one in ten broken), one notification;
// - the same files changed back and again, 1,000 notifications 1 ms apart;
// - 1,000 files changed again, one notification, while the open document is typed in (a keystroke
//   every 30 ms: its checks are pending while the update runs);
// - 500 files deleted, one notification;
// then compares the diagnostics of every file with `mthds check --format json` of the folder, and
// measures RSS after CYCLES (default 1,000) open / five edits / close cycles against RSS after
// start-up. The load average is printed with the figures. SCENARIOS=memory runs only the long
// session (start-up, then the cycles); SCENARIOS=churn only the changes on disk;
// SCENARIOS=switch only the branch switch that renames declarations (bench/branchSwitch.mjs,
// SWITCH_COUNT bundles, default 2,000); default all three.
// With the changes on disk (or SCENARIOS=fixall alone): the fix-all of the open document (one
// fixable error typed into it) asked three times: first, after a keystroke, after 10 files changed
// on disk and a keystroke: its answer time and the server's CPU time meanwhile (/proc).
// GC_LOG=1: also print, per scenario, the server's collections (bench/gcLog.mjs): count, total and
// longest pause of each kind while the scenario ran, and how many of its slowest requests waited on one.
// GAP_LOG=1: also print, per scenario, the server's stretches without a turn of its event loop
// (bench/gapLog.mjs): how many over 12, 30, 50 and 100 ms, the longest, and the slowest requests with
// the gaps they waited through.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeOnePackage } from './generate.mjs';
import { memoryOf } from './processMemory.mjs';
import { percentile, processCpuMs, startServer, stopServer } from './lspClient.mjs';
import { summarizeGc } from './gcLog.mjs';
import { summarizeGaps } from './gapLog.mjs';
import { runBranchSwitch } from './branchSwitch.mjs';

const COUNT = Number(process.env.COUNT ?? 5000);
const CYCLES = Number(process.env.CYCLES ?? 1000);
const SCENARIOS = new Set((process.env.SCENARIOS ?? 'switch,churn,memory').split(',').map((s) => s.trim()));
// The branch switch that renames declarations runs on a workspace of its own (bench/branchSwitch.mjs).
if (SCENARIOS.has('switch')) await runBranchSwitch(Number(process.env.SWITCH_COUNT ?? 2000));
if ([...SCENARIOS].every((s) => s === 'switch')) process.exit(0);
const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/bin/mthds.js');
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const GC_LOG = process.env.GC_LOG ? path.join(mkdtempSync(path.join(tmpdir(), 'mthds-bench-gc-')), 'gc.log') : undefined;
if (GC_LOG) {
  // The server inherits this process's environment (bench/lspClient.mjs).
  const gcLog = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'gcLog.mjs')).href;
  process.env.SERVER_NODE_ARGS = `${process.env.SERVER_NODE_ARGS ?? ''} --import ${gcLog}`;
  process.env.MTHDS_BENCH_GC_LOG = GC_LOG;
}
const GAP_LOG = process.env.GAP_LOG ? path.join(mkdtempSync(path.join(tmpdir(), 'mthds-bench-gaps-')), 'gaps.log') : undefined;
if (GAP_LOG) {
  const gapLog = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'gapLog.mjs')).href;
  process.env.SERVER_NODE_ARGS = `${process.env.SERVER_NODE_ARGS ?? ''} --import ${gapLog}`;
  process.env.MTHDS_BENCH_GAP_LOG = GAP_LOG;
}

const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-churn-'));
const { files, texts } = writeOnePackage(dir, COUNT);

const diagnostics = new Map();
let checks = 0;
let onCheck = () => undefined;
const CAPABILITIES = {
  window: { workDoneProgress: true },
  workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
  textDocument: { publishDiagnostics: { versionSupport: true, relatedInformation: true }, completion: { completionItem: { snippetSupport: true } } },
};
const t0 = performance.now();
const server = await startServer(dir, {
  capabilities: CAPABILITIES,
  initializationOptions: { diagnostics: { debounceMs: 0 } },
  trace: 'verbose',
  onTrace: (message) => {
    if (process.env.CHURN_DEBUG) console.log(`  [trace ${fmt(performance.now() - t0, 0)}] ${message}`);
    if (!message.startsWith('mthds: checked')) return;
    checks += 1;
    onCheck();
  },
  onPublish: (p) => diagnostics.set(p.uri, p.diagnostics),
});
await server.checked;
const startupMs = performance.now() - t0;
const { connection } = server;
const openIndex = Math.floor(COUNT / 2) + 1;
const openUri = pathToFileURL(files[openIndex]).href;
const openText = texts[openIndex];
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: openUri, languageId: 'mthds', version: 1, text: openText } });
await new Promise((r) => (onCheck = r));
const afterStartup = memoryOf(server.child.pid);
console.log(`language server under churn: one package of ${COUNT} bundles, one document open; node ${process.version}; ${load()}`);
console.log(`  start-up: workspace checked after ${fmt(startupMs / 1000, 2)} s; RSS ${fmt(afterStartup.rss)} MB`);

const outputAt = openText.indexOf('output = "') + 'output = "'.length + 1;
const position = (() => {
  const before = openText.slice(0, outputAt);
  return { line: before.split('\n').length - 1, character: outputAt - (before.lastIndexOf('\n') + 1) };
})();

const descAt = openText.indexOf('description = "Generated pipe') + 'description = "'.length;
const descPos = (() => {
  const before = openText.slice(0, descAt);
  return { line: before.split('\n').length - 1, character: descAt - (before.lastIndexOf('\n') + 1) };
})();
/** The requests sent during a change, in turn, each about the open document at `position`. */
const KINDS = [
  ['hover', 'textDocument/hover', () => ({ textDocument: { uri: openUri }, position })],
  ['completion', 'textDocument/completion', () => ({ textDocument: { uri: openUri }, position })],
  ['definition', 'textDocument/definition', () => ({ textDocument: { uri: openUri }, position })],
  ['symbols', 'textDocument/documentSymbol', () => ({ textDocument: { uri: openUri } })],
  ['folding', 'textDocument/foldingRange', () => ({ textDocument: { uri: openUri } })],
  ['code actions', 'textDocument/codeAction', () => ({ textDocument: { uri: openUri }, range: { start: position, end: position }, context: { diagnostics: [] } })],
];

/**
 * Requests until `done` resolves, one at a time (an editor keeps one request of a kind in flight
 * and cancels or waits for it), the next sent 20 ms after the answer; their latencies per kind.
 */
async function requestsDuring(done) {
  const times = new Map(KINDS.map(([name]) => [name, []]));
  const timed = [];
  let over = false;
  void done.then(() => (over = true));
  let k = 0;
  while (!over) {
    const [name, method, params] = KINDS[k++ % KINDS.length];
    const t = performance.now();
    await connection.sendRequest(method, params());
    times.get(name).push(performance.now() - t);
    timed.push({ start: performance.timeOrigin + t, ms: performance.now() - t });
    await sleep(20);
  }
  return { times, timed };
}

/** `name: p50 / p95 / p99 / max ms (n)` per kind, and over hover and completion together. */
function latencies(times) {
  const row = (name, xs) => `    ${name.padEnd(22)} ${xs.length === 0 ? 'none' : `p50 ${fmt(percentile(xs, 50))}  p95 ${fmt(percentile(xs, 95))}  p99 ${fmt(percentile(xs, 99))}  max ${fmt(Math.max(...xs))} ms (${xs.length})`}`;
  const lines = [...times].map(([name, xs]) => row(name, xs));
  lines.push(row('hover + completion', [...times.get('hover'), ...times.get('completion')]));
  lines.push(row('all', [...times.values()].flat()));
  return lines.join('\n');
}

/** Waits until a check ends with `ready()` true; resolves with the time since `t`. */
function settled(t, ready) {
  return new Promise((resolve) => {
    const test = () => {
      if (ready()) {
        onCheck = () => undefined;
        resolve(performance.now() - t);
      }
    };
    onCheck = test;
  });
}

const uri = (i) => pathToFileURL(files[i]).href;
const broken = (i) => (diagnostics.get(uri(i))?.length ?? 0) > 0;
// One in two of these is a `3 mod 10` file, which the first change breaks and the second repairs.
const changedSet = [...new Set(Array.from({ length: 1000 }, (_, k) => (k * 5 + 3) % COUNT))].filter((i) => i !== openIndex);
const variant = (i, round) => {
  let text = texts[i].replaceAll('Generated pipe', `Generated pipe (round ${round})`);
  if (i % 10 === 3) text = text.replace('type = "PipeLLM"', 'type = "PipeLMM"');
  return text;
};
const expectBroken = (i) => i % 20 === 7 || i % 10 === 3;

let openVersion = 1;
/** A keystroke in the open document (in a description) every 30 ms until `done` resolves. */
async function typingDuring(done) {
  let over = false;
  void done.then(() => (over = true));
  while (!over) {
    openVersion += 1;
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri: openUri, version: openVersion }, contentChanges: [{ range: { start: descPos, end: descPos }, text: 'x' }] });
    await sleep(30);
  }
}

/**
 * Changes files on disk (`prepare`, before the clock starts: the benchmark's own synchronous
 * writes would hold its requests back and count as the server's wait), then tells the server
 * (`notify`) and measures until `ready()` holds after a check.
 */
async function scenario(name, prepare, apply, ready, { typing = false } = {}) {
  prepare();
  const checksBefore = checks;
  const t = performance.now();
  const done = settled(t, ready);
  const requests = requestsDuring(done);
  const typed = typing ? typingDuring(done) : Promise.resolve();
  await apply();
  const sent = performance.now() - t;
  const ms = await done;
  const { times, timed } = await requests;
  await typed;
  await sleep(300);
  console.log(`  ${name}: settled ${fmt(ms)} ms after the first notification, ${fmt(Math.max(0, ms - sent))} ms after the last (${checks - checksBefore} update${checks - checksBefore === 1 ? '' : 's'}); ${load()}; requests meanwhile:\n${latencies(times)}`);
  if (GC_LOG) console.log(`    ${gcDuring(performance.timeOrigin + t, ms)}\n    ${summarizeGc(GC_LOG, timed, percentile(timed.map((r) => r.ms), 95))}`);
  if (GAP_LOG) console.log(`    ${summarizeGaps(GAP_LOG, performance.timeOrigin + t, ms, timed)}`);
}

/** Per kind, the collections from `start` (ms since the epoch) for `ms`: count, total, longest pause. */
function gcDuring(start, ms) {
  let text = '';
  try {
    text = readFileSync(GC_LOG, 'utf8');
  } catch {}
  const byKind = new Map();
  for (const line of text.split('\n').filter(Boolean)) {
    const [at, kind, pause] = line.split(' ');
    if (Number(at) < start || Number(at) > start + ms) continue;
    const s = byKind.get(kind) ?? { n: 0, total: 0, max: 0 };
    s.n += 1;
    s.total += Number(pause);
    s.max = Math.max(s.max, Number(pause));
    byKind.set(kind, s);
  }
  return `collections while settling: ${[...byKind].map(([kind, s]) => `${s.n} ${kind} (${fmt(s.total)} ms, max ${fmt(s.max)})`).join(', ') || 'none'}`;
}

const deleted = [...new Set(Array.from({ length: 500 }, (_, k) => (k * 7 + 2) % COUNT))].filter((i) => i !== openIndex);
if (SCENARIOS.has('churn')) {
  await scenario(
    '1,000 files changed, one notification',
    () => {
      for (const i of changedSet) writeFileSync(files[i], variant(i, 1));
    },
    async () => {
      await connection.sendNotification('workspace/didChangeWatchedFiles', { changes: changedSet.map((i) => ({ uri: uri(i), type: 2 })) });
    },
    () => changedSet.every((i) => broken(i) === expectBroken(i)),
  );

  await scenario(
    '1,000 files changed, 1,000 notifications 1 ms apart',
    () => {
      for (const i of changedSet) writeFileSync(files[i], i % 10 === 3 ? texts[i] : variant(i, 2));
    },
    async () => {
      for (const i of changedSet) {
        await connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(i), type: 2 }] });
        await sleep(1);
      }
    },
    () => changedSet.every((i) => broken(i) === (i % 20 === 7)),
  );

  await scenario(
    '1,000 files changed, one notification, typing in the open document meanwhile',
    () => {
      for (const i of changedSet) writeFileSync(files[i], variant(i, 3));
    },
    async () => {
      await connection.sendNotification('workspace/didChangeWatchedFiles', { changes: changedSet.map((i) => ({ uri: uri(i), type: 2 })) });
    },
    () => changedSet.every((i) => broken(i) === expectBroken(i)),
    { typing: true },
  );

  await scenario(
    '500 files deleted, one notification',
    () => {
      for (const i of deleted) unlinkSync(files[i]);
    },
    async () => {
      await connection.sendNotification('workspace/didChangeWatchedFiles', { changes: deleted.map((i) => ({ uri: uri(i), type: 3 })) });
    },
    () => deleted.every((i) => !broken(i)),
  );

  // The diagnostics against `mthds check` of the same folder.
  // Exit 1 means findings: the output is the report all the same.
  const cli = JSON.parse(spawnSync(process.execPath, [CLI, 'check', '--format', 'json', path.join(dir, 'all')], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout || '{}');
  const key = (code, range) => `${code}@${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
  const expected = new Map();
  for (const f of cli.findings ?? []) {
    const u = pathToFileURL(f.file).href;
    if (!expected.has(u)) expected.set(u, []);
    expected.get(u).push(key(f.code, f.range));
  }
  let differ = 0;
  for (const u of new Set([...expected.keys(), ...diagnostics.keys()])) {
    const a = (expected.get(u) ?? []).sort().join('\n');
    const b = (diagnostics.get(u) ?? []).map((d) => key(d.code, d.range)).sort().join('\n');
    if (a !== b) differ += 1;
  }
  console.log(`  diagnostics against mthds check: ${differ === 0 ? 'equal' : `${differ} files differ`} (${expected.size} files with findings)`);
}

/** The server's CPU time so far (ms). */
function cpuMs() {
  return processCpuMs(server.child.pid);
}

if (SCENARIOS.has('churn') || SCENARIOS.has('fixall')) {
  const nextCheck = () => new Promise((r) => (onCheck = () => ((onCheck = () => undefined), r())));
  const posAt = (text, at) => {
    const before = text.slice(0, at);
    return { line: before.split('\n').length - 1, character: at - (before.lastIndexOf('\n') + 1) };
  };
  const typeAt = posAt(openText, openText.indexOf('"PipeLLM"'));
  const typeRange = { start: typeAt, end: { line: typeAt.line, character: typeAt.character + '"PipeLLM"'.length } };
  const edit = async (range, text) => {
    const checked = nextCheck();
    openVersion += 1;
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri: openUri, version: openVersion }, contentChanges: [{ range, text }] });
    await checked;
    await sleep(300);
  };
  const fixAll = async (label) => {
    const t = performance.now();
    const cpu = cpuMs();
    const actions = await connection.sendRequest('textDocument/codeAction', { textDocument: { uri: openUri }, range: typeRange, context: { diagnostics: [], only: ['source.fixAll'] } });
    const ms = performance.now() - t;
    const fixes = (actions ?? []).filter((a) => a.kind === 'source.fixAll.mthds').length;
    console.log(`    ${label.padEnd(44)} answered in ${fmt(ms)} ms, server CPU ${fmt(cpuMs() - cpu, 0)} ms${fixes === 1 ? '' : ' (NO FIX-ALL ACTION)'}`);
  };
  console.log(`  fix-all of the open document (one fixable error); ${load()}:`);
  // Each typo makes other findings, so the fix-all is computed again (its answer is kept per list of findings).
  await edit(typeRange, '"PipeLMM"');
  await fixAll('first');
  await edit(typeRange, '"PipeLML"');
  await fixAll('after a keystroke');
  const checked = nextCheck();
  const ten = changedSet.slice(0, 10);
  for (const i of ten) writeFileSync(files[i], variant(i, 4));
  await connection.sendNotification('workspace/didChangeWatchedFiles', { changes: ten.map((i) => ({ uri: uri(i), type: 2 })) });
  await checked;
  await edit(typeRange, '"PipeLMM"');
  await fixAll('after 10 files changed on disk, a keystroke');
  await sleep(1000);
  console.log(`    RSS after: ${fmt(memoryOf(server.child.pid).rss)} MB`);
}

// Long session: open, five edits, close.
for (let c = 0; SCENARIOS.has('memory') && c < CYCLES; c++) {
  const i = (c * 13 + 5) % COUNT;
  if (deleted.includes(i) || i === openIndex) continue;
  const u = uri(i);
  const text = texts[i];
  const at = text.indexOf('description = "Generated pipe') + 'description = "'.length;
  const before = text.slice(0, at);
  const pos = { line: before.split('\n').length - 1, character: at - (before.lastIndexOf('\n') + 1) };
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: u, languageId: 'mthds', version: 1, text } });
  for (let e = 0; e < 5; e++) await connection.sendNotification('textDocument/didChange', { textDocument: { uri: u, version: e + 2 }, contentChanges: [{ range: { start: pos, end: pos }, text: 'x' }] });
  await connection.sendNotification('textDocument/didClose', { textDocument: { uri: u } });
  if (c % 50 === 49) await connection.sendRequest('textDocument/hover', { textDocument: { uri: openUri }, position: descPos });
}
await sleep(1000);
const afterCycles = memoryOf(server.child.pid);
if (SCENARIOS.has('memory')) console.log(`  RSS after ${CYCLES} open / five edits / close cycles: ${fmt(afterCycles.rss)} MB (${fmt(afterCycles.rss / afterStartup.rss, 2)} x after start-up); ${load()}`);
await stopServer(server);
rmSync(dir, { recursive: true, force: true });
if (GC_LOG) rmSync(path.dirname(GC_LOG), { recursive: true, force: true });
if (GAP_LOG) rmSync(path.dirname(GAP_LOG), { recursive: true, force: true });
