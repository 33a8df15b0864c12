// Work done in steps (a generator that pauses between slices so that a caller can serve other work)
// run at once, for the callers that need the result now.

/** Runs `steps` to its end and returns what it returns. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
