// What the tests with real editors (Neovim, Emacs) share: the built server on PATH under the name
// docs/editors.md gives it, running an editor process to its end, and that page's snippets.

import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '../..');
export const SERVER = path.join(REPO, 'server/bin/mthds-language-server.js');

/** A folder with `mthds-language-server` in it, as `npm install -g ./server` would put on PATH. */
export function serverOnPath(): string {
  const bin = mkdtempSync(path.join(tmpdir(), 'mthds-bin-'));
  const shim = path.join(bin, 'mthds-language-server');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${SERVER}" "$@"\n`);
  chmodSync(shim, 0o755);
  return bin;
}

/** Runs an editor to its end (killed after `timeoutMs`); its stderr for the failure messages. */
export function runEditor(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', () => undefined);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} did not finish within ${options.timeoutMs / 1000} s\n${stderr}`));
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** Every fenced block of docs/editors.md (the editors' page) in `language`. */
export function readmeBlocks(language: string): string[] {
  const readme = readFileSync(path.join(REPO, 'docs/editors.md'), 'utf8');
  return [...readme.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/** The fenced block of docs/editors.md in `language` whose first line is `first`. */
export function readmeSnippet(language: string, first: string): string {
  const block = readmeBlocks(language).find((b) => b.startsWith(`${first}\n`));
  if (!block) throw new Error(`docs/editors.md has no ${language} block starting with "${first}"`);
  return block;
}
