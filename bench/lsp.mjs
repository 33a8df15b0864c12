// Benchmark of the language server over real stdio (`npm run bench:lsp`):
// - keystroke latency: from didChange to the publishDiagnostics of that version, on a 2,000-line
//   bundle, with the debounce at 0 (p50, p95, p99, max; again without the first 50 edits, which
//   run while V8 still compiles the keystroke path), and the server's CPU per edit in both parts;
// - start-up: from initialize until every diagnostic of a 1,000-bundle workspace is published (the
//   end of the background check's progress), and the server's resident memory (VmRSS, VmHWM).
// Targets: keystroke p95 <= 8 ms and p99 <= 16 ms, start-up < 3 s, memory < 250 MB.
// GC_LOG=1: also print which collections paused the server during the keystrokes (bench/gcLog.mjs).
// WARM_UP_MS: the server's warm-up of the keystroke path at start-up (diagnostics.warmUpMs; 0: none).

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { generateBundle, workspaceBundle } from './generate.mjs';
import { cpuOf, memoryOf } from './processMemory.mjs';
import { percentile, SERVER, stopServer } from './lspClient.mjs';
import { summarizeGc } from './gcLog.mjs';
import { targetLine } from './targets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const KEYSTROKES = Number(process.env.KEYSTROKES ?? 300);
const WARM_UP = 50;
const WARM_UP_OPTION = process.env.WARM_UP_MS !== undefined ? { warmUpMs: Number(process.env.WARM_UP_MS) } : {};
const GC_LOG = process.env.GC_LOG ? path.join(mkdtempSync(path.join(tmpdir(), 'mthds-bench-gc-')), 'gc.log') : undefined;

const CAPABILITIES = {
  window: { workDoneProgress: true },
  workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
  textDocument: { publishDiagnostics: { versionSupport: true, relatedInformation: true } },
};

async function startServer(folder, onPublish, onProgress) {
  const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  if (GC_LOG) nodeArgs.push('--import', pathToFileURL(path.join(here, 'gcLog.mjs')).href);
  const env = GC_LOG ? { ...process.env, MTHDS_BENCH_GC_LOG: GC_LOG } : process.env;
  const child = spawn(process.execPath, [...nodeArgs, SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onNotification('textDocument/publishDiagnostics', onPublish);
  connection.onNotification('$/progress', onProgress);
  connection.onNotification('window/logMessage', () => undefined);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  const t0 = performance.now();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(folder).href,
    workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'bench' }],
    capabilities: CAPABILITIES,
    initializationOptions: { diagnostics: { debounceMs: 0, ...WARM_UP_OPTION } },
  });
  await connection.sendNotification('initialized', {});
  return { child, connection, t0 };
}

/** A generated bundle of at least `lines` lines. */
function bundleOfLines(lines, options) {
  let pipes = Math.max(1, Math.floor(lines / 13));
  let text = generateBundle(pipes, options);
  while (text.split('\n').length < lines) text = generateBundle(++pipes, options);
  return text;
}

async function keystrokes() {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-lsp-'));
  const file = path.join(dir, 'big.mthds');
  const text = bundleOfLines(2000, { domain: 'bench' });
  writeFileSync(file, text);
  const uri = pathToFileURL(file).href;
  let waiting;
  const server = await startServer(dir, (p) => {
    if (p.uri === uri && waiting && p.version === waiting.version) {
      const w = waiting;
      waiting = undefined;
      w.resolve(p);
    }
  }, () => undefined);
  const published = (version) => new Promise((resolve) => (waiting = { version, resolve }));
  let version = 1;
  let first = published(1);
  await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version, text } });
  await first;
  const cpu = [cpuOf(server.child.pid)];
  // Type in the description of a pipe in the middle of the file: insert a letter, then delete it;
  // every tenth keystroke breaks a concept reference and the next one repairs it.
  const lines = text.split('\n');
  const mid = lines.findIndex((l, i) => i > lines.length / 2 && l.startsWith('description = "Generated pipe'));
  const outputLine = lines.findIndex((l, i) => i > mid && l.startsWith('output = "Thing'));
  const times = [];
  const timed = [];
  let typed = false;
  let broken = false;
  for (let k = 0; k < KEYSTROKES; k++) {
    version += 1;
    let change;
    if (k % 10 === 9 || broken) {
      // `output = "ThingN"` -> `output = "XhingN"` and back.
      change = { range: { start: { line: outputLine, character: 10 }, end: { line: outputLine, character: 11 } }, text: broken ? 'T' : 'X' };
      broken = !broken;
    } else {
      const at = { line: mid, character: 15 };
      change = typed ? { range: { start: at, end: { line: mid, character: 16 } }, text: '' } : { range: { start: at, end: at }, text: 'x' };
      typed = !typed;
    }
    const done = published(version);
    const t = performance.now();
    await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    const p = await done;
    times.push(performance.now() - t);
    if (k === WARM_UP - 1) cpu.push(cpuOf(server.child.pid));
    timed.push({ start: performance.timeOrigin + t, ms: performance.now() - t });
    if (broken && !p.diagnostics.some((d) => d.code === 'method.concept_unresolved')) throw new Error('the broken reference was not reported');
  }
  cpu.push(cpuOf(server.child.pid));
  const memory = memoryOf(server.child.pid);
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
  if (GC_LOG) {
    console.log(summarizeGc(GC_LOG, timed, percentile(times, 95)));
    rmSync(path.dirname(GC_LOG), { recursive: true, force: true });
  }
  // The first keystrokes after start-up run while V8 is still compiling the keystroke path (its
  // optimising compiler shares the two cores): the same figures without them tell that cost apart.
  const warm = times.slice(WARM_UP);
  const early = times.slice(0, WARM_UP);
  return {
    first: { mean: early.reduce((a, b) => a + b, 0) / early.length, p95: percentile(early, 95), max: Math.max(...early) },
    // Server CPU per edit (ms): the first edits against the others (V8 compiling shows in both).
    cpu: ['main', 'all'].map((t) => [(cpu[1][t] - cpu[0][t]) / WARM_UP, (cpu[2][t] - cpu[1][t]) / Math.max(1, KEYSTROKES - WARM_UP)]),
    lines: text.split('\n').length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: Math.max(...times),
    warm: warm.length > 0 ? { p50: percentile(warm, 50), p95: percentile(warm, 95), p99: percentile(warm, 99), max: Math.max(...warm) } : undefined,
    memory,
  };
}

