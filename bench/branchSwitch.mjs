// The branch switch that renames declarations (part of `npm run bench:lsp-churn`; SCENARIOS=switch
// alone): one package of SWITCH_COUNT (default 2,000) bundles in 100 domains, each calling a pipe
// of another bundle of its domain and reading domain-qualified concepts of other domains, one in
// four expecting a concept that does not exist yet (bench/generate.mjs `switchBundle`). The other
// branch renames a concept in 1,000 bundles (and fixes a typo, rewrites a description): findings
// appear in bundles not changed and go in others (`concept_unresolved` 500 -> 2,250 and back).
// Four switches: to the branch and back in ONE didChangeWatchedFiles, then again in 1,000
// notifications 1 ms apart. Each prints the time until the diagnostics of every file equal
// `mthds check --format json` of the same tree (code, range and message), the number of updates the server ran, hover and
// completion latencies on an open document meanwhile, and beside it the cold `mthds check` of the
// same tree (wall time of the process), with the load average. SWITCHES=n runs the first n only.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renamedSet, switchBundle, writeSwitchPackage } from './generate.mjs';
import { percentile, processCpuMs, startServer, stopServer } from './lspClient.mjs';
import { targetLine } from './targets.mjs';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/bin/mthds.js');
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const key = (code, range, message) => `${code}@${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character} ${message}`;

