// Parse-time benchmark of the syntax layer against smol-toml, on a generated 1,000-pipe bundle.
//   node bench/syntax-parse.mjs [pipes] [runs]
// The TypeScript sources are bundled with esbuild into a temporary file first.

import { generateBundle } from './generate.mjs';
import { importSources } from './importSources.mjs';

const { parseToml, parseTomlSyntax, smolParse } = await importSources("export * from './server/src/syntax/index.ts'; export { parse as smolParse } from 'smol-toml';");

/** Median and min times, the functions taking turns so that they share GC and CPU conditions. */
function timeAll(fns, text, runs) {
  const times = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < fns.length; k++) {
      const j = (i + k) % fns.length;
      const t0 = process.hrtime.bigint();
      fns[j](text);
      times[j].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return times.map((t) => {
    t.sort((a, b) => a - b);
    return { median: t[Math.floor(t.length / 2)], min: t[0] };
  });
}

const pipes = Number(process.argv[2] ?? 1000);
const text = generateBundle(pipes);
const lines = text.split('\n').length;
const doc = parseToml(text);
if (doc.errors.length) throw new Error('generated bundle has errors: ' + doc.errors[0].message);

const smol = (t) => smolParse(t, { integersAsBigInt: 'asNeeded' });
for (let i = 0; i < 30; i++) {
  smol(text);
  parseTomlSyntax(text);
  parseToml(text);
}
const runs = Number(process.argv[3] ?? 150);
const [a, b, c] = timeAll([smol, parseTomlSyntax, parseToml], text, runs);
console.log(`${pipes} pipes, ${lines} lines, ${(text.length / 1024).toFixed(0)} KiB (median / min of ${runs} runs)`);
console.log(`smol-toml parse:               ${a.median.toFixed(2)} ms / ${a.min.toFixed(2)} ms`);
console.log(`own parser (parseTomlSyntax):  ${b.median.toFixed(2)} ms / ${b.min.toFixed(2)} ms`);
console.log(`parseToml (own + smol-toml):   ${c.median.toFixed(2)} ms / ${c.min.toFixed(2)} ms`);
console.log(`parseToml / smol-toml:         ${(c.median / a.median).toFixed(2)}x (medians), ${(c.min / a.min).toFixed(2)}x (minimums)`);
