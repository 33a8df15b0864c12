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

import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * How much V8 lets the old space grow past what the last full collection kept, for a long-lived
 * process (the language server): V8's default factor lets the reserved heap of a server holding a
 * large workspace climb with every burst of work and stay there (measured: 1,000 open/edit/close
 * cycles on 5,000 bundles took RSS from 1.0x to 3x start-up with a flat live heap); 15% keeps it
 * close to the live heap, at the price of more frequent full collections.
 */
export const LONG_LIVED_HEAP_GROWING_PERCENT = 15;

export function tuneHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${LONG_LIVED_HEAP_GROWING_PERCENT}`);
}

// Collection when idle. After a burst of work (a workspace checked, a branch switched, a long
// editing session) the live heap is back where it was, but the process keeps what the burst
// touched: garbage not yet collected (a full collection comes only when the old space reaches its
// limit) and, after a collection, half-empty pages that V8 neither compacts nor returns. V8's own
// memory reducer does not step in here: it waits for a low allocation rate, which it measures at
// collections, and an idle process makes none (measured: RSS unchanged for 30 s after 1,000
// open/edit/close cycles). A collection that reduces the footprint (every page compacted, the
// young generation shrunk: what V8 does under memory pressure) returns it. Measured on 5,000
// bundles after the churn scenarios and 1,000 cycles (`node bench/lsp-churn.mjs`): RSS 342 ->
// 278 MB, start-up 310 -> 276 MB; the live heap does not change (185 MB). It blocks the process
// (0.3-0.8 s for a 250 MB heap), so it runs only when the event loop has been idle for a while and
// the committed heap has grown since the last one: never during a check, which runs in slices that
// keep the event loop busy, and at most once per idle period.

/** When the idle collection runs. */
export interface IdleCollectionOptions {
  /** How often the event loop's use is sampled (ms). */
  sampleMs?: number;
  /** How long the event loop must have been idle before a collection (ms). */
  idleMs?: number;
  /** How much the committed heap must have grown since the last collection (0.1: 10%). */
  growth?: number;
  /** Told after each collection: the committed heap before and after (bytes), and its time (ms). */
  onCollected?: (result: { before: number; after: number; ms: number }) => void;
}

/** The event loop counts as idle over a sample when it was busy less than this share of it. */
const IDLE_UTILIZATION = 0.05;

/**
 * Collects the heap, reducing its footprint, whenever the event loop has been idle for `idleMs`
 * and the committed heap has grown by `growth` since the last collection (or since the start).
 * Returns a function that stops it. Nothing happens where the inspector is not built in.
 */
export function startIdleCollection(options: IdleCollectionOptions = {}): () => void {
  const sampleMs = options.sampleMs ?? 1000;
  const idleMs = options.idleMs ?? 5000;
  const growth = options.growth ?? 0.1;
  let baseline = committedHeap();
  let idleFor = 0;
  let collecting = false;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization >= IDLE_UTILIZATION;
    last = now;
    idleFor = busy ? 0 : idleFor + sampleMs;
    if (collecting || idleFor < idleMs || committedHeap() <= baseline * (1 + growth)) return;
    collecting = true;
    idleFor = 0;
    const before = committedHeap();
    const t0 = performance.now();
    reduceHeap((ok) => {
      collecting = false;
      baseline = committedHeap();
      // The collection's own time is no work of the process.
      last = performance.eventLoopUtilization();
      if (!ok) {
        clearInterval(timer);
        return;
      }
      options.onCollected?.({ before, after: baseline, ms: performance.now() - t0 });
    });
  }, sampleMs);
  timer.unref();
  return () => clearInterval(timer);
}

function committedHeap(): number {
  return v8.getHeapStatistics().total_heap_size;
}

/**
 * A full collection that reduces the heap's footprint (V8's CollectAllAvailableGarbage), through
 * an inspector session of the process itself: the one public way to ask for it. `done(false)` when
 * the inspector is not available (a Node built without it throws on loading the module).
 */
function reduceHeap(done: (ok: boolean) => void): void {
  import('node:inspector').then(
    ({ Session }) => {
      const session = new Session();
      try {
        session.connect();
      } catch {
        done(false);
        return;
      }
      session.post('HeapProfiler.collectGarbage', (error) => {
        // Not from within the session's own callback: on Node 20 that leaves the event loop stuck.
        setImmediate(() => session.disconnect());
        done(!error);
      });
    },
    () => done(false),
  );
}
