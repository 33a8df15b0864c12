// How the client starts the bundled server: `server/dist/server.js` of the extension, forked by the
// language client over Node IPC (the `--node-ipc` transport). Pure, for tests.

import path from 'node:path';
import type { DocumentFilter } from 'vscode-languageclient';
import { LANGUAGE_ID, MANIFEST_LANGUAGE_ID } from './commands.js';

/** The server bundle, relative to the extension's root. */
export const SERVER_MODULE = path.join('server', 'dist', 'server.js');

/** Node IPC (TransportKind.ipc in vscode-languageclient). */
export const TRANSPORT_IPC = 1;

export function serverModuleOptions(extensionPath: string, inspectPort = 6009) {
  const module = path.join(extensionPath, SERVER_MODULE);
  return {
    run: { module, transport: TRANSPORT_IPC },
    // "Debug" launches (F5 from this repository) can attach a debugger to the server.
    debug: { module, transport: TRANSPORT_IPC, options: { execArgv: ['--nolazy', `--inspect=${inspectPort}`] } },
  };
}

/**
 * The documents the server reads: bundles, and the package files (`METHODS.toml`, `methods.lock`)
 * whatever language another extension gives them.
 */
export const DOCUMENT_SELECTOR: DocumentFilter[] = [
  { language: LANGUAGE_ID },
  { language: MANIFEST_LANGUAGE_ID },
  { scheme: 'file', pattern: '**/*.mthds' },
  { scheme: 'file', pattern: '**/METHODS.toml' },
  { scheme: 'file', pattern: '**/methods.lock' },
];
