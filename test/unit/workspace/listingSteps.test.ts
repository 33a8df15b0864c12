// Listing a large tree's files again (a file created or deleted on disk) is done in steps that an
// editor's check yields between: a folder read per step, and a few hundred of its entries per
// step. A change told between two of those steps is not lost: the next check lists again.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { walkFiles, walkFilesSteps } from '../../../server/src/workspace/discover.js';
import { Session } from '../../../server/src/workspace/session.js';
import { generatedPackage } from '../../helpers/generatedPackage.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const bundle = (i: number): string => `domain = "d"\ndescription = "Bundle ${i}"\n\n[concept.Note${i}]\ndescription = "A note"\n`;

/** A package of `folders` folders of `perFolder` bundles each. */
function bigPackage(folders: number, perFolder: number): string {
  return generatedPackage(folders * perFolder, { folders, text: bundle }).dir;
}

/** Counts the folder reads made in each step of `steps` (the last entry: after the last pause). */
function readsPerStep<T>(steps: Generator<void, T>): { perStep: number[]; value: T } {
  let reads = 0;
  const real = nodeFileSystem.readFolder.bind(nodeFileSystem);
  vi.spyOn(nodeFileSystem, 'readFolder').mockImplementation((dir: string) => {
    reads += 1;
    return real(dir);
  });
  const perStep: number[] = [];
  for (;;) {
    const step = steps.next();
    perStep.push(reads);
    reads = 0;
    if (step.done) return { perStep, value: step.value };
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('listing a tree in steps', () => {
  it('reads one folder per step and pauses within a folder of many entries; the files are those of walkFiles', () => {
    const dir = bigPackage(3, 600);
    const whole = walkFiles(nodeFileSystem, dir);
    const { perStep, value } = readsPerStep(walkFilesSteps(nodeFileSystem, dir));
    expect(value).toEqual(whole);
    expect(value.files).toHaveLength(3 * 600 + 1);
    expect(Math.max(...perStep)).toBe(1);
    // Four folder reads, and at least two pauses within each folder of 600 entries.
    expect(perStep.length).toBeGreaterThanOrEqual(4 + 3 * 2);
  });

  it("is how an editor's check lists a tree again: never more than one folder read in a step", () => {
    const dir = bigPackage(4, 300);
    const session = new Session({ fs: nodeFileSystem, folders: [dir] });
    const [id] = session.scanWorkspace();
    const { perStep, value } = readsPerStep(session.checkSteps(id!));
    expect(perStep.reduce((a, b) => a + b, 0)).toBe(5);
    expect(Math.max(...perStep)).toBe(1);
    expect(value.findings.size).toBe(4 * 300 + 1);
  });

  it('lists again at the next check when a file was created between two steps of the listing', () => {
    const dir = bigPackage(2, 300);
    const session = new Session({ fs: nodeFileSystem, folders: [dir] });
    const [id] = session.scanWorkspace();
    const steps = session.checkSteps(id!);
    // Up to the read of the second folder: the first one's entries are listed already.
    let reads = 0;
    const real = nodeFileSystem.readFolder.bind(nodeFileSystem);
    vi.spyOn(nodeFileSystem, 'readFolder').mockImplementation((d: string) => {
      reads += 1;
      return real(d);
    });
    while (reads < 3) steps.next();
    const created = path.join(dir, 'group0', 'late.mthds');
    writeFileSync(created, bundle(9999));
    session.diskChanged(created, 'created');
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(step.value.findings.has(created)).toBe(false);
    // The check under way missed it; the tree is due again, and its next check has it.
    expect(session.isDirty(id!.key)).toBe(true);
    expect(session.check(id!).findings.has(created)).toBe(true);
  });
});
