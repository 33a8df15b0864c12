// Where the language server's worker is started from. On vscode.dev and github.dev the extension
// is served over https, and the web extension host starts a worker from that URL. An extension
// installed on a remote server (code-server, or any remote window whose web worker extension host
// runs it) has a `vscode-remote:` URI instead, and the host refuses a worker from one ("Creating
// workers from remote extensions is currently not supported.": VS Code's
// src/vs/workbench/api/worker/extensionHostWorker.ts); the script is then read through the
// editor's file system, which reaches the remote, and the worker starts from a `blob:` URL of the
// host's own origin.

import * as vscode from 'vscode';

/** Schemes the web extension host starts a worker from itself (it maps `file:` to its app scheme). */
const LOADABLE = new Set(['http', 'https', 'file']);

export interface WorkerScript {
  readonly url: string;
  /** Frees the `blob:` URL, if one was made (once its worker is gone). */
  dispose(): void;
}

/** A URL the browser's `Worker` accepts for `script`; `read` reads the file when the URL will not do. */
export async function workerScript(script: vscode.Uri, read: (uri: vscode.Uri) => Thenable<Uint8Array> = (uri) => vscode.workspace.fs.readFile(uri)): Promise<WorkerScript> {
  if (LOADABLE.has(script.scheme)) return { url: script.toString(true), dispose: () => undefined };
  const bytes = await read(script);
  const url = URL.createObjectURL(new Blob([bytes], { type: 'text/javascript' }));
  return { url, dispose: () => URL.revokeObjectURL(url) };
}