/**
 * A workspace of `count` bundles of `pipes` pipes each: one package (bundles sharing their domains
 * ten by ten, as the files of a real package do), or folders of 20 bundles (multi-file libraries).
 */
function workspace(count, pipes, layout) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-ws-'));
  let broken = 0;
  let lines = 0;
  for (let i = 0; i < count; i++) {
    const { text, broken: typo } = workspaceBundle(i, { pipes, domain: `d${i % 100}` });
    if (typo) broken += 1;
    lines += text.split('\n').length;
    const sub = layout === 'package' ? `bench/group${Math.floor(i / 100)}` : `lib${Math.floor(i / 20)}`;
    mkdirSync(path.join(dir, sub), { recursive: true });
    writeFileSync(path.join(dir, sub, `bundle${i}.mthds`), text);
  }
  if (layout === 'package') writeFileSync(path.join(dir, 'bench/METHODS.toml'), '[package]\nname = "bench"\naddress = "github.com/example/bench"\nversion = "1.0.0"\ndescription = "A benchmark package"\n');
  return { dir, broken, lines };
}

async function startup(count, pipes, layout) {
  const { dir, broken, lines } = workspace(count, pipes, layout);
  let ended;
  const end = new Promise((r) => (ended = r));
  const withErrors = new Set();
  const server = await startServer(dir, (p) => {
    if (p.diagnostics.length > 0) withErrors.add(p.uri);
  }, (p) => {
    if (p.value?.kind === 'end') ended(performance.now());
  });
  const t1 = await end;
  const ms = t1 - server.t0;
  const memory = memoryOf(server.child.pid);
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
  if (withErrors.size !== broken) throw new Error(`expected ${broken} files with diagnostics, got ${withErrors.size}`);
  return { ms, files: withErrors.size, lines, memory };
}

const fmt = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
if (!process.env.ONLY_STARTUP) {
  const k = await keystrokes();
  console.log(`keystroke -> publishDiagnostics, ${k.lines}-line bundle, ${KEYSTROKES} edits, debounce 0: p50 ${fmt(k.p50)} ms, p95 ${fmt(k.p95)} ms, p99 ${fmt(k.p99)} ms, max ${fmt(k.max)} ms (server RSS ${fmt(k.memory.rss)} MB)`);
  console.log(`  the first ${WARM_UP} edits: mean ${fmt(k.first.mean)} ms, p95 ${fmt(k.first.p95)} ms, max ${fmt(k.first.max)} ms`);
  console.log(`  server CPU per edit, the first ${WARM_UP} / the others: main thread ${fmt(k.cpu[0][0])} / ${fmt(k.cpu[0][1])} ms, all threads ${fmt(k.cpu[1][0])} / ${fmt(k.cpu[1][1])} ms`);
  if (k.warm) console.log(`  the same after the first ${WARM_UP} edits: p50 ${fmt(k.warm.p50)} ms, p95 ${fmt(k.warm.p95)} ms, p99 ${fmt(k.warm.p99)} ms, max ${fmt(k.warm.max)} ms`);
  console.log(`  ${targetLine(`keystrokes, ${k.lines}-line bundle`, [['keystroke p95', k.p95, 8], ['keystroke p99', k.p99, 16]])}`);
}
if (!process.env.ONLY_KEYSTROKES) {
  // 5 pipes: about the average bundle of the shared corpus (62 lines); 20 pipes: four times that.
  for (const pipes of [5, 20]) {
    for (const layout of ['folders', 'package']) {
      const s = await startup(1000, pipes, layout);
      const what = layout === 'package' ? 'one package' : '50 folders';
      console.log(`start-up, 1,000 bundles of ${pipes} pipes (${s.lines} lines) in ${what}: all diagnostics in ${fmt(s.ms)} ms (${s.files} files with findings); server RSS ${fmt(s.memory.rss)} MB, peak ${fmt(s.memory.peak)} MB`);
      // The start-up targets were set for corpus-sized bundles: four times that is a figure only.
      if (pipes === 5) console.log(`  ${targetLine(`start-up, 1,000 bundles of ${pipes} pipes in ${what}`, [['start-up', s.ms, 3000], ['RSS', s.memory.rss, 250, 'MB']])}`);
    }
  }
}
