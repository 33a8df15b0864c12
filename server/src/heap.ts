// Heap tuning of the processes this package starts (the language server, the command line, the
// runner). Parsing and checking allocate many short-lived objects while the document and its model
// stay alive; with V8's default young generation (16 MB semi-spaces) each scavenge copies the live
// model again. A larger young generation lets most of it die young: measured on a 1,000-pipe bundle
// with `node --max-semi-space-size=64`, parse + check median 29 -> 22 ms. Set from here, the flag
// reaches only isolates created afterwards (worker threads): V8 sizes the main isolate's young
// generation when the process starts (measured on Node 20: new space stays at 2 x 16 MB after
// `setFlagsFromString('--max-semi-space-size=64')`, 2 x 64 MB with the flag on the command line).
// In the language server most of a keystroke's tree is pretenured by V8 (its object literals
// survive their first scavenges while a document is opened), so what limits the collector's pauses
// there is the old generation's growth: see LONG_LIVED_HEAP_GROWING_PERCENT. Libraries embedding
// the package are left to their own settings.

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
