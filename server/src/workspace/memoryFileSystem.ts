// A file system held in memory: posix paths to texts, folders implied by the files below them. The
// browser's language server fills it with what its client reads from the editor's file system;
// tests use it to check trees without a disk. A folder can also be marked unreadable (the client
// could not list it), so that a walk says so instead of finding it empty.

import path from 'node:path';
import { folderError, type EntryStat, type FileSystem, type FolderEntry } from './fileSystem.js';
import { decodeMethodBytes, MAX_FILE_BYTES, type ReadResult } from './methodText.js';

const encoder = new TextEncoder();
/** Posix on every platform: the browser's paths are the URIs' paths. */
const posix = path.posix;

export class MemoryFileSystem implements FileSystem {
  private readonly files = new Map<string, { text: string; mtimeMs: number }>();
  /** Each folder (every ancestor of a file) with the names directly in it. */
  private readonly folders = new Map<string, Set<string>>();
  private readonly unreadable = new Map<string, string>();
  private clock = 0;
  readonly packagesReachable = false;

  constructor(files: Iterable<[string, string]> = []) {
    for (const [path, text] of files) this.write(path, text);
  }

  /** Adds or replaces a file (its folders appear with it). */
  write(path: string, text: string): void {
    const file = posix.resolve(path);
    this.files.set(file, { text, mtimeMs: ++this.clock });
    let child = file;
    for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
      let names = this.folders.get(dir);
      if (!names) this.folders.set(dir, (names = new Set()));
      names.add(posix.basename(child));
      if (dir === child || dir === '/') break;
      child = dir;
    }
  }

  /** Removes a file, or a folder and everything below it; folders left empty go too. */
  remove(path: string): void {
    const target = posix.resolve(path);
    const prefix = target === '/' ? '/' : `${target}/`;
    for (const file of [...this.files.keys()]) if (file === target || file.startsWith(prefix)) this.files.delete(file);
    for (const dir of [...this.folders.keys()]) if (dir === target || dir.startsWith(prefix)) this.folders.delete(dir);
    // Prune the names of what went, up the chain, while folders empty out.
    let child = target;
    for (let dir = posix.dirname(target); child !== dir; child = dir, dir = posix.dirname(dir)) {
      const names = this.folders.get(dir);
      if (!names) break;
      names.delete(posix.basename(child));
      if (names.size > 0 || dir === '/') break;
      this.folders.delete(dir);
    }
  }

  /** Marks a folder as one that could not be listed (`message` completes "the folder ..."). */
  markUnreadable(path: string, code = 'EACCES'): void {
    this.unreadable.set(posix.resolve(path), code);
  }

  textOf(path: string): string | undefined {
    return this.files.get(posix.resolve(path))?.text;
  }

  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  stat(path: string): EntryStat | undefined {
    const p = posix.resolve(path);
    const file = this.files.get(p);
    if (file) return { kind: 'file', size: encoder.encode(file.text).length, mtimeMs: file.mtimeMs };
    return this.folders.has(p) || this.unreadable.has(p) ? { kind: 'directory', size: 0, mtimeMs: 0 } : undefined;
  }

  lstat(path: string): EntryStat | undefined {
    return this.stat(path);
  }

  exists(path: string): boolean {
    return this.stat(path) !== undefined;
  }

  readFolder(path: string): FolderEntry[] {
    const dir = posix.resolve(path);
    const code = this.unreadable.get(dir);
    if (code !== undefined) throw folderError(code, dir);
    const names = this.folders.get(dir);
    if (!names) throw folderError(this.files.has(dir) ? 'ENOTDIR' : 'ENOENT', dir);
    return [...names].map((name) => ({ name, kind: this.files.has(posix.join(dir, name)) ? 'file' : 'directory' }));
  }

  readMethodFile(path: string): ReadResult {
    const p = posix.resolve(path);
    const file = this.files.get(p);
    if (!file) return this.folders.has(p) ? { ok: false, kind: 'directory', message: 'is a directory' } : { ok: false, kind: 'missing', message: 'does not exist' };
    // Judged as the disk's bytes are: the bound counts UTF-8 bytes, a NUL marks a binary file.
    const bytes = encoder.encode(file.text);
    if (bytes.length > MAX_FILE_BYTES) return { ok: false, kind: 'too_large', message: `is too large (more than ${MAX_FILE_BYTES} bytes; the limit is ${MAX_FILE_BYTES})` };
    return decodeMethodBytes(bytes);
  }

  home(): string | undefined {
    return undefined;
  }
}
