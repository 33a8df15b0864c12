// The command line in a pipe whose reader has gone (`mthds check examples/ | head -1`): every
// command stops quietly, with the documented status 141, and never prints a stack trace.

import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN as BIN } from '../helpers/cli.js';

const REPO = path.resolve(__dirname, '../..');

/** Runs the command with its stdout (or stderr) closed by the reader before anything is written. */
function withClosedOutput(args: string[], closed: 'stdout' | 'stderr'): Promise<{ status: number | null; signal: string | null; other: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    // Closing our end of the pipe: the command's next write to it fails with EPIPE.
    child[closed].destroy();
    const open = closed === 'stdout' ? child.stderr : child.stdout;
    let other = '';
    open.setEncoding('utf8');
    open.on('data', (chunk: string) => (other += chunk));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, other }));
  });
}

function unformatted(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-pipe-'));
  for (let i = 0; i < 3; i++) writeFileSync(path.join(dir, `b${i}.mthds`), `domain="d${i}"\n[concept]\nA   =   "An A"\n`);
  return dir;
}

describe('a command whose output is closed', () => {
  it.each([
    ['check', ['check', 'examples/']],
    ['check --format json', ['check', '--format', 'json', 'examples/']],
    ['graph', ['graph', 'examples/']],
    ['format --check', ['format', '--check', unformatted()]],
    ['--help', ['--help']],
    // The runner's first line is its URL: with nobody reading, it stops instead of serving blind.
    // No warm-up here (nor in the burst below): what is measured is the exit, not the start-up.
    ['serve', ['serve', '--port', '0', '--quiet', '--no-warm-up']],
  ])('%s stops quietly with status 141 when stdout is closed', async (_name, args) => {
    const r = await withClosedOutput(args, 'stdout');
    // Nothing about the closed pipe (what the command said on stderr before it noticed may stay).
    expect(r.other).not.toMatch(/EPIPE|Error|internal|\n\s+at /);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(141);
  });

  it('serve stops quietly with 141 in a burst too (its workers may still be starting when it exits)', async () => {
    // One run of eighty used to print a worker's EPIPE stack trace when the runs were started
    // eight at a time: the primary exited while a worker was still in Node's own start-up (which
    // the warm-up, 2.5 s of CPU per worker, would only delay: eight runners would spend 40 s on it).
    const runs = await Promise.all(Array.from({ length: 8 }, () => withClosedOutput(['serve', '--port', '0', '--quiet', '--no-warm-up'], 'stdout')));
    for (const r of runs) {
      expect(r.other).not.toMatch(/EPIPE|Error|internal|\n\s+at /);
      expect(r.status).toBe(141);
    }
  });

  it('stops quietly when stderr is closed too (a usage error written there)', async () => {
    const r = await withClosedOutput(['check', '--format', 'nope'], 'stderr');
    expect(r.other).toBe('');
    expect(r.status).toBe(141);
  });
});
