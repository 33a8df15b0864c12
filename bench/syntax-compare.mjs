// Parse time of the syntax layer at a base commit and in the work tree, against smol-toml, on the
// generated 1,000-pipe bundle and the shared corpus. The three take turns in one process, so that
// they share the machine's load and the GC's state; figures are medians of wall and CPU time.
// Then the bytes each allocates per pass over the input (V8's sampling heap profiler, counting the
// objects the GC has already freed too) and the bytes its result keeps alive: figures the load
// does not blur.
//   node bench/syntax-compare.mjs [base-ref] [runs]      (ONLY=1000, ONLY=corpus or ONLY=edit: one input)
// The syntax sources of both versions are bundled with esbuild into a temporary directory first.
// Every parse starts fresh: the parser takes over the statements of the previous parse where an
// edited text did not change (a keystroke), which would flatter passes over one same text.

import { build } from 'esbuild';
import { Session } from 'node:inspector/promises';
import v8 from 'node:v8';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateBundle } from './generate.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const base = process.argv[2] ?? 'HEAD';
const runs = Number(process.argv[3] ?? 200);
const dir = mkdtempSync(path.join(tmpdir(), 'syntax-compare-'));
execFileSync('sh', ['-c', `git -C "${root}" archive "${base}" server/src/syntax server/src/util | tar -x -C "${dir}"`]);

async function load(contents, resolveDir, name) {
  const outfile = path.join(dir, name);
  await build({
    stdin: { contents, resolveDir, loader: 'ts' },
    nodePaths: [path.join(root, 'node_modules'), path.join(root, 'server/node_modules')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}
const current = await load("export * from './server/src/syntax/index.ts'; export { parse as smolParse } from 'smol-toml';", root, 'current.mjs');
const old = await load("export * from './server/src/syntax/index.ts';", dir, 'base.mjs');
rmSync(dir, { recursive: true, force: true });

const inputs = { 1000: ['1000-pipe bundle', [generateBundle(1000)]] };
const corpusDir = path.resolve(root, '../shared/corpus');
if (existsSync(corpusDir)) {
  const manifest = JSON.parse(readFileSync(path.join(corpusDir, 'MANIFEST.shared.json'), 'utf8'));
  const texts = manifest.filter((e) => e.kind === 'bundle').map((e) => readFileSync(path.resolve(root, '..', e.path), 'utf8'));
  inputs.corpus = [`corpus (${texts.length} bundles)`, texts];
}

/** A parse with nothing to take over from the previous one. */
function fresh(m, text) {
  m.parseTomlSyntax('');
  return m.parseTomlSyntax(text);
}

const fns = {
  'smol-toml': (texts) => {
    for (const t of texts) {
      try {
        current.smolParse(t, { integersAsBigInt: 'asNeeded' });
      } catch {}
    }
  },
  [base]: (texts) => {
    for (const t of texts) fresh(old, t);
  },
  'work tree': (texts) => {
    for (const t of texts) fresh(current, t);
  },
};
const names = Object.keys(fns);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
// A fixed seed (mulberry32), so that runs are comparable.
let seed = 0x2545f491;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

for (const [key, [label, texts]] of Object.entries(inputs)) {
  if (process.env.ONLY && process.env.ONLY !== key) continue;
  for (let i = 0; i < 30; i++) for (const k of names) fns[k](texts);
  const wall = names.map(() => []);
  const cpu = names.map(() => []);
  for (let i = 0; i < runs; i++) {
    // A new order every round: the one that runs after another pays for the garbage it left (a
    // fixed rotation would always put the same one after the same other).
    const order = names.map((_, k) => k);
    for (let j = order.length - 1; j > 0; j--) {
      const r = Math.floor(random() * (j + 1));
      [order[j], order[r]] = [order[r], order[j]];
    }
    for (const k of order) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      fns[names[k]](texts);
      wall[k].push(Number(process.hrtime.bigint() - t0) / 1e6);
      const c = process.cpuUsage(c0);
      cpu[k].push((c.user + c.system) / 1000);
    }
  }
  // The mean counts the GC pauses that the median may leave out (a scavenge every few passes).
  for (const [what, f] of [['median', median], ['mean', mean]]) {
    const w = wall.map(f);
    const c = cpu.map(f);
    console.log(`${label}, ${what} of ${runs} runs (wall / CPU), ratio to smol-toml:`);
    names.forEach((k, i) => console.log(`  ${k.padEnd(10)} ${w[i].toFixed(2)} ms / ${c[i].toFixed(2)} ms   ${(w[i] / w[0]).toFixed(2)}x / ${(c[i] / c[0]).toFixed(2)}x`));
  }
}

// Allocation: sampled every 256 bytes, with the samples of collected objects kept.
v8.setFlagsFromString('--expose-gc');
const gc = (await import('node:vm')).runInNewContext('gc');
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
async function allocated(fn, texts, passes) {
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  for (let i = 0; i < passes; i++) fn(texts);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  let total = 0;
  const walk = (node) => {
    total += node.selfSize;
    node.children.forEach(walk);
  };
  walk(profile.head);
  return total / passes;
}
function retained(fn, texts, passes) {
  const keep = [];
  gc();
  gc();
  const h0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < passes; i++) keep.push(fn(texts));
  gc();
  gc();
  return (process.memoryUsage().heapUsed - h0) / passes;
}
const results = {
  'smol-toml': (texts) => texts.map((t) => { try { return current.smolParse(t, { integersAsBigInt: 'asNeeded' }); } catch { return null; } }),
  [base]: (texts) => texts.map((t) => fresh(old, t)),
  'work tree': (texts) => texts.map((t) => fresh(current, t)),
};
for (const [key, [label, texts]] of Object.entries(inputs)) {
  if (process.env.ONLY && process.env.ONLY !== key) continue;
  console.log(`${label}, KB per pass: allocated / kept alive by the result`);
  for (const k of names) {
    const a = await allocated(results[k], texts, 20);
    const r = retained(results[k], texts, 20);
    console.log(`  ${k.padEnd(10)} ${(a / 1024).toFixed(0)} KB / ${(r / 1024).toFixed(0)} KB`);
  }
}

// A keystroke: parses alternating between a 2,000-line bundle and the same with one character
// typed in the middle, as an editor's language server does (a parse may take over the statements
// of the previous one before the edit). Allocation per parse (sampled as above) and CPU time.
if (!process.env.ONLY || process.env.ONLY === 'edit') {
  let pipes = 150;
  let text = generateBundle(pipes, { domain: 'bench' });
  while (text.split('\n').length < 2000) text = generateBundle(++pipes, { domain: 'bench' });
  const at = text.indexOf('description = "Generated pipe', text.length / 2) + 15;
  const edited = text.slice(0, at) + 'x' + text.slice(at);
  console.log(`keystroke in a ${text.split('\n').length}-line bundle (one character typed mid-file), per parse: KB allocated / CPU ms`);
  for (const [k, m] of [[base, old], ['work tree', current]]) {
    let n = 0;
    const keystroke = () => m.parseTomlSyntax(n++ % 2 ? edited : text);
    for (let i = 0; i < 50; i++) keystroke();
    const a = await allocated(keystroke, null, 200);
    const c0 = process.cpuUsage();
    for (let i = 0; i < runs * 4; i++) keystroke();
    const c = process.cpuUsage(c0);
    console.log(`  ${k.padEnd(10)} ${(a / 1024).toFixed(0)} KB / ${((c.user + c.system) / 1000 / (runs * 4)).toFixed(2)} ms`);
  }
}
