// The dry run in the language server: how long the background dry run of a bundle takes, and what
// a keystroke arriving while it runs costs (keystroke -> publishDiagnostics), against the same
// keystrokes with the dry run turned off. Usage: node bench/lsp-dryrun.mjs (PIPES=1500 KEYSTROKES=40).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile, startServer, stopServer } from './lspClient.mjs';

const PIPES = Number(process.env.PIPES ?? 1500);
const KEYSTROKES = Number(process.env.KEYSTROKES ?? 40);

const pipe = (i) => `[pipe.p${i}]\ntype = "PipeCompose"\ndescription = "d${i}"\ninputs = { doc = "Text" }\noutput = "Text"\ntemplate = "Dear $doc"\n`;
const text = `domain = "demo"\ndescription = "A demo bundle"\n${Array.from({ length: PIPES }, (_, i) => pipe(i)).join('')}`;

async function run(dryRun) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-dry-'));
  const file = path.join(dir, 'main.mthds');
  writeFileSync(file, text);
  const uri = pathToFileURL(file).href;
  let waiting;
  const traces = [];
  let onTrace = () => undefined;
  const server = await startServer(dir, {
    capabilities: { window: { workDoneProgress: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
    initializationOptions: { diagnostics: { debounceMs: 0, dryRun, dryRunDelayMs: 50 } },
    trace: 'verbose',
    onTrace: (m) => {
      traces.push(m);
      onTrace(m);
    },
    onPublish: (p) => {
      if (p.uri === uri && waiting && p.version === waiting.version) {
        const w = waiting;
        waiting = undefined;
        w.resolve();
      }
    },
  });
  await server.checked;
  const published = (version) => new Promise((resolve) => (waiting = { version, resolve }));
  const started = () => new Promise((resolve) => (onTrace = (m) => m.startsWith('mthds: dry run of') && m.endsWith('started') && resolve()));
  let version = 1;
  const opened = published(version);
  await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version, text } });
  await opened;
  // A whole dry run, undisturbed.
  let fullMs = NaN;
  if (dryRun) {
    await new Promise((resolve) => (onTrace = (m) => m.startsWith('mthds: dry-ran') && resolve()));
    fullMs = Number(/in ([\d.]+) ms/.exec(traces.findLast((m) => m.startsWith('mthds: dry-ran')))[1]);
  }
  const times = [];
  const at = text.indexOf('description = "d0') + 'description = "'.length;
  const line = text.slice(0, at).split('\n').length - 1;
  const character = at - text.lastIndexOf('\n', at - 1) - 1;
  let typed = false;
  const keystroke = async () => {
    version += 1;
    const change = typed ? { range: { start: { line, character }, end: { line, character: character + 1 } }, text: '' } : { range: { start: { line, character }, end: { line, character } }, text: 'x' };
    typed = !typed;
    const done = published(version);
    const t = performance.now();
    await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
    await done;
    return performance.now() - t;
  };
  let next = started();
  await keystroke();
  for (let k = 0; k < KEYSTROKES; k++) {
    // With the dry run on, each keystroke lands while one runs (it started 50 ms after the last check).
    if (dryRun) await next;
    else await new Promise((r) => setTimeout(r, 60));
    next = started();
    times.push(await keystroke());
  }
  const cancelled = traces.filter((m) => m.endsWith('cancelled')).length;
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
  return { fullMs, cancelled, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times) };
}

const fmt = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
console.log(`language server dry run: one bundle of ${PIPES} pipes, ${KEYSTROKES} keystrokes; node ${process.version}; ${load()}`);
const off = await run(false);
console.log(`  dry run off: keystroke -> publishDiagnostics p50 ${fmt(off.p50)} ms, p95 ${fmt(off.p95)} ms, max ${fmt(off.max)} ms`);
const on = await run(true);
console.log(`  dry run of the bundle, undisturbed: ${fmt(on.fullMs)} ms`);
console.log(`  keystroke during a dry run -> publishDiagnostics p50 ${fmt(on.p50)} ms, p95 ${fmt(on.p95)} ms, max ${fmt(on.max)} ms (${on.cancelled} runs cancelled)`);
console.log(`  ${load()}`);
