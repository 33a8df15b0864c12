// The language server on a large workspace (`npm run bench:lsp-workspace`, builds first): 5,000
// corpus-sized bundles (5 pipes, about 60 lines each, as the average bundle of the shared corpus;
// one in twenty with a typo), over real stdio, in two layouts:
// - `packages`: 50 packages (a METHODS.toml each) of 100 bundles, 10 domains per package;
// - `one package`: a single METHODS.toml over all 5,000 bundles, 100 domains of 50 bundles (the
//   worst case for a keystroke: its tree is the whole workspace).
// For each: start-up (from spawning the server until the end of the work-done progress of its
// background check of the workspace, every file with findings published), the server's memory
// (VmRSS, VmHWM), then on one open bundle of the workspace, with the debounce at 0:
// - keystroke latency: didChange to the publishDiagnostics of that version (KEYSTROKES, default
//   300 in `packages`, 100 in `one package`, where each takes about a second; every tenth keystroke breaks a concept reference, which must be reported, and the next
//   one repairs it);
// - completion during typing: a didChange, then at once a completion of a concept reference (the
//   check of that change still pending), then the diagnostics of that version before the next
//   keystroke (COMPLETIONS, same defaults).
// The machine's load average is printed with the figures: they mean little when other work shares
// the cores.
// COUNT (default 5000) and LAYOUTS (packages,one-package) change the workspace; SLOWEST=N prints
// the N slowest keystrokes and completions (their index, whether the keystroke broke the reference,
// and the time since the server started: to find them in a CPU profile); TRACE=1 prints the
// server's traces (each check, each preparation at idle) as they come; MTHDS_SERVER runs another
// build's entry point (lspClient.mjs), to compare two builds under the same load; GC_LOG=1 adds,
// to each of the SLOWEST, the server's collections that paused it meanwhile (bench/gcLog.mjs).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { workspaceBundle } from './generate.mjs';
import { targetLine } from './targets.mjs';
import { memoryOf } from './processMemory.mjs';
import { percentile, startServer, stopServer } from './lspClient.mjs';
import { pausesDuring, summarizeGc } from './gcLog.mjs';

const COUNT = Number(process.env.COUNT ?? 5000);
const DEFAULT_EDITS = { packages: 300, 'one-package': 100 };
const editsOf = (layout, name) => Number(process.env[name] ?? DEFAULT_EDITS[layout] ?? 300);
const LAYOUTS = (process.env.LAYOUTS ?? 'packages,one-package').split(',');
const PIPES = 5;
const GC_LOG = process.env.GC_LOG ? path.join(mkdtempSync(path.join(tmpdir(), 'mthds-bench-gc-')), 'gc.log') : undefined;
if (GC_LOG) {
  process.env.SERVER_NODE_ARGS = `${process.env.SERVER_NODE_ARGS ?? ''} --import ${new URL('./gcLog.mjs', import.meta.url).href}`;
  process.env.MTHDS_BENCH_GC_LOG = GC_LOG;
}

const CAPABILITIES = {
  window: { workDoneProgress: true },
  workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
  textDocument: {
    publishDiagnostics: { versionSupport: true, relatedInformation: true },
    completion: { completionItem: { snippetSupport: true }, completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] } },
  },
};

/** The workspace: `COUNT` bundles, their paths, which are broken, and one to open. */
function workspace(layout) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-ws5k-'));
  let broken = 0;
  let lines = 0;
  let bytes = 0;
  const manifests = new Set();
  let open;
  for (let i = 0; i < COUNT; i++) {
    const pkg = layout === 'packages' ? `pkg${Math.floor(i / 100)}` : 'all';
    const domain = layout === 'packages' ? `${pkg}_d${i % 10}` : `d${i % 100}`;
    const { text, broken: typo } = workspaceBundle(i, { pipes: PIPES, domain });
    if (typo) broken += 1;
    lines += text.split('\n').length;
    bytes += Buffer.byteLength(text);
    const sub = path.join(pkg, `group${Math.floor((i % 100) / 20)}`);
    mkdirSync(path.join(dir, sub), { recursive: true });
    const file = path.join(dir, sub, `bundle${i}.mthds`);
    writeFileSync(file, text);
    if (!manifests.has(pkg)) {
      manifests.add(pkg);
      writeFileSync(path.join(dir, pkg, 'METHODS.toml'), `[package]\nname = "${pkg}"\naddress = "github.com/example/${pkg}"\nversion = "1.0.0"\ndescription = "A benchmark package"\n`);
    }
    // The open bundle: a clean one in the middle of the workspace.
    if (i === Math.floor(COUNT / 2) + 1) open = { file, text };
  }
  return { dir, broken, lines, bytes, packages: manifests.size, open };
}

