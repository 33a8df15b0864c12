// Work done in steps (a generator that pauses between slices so that a caller can serve other work)
// run at once, for the callers that need the result now, or a slice at a time.

/** Runs `steps` to its end and returns what it returns. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs `steps` until they end or the clock (`performance.now()`) passes `sliceEnd` (or `enough()`
 * says so at a pause), at least one step: what they returned when they ended, undefined when they
 * are left at a pause.
 */
export function runSlice<T>(steps: Generator<void, T>, sliceEnd: number, enough?: () => boolean): { value: T } | undefined {
  for (;;) {
    const step = steps.next();
    if (step.done) return { value: step.value };
    if (performance.now() >= sliceEnd || enough?.()) return undefined;
  }
}

/**
 * Runs `steps` to their end in slices of `sliceMs`, awaiting `pause` between slices (so that other
 * work, such as queued messages, goes first): what they returned.
 */
export async function runInSlices<T>(steps: Generator<void, T>, sliceMs: number, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const ended = runSlice(steps, performance.now() + sliceMs);
    if (ended) return ended.value;
    await pause();
  }
}
