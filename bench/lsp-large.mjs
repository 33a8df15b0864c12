// Large documents open in the language server (`npm run bench:lsp-large`): the three documents of
// the issue, each opened in a fresh server beside a small bundle: a 5 MB bundle of about 45,000
// pipes, a 10 MB prompt full of `$t {{ t }}`, a 50 MB bundle (the 5 MB one ten times over). While
// it is opened and checked, the small document is hovered every 20 ms (one request at a time);
// printed: the longest and the p95 wait of those hovers (the large document's folding and outline asked at its opening, as an editor does), when the large document's diagnostics
// came (and which), then `shutdown` sent and how long its answer took, and the server's peak
// resident memory (VmHWM). Then a few characters are typed into the large document (ranged
// `didChange`, one every TYPE_MS, default 150 ms), each followed by its folding as an editor asks
// it, while the small document is still hovered: printed, the hovers' longest and p95 wait during
// the typing, how long after each change its folding came (the change applied) and the longest
// wait of each other request an editor sends after a change (code actions at the cursor, inlay
// hints and semantic tokens of the visible lines, ...). DOCS=5mb,10mb-prompt,50mb,analysed-pipes,
// analysed-prompt,read-prompt picks documents (the last three are analysed: see DOCS below); TYPED (default 5) how many characters (OVERTYPE=1: each replaces
// one, the text keeping its length); WAIT_MS bounds the wait for
// the diagnostics (default 90 s). MTHDS_SERVER runs another build (the base) the same way.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarizeGaps } from './gapLog.mjs';
import { percentile, startServer } from './lspClient.mjs';

const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const WAIT_MS = Number(process.env.WAIT_MS ?? 90_000);
const TYPED = Number(process.env.TYPED ?? 5);
const TYPE_MS = Number(process.env.TYPE_MS ?? 150);
// GAP_LOG=1: the server's stretches without a turn of its event loop during the typing (bench/gapLog.mjs).
const GAP_LOG = process.env.GAP_LOG ? path.join(mkdtempSync(path.join(tmpdir(), 'mthds-bench-gaps-')), 'gaps.log') : undefined;
if (GAP_LOG) {
  const gapLog = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'gapLog.mjs')).href;
  process.env.SERVER_NODE_ARGS = `${process.env.SERVER_NODE_ARGS ?? ''} --import ${gapLog}`;
  process.env.MTHDS_BENCH_GAP_LOG = GAP_LOG;
}
/** OVERTYPE=1: each character replaces the one under the cursor (the text keeps its length). */
const OVERTYPE = process.env.OVERTYPE === '1';

/** A bundle of pipes of about `bytes` bytes (about 110 bytes a pipe). */
function pipesBundle(bytes) {
  const out = ['domain = "big"', 'description = "A large bundle"', ''];
  let size = 50;
  for (let i = 0; size < bytes; i++) {
    const block = `[pipe.p${i}]\ntype = "PipeLLM"\ndescription = "Pipe ${i} of the big one"\noutput = "Text"\nprompt = "Say ${i}"\n`;
    out.push(block);
    size += block.length + 1;
  }
  return out.join('\n');
}

/** One pipe whose prompt is `bytes` bytes of `$t {{ t }}`. */
function promptBundle(bytes) {
  const unit = '$t {{ t }} ';
  return `domain = "big"\ndescription = "One long prompt"\n\n[pipe.say]\ntype = "PipeLLM"\ndescription = "Says it"\ninputs = { t = "Text" }\noutput = "Text"\nprompt = """\n${unit.repeat(Math.ceil(bytes / unit.length))}\n"""\n`;
}

const DOCS = {
  '5mb': () => pipesBundle(5 * 2 ** 20),
  '10mb-prompt': () => promptBundle(10 * 2 ** 20),
  '50mb': () => pipesBundle(50 * 2 ** 20),
  // The largest documents still analysed (just under workspace/documentSize.ts MAX_ANALYZED_BYTES,
  // 512 KB; ANALYSED_BYTES another size): one of pipes; one prompt, past the longest template the
  // editor reads (analyze.ts EDITOR_TEMPLATE_LIMIT, 64 KB); one prompt just under that.
  'analysed-pipes': () => pipesBundle(Number(process.env.ANALYSED_BYTES ?? 2 ** 19 - 2048)),
  'analysed-prompt': () => promptBundle(Number(process.env.ANALYSED_BYTES ?? 2 ** 19 - 2048)),
  'read-prompt': () => promptBundle(2 ** 16 - 1024),
};

const SMALL = 'domain = "small"\ndescription = "Small"\n\n[concept.Note]\ndescription = "A note"\n\n[pipe.write]\ntype = "PipeLLM"\ndescription = "Writes"\noutput = "Note"\nprompt = "Write"\n';

/** The peak resident memory of a process in MB (Linux), NaN elsewhere. */
function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

