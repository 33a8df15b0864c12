// Formatting a document of many lines (the line diff behind the edits) and choosing the safe fixes
// of many findings (`mthds check --fix`, the language server's fix-all): time and memory.
//   node --expose-gc bench/fixes-format.mjs
// The TypeScript sources are bundled with esbuild into a temporary file first.

import { importSources } from './importSources.mjs';
import { memoryOf } from './processMemory.mjs';

const { formatEdits, chooseSafeFixes, fixAllEdits, resolveFixAll, Session, nodeFileSystem } = await importSources(
  "export { formatEdits } from './server/src/format/index.ts'; export { chooseSafeFixes } from './server/src/check/applyFixes.ts'; export { fixAllEdits, resolveFixAll } from './server/src/lsp/codeActions.ts'; export { Session } from './server/src/workspace/session.ts'; export { nodeFileSystem } from './server/src/workspace/nodeFileSystem.ts';",
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

// The fix-all the language server computes (verified: the re-check of the tree with the fixes
// applied, fixes bringing a new error rolled back) of a real bundle: one pipe with 30,000 unused
// inputs, open in a session as in the editor; the findings of its check first, then what
// `codeAction/resolve` runs on them (resolveFixAll: the verified edits, made an LSP workspace edit),
// given the findings of the tree's check as the server gives them (its re-check then does not check
// the tree as it is again).
{
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const n = 30_000;
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-fixall-'));
  const file = path.join(dir, 'wide.mthds');
  const text = `domain = "demo"\ndescription = "Demo"\n\n[pipe.wide]\ntype = "PipeLLM"\ndescription = "Wide"\ninputs = { used = "Text", ${Array.from({ length: n }, (_, i) => `u${i} = "Text"`).join(', ')} }\noutput = "Text"\nprompt = "Use $used"\n`;
  writeFileSync(file, text);
  const session = new Session({ fs: nodeFileSystem, folders: [dir] });
  const id = session.setDocument(file, text);
  const checked = timed(`check of a bundle with ${n.toLocaleString('en')} unused inputs`, () => session.check(id));
  const findings = checked.findings.get(file);
  const { pathToFileURL } = await import('node:url');
  const locator = { uriOf: (f) => pathToFileURL(f).href, lineStartsOf: (f) => session.lineStartsOf(f) };
  const action = { title: 'Fix all safe MTHDS problems', kind: 'source.fixAll.mthds', data: { fixAll: locator.uriOf(file) } };
  const resolved = await timedAsync(`verified fix-all of its ${findings.length.toLocaleString('en')} findings (language server, codeAction/resolve)`, () => resolveFixAll(action, findings, checked.tree, locator, () => new Promise((r) => setImmediate(r)), () => [...checked.findings.values()].flat()));
  const edits = resolved.edit.changes[locator.uriOf(file)] ?? [];
  console.log(`  ${edits.length.toLocaleString('en')} edits kept (a fix touching one taken waits for a second run)`);
}

async function timedAsync(label, fn) {
  globalThis.gc?.();
  const t0 = performance.now();
  const result = await fn();
  const ms = performance.now() - t0;
  const { rss, peak } = memoryOf(process.pid);
  console.log(`${label}: ${ms.toFixed(0)} ms (process rss ${rss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB)`);
  return result;
}
