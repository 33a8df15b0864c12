// Benchmark of the built-in runner: POST /validate of a typical corpus bundle (the cookbook's
// review_nda method, 8.6 kB) under 100 concurrent connections on loopback for 10 s.
// Run with `npm run bench:runner` (builds first). The runner is the built CLI (`mthds serve
// --port 0`) in its own process; autocannon drives it from this one. Fails when any answer is
// not 2xx or not a valid verdict.

import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const bundleFile = path.resolve(repo, '../shared/corpus/Pipelex__pipelex-cookbook/methods/review_nda/bundle.mthds');
const connections = Number(process.env.CONNECTIONS ?? 100);
const duration = Number(process.env.DURATION ?? 10);

const child = spawn(process.execPath, [path.join(repo, 'server/bin/mthds.js'), 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    if (out.includes('\n')) resolve(out.split('\n')[0]);
  });
  child.on('exit', (code) => reject(new Error(`the runner exited with ${code}`)));
});

const body = JSON.stringify({ mthds_contents: [readFileSync(bundleFile, 'utf8')], mthds_sources: ['bundle.mthds'] });

// One request first: the bundle must give a valid verdict, or the figures mean nothing.
const probe = await fetch(`${url}/validate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
const verdict = await probe.json();
if (probe.status !== 200 || verdict.is_valid !== true) {
  console.error('the benchmark bundle does not validate:', probe.status, JSON.stringify(verdict).slice(0, 500));
  child.kill('SIGTERM');
  process.exit(1);
}

const result = await autocannon({
  url: `${url}/validate`,
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body,
  connections,
  duration,
});
child.kill('SIGTERM');

const non2xx = result.non2xx + result.errors + result.timeouts;
console.log(`runner /validate — ${path.relative(repo, bundleFile)} (${Buffer.byteLength(body)} bytes per request)`);
console.log(`connections ${connections}, duration ${duration} s, node ${process.version}`);
console.log(`requests     ${result.requests.total} (${result.requests.average.toFixed(0)} req/s average, ${result.throughput.average ? (result.throughput.average / 1e6).toFixed(2) : '?'} MB/s out)`);
console.log(`latency      p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
console.log(`non-2xx      ${result.non2xx} (errors ${result.errors}, timeouts ${result.timeouts})`);
process.exitCode = non2xx === 0 ? 0 : 1;