async function run(name, text) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-large-'));
  const small = path.join(dir, 'small.mthds');
  writeFileSync(small, SMALL);
  const smallUri = pathToFileURL(small).href;
  const uri = pathToFileURL(path.join(dir, 'large.mthds')).href;
  let diagnostics;
  const server = await startServer(dir, {
    capabilities: { window: { workDoneProgress: true }, textDocument: { publishDiagnostics: {}, foldingRange: { rangeLimit: 5000, lineFoldingOnly: true } } },
    initializationOptions: { diagnostics: { debounceMs: 0, dryRun: false } },
    onPublish: (p) => {
      if (p.uri === uri && !diagnostics) diagnostics = { at: performance.now(), codes: [...new Set(p.diagnostics.map((d) => d.code))], count: p.diagnostics.length };
    },
  });
  await server.checked;
  const { connection, child } = server;
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: smallUri, languageId: 'mthds', version: 1, text: SMALL } });
  const hover = () => connection.sendRequest('textDocument/hover', { textDocument: { uri: smallUri }, position: { line: 9, character: 11 } });
  await hover();
  const t0 = performance.now();
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version: 1, text } });
  // What an editor asks of a document it opens: its folding and its outline.
  const asked = (method) => connection.sendRequest(method, { textDocument: { uri } }).then((r) => ({ ms: performance.now() - t0, n: Array.isArray(r) ? r.length : 0 }));
  const light = Promise.all([asked('textDocument/foldingRange'), asked('textDocument/documentSymbol')]);
  const waits = [];
  // Hovers one at a time until the diagnostics came (and 2 s more), or the wait is over.
  while (performance.now() - t0 < WAIT_MS && (!diagnostics || performance.now() - diagnostics.at < 2000)) {
    const t = performance.now();
    const answered = await Promise.race([hover().then(() => true), sleep(Math.max(0, WAIT_MS - (t - t0))).then(() => false)]);
    waits.push(performance.now() - t);
    if (!answered) break;
    await sleep(20);
  }
  const [folding, outline] = await light;
  const typing = await typeInto(connection, uri, text, hover);
  const ts = performance.now();
  const shutdown = await Promise.race([connection.sendRequest('shutdown').then(() => performance.now() - ts), sleep(30_000).then(() => NaN)]);
  const rss = peakRssMb(child.pid);
  void connection.sendNotification('exit').catch(() => undefined);
  await Promise.race([new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r))), sleep(5000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
  connection.dispose();
  rmSync(dir, { recursive: true, force: true });
  const came = diagnostics ? `diagnostics after ${((diagnostics.at - t0) / 1000).toFixed(2)} s (${diagnostics.count}: ${diagnostics.codes.join(', ') || 'none'})` : `no diagnostics within ${WAIT_MS / 1000} s`;
  console.log(
    `  ${name} (${(Buffer.byteLength(text) / 2 ** 20).toFixed(1)} MB): hover on another document max ${Math.max(...waits).toFixed(0)} ms, p95 ${percentile(waits, 95).toFixed(0)} ms (${waits.length}); ${came}; folding ${folding.n} ranges after ${(folding.ms / 1000).toFixed(2)} s, outline ${outline.n} entries after ${(outline.ms / 1000).toFixed(2)} s; typing ${typing}; shutdown answered ${Number.isNaN(shutdown) ? 'not within 30 s' : `in ${shutdown.toFixed(0)} ms`}; peak RSS ${rss.toFixed(0)} MB; ${load()}`,
  );
}

/**
 * Types TYPED characters at the start of the line holding the middle of the large document's text
 * (in a prompt of one long line, that prompt: each change then changes the template), each a ranged
 * change followed by the document's folding (answered once the change is applied), while the small
 * document is hovered one request at a time, every 20 ms.
 */
async function typeInto(connection, uri, text, hover) {
  let line = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < text.length / 2; at = text.indexOf('\n', at + 1)) line++;
  const applied = [];
  const waits = [];
  let typing = true;
  const hovers = (async () => {
    while (typing) {
      const t = performance.now();
      await hover();
      waits.push(performance.now() - t);
      await sleep(20);
    }
  })();
  // What an editor asks of the document after a change, each timed: the folding first (the change applied).
  const asks = (position) => {
    const range = { start: { line: Math.max(0, position.line - 30), character: 0 }, end: { line: position.line + 30, character: 0 } };
    return {
      folding: ['textDocument/foldingRange', {}],
      outline: ['textDocument/documentSymbol', {}],
      codeAction: ['textDocument/codeAction', { range: { start: position, end: position }, context: { diagnostics: [], triggerKind: 2 } }],
      highlight: ['textDocument/documentHighlight', { position }],
      inlayHints: ['textDocument/inlayHint', { range }],
      tokens: ['textDocument/semanticTokens/range', { range }],
      links: ['textDocument/documentLink', {}],
      diagnostic: ['textDocument/diagnostic', {}],
    };
  };
  const times = {};
  const typedFrom = performance.timeOrigin + performance.now();
  for (let i = 0; i < TYPED; i++) {
    const t = performance.now();
    const position = { line, character: i };
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 + i }, contentChanges: [{ range: { start: position, end: OVERTYPE ? { line, character: i + 1 } : position }, rangeLength: OVERTYPE ? 1 : 0, text: '#' }] });
    await Promise.all(
      Object.entries(asks({ line, character: i + 1 })).map(([name, [method, params]]) =>
        connection.sendRequest(method, { textDocument: { uri }, ...params }).then(() => (times[name] ??= []).push(performance.now() - t)),
      ),
    );
    applied.push(times.folding[i]);
    await sleep(TYPE_MS);
  }
  typing = false;
  await hovers;
  const answered = Object.entries(times).map(([name, ms]) => `${name} ${Math.max(...ms).toFixed(0)}`).join(', ');
  const gaps = GAP_LOG ? `; ${summarizeGaps(GAP_LOG, typedFrom, performance.timeOrigin + performance.now() - typedFrom)}` : '';
  return `${TYPED} characters at line ${line}${gaps}: each change applied (its folding answered) after ${applied.map((ms) => ms.toFixed(0)).join(', ')} ms; what an editor asks after a change, answered at most (ms after it): ${answered}; hover meanwhile max ${Math.max(...waits).toFixed(0)} ms, p95 ${percentile(waits, 95).toFixed(0)} ms (${waits.length})`;
}

console.log(`large documents open beside a small one (${process.env.MTHDS_SERVER ?? 'this build'}); ${load()}`);
for (const name of (process.env.DOCS ?? Object.keys(DOCS).join(',')).split(',')) await run(name, DOCS[name]());
process.exit(0);
