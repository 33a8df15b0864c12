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

import { constants, PerformanceObserver } from 'node:perf_hooks';
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

/** How long the end of a concurrent collection waits for the marking under way before it finishes it at once (ms). */
export const MARKING_END_BOUND_MS = 2000;

/** What `--incremental-marking-hard-trigger` is set to while a marking is asked for, and after. */
export const MARK_NOW = '--incremental-marking-hard-trigger=1';
export const MARK_AT_LIMIT = '--incremental-marking-hard-trigger=0';

/** A collection's kind as `PerformanceObserver` tells it, for `collectConcurrently`. */
export type GcKind = 'incremental' | 'major' | 'other';

/** The collector's events: `listen` calls back for each collection; the returned function stops it. */
export type GcEvents = (onCollection: (kind: GcKind) => void) => () => void;

const nodeGcEvents: GcEvents = (onCollection) => {
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } | null }).detail?.kind;
      onCollection(kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL ? 'incremental' : kind === constants.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'other');
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
};

/** How a collection was made (`collectNow` finds no way to collect: not at all). */
export type Collected = 'concurrently' | 'at once' | 'not at all';

/** A collection begun (`collectConcurrently`). */
export interface Collection {
  /**
   * Ends it: a marking V8 has not begun yet is made at once (the caller has nothing else to do,
   * and an idle process allocates nothing that would make V8 begin it); one under way is waited
   * for, MARKING_END_BOUND_MS at most (then finished at once). Resolves with how it was made.
   */
  end(): Promise<Collected>;
}

/**
 * A full collection by V8's own concurrent marking, begun now: the marking runs on V8's helper
 * threads while the main thread goes on (publishing the start-up's findings, preparing what the
 * documents share), and the main thread stops only for the marking's start and end (4-8 ms each,
 * measured at 5,000 bundles) where `collectNow` stops it for the whole marking (130-160 ms). V8
 * begins marking when the heap nears its limit; `--incremental-marking-hard-trigger=1` makes any
 * heap near enough, and is set back as soon as the marking has begun (left set, V8 would begin the
 * next marking right after this one). A marking under way before this call began before the
 * garbage the caller wants collected was made: its end is not waited for, the next one's is.
 */
export function collectConcurrently(
  setFlags: (flags: string) => void = v8.setFlagsFromString,
  events: GcEvents = nodeGcEvents,
  collect: () => boolean = collectNow,
): Collection {
  let begun = false;
  let settle: (how: Collected) => void = () => undefined;
  let bound: ReturnType<typeof setTimeout> | undefined;
  const ended = new Promise<Collected>((resolve) => (settle = resolve));
  let stop = (): void => undefined;
  let done = false;
  const finish = (how: Collected): void => {
    if (done) return;
    done = true;
    if (bound !== undefined) clearTimeout(bound);
    setFlags(MARK_AT_LIMIT);
    stop();
    settle(how);
  };
  const atOnce = (): void => finish(collect() ? 'at once' : 'not at all');
  stop = events((kind) => {
    if (kind === 'incremental' && !begun) {
      begun = true;
      setFlags(MARK_AT_LIMIT);
    } else if (kind === 'major' && begun) finish('concurrently');
  });
  setFlags(MARK_NOW);
  return {
    end: () => {
      if (!begun) atOnce();
      else if (!done && bound === undefined) bound = setTimeout(atOnce, MARKING_END_BOUND_MS);
      return ended;
    },
  };
}

/** The start-up's collection begun (`collectStartupGarbage`): `end` once the rest of start-up is done. */
export interface StartupCollection {
  end(): Promise<void>;
}

/**
 * The end of the language server's start-up on the desktop (lsp/main.ts), called when the start-up
 * check has its results, before they are published: the check's garbage collected when
 * `startupCollection` says so, by V8's concurrent marking while the results are published and what
 * the documents share is made (`collectConcurrently`), rather than by V8 in pieces of up to 12 ms
 * during the first keystrokes (measured at 5,000 bundles: the keystroke p99 over 16 ms in a third
 * of the runs). Messages are served meanwhile. The sweep that follows runs on V8's helper threads:
 * the progress no longer waits for it (a document opened at once gets its diagnostics a few
 * milliseconds later, instead of everyone waiting 50 ms).
 */
export function collectStartupGarbage(msSinceDocumentChange: number, log: (line: string) => void): StartupCollection {
  tuneHeap();
  const inUse = heapInUse();
  const verdict = startupCollection(msSinceDocumentChange, inUse);
  if (verdict === 'too large') log(`mthds: start-up garbage left to the collector (heap of ${Math.round(inUse / 2 ** 20)} MB)`);
  if (verdict !== 'collect') return { end: () => Promise.resolve() };
  const t0 = performance.now();
  const collection = collectConcurrently();
  return {
    end: async () => {
      const how = await collection.end();
      if (how !== 'not at all') log(`mthds: collected the start-up check's garbage ${how} in ${(performance.now() - t0).toFixed(1)} ms`);
    },
  };
}
