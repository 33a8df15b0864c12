// Releasing the parsed documents of trees without an open document goes over every file of them:
// for a large workspace, in steps that the language server yields between (its update ends with it).

import { describe, expect, it } from 'vitest';
import { Session } from '../../../server/src/workspace/session.js';
import { generatedPackage } from '../../helpers/generatedPackage.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const bundle = (i: number): string => `domain = "d"\ndescription = "Bundle ${i}"\n\n[concept.Note${i}]\ndescription = "A note"\n`;

describe('releasing closed trees', () => {
  it('runs in steps of a few hundred files, and keeps the findings', () => {
    const count = 1500;
    const { dir } = generatedPackage(count, { text: bundle });
    const session = new Session({ fs: nodeFileSystem, folders: [dir], keepParsed: 0 });
    const [id] = session.scanWorkspace();
    session.check(id!);
    expect(session.lastCheck(id!.key)?.tree).toBeDefined();
    const steps = session.releaseClosedTreesSteps();
    let pauses = 0;
    while (!steps.next().done) pauses += 1;
    // At least one pause per 512 files.
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(count / 512));
    expect(session.lastCheck(id!.key)?.tree).toBeUndefined();
    expect(session.lastCheck(id!.key)?.findings.size).toBe(count + 1);
  });

  it('keeps the tree when one of its documents is opened between two steps', () => {
    const { dir, files, texts } = generatedPackage(1500, { text: bundle });
    const session = new Session({ fs: nodeFileSystem, folders: [dir], keepParsed: 0 });
    const [id] = session.scanWorkspace();
    session.check(id!);
    const steps = session.releaseClosedTreesSteps();
    steps.next();
    session.setDocument(files[7]!, texts[7]!);
    while (!steps.next().done);
    expect(session.lastCheck(id!.key)?.tree).toBeDefined();
  });
});
