// The workspace walks of a folder set that changes: a walk asked for later replaces the one under
// way (which ends with nothing found and changes nothing); a folder past the bound is told once.

import { describe, expect, it } from 'vitest';
import { FolderScans } from '../../../server/src/lsp/folderScans.js';
import { oneTurn } from '../../../server/src/lsp/messageTurns.js';
import { Session } from '../../../server/src/workspace/session.js';
import { generatedPackage } from '../../helpers/generatedPackage.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

describe('folder scans', () => {
  it('stops a walk replaced by a later one; only the set that stands is walked to its end', async () => {
    const a = generatedPackage(40);
    const b = generatedPackage(30);
    const session = new Session({ fs: nodeFileSystem, folders: [a.dir] });
    const told: string[] = [];
    const scans = new FolderScans(session, { pause: oneTurn, maxFiles: () => 100_000, truncated: (f) => told.push(f) });
    const first = scans.rescan();
    session.setFolders([b.dir]);
    const second = scans.rescan();
    expect(await first).toBeUndefined();
    expect((await second)!.map((t) => t.root)).toEqual([b.dir]);
    expect(scans.superseded).toBe(1);
    expect(session.treeIds().map((t) => t.root)).toEqual([b.dir]);
    expect((await scans.settled()).map((t) => t.root)).toEqual([b.dir]);
    expect(told).toEqual([]);
  });

  it('tells a folder past the bound once per bound', async () => {
    const a = generatedPackage(40);
    const session = new Session({ fs: nodeFileSystem, folders: [a.dir] });
    const told: Array<[string, number]> = [];
    let bound = 10;
    const scans = new FolderScans(session, { pause: oneTurn, maxFiles: () => bound, truncated: (f, n) => told.push([f, n]) });
    await scans.rescan();
    await scans.rescan();
    expect(told).toEqual([[a.dir, 10]]);
    bound = 20;
    await scans.rescan();
    expect(told).toEqual([[a.dir, 10], [a.dir, 20]]);
  });
});
