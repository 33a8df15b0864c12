// Parse-time benchmark of the syntax layer against smol-toml, on a generated 1,000-pipe bundle.
//   node bench/syntax-parse.mjs [pipes]
// The TypeScript sources are bundled with esbuild into a temporary file first.

import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'syntax-bench-'));
const outfile = path.join(dir, 'syntax.mjs');
await build({
  stdin: {
    contents: "export * from './server/src/syntax/index.ts'; export { parse as smolParse } from 'smol-toml';",
    resolveDir: path.join(here, '..'),
    loader: 'ts',
  },
  nodePaths: [path.join(here, '../node_modules'), path.join(here, '../server/node_modules')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile,
  logLevel: 'warning',
});
const { parseToml, parseTomlSyntax, smolParse } = await import(pathToFileURL(outfile).href);
rmSync(dir, { recursive: true, force: true });

export function generateBundle(pipes) {
  const out = ['domain = "bench"', 'description = "A generated bundle"', 'main_pipe = "seq_0"', ''];
  const concepts = Math.max(1, Math.floor(pipes / 10));
  for (let c = 0; c < concepts; c++) {
    out.push(`[concept.Concept${c}]`, `description = "Concept number ${c}, with a longer description"`, 'refines = "Text"', '');
    out.push(`[concept.Concept${c}.structure]`);
    out.push('title = { type = "text", description = "The title", required = true }');
    out.push('score = { type = "number", description = "A score", required = false }');
    out.push('tags = { type = "list", item_type = "text", description = "Tags" }', '');
  }
  for (let p = 0; p < pipes; p++) {
    const concept = `Concept${p % concepts}`;
    if (p % 3 === 2) {
      out.push(`[pipe.seq_${p}]`, 'type = "PipeSequence"', `description = "Sequence ${p}"`, `inputs = { doc = "Text", extra = "${concept}" }`, `output = "${concept}"`);
      out.push('steps = [', `  { pipe = "llm_${p - 1}", result = "first" },`, `  { pipe = "llm_${p - 2}", result = "second", batch_over = "items", batch_as = "item" },`, ']', '');
    } else {
      out.push(`[pipe.llm_${p}]`, 'type = "PipeLLM"', `description = "Summarize the document (${p})"`, `inputs = { doc = "Text", extra = "${concept}" }`, `output = "${concept}"`);
      out.push('model = { model = "gpt-4o", temperature = 0.7, max_tokens = 1_000 }', 'prompt = """', 'Summarize $doc please, in the style of @extra.', 'Keep it short: \\"no more than\\" 3 sentences.\\n', '"""', '');
    }
  }
  return out.join('\n');
}

function time(fn, text, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    fn(text);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)], min: times[0] };
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
const runs = 60;
const a = time(smol, text, runs);
const b = time(parseTomlSyntax, text, runs);
const c = time(parseToml, text, runs);
console.log(`${pipes} pipes, ${lines} lines, ${(text.length / 1024).toFixed(0)} KiB (median / min of ${runs} runs)`);
console.log(`smol-toml parse:               ${a.median.toFixed(2)} ms / ${a.min.toFixed(2)} ms`);
console.log(`own parser (parseTomlSyntax):  ${b.median.toFixed(2)} ms / ${b.min.toFixed(2)} ms`);
console.log(`parseToml (own + smol-toml):   ${c.median.toFixed(2)} ms / ${c.min.toFixed(2)} ms   = ${(c.median / a.median).toFixed(2)}x smol-toml`);
