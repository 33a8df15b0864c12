// Work in steps that outlives the caller that started it. Work made ahead at idle is left at a
// pause whenever a change comes (a keystroke every few milliseconds leaves little idle time):
// started again from the beginning each time, a long build would never end. Kept here by what it
// is made of, it goes on where it stopped, for whoever asks next for the same (the idle work again,
// or a request that finishes it at once).

interface Build<K, T> {
  key: K;
  steps: Generator<void, T>;
  done: boolean;
  value?: T;
}

export class ResumableBuilds<K, T> {
  private readonly builds: Array<Build<K, T>> = [];

  constructor(
    /** Whether two keys name the same build (the same inputs). */
    private readonly same: (a: K, b: K) => boolean,
    /** How many unfinished builds are kept (the oldest is dropped). */
    private readonly max: number,
  ) {}

  /**
   * The result of the build named `key`: the unfinished one of that key taken up where it stopped,
   * else one `make` starts. Pauses as the build does; the build is never closed by a caller that
   * stops (its steps are driven by hand, not delegated).
   */
  *run(key: K, make: () => Generator<void, T>): Generator<void, T> {
    let build = this.builds.find((b) => this.same(b.key, key));
    if (!build) {
      build = { key, steps: make(), done: false };
      this.builds.unshift(build);
      if (this.builds.length > this.max) this.builds.pop();
    }
    for (;;) {
      if (build.done) return build.value as T;
      const step = build.steps.next();
      if (step.done) {
        build.done = true;
        build.value = step.value;
        const at = this.builds.indexOf(build);
        if (at >= 0) this.builds.splice(at, 1);
        return step.value;
      }
      yield;
    }
  }
}
