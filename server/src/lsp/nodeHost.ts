// The desktop's host of the language server: the disk, file URIs, the built-in runner on loopback,
// the dry run, and run outputs saved in the temp folder.

import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startRunner } from '../runner/index.js';
import { dryRunAfterChecks, dryRunDue } from '../runner/dryRun.js';
import { nodeFileSystem } from '../workspace/nodeFileSystem.js';
import type { ServerHost } from './host.js';
import { fileToUri, uriToFile } from './uris.js';
import { builtInCatalog } from './runner/builtInDeck.js';

/** Writes a run's output as a JSON file in the temp folder (the editor opens it). */
function saveRunOutput(pipeCode: string, runId: string, output: unknown): string {
  const dir = path.join(tmpdir(), 'mthds-runs');
  mkdirSync(dir, { recursive: true });
  const safe = (s: string): string => s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80);
  const file = path.join(dir, `${safe(pipeCode)}-${safe(runId || String(Date.now()))}.json`);
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  return pathToFileURL(file).href;
}

export function nodeHost(env: Readonly<Record<string, string | undefined>> = process.env): ServerHost {
  return {
    fs: nodeFileSystem,
    uris: { toFile: uriToFile, toUri: (file) => fileToUri(file) },
    env,
    dryRun: { due: dryRunDue, run: dryRunAfterChecks },
    // Loopback, a free port, anonymous (no token from the environment): it serves this editor only.
    startRunner: (log) => startRunner({ host: '127.0.0.1', port: 0, auth: { env: false }, log }),
    saveRunOutput,
    builtInModels: builtInCatalog,
    watchFiles: true,
  };
}
