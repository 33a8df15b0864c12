// Formatting a document of many lines (the line diff behind the edits) and choosing the safe fixes
// of many findings (`mthds check --fix`, the language server's fix-all): time and memory.
//   node --expose-gc bench/fixes-format.mjs
// The TypeScript sources are bundled with esbuild into a temporary file first.

import { importSources } from './importSources.mjs';
import { memoryOf } from './processMemory.mjs';

const { formatEdits, chooseSafeFixes, fixAllEdits } = await importSources(
  "export { formatEdits } from './server/src/format/index.ts'; export { chooseSafeFixes } from './server/src/check/applyFixes.ts'; export { fixAllEdits } from './server/src/lsp/codeActions.ts';",
);

function timed(label, fn) {
  globalThis.gc?.();
  const t0 = performance.now();
  const result = fn();
  const ms = performance.now() - t0;
  const { rss, peak } = memoryOf(process.pid);
  console.log(`${label}: ${ms.toFixed(0)} ms (process rss ${rss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB)`);
  return result;
}

const blank = `domain = "demo"\n${'\n'.repeat(100_000)}description = "x"\n`;
timed('format 100,000 blank lines', () => formatEdits(blank));
const keys = `domain = "demo"\n${Array.from({ length: 100_000 }, (_, i) => `k${i}=${i}`).join('\n')}\n`;
timed('format 100,000 changed lines', () => formatEdits(keys));
const blank5 = `domain = "demo"\n${'\n'.repeat(500_000)}description = "x"\n`;
timed('format 500,000 blank lines', () => formatEdits(blank5));

/** n findings with one safe fix each over a file; one in four overlaps its neighbour. */
function findingsOf(n) {
  return Array.from({ length: n }, (_, i) => {
    const start = i * 10 + (i % 4 === 3 ? -3 : 0);
    const edit = { file: 'a.mthds', range: { start, end: start + 5 }, newText: 'x' };
    return { code: 'method.input_unused', params: {}, file: 'a.mthds', range: edit.range, message: '', severity: 'warning', fix: { title: 'fix', safe: true, edits: [edit] } };
  });
}
for (const n of [16_000, 32_000, 50_000]) {
  const findings = findingsOf(n);
  timed(`choose safe fixes among ${n.toLocaleString('en')} (check --fix)`, () => chooseSafeFixes(findings));
  timed(`fix-all edits of ${n.toLocaleString('en')} fixes (language server)`, () => fixAllEdits(findings, undefined));
}
