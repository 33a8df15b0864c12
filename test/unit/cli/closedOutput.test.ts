// A command whose output closes exits with 141, and a `serve --workers N` primary takes its
// workers with it: a worker left starting fails its first message to the gone primary inside
// Node's start-up and prints a stack trace on the shared output.

import { describe, expect, it } from 'vitest';
import { CLOSED_OUTPUT_STATUS, exitWithWorkers } from '../../../server/src/cli/closedOutput.js';

describe('exitWithWorkers', () => {
  it('kills every worker before exiting with the status', () => {
    const events: string[] = [];
    const worker = (name: string, fails = false) => ({
      kill: (signal: NodeJS.Signals) => {
        events.push(`${name} ${signal}`);
        if (fails) throw new Error('ESRCH');
      },
    });
    exitWithWorkers(CLOSED_OUTPUT_STATUS, [worker('a'), worker('gone', true), worker('b')], (status) => events.push(`exit ${status}`));
    expect(events).toEqual(['a SIGKILL', 'gone SIGKILL', 'b SIGKILL', 'exit 141']);
  });
});
