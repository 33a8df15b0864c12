// Load tests (`npm run load`, builds first): the runner matrix below, then the language server on a
// 5,000-bundle workspace (bench/lsp-workspace.mjs, in its own process; `--no-lsp` or LOAD_LSP=0
// skips it). Exits 1 when either fails.
//
// The runner: the built CLI (`mthds serve --port 0`) in its own process, with the deterministic mock
// provider (no model configured), anonymous access and no rate limit, driven by autocannon from this
// process over loopback. Load generator and runner share the machine's cores.
//
// Default: a matrix of POST /v1/validate and POST /v1/execute at 10, 100 and 500 connections,
// DURATION seconds each (default 15), after a short warm-up of each route. Both routes send the
// cookbook's review_nda method (a 5-step sequence: PipeExtract, PipeLLM with a list output, a batch
// of PipeLLM, PipeLLM, PipeCompose); /execute runs it whole with the mock provider, on a Document
// (a URL with a literal address, see DOCUMENT_URL) and a playbook text. Every answer is checked,
// not only its status: a /validate answer must be the reference verdict (is_valid true, byte for
// byte the answer of the first request), an /execute answer a COMPLETED run whose working memory is
// the reference one (the mock is deterministic; run ids and timestamps differ). Prints route,
// connections, req/s, p50, p99, max, non-2xx, errors/timeouts, wrong bodies and the runner's RSS.
// Exits 1 on any non-2xx, error, timeout or wrong body, or on a fault the runner logs on stderr
// (an internal error, a crash).
//
// Soak (`npm run load -- --soak 600`, or SOAK_SECONDS=600; the soak alone): 100 connections
// (SOAK_CONNECTIONS) alternating /validate and /execute for that many seconds; the runner's memory
// is sampled every 10 s: VmRSS from /proc/<pid>/status, and the V8 heap after a full collection
// (the runner is started with --expose-gc and bench/load-probe.mjs, which answers over the IPC
// channel; the collection costs the runner a pause every 10 s). Stable means: after a warm-up (the
// first 10% of the run, at least 30 s), the largest heap-after-GC sample of the last third of the
// run is at most 10% (plus 2 MB) above the largest of the first third, and the largest RSS sample
// of the last third at most 20% above the largest of the first third. A leak of 100 bytes per
// request at the rates seen here grows the heap by more than that between the thirds. Exits 1 when
// unstable or on any non-2xx, error, timeout or wrong body.
//
// The runner's configuration (written to a temporary file): limits.max_runs_in_flight 4096;
// auth.env false (anonymous even when MTHDS_RUNNER_TOKENS is set); no rate_limit. The bound on
// runs in flight (default 64; past it 503 mthdsls.runtime.unavailable) counts a run from its
// admission, the check of its URL inputs included: when that check waits on DNS (a host name in a
// URL input) under 100 connections and more, the default bound refuses (seen with
// DOCUMENT_URL=https://example.com/nda.pdf RUNNER_DEFAULTS=1 on a slow resolver). Raised, it never
// refuses here. RUNNER_DEFAULTS=1 runs the runner with no config file instead.
// Other knobs: CONNECTIONS (comma-separated, default 10,100,500), ROUTES (validate,execute),
// TIMEOUT (autocannon's per-request timeout, seconds, default 10), WARMUP (seconds, default 3).

import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { memoryOf } from './processMemory.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const CLI = path.join(repo, 'server/bin/mthds.js');
const PROBE = pathToFileURL(path.join(here, 'load-probe.mjs')).href;
const BUNDLE = path.resolve(repo, '../shared/corpus/Pipelex__pipelex-cookbook/methods/review_nda/bundle.mthds');

const { values: flags } = parseArgs({ options: { soak: { type: 'string' }, 'no-lsp': { type: 'boolean' } }, allowPositionals: false });
const SOAK = Number(flags.soak ?? process.env.SOAK_SECONDS ?? 0);
const DURATION = Number(process.env.DURATION ?? 15);
const CONNECTIONS = (process.env.CONNECTIONS ?? '10,100,500').split(',').map(Number);
const ROUTES = (process.env.ROUTES ?? 'validate,execute').split(',');
const TIMEOUT = Number(process.env.TIMEOUT ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 3);
const SOAK_CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 100);
const SAMPLE_SECONDS = 10;
const MAX_RUNS_IN_FLIGHT = 4096;

