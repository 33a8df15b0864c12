// The method files of the workspace, read through the editor's file system (vscode.workspace.fs:
// the virtual file systems of github.dev and vscode.dev included) for the language server's worker,
// which cannot read them itself: a bounded walk of each workspace folder at start, then what a file
// watcher sees. Each batch goes to the worker as one `mthds/files` notification.

import * as vscode from 'vscode';
import type { FileChange, WalkBound } from '../../../server/src/protocol/browserFiles.js';
import { holdsReadableMethods } from '../../../server/src/language/spec/folders.js';
import { LOCK_FILE, MANIFEST_FILE } from '../../../server/src/language/spec/manifest.js';

/** The most files a walk reads (method files) and the most folders it lists. */
const MAX_FILES = 5_000;
const MAX_FOLDERS = 20_000;
export const METHOD_GLOB = '**/{*.mthds,METHODS.toml,methods.lock}';

export function isMethodFileName(name: string): boolean {
  return name.endsWith('.mthds') || name === MANIFEST_FILE || name === LOCK_FILE;
}

const decoder = new TextDecoder('utf-8');

async function readChange(uri: vscode.Uri): Promise<FileChange | undefined> {
  try {
    return { uri: uri.toString(), text: decoder.decode(await vscode.workspace.fs.readFile(uri)) };
  } catch {
    // Gone between the listing and the read: the watcher tells its deletion.
    return undefined;
  }
}

/** The last segment of a URI's path. */
function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

/**
 * Every method file below the workspace folders, read, and the folders that could not be listed.
 * The folders skipped are the desktop's, but for the installed methods (`.mthds/methods/`), which
 * the desktop reads as dependencies from the workspace and the worker can read only if sent. A walk
 * stopped at its bound tells `bound` which workspace folder it was in, for the worker to say so.
 */
export async function readWorkspace(folders: readonly vscode.Uri[], log: (line: string) => void, bound?: (stop: WalkBound) => void): Promise<FileChange[]> {
  const out: FileChange[] = [];
  const queue = folders.map((uri) => ({ uri, root: uri }));
  let listed = 0;
  let files = 0;
  while (queue.length > 0) {
    const { uri: dir, root } = queue.shift()!;
    if (++listed > MAX_FOLDERS) {
      log(`mthds: the workspace holds more than ${MAX_FOLDERS} folders; the others are not read`);
      bound?.({ folder: root.toString(), limit: MAX_FOLDERS, counted: 'folders' });
      break;
    }
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(dir);
    } catch {
      out.push({ uri: dir.toString(), unreadable: true });
      continue;
    }
    const parent = dir === root ? undefined : baseName(dir);
    for (const [name, type] of entries) {
      const uri = vscode.Uri.joinPath(dir, name);
      // Symbolic links are not followed, as on the desktop.
      if (type & vscode.FileType.SymbolicLink) continue;
      if (type === vscode.FileType.Directory) {
        if (holdsReadableMethods(parent, name)) queue.push({ uri, root });
      } else if (type === vscode.FileType.File && isMethodFileName(name)) {
        if (++files > MAX_FILES) {
          log(`mthds: the workspace holds more than ${MAX_FILES} method files; the others are not read`);
          bound?.({ folder: root.toString(), limit: MAX_FILES, counted: 'method files' });
          return out;
        }
        const change = await readChange(uri);
        if (change) out.push(change);
      }
    }
  }
  return out;
}

/** Whether a file at this path is one the walk reads (no skipped folder on its way). */
export function isWalked(path: string): boolean {
  const segments = path.split('/').filter((segment) => segment !== '');
  return segments.slice(0, -1).every((name, i) => holdsReadableMethods(i === 0 ? undefined : segments[i - 1], name));
}

/** Sends each created, changed or deleted method file to `send` (a few at a time). */
export function watchWorkspace(send: (changes: FileChange[]) => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(METHOD_GLOB);
  // The glob cannot leave folders out: a file the walk never sent is not sent on a change either.
  const walked = (uri: vscode.Uri): boolean => isWalked(uri.path);
  const changed = async (uri: vscode.Uri): Promise<void> => {
    if (!walked(uri)) return;
    const change = await readChange(uri);
    if (change) send([change]);
  };
  watcher.onDidCreate(changed);
  watcher.onDidChange(changed);
  watcher.onDidDelete((uri) => {
    if (walked(uri)) send([{ uri: uri.toString(), deleted: true }]);
  });
  return watcher;
}
