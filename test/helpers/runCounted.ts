// Runs work in steps to its end, counting the pauses: tests that a long piece of work yields.

/** Runs `steps` to its end; how many times it paused, and what it returned. */
export function runCounted<T>(steps: Generator<void, T>): { pauses: number; value: T } {
  let pauses = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { pauses, value: step.value };
    pauses += 1;
  }
}