// The Document input of /execute. Its host is a literal address (TEST-NET-3, RFC 5737: public to
// the runner's address guard, never routed): a host name would make the runner resolve it on every
// request (the check of URL inputs), and the figures would measure the machine's DNS, not the
// runner. The mock provider never fetches it. DOCUMENT_URL=https://example.com/nda.pdf measures
// the runner with that lookup.
const DOCUMENT_URL = process.env.DOCUMENT_URL ?? 'https://203.0.113.7/draft-nda.pdf';

const bundle = readFileSync(BUNDLE, 'utf8');
const BODIES = {
  validate: JSON.stringify({ mthds_contents: [bundle], mthds_sources: ['bundle.mthds'] }),
  execute: JSON.stringify({
    mthds_contents: [bundle],
    mthds_sources: ['bundle.mthds'],
    inputs: {
      nda: { concept: 'Document', content: { url: DOCUMENT_URL } },
      playbook: {
        concept: 'NdaPlaybook',
        content: { text: '1. Governing law and courts: accept the laws of France or England; refuse any other.\n2. Term: accept up to three years; negotiate five; refuse more.\n3. Residuals: refuse any residuals clause.' },
      },
    },
  }),
};

// ---------------------------------------------------------------------------------------------
// The runner process

async function startRunner() {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-load-'));
  // One process by default: the soak samples the memory of the process that serves (LOAD_WORKERS > 1
  // serves from a cluster, whose primary the probe then measures).
  const args = ['--expose-gc', '--import', PROBE, CLI, 'serve', '--port', '0', '--workers', process.env.LOAD_WORKERS ?? '1'];
  if (!process.env.RUNNER_DEFAULTS) {
    const configFile = path.join(dir, 'runner.json');
    writeFileSync(configFile, JSON.stringify({ limits: { max_runs_in_flight: MAX_RUNS_IN_FLIGHT }, auth: { env: false } }, null, 2));
    args.push('--config', configFile);
  }
  const env = { ...process.env };
  delete env.MTHDS_RUNNER_TOKENS;
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env });
  const log = [];
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    let i;
    while ((i = stderr.indexOf('\n')) >= 0) {
      const line = stderr.slice(0, i);
      stderr = stderr.slice(i + 1);
      if (!/^mthds runner listening on|^mthds serve: SIGTERM/.test(line)) log.push(line);
    }
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`the runner exited with ${code}: ${log.join('\n')}`)));
  });
  return {
    child,
    url,
    log,
    get exited() {
      return exited;
    },
    async stop() {
      if (child.connected) child.disconnect();
      if (!exited) {
        child.kill('SIGTERM');
        await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 15_000).unref())]);
        if (!exited) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Prints what the runner logged; true when it logged a fault (an internal error, a crash). */
function reportLog(log) {
  if (log.length === 0) return false;
  console.log(`runner stderr (${log.length} lines):`);
  for (const line of log.slice(0, 20)) console.log(`  ${line}`);
  return log.some((line) => /internal error|error|uncaught|unhandled|fatal/i.test(line));
}

/** Memory of the runner: /proc for RSS, the probe for the heap (after a full GC when `gc`). */
async function sampleMemory(runner, gc) {
  const id = `${Date.now()}-${Math.random()}`;
  const answer = new Promise((resolve) => {
    const onMessage = (m) => {
      if (m?.type === 'memory' && m.id === id) {
        runner.child.off('message', onMessage);
        resolve(m);
      }
    };
    runner.child.on('message', onMessage);
    setTimeout(() => {
      runner.child.off('message', onMessage);
      resolve(undefined);
    }, 5000).unref();
  });
  if (runner.child.connected) runner.child.send({ type: 'memory', id, gc });
  const heap = await answer;
  const proc = memoryOf(runner.child.pid);
  return { ...proc, heapUsed: heap ? heap.heapUsed / 2 ** 20 : NaN, heapTotal: heap ? heap.heapTotal / 2 ** 20 : NaN };
}

