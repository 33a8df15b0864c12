// Benchmarks of the language core: parsing and checking generated bundles and the shared corpus.
// Run with `npm run bench`. Figures are medians over repeated runs on this machine.

import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateBundle, generateTree } from './generate.mjs';
import { targetLine } from './targets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const lib = await import(path.join(here, '../server/dist/lib.js'));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn, runs) {
  // Warm up until the JIT has compiled the hot paths (a quarter of the runs, at least 5).
  for (let i = 0; i < Math.max(5, Math.floor(runs / 4)); i++) fn();
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

const rows = [];
let fullCheckMs;
for (const pipes of [100, 1000, 10000]) {
  const text = generateBundle(pipes);
  const runs = pipes >= 10000 ? 10 : 100;
  const mb = Buffer.byteLength(text) / 1e6;
  const smol = time(() => lib.smolParse(text), runs);
  const parse = time(() => lib.parseToml(text), runs);
  const check = time(() => {
    const bundle = lib.buildBundle('/bench/b.mthds', lib.parseToml(text));
    lib.checkTree(lib.createTree('/bench', [bundle]));
  }, runs);
  rows.push({ input: `${pipes} pipes`, lines: text.split('\n').length, kb: Math.round(mb * 1000), smol, parse, ratio: parse / smol, check, mbps: mb / (check / 1000) });
}

{
  const files = generateTree(1000, 50);
  const texts = Object.entries(files);
  const mb = texts.reduce((n, [, t]) => n + Buffer.byteLength(t), 0) / 1e6;
  const smol = time(() => texts.forEach(([, t]) => lib.smolParse(t)), 30);
  const parse = time(() => texts.forEach(([, t]) => lib.parseToml(t)), 30);
  let findings = 0;
  const check = time(() => {
    const bundles = texts.map(([name, t]) => lib.buildBundle(`/tree/${name}`, lib.parseToml(t)));
    findings = lib.checkTree(lib.createTree('/tree', bundles)).length;
  }, 30);
  if (findings !== 0) console.error(`warning: the generated tree has ${findings} findings`);
  // The full check of issue 3: static rules and the dry run of every pipe.
  const dryTimes = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    const bundles = texts.map(([name, text]) => lib.buildBundle(`/tree/${name}`, lib.parseToml(text)));
    const tree = lib.createTree('/tree', bundles);
    lib.checkTree(tree);
    await lib.dryRunTree(tree, new lib.ConceptCatalog(tree));
    dryTimes.push(performance.now() - t);
  }
  console.log(`full check with dry run, 1000 pipes in 50 bundles: median ${median(dryTimes).toFixed(2)} ms`);
  fullCheckMs = median(dryTimes);
  rows.push({ input: '1000 pipes in 50 bundles', lines: texts.reduce((n, [, t]) => n + t.split('\n').length, 0), kb: Math.round(mb * 1000), smol, parse, ratio: parse / smol, check, mbps: mb / (check / 1000) });
}

const corpusDir = path.resolve(here, '../../shared/corpus');
if (existsSync(corpusDir)) {
  const manifest = JSON.parse(readFileSync(path.join(corpusDir, 'MANIFEST.shared.json'), 'utf8'));
  const texts = manifest.filter((e) => e.kind === 'bundle').map((e) => readFileSync(path.resolve(here, '../..', e.path), 'utf8'));
  const mb = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
  const smol = time(() => texts.forEach((t) => { try { lib.smolParse(t); } catch {} }), 20);
  const parse = time(() => texts.forEach((t) => lib.parseToml(t)), 20);
  const check = time(() => texts.forEach((t) => lib.checkTree(lib.createTree('/c', [lib.buildBundle('/c/b.mthds', lib.parseToml(t))]))), 20);
  rows.push({ input: `corpus (${texts.length} bundles)`, lines: texts.reduce((n, t) => n + t.split('\n').length, 0), kb: Math.round(mb * 1000), smol, parse, ratio: parse / smol, check, mbps: mb / (check / 1000) });
}

const fmt = (n) => n.toFixed(2);
console.log('| input | lines | KB | smol-toml parse ms | our parse ms | ratio | parse+check ms | MB/s (parse+check) |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.input} | ${r.lines} | ${r.kb} | ${fmt(r.smol)} | ${fmt(r.parse)} | ${fmt(r.ratio)} | ${fmt(r.check)} | ${fmt(r.mbps)} |`);
// The targets set for these two figures (bench/README.md).
console.log(targetLine('language core', [['parse + check, 1,000-pipe bundle', rows.find((r) => r.input === '1000 pipes').check, 30], ['full check with dry run, 1,000 pipes in 50 bundles', fullCheckMs, 150]]));
