// Every benchmark that prints targets, one after the other (`npm run bench:targets`, builds
// first). The speed targets live in the benchmarks, never in timed tests; a benchmark shows a
// broken target only to whoever runs it, so this runs them all at once, with the defaults and the
// environment a user gets, and sums up: per benchmark met / NOT met / failed to run and how long it
// took, then the load average the figures were made under. Exits 1 when a target is NOT met or a
// benchmark failed. ONLY=name,name runs only those (the names below).

import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// The node flags are those of the benchmark's npm script.
const BENCHMARKS = [
  ['run', ['--expose-gc']],
  ['lsp'],
  ['lsp-features'],
  ['lsp-rename'],
  ['lsp-workspace'],
  ['lsp-xref-startup'],
  ['lsp-churn'],
  ['lsp-wide-fixall'],
  ['runner-validate'],
  ['browser'],
];

const only = process.env.ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const unknown = (only ?? []).filter((name) => !BENCHMARKS.some(([n]) => n === name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map(([n]) => n).join(', ')}`);
  process.exit(2);
}
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;

/** Runs one benchmark, its output echoed; resolves with its exit and the target lines it printed. */
function run(name, nodeArgs = []) {
  // ONLY is this script's knob: the benchmark gets the rest of the environment.
  const { ONLY, ...env } = process.env;
  const child = spawn(process.execPath, [...nodeArgs, path.join(here, `${name}.mjs`)], { stdio: ['ignore', 'pipe', 'inherit'], env });
  child.stdout.setEncoding('utf8');
  const targets = [];
  let rest = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    targets.push(...lines.filter((line) => /^\s*targets \(/.test(line)).map((line) => line.trim()));
  });
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ failure: error.message, targets }));
    child.on('close', (code, signal) => {
      if (/^\s*targets \(/.test(rest)) targets.push(rest.trim());
      resolve({ failure: signal ? `killed by ${signal}` : code !== 0 ? `exit ${code}` : undefined, targets });
    });
  });
}

const results = [];
for (const [name, nodeArgs] of BENCHMARKS.filter(([n]) => !only || only.includes(n))) {
  console.log(`\n=== ${name} (${load()})`);
  const t = performance.now();
  const { failure, targets } = await run(name, nodeArgs);
  const seconds = (performance.now() - t) / 1000;
  const notMet = targets.some((line) => line.includes(' NOT met'));
  // A benchmark that printed no target line measured nothing against them (a crash, or sizes
  // changed through the environment).
  const status = notMet ? `NOT met${failure ? ` (${failure})` : ''}` : failure ? `failed to run (${failure})` : targets.length === 0 ? 'failed to run (no target line)' : 'met';
  results.push({ name, status, seconds, targets, ok: !notMet && !failure && targets.length > 0 });
}

console.log('\n=== targets');
for (const { name, status, seconds, targets } of results) {
  console.log(`${name}: ${status}, ${seconds.toFixed(1)} s`);
  for (const line of targets) console.log(`  ${line}`);
}
console.log(load());
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