// ---------------------------------------------------------------------------------------------
// Checking answers

const jsonOf = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** What must not vary between two answers of a route (the mock is deterministic). */
function invariantOf(route, answer) {
  if (!answer || typeof answer !== 'object') return undefined;
  if (route === 'validate') return answer.is_valid === true ? JSON.stringify(answer) : undefined;
  const wm = answer.pipe_output?.working_memory;
  const ok = answer.state === 'COMPLETED' && typeof answer.pipeline_run_id === 'string' && answer.pipe_output?.pipeline_run_id === answer.pipeline_run_id && wm?.root?.[answer.main_stuff_name] !== undefined;
  return ok ? JSON.stringify({ main: answer.main_stuff_name, wm }) : undefined;
}

const references = {};

async function probe(url, route) {
  const res = await fetch(`${url}/${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: BODIES[route] });
  const text = await res.text();
  const invariant = invariantOf(route, jsonOf(text));
  if (res.status !== 200 || invariant === undefined) throw new Error(`the reference request to /${route} failed: ${res.status} ${text.slice(0, 500)}`);
  references[route] = invariant;
}

function newTally() {
  return { responses: 0, non2xx: 0, wrongBodies: 0, statuses: {}, samples: [] };
}

function checker(route, tally) {
  return (status, body) => {
    tally.responses += 1;
    if (status < 200 || status >= 300) {
      tally.non2xx += 1;
      tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
      if (tally.samples.length < 3) tally.samples.push(`${route} ${status}: ${String(body).slice(0, 300)}`);
      return;
    }
    if (invariantOf(route, jsonOf(body)) !== references[route]) {
      tally.wrongBodies += 1;
      if (tally.samples.length < 3) tally.samples.push(`${route} ${status} wrong body: ${String(body).slice(0, 300)}`);
    }
  };
}

function requestOf(basePath, route, tally) {
  return { method: 'POST', path: `${basePath}/${route}`, headers: { 'Content-Type': 'application/json' }, body: BODIES[route], onResponse: checker(route, tally) };
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ timeout: TIMEOUT, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
    options.onInstance?.(instance);
  });
}

// ---------------------------------------------------------------------------------------------

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const pad = (s, n) => String(s).padStart(n);
/** The machine's load: the figures mean little when other work shares the cores. */
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;

async function matrix() {
  const runner = await startRunner();
  const { origin, pathname: basePath } = new URL(runner.url);
  let failed = false;
  try {
    for (const route of ROUTES) await probe(runner.url, route);
    console.log(`runner load — ${path.relative(repo, BUNDLE)} (validate ${Buffer.byteLength(BODIES.validate)} B, execute ${Buffer.byteLength(BODIES.execute)} B per request)`);
    console.log(`mock provider, anonymous, no rate limit, ${process.env.RUNNER_DEFAULTS ? 'default limits' : `max_runs_in_flight ${MAX_RUNS_IN_FLIGHT}`}; ${DURATION} s per cell, timeout ${TIMEOUT} s, node ${process.version}`);
    console.log(load());
    const before = await sampleMemory(runner, false);
    console.log(`runner memory at start: RSS ${fmt(before.rss)} MB, heap ${fmt(before.heapUsed)} MB`);
    console.log('');
    console.log(`${'route'.padEnd(10)} ${pad('conns', 5)} ${pad('req/s', 8)} ${pad('p50 ms', 8)} ${pad('p99 ms', 8)} ${pad('max ms', 8)} ${pad('requests', 9)} ${pad('non-2xx', 7)} ${pad('err/tmo', 7)} ${pad('bad body', 8)} ${pad('RSS MB', 7)}`);
    for (const route of ROUTES) {
      if (WARMUP > 0) {
        const tally = newTally();
        const warm = await cannon({ url: origin, connections: 10, duration: WARMUP, requests: [requestOf(basePath, route, tally)] });
        if (warm.non2xx + warm.errors + warm.timeouts + tally.wrongBodies > 0) {
          failed = true;
          console.log(`${route} warm-up: ${warm.non2xx} non-2xx, ${warm.errors} errors, ${warm.timeouts} timeouts, ${tally.wrongBodies} wrong bodies ${tally.samples.join(' | ')}`);
        }
      }
      for (const connections of CONNECTIONS) {
        const tally = newTally();
        const r = await cannon({ url: origin, connections, duration: DURATION, requests: [requestOf(basePath, route, tally)] });
        const mem = await sampleMemory(runner, false);
        const bad = r.non2xx + r.errors + r.timeouts + tally.wrongBodies + tally.non2xx;
        if (bad > 0) failed = true;
        console.log(
          `${route.padEnd(10)} ${pad(connections, 5)} ${pad(fmt(r.requests.average, 0), 8)} ${pad(r.latency.p50, 8)} ${pad(r.latency.p99, 8)} ${pad(r.latency.max, 8)} ${pad(r.requests.total, 9)} ${pad(r.non2xx, 7)} ${pad(`${r.errors}/${r.timeouts}`, 7)} ${pad(tally.wrongBodies, 8)} ${pad(fmt(mem.rss, 0), 7)}`,
        );
        if (Object.keys(tally.statuses).length > 0) console.log(`           statuses: ${JSON.stringify(tally.statuses)}`);
        for (const s of tally.samples) console.log(`           ${s}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const after = await sampleMemory(runner, true);
    console.log('');
    console.log(`runner memory at the end: RSS ${fmt(after.rss)} MB (peak ${fmt(after.peak)} MB), heap after a full GC ${fmt(after.heapUsed)} MB`);
    console.log(load());
  } finally {
    if (await stopRunner(runner)) failed = true;
  }
  if (reportLog(runner.log)) failed = true;
  return !failed;
}

