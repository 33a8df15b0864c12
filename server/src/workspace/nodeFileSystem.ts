// The desktop's file system: node:fs, read the way the tools have always read the disk (method
// files through readText.ts, which refuses FIFOs, devices and oversized files before reading).

import { existsSync, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import type { EntryKind, EntryStat, FileSystem, FolderEntry } from './fileSystem.js';
import { readMethodFile, specialKind } from './readText.js';

function entryStat(stat: Stats): EntryStat {
  const kind: EntryKind = stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'special';
  const out: EntryStat = { kind, size: stat.size, mtimeMs: stat.mtimeMs };
  if (kind === 'special') out.special = specialKind(stat);
  return out;
}

export const nodeFileSystem: FileSystem = {
  stat(path: string): EntryStat | undefined {
    try {
      return entryStat(statSync(path));
    } catch {
      return undefined;
    }
  },
  lstat(path: string): EntryStat | undefined {
    try {
      return entryStat(lstatSync(path));
    } catch {
      return undefined;
    }
  },
  exists(path: string): boolean {
    return existsSync(path);
  },
  readFolder(path: string): FolderEntry[] {
    return readdirSync(path, { withFileTypes: true }).map((e) => ({
      name: e.name,
      kind: e.isSymbolicLink() ? 'link' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'special',
    }));
  },
  readMethodFile,
  home: () => homedir(),
  packagesReachable: true,
};
