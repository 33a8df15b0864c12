// Heap tuning of the language server, a long-lived process. The young generation is left at V8's
// size: set from here, `--max-semi-space-size` reaches only isolates created afterwards (V8 sizes
// the main isolate's young generation when the process starts), and it turned out not to be
// needed. What made keystrokes wait on the collector was dead versions kept alive through
// young-generation collections (measured with `GC_LOG=1 node bench/lsp.mjs`, 2,000-line bundle,
// 300 keystrokes: 17 full collections and 18 scavenges copying or promoting ~3 MB each): on Node 20
// a WeakMap entry whose key is young survives every scavenge, and so did each parse's object
// literal with a getter (a map of its own, in the old generation, holding the getter's closure and
// the tree). Per-version caches now live on their keys (util/objectCache.ts) and parse results are
// class instances: 1 full collection per 300 keystrokes. Do not key a WeakMap by an object made
// per keystroke. Libraries embedding the package are left to their own settings.

import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How much V8 lets the old space grow past what the last full collection kept, for a long-lived
 * process (the language server): V8's default factor lets the reserved heap of a server holding a
 * large workspace climb with every burst of work and stay there (measured: 1,000 open/edit/close
 * cycles on 5,000 bundles took RSS from 1.0x to 3x start-up with a flat live heap); 15% keeps it
 * close to the live heap, at the price of more frequent full collections.
 */
export const LONG_LIVED_HEAP_GROWING_PERCENT = 15;

/**
 * Set once the start-up check has ended (`collectStartupGarbage`), not before: while the workspace
 * is read the heap grows from nothing to its working size, and at 15% V8 ran a full collection,
 * marking the whole heap, every 15% of growth (measured on 2,000 cross-referenced bundles: 2.0 s
 * of the server's 8.9 s of start-up CPU in the collector). V8 reads the flag at each full
 * collection: the start-up collection that follows sets the limit the server keeps.
 */
export function tuneHeap(setFlags: (flags: string) => void = v8.setFlagsFromString): void {
  longLived = true;
  setFlags(`--heap-growing-percent=${LONG_LIVED_HEAP_GROWING_PERCENT}`);
}

let longLived = false;

/**
 * V8's own growth factor (0: chosen by V8 from the collector's and the program's speeds) for the
 * length of a burst of work, the long-lived one after: an update re-checking a workspace allocates
 * hundreds of MB of short-lived results, and at 15% V8 marked the whole heap every few slices
 * (measured on the branch switch of 2,000 bundles, `SCENARIOS=switch npm run bench:lsp-churn`:
 * 0.5-0.6 s of a 3 s update). Returns what ends the burst. Nothing before `tuneHeap`.
 */
export function heapForBurst(setFlags: (flags: string) => void = v8.setFlagsFromString): () => void {
  if (!longLived) return () => undefined;
  setFlags('--heap-growing-percent=0');
  return () => tuneHeap(setFlags);
}


/** How long no document must have changed for the start-up's collection to run (ms). */
export const QUIET_BEFORE_COLLECT_MS = 1000;
/**
 * The largest heap the start-up's collection takes on (bytes): at most about half a second of
 * pause (measured: 1 ms per 1 to 1.5 MB). Past it the collection would stop everything for
 * seconds: V8's own pieces are then the lesser wait.
 */
export const MAX_COLLECTED_HEAP_BYTES = 512 * 2 ** 20;

/**
 * Whether the language server collects at the end of start-up: not while someone types (a
 * document changed within the last second: the collection would stop a keystroke for its whole
 * length), not past the heap bound.
 */
export function startupCollection(msSinceDocumentChange: number, heapBytes: number): 'collect' | 'typing' | 'too large' {
  if (msSinceDocumentChange < QUIET_BEFORE_COLLECT_MS) return 'typing';
  return heapBytes > MAX_COLLECTED_HEAP_BYTES ? 'too large' : 'collect';
}

/**
 * How long the end of start-up waits after its collection (ms): V8 then sweeps the heap's pages
 * on helper threads, and on two cores the first work after it ran slowly meanwhile (measured at
 * 5,000 bundles: a document opened at once got its diagnostics after 10 to 32 ms, after this wait
 * 4 to 5 ms, as without the collection).
 */
export const SWEEP_AFTER_COLLECT_MS = 50;

/** The bytes the heap's objects take now (live and not yet collected). */
export function heapInUse(): number {
  return v8.getHeapStatistics().used_heap_size;
}

// `gc` once reached (null: this Node offers no way).
let collector: (() => void) | null | undefined;

/**
 * A full collection, now and at once (blocking: 150-300 ms on the heap of a 5,000-bundle
 * workspace). For the language server's end of start-up (lsp/server.ts): V8 would otherwise
 * collect the garbage of the start-up check in its own time, incrementally, in pieces of up to
 * 12 ms that land on the first keystrokes. `gc` is reached through a context made after
 * `--expose-gc` is set, so that the process's own context gains no global. False when this Node
 * offers no way to do it.
 */
export function collectNow(): boolean {
  if (collector === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      collector = typeof gc === 'function' ? (): void => void (gc as () => unknown)() : null;
    } catch {
      collector = null;
    }
  }
  if (!collector) return false;
  collector();
  return true;
}

/**
 * The end of the language server's start-up on the desktop (lsp/main.ts): the start-up check's
 * garbage collected now when `startupCollection` says so, and the sweep waited for, rather than
 * V8 collecting it in pieces of up to 12 ms during the first keystrokes (measured at 5,000 bundles:
 * the keystroke p99 over 16 ms in a third of the runs). Messages are served meanwhile.
 */
export async function collectStartupGarbage(msSinceDocumentChange: number, log: (line: string) => void): Promise<void> {
  tuneHeap();
  const inUse = heapInUse();
  const verdict = startupCollection(msSinceDocumentChange, inUse);
  const t0 = performance.now();
  if (verdict === 'too large') log(`mthds: start-up garbage left to the collector (heap of ${Math.round(inUse / 2 ** 20)} MB)`);
  else if (verdict === 'collect' && collectNow()) {
    log(`mthds: collected the start-up check's garbage in ${(performance.now() - t0).toFixed(1)} ms`);
    await new Promise((resolve) => setTimeout(resolve, SWEEP_AFTER_COLLECT_MS));
  }
}
