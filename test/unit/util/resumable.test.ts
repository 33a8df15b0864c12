// A build in steps left by its caller goes on where it stopped for the next caller asking for the
// same, and every caller gets its one result.

import { describe, expect, it } from 'vitest';
import { ResumableBuilds } from '../../../server/src/util/resumable.js';
import { runSteps } from '../../../server/src/util/steps.js';

describe('resumable builds', () => {
  it('go on where they stopped, for whoever asks next for the same', () => {
    const builds = new ResumableBuilds<string, string[]>((a, b) => a === b, 4);
    let started = 0;
    const made: string[] = [];
    const make = (key: string) =>
      function* (): Generator<void, string[]> {
        started += 1;
        for (let i = 0; i < 5; i++) {
          made.push(`${key}${i}`);
          yield;
        }
        return [...made];
      };
    // A caller takes two steps and stops (a change came).
    const first = builds.run('a', make('a'));
    first.next();
    first.next();
    expect(made).toEqual(['a0', 'a1']);
    // The next caller of the same key continues it: nothing is made twice.
    const result = runSteps(builds.run('a', make('a')));
    expect(started).toBe(1);
    expect(result).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    // The first caller, taken up again, gets the same result without stepping the build again.
    let step = first.next();
    while (!step.done) step = first.next();
    expect(step.value).toBe(result);
    // Finished, the build is forgotten: asked again, it starts anew (its result is kept elsewhere).
    runSteps(builds.run('a', make('a')));
    expect(started).toBe(2);
    // Another key is another build.
    runSteps(builds.run('b', make('b')));
    expect(started).toBe(3);
  });
});
