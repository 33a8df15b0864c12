// The built CLIs run as processes, the way a user runs them: one place that knows where the bins
// are and how a test spawns them (e2e tests need `npm run build`, which `npm test` does first).

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO } from './files.js';

/** `mthds`, the command-line tool. */
export const CLI_BIN = path.join(REPO, 'server/bin/mthds.js');
/** `mthds-language-server`, the language server over stdio or a socket. */
export const SERVER_BIN = path.join(REPO, 'server/bin/mthds-language-server.js');

export interface CliOptions {
  /** Working folder; the repository by default. */
  cwd?: string;
  /** Added to (and overriding) the test process's environment. */
  env?: Record<string, string>;
  timeout?: number;
  /** Node options before the script, e.g. `--max-old-space-size=256`. */
  nodeArgs?: readonly string[];
  /** Another bin of the repository (`SERVER_BIN`); `mthds` by default. */
  bin?: string;
}

export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a bin to its end with `args` and returns its exit status and output. */
export function runCli(args: readonly string[], options: CliOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [...(options.nodeArgs ?? []), options.bin ?? CLI_BIN, ...args], {
    cwd: options.cwd ?? REPO,
    encoding: 'utf8',
    env: options.env ? { ...process.env, ...options.env } : process.env,
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}