async function soak(seconds) {
  const runner = await startRunner();
  const { origin, pathname: basePath } = new URL(runner.url);
  let failed = false;
  const samples = [];
  try {
    await probe(runner.url, 'validate');
    await probe(runner.url, 'execute');
    console.log(`runner soak — ${path.relative(repo, BUNDLE)}: ${SOAK_CONNECTIONS} connections alternating /validate and /execute for ${seconds} s; memory every ${SAMPLE_SECONDS} s (heap after a full GC); node ${process.version}`);
    console.log(load());
    const tallies = { validate: newTally(), execute: newTally() };
    const base = await sampleMemory(runner, true);
    samples.push({ t: 0, ...base, rate: 0 });
    console.log(`${pad('t s', 5)} ${pad('req/s', 7)} ${pad('RSS MB', 8)} ${pad('heap MB', 8)} ${pad('(after GC)', 10)}`);
    console.log(`${pad(0, 5)} ${pad('-', 7)} ${pad(fmt(base.rss), 8)} ${pad(fmt(base.heapUsed), 8)}`);
    const t0 = performance.now();
    let lastCount = 0;
    let lastT = t0;
    let sampling = Promise.resolve();
    const timer = setInterval(() => {
      sampling = sampling.then(async () => {
        const now = performance.now();
        const count = tallies.validate.responses + tallies.execute.responses;
        const rate = (count - lastCount) / ((now - lastT) / 1000);
        lastCount = count;
        lastT = now;
        const m = await sampleMemory(runner, true);
        const t = Math.round((now - t0) / 1000);
        samples.push({ t, ...m, rate });
        console.log(`${pad(t, 5)} ${pad(fmt(rate, 0), 7)} ${pad(fmt(m.rss), 8)} ${pad(fmt(m.heapUsed), 8)}`);
      });
    }, SAMPLE_SECONDS * 1000);
    const r = await cannon({
      url: origin,
      connections: SOAK_CONNECTIONS,
      duration: seconds,
      requests: [requestOf(basePath, 'validate', tallies.validate), requestOf(basePath, 'execute', tallies.execute)],
    });
    clearInterval(timer);
    await sampling;
    const end = await sampleMemory(runner, true);
    samples.push({ t: Math.round((performance.now() - t0) / 1000), ...end, rate: NaN });
    const wrong = tallies.validate.wrongBodies + tallies.execute.wrongBodies;
    console.log('');
    console.log(`requests ${r.requests.total} (${fmt(r.requests.average, 0)} req/s average): validate ${tallies.validate.responses}, execute ${tallies.execute.responses}`);
    console.log(`latency (both routes) p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`);
    console.log(`non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}, wrong bodies ${wrong}`);
    for (const s of [...tallies.validate.samples, ...tallies.execute.samples]) console.log(`  ${s}`);
    if (r.non2xx + r.errors + r.timeouts + wrong > 0) failed = true;

    // Stability: the first 10% (at least 30 s) is warm-up; compare the thirds of the rest.
    const warmup = Math.max(30, seconds * 0.1);
    const steady = samples.filter((s) => s.t >= warmup && s.t <= seconds + SAMPLE_SECONDS);
    const third = Math.max(1, Math.floor(steady.length / 3));
    const first = steady.slice(0, third);
    const last = steady.slice(-third);
    const max = (xs, k) => Math.max(...xs.map((s) => s[k]));
    const heapFirst = max(first, 'heapUsed');
    const heapLast = max(last, 'heapUsed');
    const rssFirst = max(first, 'rss');
    const rssLast = max(last, 'rss');
    const heapOk = heapLast <= heapFirst * 1.1 + 2;
    const rssOk = rssLast <= rssFirst * 1.2;
    // Least-squares slope of the heap after GC over the steady samples, in MB per minute.
    const n = steady.length;
    const mt = steady.reduce((a, s) => a + s.t, 0) / n;
    const mh = steady.reduce((a, s) => a + s.heapUsed, 0) / n;
    const slope = (steady.reduce((a, s) => a + (s.t - mt) * (s.heapUsed - mh), 0) / steady.reduce((a, s) => a + (s.t - mt) ** 2, 0)) * 60;
    const rates = samples.filter((s) => s.t > 0 && Number.isFinite(s.rate));
    const rateThird = Math.max(1, Math.floor(rates.length / 3));
    const avg = (xs) => xs.reduce((a, s) => a + s.rate, 0) / xs.length;
    console.log(`RSS: start ${fmt(samples[0].rss)} MB, end ${fmt(end.rss)} MB, max ${fmt(max(samples, 'rss'))} MB (VmHWM ${fmt(end.peak)} MB)`);
    console.log(`heap after GC: start ${fmt(samples[0].heapUsed)} MB, end ${fmt(end.heapUsed)} MB, max ${fmt(max(samples, 'heapUsed'))} MB; slope over t >= ${warmup} s: ${fmt(slope, 3)} MB/min`);
    console.log(`after a ${warmup} s warm-up, first third max vs last third max: heap ${fmt(heapFirst)} -> ${fmt(heapLast)} MB (${heapOk ? 'ok' : 'GROWING'}, bound +10% + 2 MB), RSS ${fmt(rssFirst)} -> ${fmt(rssLast)} MB (${rssOk ? 'ok' : 'GROWING'}, bound +20%)`);
    console.log(`throughput, first third vs last third of the samples: ${fmt(avg(rates.slice(0, rateThird)), 0)} -> ${fmt(avg(rates.slice(-rateThird)), 0)} req/s`);
    console.log(`memory ${heapOk && rssOk ? 'stable' : 'NOT stable'}`);
    console.log(load());
    if (!heapOk || !rssOk) failed = true;
  } finally {
    if (await stopRunner(runner)) failed = true;
  }
  if (reportLog(runner.log)) failed = true;
  return !failed;
}

/** The language server on a 5,000-bundle workspace (bench/lsp-workspace.mjs), in its own process. */
function lspWorkspace() {
  console.log('');
  const child = spawn(process.execPath, [path.join(here, 'lsp-workspace.mjs')], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code === 0)));
}

let ok;
if (SOAK > 0) ok = await soak(SOAK);
else {
  ok = await matrix();
  if (!flags['no-lsp'] && process.env.LOAD_LSP !== '0') ok = (await lspWorkspace()) && ok;
}
process.exitCode = ok ? 0 : 1;

/** Stops the runner; true when it had already exited on its own during the run (a failure). */
async function stopRunner(runner) {
  const exited = runner.exited;
  if (exited) console.log('the runner exited during the run');
  await runner.stop();
  return exited;
}
