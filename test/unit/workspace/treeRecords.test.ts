// One record per tree (workspace/treeRecords.ts) over documents the trees share
// (workspace/documents.ts): a tree dropped is one record deleted and the parses of its own files,
// the other trees keep theirs; a file's parse serves whichever tree reads it; a check abandoned
// after its tree went leaves nothing in any record.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSteps } from '../../../server/src/util/steps.js';
import { Documents } from '../../../server/src/workspace/documents.js';
import { TreeChecks } from '../../../server/src/workspace/treeChecks.js';
import { TreeLocator, treeId } from '../../../server/src/workspace/treeLocator.js';
import { TreeRecords } from '../../../server/src/workspace/treeRecords.js';
import { Session } from '../../../server/src/workspace/session.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem.js';
import type { FileSystem } from '../../../server/src/workspace/fileSystem.js';
import { PACKAGE_MANIFEST, generatedBundle, generatedPackage } from '../../helpers/generatedPackage.js';

/** The layers of a session, wired as the session wires them. */
function layers(folders: string[], fs: FileSystem = nodeFileSystem): { documents: Documents; records: TreeRecords; checks: TreeChecks; locator: TreeLocator } {
  const holder: { documents?: Documents } = {};
  const locator = new TreeLocator(fs, folders, (file) => holder.documents?.isOpen(file) ?? false);
  const documents = new Documents(fs, (file) => locator.locate(file).key, false);
  holder.documents = documents;
  const records = new TreeRecords();
  const checks = new TreeChecks(documents, records, locator, { validateDisk: false, packagesDir: undefined, dependencyRecheckMs: 2000, keepParsed: 32 * 2 ** 20 });
  return { documents, records, checks, locator };
}

const NO_RECORD = { trees: 0, results: 0, states: 0, checkCaches: 0, dependencyMemos: 0, dirty: 0, listings: 0, treeSizes: 0, checkCounts: 0 };

