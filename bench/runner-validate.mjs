// Benchmark of the built-in runner (`npm run bench:runner`, builds first), against the targets of
// the runner's throughput:
//   1. POST /validate of distinct 30-pipe bundles (bench/generate.mjs, 7.7 kB), 100 connections:
//      >= 1,500 req/s, p99 <= 150 ms, zero non-2xx. Each request's bundle differs from every other
//      in its names and texts, as an editor's successive versions and CI's bundles do: its domain,
//      concept and pipe codes, descriptions, and one prompt (the text being edited), so that no
//      verdict comes from the cache and no per-name work is shared;
//   2. POST /validate of one 30-pipe bundle repeated (answered from the verdict cache): >= 8,000 req/s;
//   3. POST /execute of examples/news with the mock provider: >= 1,000 req/s.
// The runner is the built CLI (`mthds serve --port 0 --workers N`, WORKERS, default: the cores) in
// its own processes; autocannon drives it from this one, on the same machine. Every scenario
// first checks one answer (a valid verdict, a COMPLETED run), then fails on any non-2xx.
// Knobs: CONNECTIONS (100), DURATION (seconds per scenario, 10), WARMUP (seconds of the same load
// before each scenario, printed but not counted, 3; 0 for none), WORKERS, SCENARIOS
// (distinct,repeated,execute; `inprocess` adds the CPU time of one distinct verdict in this process,
// validateContents with the dry run of the built library, VERDICTS of them: 3,000), SERVER_NODE_ARGS
// (flags for the runner's node, its workers included: `--cpu-prof --cpu-prof-dir=DIR` to profile
// them), RATE_LIMIT (a rate limit of that many requests per minute, which all of the benchmark's
// requests count against: what counting them across the workers costs), EXTRA_CONFIG (JSON merged
// into the runner's configuration, e.g. '{"validate_cache":{"max_entries":0}}' or '{"warm_up":1000}'), TIMELINE
// (1: the answers and CPU time per half second of each scenario). Prints the load average
// before and after each scenario (the rates mean little on a busy machine), and the CPU time per
// request of the runner's processes (user and system; the workers' main threads, where JavaScript
// runs, and their other threads, V8's helpers: parallel scavenges, concurrent marking and
// compiling) and of this client.

import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateBundle } from './generate.mjs';
import { targetLine, targetsMet } from './targets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const connections = Number(process.env.CONNECTIONS ?? 100);
const duration = Number(process.env.DURATION ?? 10);
const warmup = Number(process.env.WARMUP ?? 3);
const workers = Number(process.env.WORKERS ?? availableParallelism());
const scenarios = (process.env.SCENARIOS ?? 'distinct,repeated,execute').split(',');

const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-runner-'));
const config = path.join(dir, 'runner.json');
// No rate limit (unless RATE_LIMIT), anonymous access, and room for every connection's run at once.
const rateLimit = process.env.RATE_LIMIT ? { rate_limit: { limit: Number(process.env.RATE_LIMIT), window_seconds: 60 } } : {};
writeFileSync(config, JSON.stringify({ auth: { env: false }, limits: { max_runs_in_flight: 4096 }, ...rateLimit, ...JSON.parse(process.env.EXTRA_CONFIG ?? '{}') }));
const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const child = spawn(process.execPath, [...nodeArgs, path.join(repo, 'server/bin/mthds.js'), 'serve', '--port', '0', '--workers', String(workers), '--config', config], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  // The first line that is a URL (flags such as --trace-gc print to the runner's stdout too); the
  // rest of its output goes to this process's stderr.
  let out = '';
  const onData = (d) => {
    out += d;
    const url = out.split('\n').find((line) => /^https?:\/\//.test(line));
    if (url === undefined) {
      out = out.slice(out.lastIndexOf('\n') + 1);
      return;
    }
    child.stdout.off('data', onData);
    child.stdout.pipe(process.stderr);
    resolve(url);
  };
  child.stdout.on('data', onData);
  child.on('exit', (code) => reject(new Error(`the runner exited with ${code}`)));
});

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/**
 * CPU seconds used so far by the runner's processes (the primary and its workers), from /proc
 * (Linux; undefined elsewhere): per request, a figure the machine's other load changes far less
 * than the request rate. Clock ticks of 10 ms (USER_HZ, 100 on Linux). Split into user and system
 * time (the kernel's share: the loopback TCP of every request is charged to the processes that
 * send and receive it) and the primary's part (it serves no HTTP).
 */
