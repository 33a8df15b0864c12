// The node flags `mthds serve --workers N` starts its workers with: the primary's own, and a larger
// young generation unless the operator chose a size.

import { describe, expect, it } from 'vitest';
import { workerExecArgv } from '../../../server/src/runner/cluster.js';

describe('workerExecArgv', () => {
  it('keeps the primary flags and adds 32 MB semi-spaces', () => {
    expect(workerExecArgv([], undefined)).toEqual(['--max-semi-space-size=32']);
    expect(workerExecArgv(['--cpu-prof', '--cpu-prof-dir=/tmp/p'], '--max-old-space-size=512')).toEqual(['--cpu-prof', '--cpu-prof-dir=/tmp/p', '--max-semi-space-size=32']);
  });

  it("keeps the operator's size, given in the flags or in NODE_OPTIONS, in any spelling", () => {
    expect(workerExecArgv(['--max-semi-space-size=8'], undefined)).toEqual(['--max-semi-space-size=8']);
    expect(workerExecArgv(['--max_semi_space_size', '4'], undefined)).toEqual(['--max_semi_space_size', '4']);
    expect(workerExecArgv(['--trace-gc'], '--max-old-space-size=512  --max-semi-space-size=64')).toEqual(['--trace-gc']);
    expect(workerExecArgv([], '--max-semi-space-size-other')).toEqual(['--max-semi-space-size=32']);
  });
});