describe('the records of the trees', () => {
  it('drops one tree as one record and its own parses; the other tree keeps its record whole', () => {
    const a = generatedPackage(12);
    const b = generatedPackage(8);
    const { documents, records, checks, locator } = layers([a.dir, b.dir]);
    const idA = locator.locate(a.files[0]!);
    const idB = locator.locate(b.files[0]!);
    checks.check(idA);
    const checkB = checks.check(idB);
    const recordB = records.get(idB.key)!;
    expect(records.kept()).toEqual({ trees: 2, results: 2, states: 2, checkCaches: 2, dependencyMemos: 2, dirty: 0, listings: 2, treeSizes: 2, checkCounts: 2 });
    expect(documents.kept().parsed).toBe(12 + 1 + 8 + 1);

    checks.forgetTree(idA.key);
    expect(records.has(idA.key)).toBe(false);
    expect(records.kept()).toEqual({ trees: 1, results: 1, states: 1, checkCaches: 1, dependencyMemos: 1, dirty: 0, listings: 1, treeSizes: 1, checkCounts: 1 });
    expect(documents.kept()).toEqual({ parsed: 8 + 1, previousParses: 0 });
    // The record left is the same object with everything in it.
    expect(records.get(idB.key)).toBe(recordB);
    expect(recordB.check).toBe(checkB);
    expect(checkB.tree?.bundles).toHaveLength(8);

    checks.forgetTree(idB.key);
    expect(records.kept()).toEqual(NO_RECORD);
    expect(documents.kept()).toEqual({ parsed: 0, previousParses: 0 });
  });

  it('keeps the parse of an open document when its tree goes, for the tree that holds it next', () => {
    const a = generatedPackage(5);
    const { documents, records, checks, locator } = layers([a.dir]);
    const file = a.files[2]!;
    documents.setBuffer(file, a.texts[2]!);
    const id = locator.locate(file);
    checks.check(id);
    const parses = documents.parses;
    checks.forgetTree(id.key);
    expect(records.kept()).toEqual(NO_RECORD);
    expect(documents.kept().parsed).toBe(1);
    // Checked again, only the files that are not open are parsed again.
    checks.check(id);
    expect(documents.parses - parses).toBe(4 + 1);
  });

  it('reads a file once for two trees in turn: a folder that becomes a package reuses its parses', () => {
    const a = generatedPackage(6);
    // A plain folder of bundles, in a workspace: a tree of kind folder.
    const folder = path.join(a.dir, 'group0');
    const { documents, checks, locator, records } = layers([folder]);
    const before = locator.locate(a.files[0]!);
    expect(before.kind).toBe('folder');
    checks.check(before);
    const parses = documents.parses;
    expect(parses).toBe(6);
    // A manifest in the folder: the same files are now another tree's.
    writeFileSync(path.join(folder, 'METHODS.toml'), PACKAGE_MANIFEST);
    locator.invalidate();
    const after = locator.locate(a.files[0]!);
    expect(after.kind).toBe('package');
    expect(after.key).not.toBe(before.key);
    const check = checks.check(after);
    expect(check.tree?.bundles).toHaveLength(6);
    // Only the manifest was parsed: the bundles' parses are the documents', not the first tree's.
    expect(documents.parses - parses).toBe(1);
    expect(records.kept().trees).toBe(2);
  });

  it('reads through the file system it is given: in memory, a change re-reads that file only, a tree dropped leaves nothing', () => {
    const fs = new MemoryFileSystem([
      ['/ws/a/METHODS.toml', PACKAGE_MANIFEST],
      ['/ws/b/METHODS.toml', PACKAGE_MANIFEST],
      ...Array.from({ length: 6 }, (_, i) => [`/ws/${i % 2 === 0 ? 'a' : 'b'}/bundle${i}.mthds`, generatedBundle(i)] as [string, string]),
    ]);
    const { documents, records, checks, locator } = layers(['/ws'], fs);
    const a = locator.locate('/ws/a/bundle0.mthds');
    const b = locator.locate('/ws/b/bundle1.mthds');
    expect([a.kind, a.root, b.root]).toEqual(['package', '/ws/a', '/ws/b']);
    const first = checks.check(a);
    expect([...first.findings.keys()].sort()).toEqual(['/ws/a/METHODS.toml', '/ws/a/bundle0.mthds', '/ws/a/bundle2.mthds', '/ws/a/bundle4.mthds']);
    expect(first.findings.get('/ws/a/bundle2.mthds')!.map((f) => f.code)).not.toContain('method.concept_unresolved');
    checks.check(b);
    expect(documents.kept().parsed).toBe(8);
    // A concept reference that does not resolve, written to the memory: the next check reads that file only.
    const broken = `${generatedBundle(2)}\n[pipe.extra]\ntype = "PipeCompose"\ndescription = "Extra"\ninputs = { x = "NoSuchConcept" }\noutput = "Text"\ntemplate = "$x"\n`;
    fs.write('/ws/a/bundle2.mthds', broken);
    documents.forgetParse('/ws/a/bundle2.mthds', true);
    documents.changed('/ws/a/bundle2.mthds');
    records.markDirty(a.key);
    const parses = documents.parses;
    const again = checks.check(a);
    expect(documents.parses - parses).toBe(1);
    expect(again.changed?.has('/ws/a/bundle2.mthds')).toBe(true);
    expect(again.findings.get('/ws/a/bundle2.mthds')!.map((f) => f.code)).toContain('method.concept_unresolved');
    checks.forgetTree(a.key);
    expect(records.kept()).toMatchObject({ trees: 1, results: 1, checkCaches: 1 });
    expect(documents.kept()).toEqual({ parsed: 4, previousParses: 0 });
  });

  it('orders the trees due for a check by when they became due; a check clears only its own marking', () => {
    const records = new TreeRecords();
    const [x, y, z] = ['/w/x', '/w/y', '/w/z'].map((root) => treeId('folder', root));
    for (const id of [x!, y!, z!]) records.register(id);
    records.markDirty(y!.key);
    records.markDirty(x!.key);
    records.markDirty(y!.key);
    expect(records.dirtyTrees().map((t) => t.root)).toEqual(['/w/y', '/w/x']);
    // A check that began at one marking ends after another: the tree stays due.
    const mark = records.markOf(x!.key);
    records.markDirty(x!.key);
    records.checked(x!.key, mark);
    expect(records.isDirty(x!.key)).toBe(true);
    records.checked(x!.key, records.markOf(x!.key));
    expect(records.isDirty(x!.key)).toBe(false);
    // A tree the records do not know is never due.
    records.markDirty('folder:/w/unknown');
    expect(records.isDirty('folder:/w/unknown')).toBe(false);
    // Replaced by a walk: the records of trees found again stay, in the walk's order, all due.
    const kept = records.get(y!.key)!;
    records.delete(x!.key);
    records.replaceAll([z!, y!]);
    expect(records.ids().map((t) => t.root)).toEqual(['/w/z', '/w/y']);
    expect(records.get(y!.key)).toBe(kept);
    expect(records.dirtyTrees().map((t) => t.root)).toEqual(['/w/y', '/w/z']);
  });
});

describe('a check abandoned after its tree went', () => {
  it('leaves nothing in any record, wherever it stopped', () => {
    const a = generatedPackage(40);
    // How many steps a whole check takes.
    const whole = new Session({ fs: nodeFileSystem, folders: [a.dir] });
    const steps = whole.checkSteps(whole.scanWorkspace()[0]!);
    let total = 0;
    while (!steps.next().done) total += 1;
    expect(total).toBeGreaterThan(10);
    for (const goneAt of [2, Math.floor(total / 2)]) {
      const session = new Session({ fs: nodeFileSystem, folders: [a.dir] });
      const [id] = session.scanWorkspace();
      const check = session.checkSteps(id!);
      for (let i = 0; i < goneAt; i++) check.next();
      session.setFolders([]);
      session.scanWorkspace();
      // Stepped on to its last pause, never ended: its listing, size, dependencies and check
      // cache have no record to go to.
      for (let i = goneAt; i < total; i++) expect(check.next().done).toBe(false);
      expect(session.kept()).toMatchObject(NO_RECORD);
      // Ended, it takes the parses it read with it.
      runSteps(check);
      expect(session.kept()).toEqual({ ...NO_RECORD, parsed: 0, previousParses: 0 });
    }
  });
});
