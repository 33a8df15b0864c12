// The workspace walk in steps: a walk left at a pause (its folder set replaced meanwhile) changes
// nothing in the session; a walk that ends finds the trees and names the folders past its bound.

import { describe, expect, it } from 'vitest';
import { runSteps } from '../../../server/src/util/steps.js';
import { Session } from '../../../server/src/workspace/session.js';
import { generatedPackage } from '../../helpers/generatedPackage.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

describe('the workspace walk in steps', () => {
  it('changes nothing until its last step', () => {
    const a = generatedPackage(40);
    const b = generatedPackage(30);
    const session = new Session({ fs: nodeFileSystem, folders: [a.dir] });
    const [first] = session.scanWorkspace();
    session.check(first!);
    session.setFolders([b.dir]);
    const before = session.kept();
    const steps = session.scanWorkspaceSteps();
    let paused = 0;
    while (paused < 1 && !steps.next().done) paused += 1;
    expect(paused).toBe(1);
    // Abandoned here: the tree of `a` is still there, `b` not found, nothing marked due.
    expect(session.treeIds().map((t) => t.root)).toEqual([a.dir]);
    expect(session.kept()).toEqual(before);
    expect(session.dirtyTrees()).toEqual([]);
    const ended = runSteps(session.scanWorkspaceSteps());
    expect(ended.trees.map((t) => t.root)).toEqual([b.dir]);
    expect(ended.truncated).toEqual([]);
    expect(session.treeIds().map((t) => t.root)).toEqual([b.dir]);
  });

  it('names a folder holding more files than its bound', () => {
    const a = generatedPackage(40);
    const session = new Session({ fs: nodeFileSystem, folders: [a.dir] });
    expect(runSteps(session.scanWorkspaceSteps(10)).truncated).toEqual([a.dir]);
    expect(runSteps(session.scanWorkspaceSteps(1000)).truncated).toEqual([]);
  });
});
