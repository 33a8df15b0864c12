// The method files of the workspace, read through the editor's file system (vscode.workspace.fs:
// the virtual file systems of github.dev and vscode.dev included) for the language server's worker,
// which cannot read them itself: a bounded walk of each workspace folder at start, then what a file
// watcher sees. Each batch goes to the worker as one `mthds/files` notification.

import * as vscode from 'vscode';
import type { FileChange } from '../../../server/src/protocol/browserFiles.js';

/** Folders never walked (the server skips the same ones; `.mthds` holds installed packages). */
const SKIPPED = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', '.mthds']);
/** The most files a walk reads (method files) and the most folders it lists. */
const MAX_FILES = 5_000;
const MAX_FOLDERS = 20_000;
export const METHOD_GLOB = '**/{*.mthds,METHODS.toml,methods.lock}';

export function isMethodFileName(name: string): boolean {
  return name.endsWith('.mthds') || name === 'METHODS.toml' || name === 'methods.lock';
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

/** Every method file below the workspace folders, read, and the folders that could not be listed. */
export async function readWorkspace(folders: readonly vscode.Uri[], log: (line: string) => void): Promise<FileChange[]> {
  const out: FileChange[] = [];
  const queue = [...folders];
  let listed = 0;
  let files = 0;
  while (queue.length > 0) {
    const dir = queue.shift()!;
    if (++listed > MAX_FOLDERS) {
      log(`mthds: the workspace holds more than ${MAX_FOLDERS} folders; the others are not read`);
      break;
    }
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(dir);
    } catch {
      out.push({ uri: dir.toString(), unreadable: true });
      continue;
    }
    for (const [name, type] of entries) {
      const uri = vscode.Uri.joinPath(dir, name);
      // Symbolic links are not followed, as on the desktop.
      if (type & vscode.FileType.SymbolicLink) continue;
      if (type === vscode.FileType.Directory) {
        if (!SKIPPED.has(name)) queue.push(uri);
      } else if (type === vscode.FileType.File && isMethodFileName(name)) {
        if (++files > MAX_FILES) {
          log(`mthds: the workspace holds more than ${MAX_FILES} method files; the others are not read`);
          return out;
        }
        const change = await readChange(uri);
        if (change) out.push(change);
      }
    }
  }
  return out;
}

/** Sends each created, changed or deleted method file to `send` (a few at a time). */
export function watchWorkspace(send: (changes: FileChange[]) => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(METHOD_GLOB);
  // The glob cannot leave folders out: a file the walk never sent is not sent on a change either.
  const walked = (uri: vscode.Uri): boolean => !uri.path.split('/').some((segment) => SKIPPED.has(segment));
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