function positionAt(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

async function bench(layout) {
  const tGen = performance.now();
  const ws = workspace(layout);
  const genMs = performance.now() - tGen;
  try {
    return await measure(layout, ws, genMs);
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
  }
}

async function measure(layout, ws, genMs) {
  const withFindings = new Set();
  let waiting;
  const uri = pathToFileURL(ws.open.file).href;
  const t0 = performance.now();
  const server = await startServer(ws.dir, {
    capabilities: CAPABILITIES,
    initializationOptions: { diagnostics: { debounceMs: 0 } },
    ...(process.env.TRACE ? { trace: 'verbose', onTrace: (m) => console.log(`  [${fmt(performance.now() - t0, 0)} ms] ${m}`) } : {}),
    onPublish: (p) => {
      if (p.diagnostics.length > 0) withFindings.add(p.uri);
      else withFindings.delete(p.uri);
      if (p.uri === uri && waiting && p.version === waiting.version) {
        const w = waiting;
        waiting = undefined;
        w.resolve(p);
      }
    },
  });
  const initializedMs = performance.now() - t0;
  await server.checked;
  const startupMs = performance.now() - t0;
  const afterStartup = memoryOf(server.child.pid);
  if (withFindings.size !== ws.broken) {
    server.child.kill();
    throw new Error(`expected ${ws.broken} files with findings, got ${withFindings.size}`);
  }
  try {
    return await typing(layout, ws, server, uri, (w) => (waiting = w), { genMs, initializedMs, startupMs, afterStartup });
  } catch (error) {
    server.child.kill();
    throw error;
  }
}

async function typing(layout, ws, server, uri, setWaiting, startup) {
  const { connection } = server;
  const published = (version) => new Promise((resolve) => setWaiting({ version, resolve }));
  let version = 1;
  const text = ws.open.text;
  const tOpen = performance.now();
  const first = published(version);
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version, text } });
  await first;
  const openMs = performance.now() - tOpen;

  // Keystrokes: type a letter in a pipe's description and delete it; every tenth keystroke turns
  // `output = "B…Thing0"` into `output = "X…"` (an unresolved concept) and the next one repairs it.
  const descAt = text.indexOf('description = "Generated pipe') + 'description = "'.length;
  const outputAt = text.indexOf('output = "B', descAt) + 'output = "'.length;
  // Edits stay within their lines (the description's, the output's), so these positions hold.
  const descPos = positionAt(text, descAt);
  const outPos = positionAt(text, outputAt);
  let typed = false;
  let broken = false;
  const nextChange = (k) => {
    if (k % 10 === 9 || broken) {
      const at = outPos;
      const change = { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: broken ? 'B' : 'X' };
      broken = !broken;
      return change;
    }
    const at = descPos;
    const change = typed ? { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '' } : { range: { start: at, end: at }, text: 'x' };
    typed = !typed;
    return change;
  };
  const keystrokeTimes = [];
  const keystrokeNotes = [];
  const keystrokeSpans = [];
  const KEYSTROKES = editsOf(layout, 'KEYSTROKES');
  const COMPLETIONS = editsOf(layout, 'COMPLETIONS');
  for (let k = 0; k < KEYSTROKES; k++) {
    version += 1;
    const change = nextChange(k);
    const done = published(version);
    const t = performance.now();
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    const p = await done;
    keystrokeTimes.push(performance.now() - t);
    keystrokeSpans.push({ start: performance.timeOrigin + t, ms: performance.now() - t });
    keystrokeNotes.push(`${change.text === 'X' ? 'breaks' : change.text === 'B' ? 'repairs' : 'types'}, at ${fmt((t - server.spawnedAt) / 1000, 3)} s`);
    if (broken !== p.diagnostics.some((d) => d.code === 'method.concept_unresolved')) throw new Error(`keystroke ${k}: the diagnostics do not follow the edit`);
  }

  // Completion during typing: keystroke, then at once a completion of the concept reference.
  const completionTimes = [];
  const completionNotes = [];
  const completionSpans = [];
  let items = 0;
  for (let k = 0; k < COMPLETIONS; k++) {
    version += 1;
    const at = descPos;
    const change = typed ? { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '' } : { range: { start: at, end: at }, text: 'x' };
    typed = !typed;
    const done = published(version);
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    const t = performance.now();
    const r = await connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: outPos, context: { triggerKind: 2, triggerCharacter: '"' } });
    completionTimes.push(performance.now() - t);
    completionSpans.push({ start: performance.timeOrigin + t, ms: performance.now() - t });
    completionNotes.push(`at ${fmt((t - server.spawnedAt) / 1000, 3)} s`);
    items = r?.items?.length ?? (Array.isArray(r) ? r.length : 0);
    if (items < 10) throw new Error(`completion ${k}: ${items} items`);
    await done;
  }
  const afterTyping = memoryOf(server.child.pid);
  await stopServer(server);
  let gc;
  if (GC_LOG) {
    gc = summarizeGc(GC_LOG, keystrokeSpans, percentile(keystrokeTimes, 95));
    withPauses(keystrokeNotes, keystrokeSpans);
    withPauses(completionNotes, completionSpans);
    rmSync(GC_LOG, { force: true });
  }
  const stats = (xs) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99), max: Math.max(...xs) });
  return { layout, keystrokeCount: KEYSTROKES, completionCount: COMPLETIONS, ws, ...startup, openMs, keystrokes: stats(keystrokeTimes), completion: stats(completionTimes), items, afterTyping, gc, slowest: { keystroke: slowest(keystrokeTimes, keystrokeNotes), completion: slowest(completionTimes, completionNotes) } };
}

