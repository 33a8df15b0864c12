// Bundles changed on disk read and parsed ahead of their update (the language server does it while
// a burst of file events goes on): the update then reads none of them again, and checks the same
// as a session that read them itself.

import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FileSystem } from '../../../server/src/workspace/fileSystem.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';
import { Session } from '../../../server/src/workspace/session.js';
import { runSteps } from '../../../server/src/util/steps.js';
import { generatedBundle, generatedPackage } from '../../helpers/generatedPackage.js';

/** The node file system, counting the method files read. */
function countingFs(): { fs: FileSystem; reads: () => number } {
  let reads = 0;
  const fs: FileSystem = Object.create(nodeFileSystem) as FileSystem;
  fs.readMethodFile = (file: string) => {
    reads += 1;
    return nodeFileSystem.readMethodFile(file);
  };
  return { fs, reads: () => reads };
}

const findingsOf = (session: Session, id: Parameters<Session['check']>[0]): string[] =>
  [...session.check(id).findings].flatMap(([file, list]) => list.map((f) => `${file} ${f.code} ${f.range.start} ${f.message}`)).sort();

describe('bundles changed on disk, read ahead of their update', () => {
  it('are not read again by the update, which checks what a session reading them itself finds', () => {
    const count = 60;
    const { dir, files } = generatedPackage(count);
    const { fs, reads } = countingFs();
    const session = new Session({ fs, folders: [dir] });
    const [id] = session.scanWorkspace();
    session.check(id!);
    // A third of the bundles rewritten: another domain, a pipe renamed (its callers break).
    const changed = files.filter((_, i) => i % 3 === 0);
    for (const file of changed) {
      const i = files.indexOf(file);
      writeFileSync(file, generatedBundle(i).replace(/domain = "d\d+"/, `domain = "d${(i + 1) % 10}"`).replace(/\[pipe\.(\w+)\]/, '[pipe.$1_renamed]'));
      session.diskChanged(file, 'changed');
    }
    const before = reads();
    // With a file changed twice, an open file and a file of no tree among them: each read once at most.
    runSteps(session.preloadSteps([...changed, changed[0]!, `${dir}/elsewhere/none.mthds`]));
    expect(reads() - before).toBe(changed.length + 1);
    const afterPreload = reads();
    const updated = findingsOf(session, id!);
    expect(reads()).toBe(afterPreload);
    const fresh = new Session({ fs: nodeFileSystem, folders: [dir] });
    const [freshId] = fresh.scanWorkspace();
    expect(updated).toEqual(findingsOf(fresh, freshId!));
    expect(updated.length).toBeGreaterThan(0);
  });

  it('leave open files to their buffers and read a file changed again after its preload', () => {
    const { dir, files } = generatedPackage(10);
    const { fs, reads } = countingFs();
    const session = new Session({ fs, folders: [dir] });
    const [id] = session.scanWorkspace();
    session.check(id!);
    session.setDocument(files[1]!, generatedBundle(1));
    for (const file of files.slice(0, 3)) {
      writeFileSync(file, `${generatedBundle(files.indexOf(file))}\n# changed\n`);
      session.diskChanged(file, 'changed');
    }
    const before = reads();
    runSteps(session.preloadSteps(files.slice(0, 3)));
    expect(reads() - before).toBe(2);
    // Changed again after it was read ahead: the update reads the new text.
    writeFileSync(files[0]!, 'domain = "broken\n');
    session.diskChanged(files[0]!, 'changed');
    const codes = session.check(id!).findings.get(files[0]!)?.map((f) => f.code) ?? [];
    expect(codes).toContain('method.syntax');
  });
});