function runnerCpuSeconds() {
  try {
    const stat = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = (text) => text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = { user: 0, system: 0, primary: 0, main: 0 };
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let f;
      try {
        f = fields(stat(entry));
      } catch {
        continue;
      }
      // After the command: state, ppid, ... utime (14th field of the line) and stime (15th).
      const primary = Number(entry) === child.pid;
      if (!primary && Number(f[1]) !== child.pid) continue;
      ticks.user += Number(f[11]);
      ticks.system += Number(f[12]);
      if (primary) {
        ticks.primary += Number(f[11]) + Number(f[12]);
        continue;
      }
      // A worker's threads: its JavaScript (the main thread) and the rest (V8's helpers: parallel
      // scavenges, concurrent marking and compiling; libuv's pool).
      const main = fields(stat(`${entry}/task/${entry}`));
      ticks.main += Number(main[11]) + Number(main[12]);
    }
    const s = (t) => t / 100;
    return { total: s(ticks.user + ticks.system), user: s(ticks.user), system: s(ticks.system), primary: s(ticks.primary), main: s(ticks.main), helpers: s(ticks.user + ticks.system - ticks.primary - ticks.main) };
  } catch {
    return undefined;
  }
}
/**
 * TIMELINE=1: per half second of a scenario, the answers received, their p99, and the CPU time of
 * the runner's workers (main threads / other threads: V8 compiling and collecting) and of this
 * client. A cold start (WARMUP=0) shows how long the workers take to reach their steady rate.
 */
function startTimeline(options) {
  const t0 = performance.now();
  const buckets = [];
  const cpu = [];
  options.setupClient = (client) =>
    client.on('response', (_status, _bytes, ms) => {
      (buckets[Math.floor((performance.now() - t0) / 500)] ??= []).push(ms);
    });
  let runner = runnerCpuSeconds();
  let own = process.cpuUsage();
  const timer = setInterval(() => {
    const r = runnerCpuSeconds();
    const c = process.cpuUsage();
    if (r && runner) cpu.push(`${Math.round((r.main - runner.main) * 1000)}/${Math.round((r.helpers - runner.helpers) * 1000)}/${Math.round((c.user + c.system - own.user - own.system) / 1000)}`);
    runner = r;
    own = c;
  }, 500);
  return {
    print() {
      clearInterval(timer);
      const rows = buckets.map((b, i) => {
        b.sort((x, y) => x - y);
        return `${(i / 2).toFixed(1)} s: ${b.length} answers, p99 ${Math.round(b[Math.min(b.length - 1, Math.floor(b.length * 0.99))])} ms, CPU ms ${cpu[i] ?? '-'}`;
      });
      console.log(`\n  per half second (CPU ms: the workers' main threads / their other threads / this client):\n    ${rows.join('\n    ')}`);
    },
  };
}

let counter = 0;
// The distinct bodies: one generated bundle with a mark where a request's number goes, serialized
// once, so that making a body costs the client (which shares the machine with the runner) a join.
const MARK = '\u00a7';
const markedBundle = generateBundle(30, { domain: `bench_${MARK}`, prefix: `p${MARK}_step` })
  .replaceAll('Thing', `T${MARK}Thing`)
  .replace('A generated bundle', `Generated bundle ${MARK}`)
  .replaceAll('Generated pipe ', `Generated pipe ${MARK}.`)
  .replace('describe thing 0:', `describe thing 0 (revision ${MARK}):`);
const bodyParts = JSON.stringify({ mthds_contents: [markedBundle] }).split(MARK);
/** A 30-pipe bundle no earlier request sent. */
const distinctBody = () => bodyParts.join(String(counter++));
const repeatedBody = JSON.stringify({ mthds_contents: [generateBundle(30, { domain: 'bench' })] });
const executeBody = JSON.stringify({
  mthds_contents: [readFileSync(path.join(repo, 'examples/news/news.mthds'), 'utf8')],
  inputs: { article: { concept: 'news.Article', content: { text: 'The city council approved the new park on Monday after a long debate.' } } },
});

