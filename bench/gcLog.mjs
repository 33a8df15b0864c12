// Collector pauses of a benchmarked language server, for `GC_LOG=1 node bench/lsp.mjs`.
// `node --trace-gc` cannot be used for that: it prints to stdout, which is the server's LSP stream
// over --stdio (the client stops at the first trace line). This module is preloaded into the server
// (`--import`) and appends one line per collection to the file named by MTHDS_BENCH_GC_LOG:
// `<start, ms since the epoch> <minor|major|incremental|weak> <pause ms>`; `summarizeGc` lines
// these up with the client's keystroke timings (both clocks count from the epoch).

import { appendFileSync, readFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';

const KINDS = new Map([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak'],
]);

const file = process.env.MTHDS_BENCH_GC_LOG;
if (file) {
  new PerformanceObserver((list) => {
    const lines = list.getEntries().map((e) => `${(performance.timeOrigin + e.startTime).toFixed(2)} ${KINDS.get(e.detail?.kind) ?? 'other'} ${e.duration.toFixed(2)}\n`);
    appendFileSync(file, lines.join(''));
  }).observe({ entryTypes: ['gc'] });
}

/**
 * Per kind of collection, how many paused the server while a keystroke was waiting and for how
 * long; and how many of the keystrokes at or above the p95 latency waited on one.
 * `keystrokes`: `{ start, ms }` with `start` in ms since the epoch.
 */
export function summarizeGc(logFile, keystrokes, p95) {
  const pauses = readPauses(logFile);
  if (pauses === undefined) return 'no collection was logged';
  const byKind = new Map();
  let slow = 0;
  let slowWithGc = 0;
  for (const k of keystrokes) {
    const during = pauses.filter((p) => p.at >= k.start && p.at <= k.start + k.ms);
    for (const p of during) {
      const s = byKind.get(p.kind) ?? { n: 0, total: 0, max: 0 };
      s.n += 1;
      s.total += p.ms;
      s.max = Math.max(s.max, p.ms);
      byKind.set(p.kind, s);
    }
    if (k.ms >= p95) {
      slow += 1;
      if (during.some((p) => p.kind !== 'weak')) slowWithGc += 1;
    }
  }
  const kinds = [...byKind].map(([kind, s]) => `${s.n} ${kind} (${s.total.toFixed(1)} ms, max ${s.max.toFixed(1)})`).join(', ');
  // Every collection from the first keystroke to the end of the last, waited on or not: how often
  // the typing itself fills the young generation.
  const from = keystrokes[0]?.start ?? 0;
  const to = keystrokes.reduce((end, k) => Math.max(end, k.start + k.ms), from);
  const all = pauses.filter((p) => p.kind !== 'weak' && p.at >= from && p.at <= to);
  const minors = all.filter((p) => p.kind === 'minor').length;
  return `collections during keystrokes: ${kinds || 'none'}; keystrokes >= p95 that waited on one: ${slowWithGc}/${slow}; over the ${(to - from).toFixed(0)} ms of typing: ${minors} minor, ${all.length - minors} other`;
}

/** The logged collections, or undefined when nothing was logged. */
function readPauses(logFile) {
  let text;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return undefined;
  }
  return text.split('\n').filter(Boolean).map((l) => {
    const [at, kind, ms] = l.split(' ');
    return { at: Number(at), kind, ms: Number(ms) };
  });
}

/** Per sample (`{ start, ms }`, start in ms since the epoch), the collections that paused the server during it: `major 8.1 + minor 1.2`, or '' when none. */
export function pausesDuring(logFile, samples) {
  const pauses = readPauses(logFile) ?? [];
  return samples.map((k) => pauses.filter((p) => p.kind !== 'weak' && p.at >= k.start && p.at <= k.start + k.ms).map((p) => `${p.kind} ${p.ms.toFixed(1)}`).join(' + '));
}
