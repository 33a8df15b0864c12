// A tree that goes (its workspace folder removed, the last document of a tree outside the
// workspace closed) leaves nothing behind in the session: every per-tree map and the parses of
// its files are counted before and after.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSteps } from '../../../server/src/util/steps.js';
import { Session } from '../../../server/src/workspace/session.js';
import { generatedPackage } from '../../helpers/generatedPackage.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const NONE = { trees: 0, results: 0, states: 0, checkCaches: 0, dependencyMemos: 0, dirty: 0, listings: 0, treeSizes: 0, checkCounts: 0, parsed: 0, previousParses: 0 };

describe('a tree that goes', () => {
  it('leaves no per-tree state and no parse when its folder is removed', () => {
    const a = generatedPackage(40);
    const b = generatedPackage(30);
    const session = new Session({ fs: nodeFileSystem, folders: [a.dir, b.dir] });
    const ids = session.scanWorkspace();
    for (const id of ids) session.check(id);
    const both = session.kept();
    expect(both).toMatchObject({ trees: 2, results: 2, states: 2, checkCaches: 2, treeSizes: 2, checkCounts: 2, parsed: 40 + 30 + 2 });
    // A disk change gives a previous parse to keep (the next parse takes over from it).
    session.diskChanged(b.files[0]!, 'changed');
    session.setFolders([a.dir]);
    session.scanWorkspace();
    for (const id of session.dirtyTrees()) session.check(id);
    const left = session.kept();
    expect(left).toEqual({ ...NONE, trees: 1, results: 1, states: 1, checkCaches: 1, dependencyMemos: left.dependencyMemos, listings: left.listings, treeSizes: 1, checkCounts: 1, parsed: 40 + 1 });
    expect(left.dependencyMemos).toBeLessThanOrEqual(1);
    expect(left.listings).toBeLessThanOrEqual(1);
    // And the last folder gone: nothing at all.
    session.setFolders([]);
    session.scanWorkspace();
    expect(session.kept()).toEqual(NONE);
  });

  it('leaves nothing when the folder goes while its tree is being checked', () => {
    const a = generatedPackage(60);
    const session = new Session({ fs: nodeFileSystem, folders: [a.dir] });
    const [id] = session.scanWorkspace();
    const steps = session.checkSteps(id!);
    for (let i = 0; i < 5; i++) steps.next();
    session.setFolders([]);
    session.scanWorkspace();
    runSteps(steps);
    expect(session.kept()).toEqual(NONE);
  });

  it('leaves nothing when the last document of a tree outside the workspace closes', () => {
    const a = generatedPackage(20);
    const session = new Session({ fs: nodeFileSystem, folders: [] });
    const file = a.files[3]!;
    const id = session.setDocument(file, a.texts[3]!);
    expect(path.dirname(id.root)).toBe(path.dirname(a.dir));
    session.check(id);
    expect(session.kept().parsed).toBe(20 + 1);
    expect(session.closeDocument(file).dropped).toBe(true);
    expect(session.kept()).toEqual(NONE);
  });

  it('knows which trees hold an open document through opens, closes and folder changes', () => {
    const a = generatedPackage(6);
    const b = generatedPackage(6);
    const session = new Session({ fs: nodeFileSystem, folders: [a.dir, b.dir] });
    const all = [...a.files.map((f, i) => [f, a.texts[i]!] as const), ...b.files.map((f, i) => [f, b.texts[i]!] as const)];
    const naive = (key: string): boolean => session.openFiles().some((f) => session.treeOf(f).key === key);
    const keys = [session.treeOf(a.files[0]!).key, session.treeOf(b.files[0]!).key];
    for (let step = 0; step < 200; step++) {
      const [file, text] = all[(step * 7919) % all.length]!;
      if (step % 3 === 2) session.closeDocument(file);
      else session.setDocument(file, text);
      if (step === 100) session.setFolders([a.dir]);
      if (step === 150) session.scanWorkspace();
      for (const key of [...keys, session.treeOf(file).key]) expect(session.hasOpenDocument(key)).toBe(naive(key));
    }
    // The open files among a tree's files, in the order they were opened, both ways of finding them.
    const files = new Set(a.files);
    const expected = session.openFiles().filter((f) => files.has(f));
    expect(session.openAmong(files, files.size, (f) => files.has(f))).toEqual(expected);
    expect(session.openAmong(files, 0, (f) => files.has(f))).toEqual(expected);
  });
});
