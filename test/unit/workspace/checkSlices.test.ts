// An editor's check of a tree pauses often enough that no step runs long: after every 8 files
// parsed and every 4 bundles checked (a bundle's rules take up to a millisecond or two on a loaded
// machine, and a step runs to its end whatever the clock of its slice says).

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../server/src/workspace/session.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { workspaceBundle } from '../../../bench/generate.mjs';

const MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';

describe("an editor's check of a large tree", () => {
  it('pauses at least once per 4 bundles checked, beside the pauses of parsing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-check-slices-'));
    writeFileSync(path.join(dir, 'METHODS.toml'), MANIFEST);
    mkdirSync(path.join(dir, 'all'));
    const count = 400;
    for (let i = 0; i < count; i++) writeFileSync(path.join(dir, 'all', `b${i}.mthds`), (workspaceBundle(i, { pipes: 5, domain: `d${i % 10}` }) as { text: string }).text);
    const session = new Session({ folders: [dir] });
    const [id] = session.scanWorkspace();
    const steps = session.checkSteps(id!);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses += 1;
    expect(step.value.findings.size).toBe(count + 1);
    expect(pauses).toBeGreaterThanOrEqual(count / 8 + count / 4);
  });
});
