// Which method tree a file belongs to, for an editor session: the nearest METHODS.toml at or above
// it within its workspace folder (a package), else the bundles of its folder (a multi-file library
// loads one folder together), else, for a document that is no file, the document alone.
//
// Lookups are cached per folder because they run on every keystroke; the session clears the cache
// whenever a METHODS.toml appears or disappears.

import path from 'node:path';
import type { FileSystem } from './fileSystem.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';

export type TreeKind = 'package' | 'folder' | 'single';

export interface TreeId {
  kind: TreeKind;
  /** The package folder, the folder of the bundles, or the document's own identity (single). */
  root: string;
  /** A stable key: kind and root. */
  key: string;
}

export function treeId(kind: TreeKind, root: string): TreeId {
  return { kind, root, key: `${kind}:${root}` };
}

/** True when `file` is an absolute path (documents that are no file are known by their URI). */
export function isFilePath(file: string): boolean {
  return path.isAbsolute(file);
}

/** True when `child` is `parent` or lies below it. */
export function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export class TreeLocator {
  private folders: string[] = [];
  private readonly rootOfDir = new Map<string, string | null>();

  constructor(
    private readonly fs: FileSystem,
    folders: readonly string[],
    /** Manifests that exist only as unsaved buffers count as well. */
    private readonly manifestBufferExists: (file: string) => boolean = () => false,
  ) {
    this.setFolders(folders);
  }

  setFolders(folders: readonly string[]): void {
    // Longest first: the innermost workspace folder bounds the search.
    this.folders = [...new Set(folders.map((f) => path.resolve(f)))].sort((a, b) => b.length - a.length);
    this.invalidate();
  }

  getFolders(): readonly string[] {
    return this.folders;
  }

  /** Forgets every cached lookup (a manifest appeared or disappeared, or the folders changed). */
  invalidate(): void {
    this.rootOfDir.clear();
  }

  /** The workspace folder holding `file`, if any. */
  folderOf(file: string): string | undefined {
    return this.folders.find((f) => isWithin(f, file));
  }

  locate(file: string): TreeId {
    if (!isFilePath(file)) return treeId('single', file);
    const dir = path.dirname(file);
    const pkg = this.packageRootOf(dir);
    return pkg !== undefined ? treeId('package', pkg) : treeId('folder', dir);
  }

  /** The folder of the nearest manifest at or above `dir`, bounded by its workspace folder. */
  packageRootOf(dir: string): string | undefined {
    const boundary = this.folderOf(dir);
    const visited: string[] = [];
    let current = dir;
    let found: string | undefined;
    for (;;) {
      const cached = this.rootOfDir.get(current);
      if (cached !== undefined) {
        found = cached ?? undefined;
        break;
      }
      visited.push(current);
      const manifest = path.join(current, MANIFEST_FILE);
      if (this.fs.exists(manifest) || this.manifestBufferExists(manifest)) {
        found = current;
        break;
      }
      // Outside any workspace folder, stop at a repository root like the command line does.
      if (boundary === undefined ? this.fs.exists(path.join(current, '.git')) : current === boundary) break;
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
    for (const v of visited) this.rootOfDir.set(v, found ?? null);
    return found;
  }
}
