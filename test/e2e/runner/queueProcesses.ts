// Processes of a queued runner for the end-to-end tests: `mthds serve --queue` and `mthds worker`
// from the built CLI, each with a config file, waited for until they say they are ready.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BIN as BIN } from '../../helpers/cli.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

export interface Proc {
  child: ChildProcess;
  /** The first stdout line (the runner URL, or the worker's ready line). */
  line: string;
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function writeConfig(config: unknown): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mthds-queue-'));
  const file = path.join(dir, 'runner.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

function start(args: string[], env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const kill = (signal: NodeJS.Signals = 'SIGKILL'): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start: ${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve({ child, line: out.slice(0, nl), stderr: () => err, kill });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${code}): ${err}`));
    });
  });
}

export function startServe(queue: string, port: number, config: string, env: Record<string, string> = {}, extra: string[] = []): Promise<Proc> {
  return start(['serve', '--port', String(port), '--no-warm-up', '--queue', queue, '--config', config, ...extra], env);
}

export function startWorkerProcess(queue: string, concurrency: number, config: string, env: Record<string, string> = {}): Promise<Proc> {
  return start(['worker', '--queue', queue, '--concurrency', String(concurrency), '--config', config], env);
}
