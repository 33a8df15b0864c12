// Running a process of the project as a user without privileges, so that file modes bite: root
// reads a folder of mode 000 all the same. Not root: the process runs as it is. Root: it runs
// as `nobody` through util-linux's setpriv (a missing setpriv fails, never skips), from a copy
// of the built bundle that user can read (the clone may sit in a folder only root enters).

import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SETPRIV = '/usr/bin/setpriv';
const DIST = path.resolve(__dirname, '../../server/dist');

function asRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Lets any user enter and read a folder made by the tests (mkdtemp makes them private). */
export function shareFolder(dir: string): void {
  chmodSync(dir, 0o755);
}

/**
 * The command line (program first) that runs a built entry point (`cli.js`: `mthds`, `server.js`:
 * the language server) with `args`, without privileges.
 */
export function unprivilegedCommand(entry: 'cli.js' | 'server.js', args: readonly string[]): string[] {
  if (!asRoot()) return [process.execPath, path.join(DIST, entry), ...args];
  if (!existsSync(SETPRIV)) throw new Error(`running as root, and ${SETPRIV} (util-linux) is missing: install util-linux`);
  return [SETPRIV, '--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, sharedCopy(entry), ...args];
}

const copies = new Map<string, string>();

function sharedCopy(entry: string): string {
  let copy = copies.get(entry);
  if (copy) return copy;
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bundle-'));
  shareFolder(dir);
  mkdirSync(path.join(dir, 'dist'), { mode: 0o755 });
  // The bundles are self-contained ES modules: the file and its module type are all they need,
  // and the server the thread that reads its stdin beside it.
  copy = path.join(dir, 'dist', entry);
  copyFileSync(path.join(DIST, entry), copy);
  if (entry === 'server.js') copyFileSync(path.join(DIST, 'stdinWorker.js'), path.join(dir, 'dist', 'stdinWorker.js'));
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  copies.set(entry, copy);
  return copy;
}

/**
 * A folder any user can read holding `ok/news.mthds` (clean) and `locked/broken.mthds` (broken),
 * `locked` of mode 000; `unlock` gives the folder its mode back (for clean-up).
 */
export function lockedWorkspace(): { ws: string; unlock: () => void } {
  const repo = path.resolve(__dirname, '../..');
  const ws = mkdtempSync(path.join(tmpdir(), 'mthds-locked-'));
  shareFolder(ws);
  mkdirSync(path.join(ws, 'ok'));
  copyFileSync(path.join(repo, 'examples/news/news.mthds'), path.join(ws, 'ok', 'news.mthds'));
  mkdirSync(path.join(ws, 'locked'));
  copyFileSync(path.join(repo, 'examples/broken/broken.mthds'), path.join(ws, 'locked', 'broken.mthds'));
  chmodSync(path.join(ws, 'locked'), 0o000);
  return { ws, unlock: () => chmodSync(path.join(ws, 'locked'), 0o755) };
}
