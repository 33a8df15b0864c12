// The language server over stdio for the benchmarks: start it on a folder, wait for its start-up
// check of the workspace, stop it.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// MTHDS_SERVER: another build's entry point (to compare two builds under the same load).
export const SERVER = process.env.MTHDS_SERVER ?? path.join(here, '../server/bin/mthds-language-server.js');

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Starts the server on `folder`; `checked` resolves when its start-up check has ended. */
export async function startServer(folder, { capabilities, initializationOptions, onPublish = () => undefined, trace, onTrace = () => undefined } = {}) {
  // SERVER_NODE_ARGS: flags for the server's node (`--cpu-prof` to profile a run), as in lsp.mjs.
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...(process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  // What the server sent so far (bytes): what a client has to read and parse.
  let sentBytes = 0;
  child.stdout.on('data', (chunk) => (sentBytes += chunk.length));
  let ended;
  const checked = new Promise((r) => (ended = r));
  connection.onNotification('$/progress', (p) => p.value?.kind === 'end' && ended());
  connection.onNotification('textDocument/publishDiagnostics', onPublish);
  connection.onNotification('window/logMessage', () => undefined);
  connection.onNotification('$/logTrace', (p) => onTrace(p.message));
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(folder).href,
    workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'bench' }],
    capabilities,
    initializationOptions,
    ...(trace ? { trace } : {}),
  });
  await connection.sendNotification('initialized', {});
  return { child, connection, checked, spawnedAt, sentBytes: () => sentBytes };
}

/** Shuts the server down cleanly and waits for its process to end. */
export async function stopServer({ child, connection }) {
  try {
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
  } catch {}
  await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  connection.dispose();
}

/** A process's CPU time so far (user + system, ms; /proc, in clock ticks of 10 ms; NaN elsewhere). */
export function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
