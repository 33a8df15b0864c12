// Stretches of a benchmarked language server's main thread without a turn of its event loop, for
// `GAP_LOG=1 node bench/lsp-churn.mjs`: a request arriving during one waits at least until it ends,
// whatever ran (a check's slice, idle work, a collection). Preloaded into the server (`--import`),
// it appends `<start, ms since the epoch> <gap ms>` to the file named by MTHDS_BENCH_GAP_LOG for
// every gap between two ticks of a 2 ms timer longer than 12 ms; `summarizeGaps` counts them per
// stretch of the client's clock (both count from the epoch).

import { appendFileSync, readFileSync } from 'node:fs';

const file = process.env.MTHDS_BENCH_GAP_LOG;
if (file) {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 12) appendFileSync(file, `${(performance.timeOrigin + last).toFixed(1)} ${(now - last).toFixed(1)}\n`);
    last = now;
  }, 2);
  timer.unref();
}

/**
 * The gaps logged from `start` (ms since the epoch) for `ms`: how many over 12, 30, 50 and 100 ms,
 * and the longest; with `requests` (`{ start, ms }`, ms since the epoch), the slowest three, each
 * with the gaps it waited through.
 */
export function summarizeGaps(logFile, start, ms, requests = []) {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {}
  const logged = text.split('\n').filter(Boolean).map((l) => l.split(' ').map(Number));
  const gaps = logged.filter(([at]) => at >= start && at <= start + ms).map(([, gap]) => gap);
  const over = (limit) => gaps.filter((g) => g > limit).length;
  const slowest = [...requests].sort((a, b) => b.ms - a.ms).slice(0, 3).map((r) => {
    const during = logged.filter(([at, gap]) => at + gap > r.start && at < r.start + r.ms).map(([, gap]) => gap.toFixed(0));
    return `${r.ms.toFixed(0)} ms (gaps ${during.join(' + ') || 'none'})`;
  });
  return `event-loop gaps while settling: ${gaps.length} over 12 ms, ${over(30)} over 30, ${over(50)} over 50, ${over(100)} over 100, longest ${gaps.length > 0 ? Math.max(...gaps).toFixed(1) : 0} ms${slowest.length > 0 ? `; slowest requests: ${slowest.join(', ')}` : ''}`;
}
