// Heap tuning of the processes this package starts (the language server, the command line, the
// runner). Parsing and checking allocate many short-lived objects while the document and its model
// stay alive; with V8's default young generation (16 MB semi-spaces) each scavenge copies the live
// model again. A larger young generation lets most of it die young: measured on a 1,000-pipe bundle
// with `node --max-semi-space-size=64`, parse + check median 29 -> 22 ms. Set from here, the flag
// reaches only isolates created afterwards (worker threads): V8 sizes the main isolate's young
// generation when the process starts (measured on Node 20: new space stays at 2 x 16 MB after
// `setFlagsFromString('--max-semi-space-size=64')`, 2 x 64 MB with the flag on the command line).
// What made the language server's keystrokes wait on the collector was not the heap's settings but
// dead versions kept alive through young-generation collections (measured with `GC_LOG=1 node
// bench/lsp.mjs`, 2,000-line bundle, 300 keystrokes: 17 full collections and 18 scavenges copying
// or promoting ~3 MB each): on Node 20 a WeakMap entry whose key is young survives every scavenge,
// and so did each parse's object literal with a getter (a map of its own, in the old generation,
// holding the getter's closure and the tree). Per-version caches now live on their keys
// (util/objectCache.ts) and parse results are class instances: 1 full collection per 300
// keystrokes, scavenges keep ~1.3 MB (the current version) and promote almost nothing. Do not key
// a WeakMap by an object made per keystroke. Libraries embedding the package are left to their own
// settings.

import v8 from 'node:v8';

export const SEMI_SPACE_MB = 64;

/**
 * How much V8 lets the old space grow past what the last full collection kept, for a long-lived
 * process (the language server): V8's default factor lets the reserved heap of a server holding a
 * large workspace climb with every burst of work and stay there (measured: 1,000 open/edit/close
 * cycles on 5,000 bundles took RSS from 1.0x to 3x start-up with a flat live heap); 15% keeps it
 * close to the live heap, at the price of more frequent full collections.
 */
export const LONG_LIVED_HEAP_GROWING_PERCENT = 15;

export function tuneHeap(options: { longLived?: boolean } = {}): void {
  v8.setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MB}`);
  if (options.longLived) v8.setFlagsFromString(`--heap-growing-percent=${LONG_LIVED_HEAP_GROWING_PERCENT}`);
}