/** Appends to each note the collections that paused the server during its sample. */
function withPauses(notes, spans) {
  pausesDuring(GC_LOG, spans).forEach((gc, i) => {
    if (gc) notes[i] += `; gc ${gc}`;
  });
}

const SLOWEST = Number(process.env.SLOWEST ?? 0);
/** The SLOWEST slowest samples: `#index ms (note)`. */
const slowest = (times, notes) => times.map((ms, i) => ({ ms, i })).sort((a, b) => b.ms - a.ms).slice(0, SLOWEST).map(({ ms, i }) => `#${i} ${fmt(ms)} ms (${notes[i]})`);
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
console.log(`language server, large workspace: ${COUNT} bundles of ${PIPES} pipes, debounce 0; node ${process.version}; ${load()}`);
for (const layout of LAYOUTS) {
  const r = await bench(layout);
  const what = layout === 'packages' ? `${r.ws.packages} packages of ${COUNT / r.ws.packages} bundles` : `one package of ${COUNT} bundles`;
  console.log(`\n${what} (${r.ws.lines} lines, ${fmt(r.ws.bytes / 2 ** 20)} MB; generated in ${fmt(r.genMs / 1000, 2)} s)`);
  console.log(`  start-up: initialize answered after ${fmt(r.initializedMs)} ms; workspace checked, ${r.ws.broken} files with findings published, after ${fmt(r.startupMs / 1000, 2)} s`);
  console.log(`  memory after start-up: RSS ${fmt(r.afterStartup.rss)} MB, peak ${fmt(r.afterStartup.peak)} MB; after typing: RSS ${fmt(r.afterTyping.rss)} MB, peak ${fmt(r.afterTyping.peak)} MB`);
  console.log(`  didOpen -> first diagnostics: ${fmt(r.openMs)} ms`);
  console.log(`  keystroke -> publishDiagnostics (${r.keystrokeCount}): p50 ${fmt(r.keystrokes.p50)} ms, p95 ${fmt(r.keystrokes.p95)} ms, p99 ${fmt(r.keystrokes.p99)} ms, max ${fmt(r.keystrokes.max)} ms`);
  console.log(`  completion right after a keystroke (${r.completionCount}, ${r.items} items): p50 ${fmt(r.completion.p50)} ms, p95 ${fmt(r.completion.p95)} ms, p99 ${fmt(r.completion.p99)} ms, max ${fmt(r.completion.max)} ms`);
  // Issue 14's targets, set for one package of 5,000 bundles.
  if (layout === 'one-package' && COUNT === 5000) {
    const line = targetLine('one package of 5,000 bundles', [
      ['keystroke p50', r.keystrokes.p50, 8],
      ['keystroke p99', r.keystrokes.p99, 16],
      ['completion after a keystroke p95', r.completion.p95, 10],
      ['RSS after typing', r.afterTyping.rss, 400, 'MB'],
      ['didOpen', r.openMs, 50],
    ]);
    console.log(`  ${line}`);
  }
  if (r.gc) console.log(`  ${r.gc}`);
  if (SLOWEST > 0) for (const [kind, list] of Object.entries(r.slowest)) console.log(`  slowest ${kind}s: ${list.join('; ')}`);
  console.log(`  ${load()}`);
}
if (GC_LOG) rmSync(path.dirname(GC_LOG), { recursive: true, force: true });
