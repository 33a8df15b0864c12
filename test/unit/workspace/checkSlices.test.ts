// An editor's check of a tree pauses often enough that no step runs long: after every 8 files
// parsed and every 4 bundles checked (a bundle's rules take up to a millisecond or two on a loaded
// machine, and a step runs to its end whatever the clock of its slice says).

import { describe, expect, it } from 'vitest';
import { Session } from '../../../server/src/workspace/session.js';
import { generatedPackage } from '../../helpers/generatedPackage.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

describe("an editor's check of a large tree", () => {
  it('pauses at least once per 4 bundles checked, beside the pauses of parsing', () => {
    const count = 400;
    const { dir } = generatedPackage(count);
    const session = new Session({ fs: nodeFileSystem, folders: [dir] });
    const [id] = session.scanWorkspace();
    const steps = session.checkSteps(id!);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses += 1;
    expect(step.value.findings.size).toBe(count + 1);
    expect(pauses).toBeGreaterThanOrEqual(count / 8 + count / 4);
  });
});
