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

export function tuneHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${LONG_LIVED_HEAP_GROWING_PERCENT}`);
}

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