/** Runs the four switches on a fresh workspace of `count` bundles; prints one line per switch. */
export async function runBranchSwitch(count = 2000) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-switch-'));
  const files = writeSwitchPackage(dir, count);
  const changed = files.map((_, i) => i).filter(renamedSet);
  const diagnostics = new Map();
  let updates = 0;
  let onCheck = () => undefined;
  const t0 = performance.now();
  const server = await startServer(dir, {
    capabilities: {
      window: { workDoneProgress: true },
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
      textDocument: { publishDiagnostics: { versionSupport: true }, completion: { completionItem: { snippetSupport: true } } },
    },
    initializationOptions: { diagnostics: { debounceMs: 0 } },
    trace: 'verbose',
    onTrace: (message) => {
      // CHURN_DEBUG=1: the server's traces, timed from the start (as lsp-churn.mjs prints them).
      if (process.env.CHURN_DEBUG) console.log(`  [trace ${fmt(performance.now() - t0, 0)}] ${message}`);
      if (!message.startsWith('mthds: checked')) return;
      updates += 1;
      onCheck();
    },
    onPublish: (p) => diagnostics.set(p.uri, p.diagnostics),
  });
  await server.checked;
  const startupMs = performance.now() - t0;
  const { connection } = server;
  // An open document of a bundle the branch does not change, which reads a renamed concept.
  const openIndex = changed.length > 0 ? 1 : 0;
  const openUri = pathToFileURL(files[openIndex]).href;
  const openText = switchBundle(openIndex, count);
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: openUri, languageId: 'mthds', version: 1, text: openText } });
  await sleep(500);
  const at = openText.indexOf('"d2.B2Item"') + 5;
  const before = openText.slice(0, at);
  const position = { line: before.split('\n').length - 1, character: at - (before.lastIndexOf('\n') + 1) };
  console.log(`branch switch with renames: one package of ${count} bundles in 100 domains, one document open; start-up ${fmt(startupMs / 1000, 2)} s; ${load()}`);

  /** The cold `mthds check` of the folder as it is on disk: its findings by file URI, and its wall time. */
  const coldCheck = () => {
    const t = performance.now();
    const out = spawnSync(process.execPath, [CLI, 'check', '--format', 'json', path.join(dir, 'all')], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const ms = performance.now() - t;
    const expected = new Map();
    let unresolved = 0;
    for (const f of JSON.parse(out.stdout || '{}').findings ?? []) {
      const u = pathToFileURL(path.resolve(f.file)).href;
      if (!expected.has(u)) expected.set(u, []);
      expected.get(u).push(key(f.code, f.range, f.message));
      if (f.code === 'method.concept_unresolved') unresolved += 1;
    }
    for (const list of expected.values()) list.sort();
    return { expected, ms, unresolved };
  };
  const equalTo = (expected) => {
    for (const file of files) {
      const u = pathToFileURL(file).href;
      const want = expected.get(u) ?? [];
      const got = diagnostics.get(u) ?? [];
      if (want.length !== got.length) return false;
      if (want.join('\n') !== got.map((d) => key(d.code, d.range, d.message)).sort().join('\n')) return false;
    }
    return true;
  };

  /** Hover and completion on the open document, one at a time, 20 ms apart, until `done`. */
  const requestsDuring = async (done) => {
    const times = [];
    let over = false;
    void done.then(() => (over = true));
    for (let k = 0; !over; k++) {
      const t = performance.now();
      await connection.sendRequest(k % 2 === 0 ? 'textDocument/hover' : 'textDocument/completion', { textDocument: { uri: openUri }, position });
      times.push(performance.now() - t);
      await sleep(20);
    }
    return times;
  };

  const switchTo = async (renamed, oneNotification) => {
    for (const i of changed) writeFileSync(files[i], switchBundle(i, count, renamed));
    const cold = coldCheck();
    const before = updates;
    const t = performance.now();
    const cpuBefore = processCpuMs(server.child.pid);
    const bytesBefore = server.sentBytes();
    let cpu = NaN;
    let sentMb = NaN;
    const done = new Promise((resolve) => {
      onCheck = () => {
        if (!equalTo(cold.expected)) return;
        onCheck = () => undefined;
        cpu = processCpuMs(server.child.pid) - cpuBefore;
        sentMb = (server.sentBytes() - bytesBefore) / 1e6;
        resolve(performance.now() - t);
      };
    });
    const requests = requestsDuring(done);
    if (oneNotification) await connection.sendNotification('workspace/didChangeWatchedFiles', { changes: changed.map((i) => ({ uri: pathToFileURL(files[i]).href, type: 2 })) });
    else {
      for (const i of changed) {
        await connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(files[i]).href, type: 2 }] });
        await sleep(1);
      }
    }
    const sent = performance.now() - t;
    const timeout = sleep(120_000).then(() => NaN);
    const ms = await Promise.race([done, timeout]);
    const times = await requests;
    await sleep(300);
    const how = oneNotification ? 'one notification' : `${changed.length} notifications 1 ms apart`;
    console.log(
      `  ${renamed ? 'to the branch' : 'back'}, ${how}: settled and equal to mthds check ${fmt(ms)} ms after the first notification, ${fmt(Math.max(0, ms - sent))} ms after the last (${updates - before} update${updates - before === 1 ? '' : 's'}, server CPU ${fmt(cpu)} ms, ${fmt(sentMb, 1)} MB sent); ` +
        `cold mthds check ${fmt(cold.ms)} ms (concept_unresolved ${cold.unresolved}); ` +
        `hover + completion p50 ${fmt(percentile(times, 50))} p95 ${fmt(percentile(times, 95))} max ${fmt(Math.max(...times))} ms (${times.length}); ${load()}`,
    );
    return { name: `${renamed ? 'to the branch' : 'back'}, ${how}`, ms, bound: oneNotification ? 1000 : 2000, times };
  };

  // SWITCHES: how many of the four switches to run (a profile of the first alone, say).
  const plan = [[true, true], [false, true], [true, false], [false, false]].slice(0, Number(process.env.SWITCHES ?? 4));
  const switches = [];
  for (const [renamed, one] of plan) switches.push(await switchTo(renamed, one));
  // The targets were set for 2,000 bundles: at other sizes the figures stand alone.
  if (count === 2000) {
    const entries = switches.map(({ name, ms, bound }) => [name, ms, bound]);
    entries.push(['hover + completion max', Math.max(...switches.flatMap((s) => s.times)), 100]);
    console.log(`  ${targetLine(`branch switch, ${count} bundles`, entries)}`);
  }
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await runBranchSwitch(Number(process.env.SWITCH_COUNT ?? 2000));
