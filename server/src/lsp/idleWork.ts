// Work made ahead while the server is idle: once a check has ended and no message waits, what the
// next keystroke's check and the next completion would otherwise make first (the suggestion
// indexes of the open documents' domains, the sorted lists of the tree's concepts and pipes) is
// made in short slices that yield to the message loop. A change cancels it (the tables it read
// are about to be replaced); the next check's end starts it again. It makes only what a request or
// a check would make on demand, through the same functions and caches, so nothing answers
// differently for having been prepared.

import { NATIVE_DOCUMENTATION, prepareCompletionList, prepareSharedConceptLists } from '../ide/index.js';
import type { Bundle } from '../language/model.js';
import type { MethodTree } from '../language/tree.js';
import { prepareNameIndexes, prepareQualifiedConceptIndexes } from '../language/visibleNames.js';
import { markup, type MarkupFormat } from './markup.js';
import { runSlice } from '../util/steps.js';

/** How long a slice of idle work runs before it yields (ms): a keystroke arriving meanwhile waits at most about this. */
const IDLE_SLICE_MS = 4;
/**
 * The slice of the preparation for a document just opened (ms): it runs between the first
 * keystrokes (typing often starts at once), and a message arriving during a slice cannot be seen
 * before the slice ends, so each of those keystrokes would wait up to a whole slice.
 */
export const OPENING_SLICE_MS = 1;

/**
 * What the open documents of a tree will need first, one bundle after another, in steps; with the
 * concepts, the natives' documentation as the client's completion list carries it (rendered once
 * and kept by markup.ts: plain text is markdown parsed, a few milliseconds the first time).
 */
export function* preparationSteps(tree: MethodTree, bundles: readonly Bundle[], kinds: ReadonlyArray<'concepts' | 'pipes'>, documentation: MarkupFormat): Generator<void, void> {
  for (const kind of kinds) {
    for (const bundle of bundles) {
      yield* prepareNameIndexes(tree, bundle, kind);
      yield* prepareCompletionList(tree, bundle, kind);
    }
    if (kind !== 'concepts') continue;
    for (const markdown of NATIVE_DOCUMENTATION) {
      markup(markdown, documentation);
      yield;
    }
  }
}

/**
 * What every document of a tree shares, made once the workspace is checked (before its progress
 * ends), one domain per step: the suggestion indexes of the domains' concepts and the domains'
 * parts of the concept lists. Made then, they are old by the time a document is opened and typed
 * in: the preparation of a document opened makes only its own domain's part, and the first
 * scavenges of the typing no longer copy a tree's worth of them (3 MB and 8 ms in one pause on a
 * 5,000-bundle tree).
 */
export function* treePreparationSteps(tree: MethodTree): Generator<void, void> {
  yield* prepareQualifiedConceptIndexes(tree);
  yield* prepareSharedConceptLists(tree);
}

/** One piece of idle work at a time: a newer start or `cancel` makes the running one stop at its next pause. */
export class IdleWork {
  private generation = 0;
  /** The quiet delay under way: its timer, and how to end it at once (cancelled). */
  private delay: { timer: NodeJS.Timeout; end: () => void } | undefined;

  constructor(
    /** Yields until the messages queued meanwhile are handled (`MessageTurns.pause`). */
    private readonly pause: () => Promise<void>,
    private readonly sliceMs = IDLE_SLICE_MS,
  ) {}

  /** Stops the work under way at its next pause (a change came). */
  cancel(): void {
    this.generation += 1;
    const delay = this.delay;
    this.delay = undefined;
    if (delay) {
      clearTimeout(delay.timer);
      delay.end();
    }
  }

  /**
   * After `delayMs` without a cancel (0: at once), and once the messages queued then are handled,
   * runs the steps `make` gives in slices, pausing between them; stops when cancelled, when a newer
   * run starts, or when `busy()` (a check is due or running) after a pause. Resolves whether the
   * steps ran to their end. `sliceMs`: how long each slice runs (the default: the constructor's).
   */
  async run(make: () => Generator<void, void> | undefined, busy: () => boolean, delayMs = 0, sliceMs = this.sliceMs): Promise<boolean> {
    this.cancel();
    const generation = this.generation;
    const stale = (): boolean => this.generation !== generation || busy();
    if (delayMs > 0) {
      await new Promise<void>((resolve) => {
        const delay = { timer: setTimeout(() => {
          if (this.delay === delay) this.delay = undefined;
          resolve();
        }, delayMs), end: resolve };
        this.delay = delay;
      });
    }
    if (stale()) return false;
    await this.pause();
    if (stale()) return false;
    const steps = make();
    if (!steps) return true;
    for (;;) {
      if (runSlice(steps, performance.now() + sliceMs)) return true;
      await this.pause();
      if (stale()) return false;
    }
  }
}