async function probe(route, body, ok) {
  const reply = await fetch(`${url}/${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const json = await reply.json();
  if (reply.status !== 200 || !ok(json)) throw new Error(`/${route} does not answer as expected: ${reply.status} ${JSON.stringify(json).slice(0, 400)}`);
}

const TARGETS = {
  distinct: { title: '/validate, distinct 30-pipe bundles', route: 'validate', rate: 1500, p99: 150 },
  repeated: { title: '/validate, one 30-pipe bundle repeated', route: 'validate', rate: 8000 },
  execute: { title: '/execute, examples/news on the mock provider', route: 'execute', rate: 1000 },
};

/** CPU milliseconds per distinct verdict in this process (no HTTP): the figure to compare changes by. */
async function inProcessVerdicts(count) {
  const lib = await import(path.join(repo, 'server/dist/lib.js'));
  const texts = Array.from({ length: count + 300 }, () => JSON.parse(distinctBody()).mthds_contents);
  for (const contents of texts.slice(0, 300)) await lib.validateContents({ kind: 'contents', contents }, { dryRun: lib.dryRun });
  const before = process.cpuUsage();
  for (const contents of texts.slice(300)) await lib.validateContents({ kind: 'contents', contents }, { dryRun: lib.dryRun });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

let failed = false;
console.log(`runner benchmark: ${workers} worker process(es), ${connections} connections, ${duration} s per scenario, node ${process.version}, ${availableParallelism()} cores`);
for (const name of scenarios) {
  if (name === 'inprocess') {
    const count = Number(process.env.VERDICTS ?? 3000);
    const before = load();
    const ms = await inProcessVerdicts(count);
    console.log(`\nin this process, distinct 30-pipe bundles (validateContents with the dry run)`);
    console.log(`  CPU        ${ms.toFixed(3)} ms per verdict (${count} verdicts after 300 to warm up)`);
    console.log(`  load avg   before ${before}, after ${load()}`);
    continue;
  }
  const target = TARGETS[name];
  if (!target) throw new Error(`unknown scenario ${name}`);
  const options = { url: `${url}/${target.route}`, method: 'POST', headers: { 'Content-Type': 'application/json' }, connections, duration };
  if (name === 'distinct') {
    await probe('validate', distinctBody(), (v) => v.is_valid === true);
    options.requests = [{ setupRequest: (req) => ({ ...req, body: distinctBody() }) }];
  } else if (name === 'repeated') {
    await probe('validate', repeatedBody, (v) => v.is_valid === true);
    options.body = repeatedBody;
  } else {
    await probe('execute', executeBody, (r) => r.state === 'COMPLETED' || r.status === 'COMPLETED' || r.pipe_output !== undefined);
    options.body = executeBody;
  }
  if (warmup > 0) {
    // The workers start cold: their first second runs while V8 compiles the verdict's code on the
    // same two cores, which is not the runner's steady rate. Shown, not counted.
    const w = await autocannon({ ...options, duration: warmup });
    console.log(`\n(warm-up, not counted: ${w.requests.total} requests in ${warmup} s, p99 ${w.latency.p99} ms, max ${w.latency.max} ms)`);
  }
  const before = load();
  const clientCpu = process.cpuUsage();
  const runnerBefore = runnerCpuSeconds();
  const timeline = process.env.TIMELINE ? startTimeline(options) : undefined;
  const result = await autocannon(options);
  timeline?.print();
  const client = process.cpuUsage(clientCpu);
  const runnerAfter = runnerCpuSeconds();
  const bad = result.non2xx + result.errors + result.timeouts;
  const rate = result.requests.average;
  const entries = [['rate', rate, target.rate, 'req/s', '≥']];
  if (target.p99 !== undefined) entries.push(['p99', result.latency.p99, target.p99]);
  entries.push(['non-2xx, errors and timeouts', bad, 0, '']);
  if (!targetsMet(entries)) failed = true;
  console.log(`\n${target.title}`);
  console.log(`  requests   ${result.requests.total} (${rate.toFixed(0)} req/s average; target >= ${target.rate})`);
  console.log(`  latency    p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms${target.p99 ? ` (target <= ${target.p99})` : ''}, max ${result.latency.max} ms`);
  console.log(`  non-2xx    ${result.non2xx} (errors ${result.errors}, timeouts ${result.timeouts})`);
  console.log(`  load avg   before ${before}, after ${load()}`);
  if (runnerBefore !== undefined && runnerAfter !== undefined) {
    const per = (k) => ((1000 * (runnerAfter[k] - runnerBefore[k])) / Math.max(1, result.requests.total)).toFixed(3);
    console.log(`  runner CPU ${per('total')} ms per request (its processes together, from /proc: user ${per('user')}, system ${per('system')}; the workers' main threads ${per('main')}, their other threads ${per('helpers')}, the primary ${per('primary')})`);
  }
  console.log(`  client CPU ${((client.user + client.system) / 1000 / Math.max(1, result.requests.total)).toFixed(3)} ms per request (the benchmark's own process, on the runner's cores)`);
  console.log(`  ${targetLine(target.title, entries)}`);
}
child.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
