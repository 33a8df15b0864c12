// `mthds serve` starting as operators start it (default workers, warm-up on): a port that is taken
// is found before any warm-up, with exit status 2 and a message naming the address; the URL is
// printed as soon as the port serves, not once every worker has warmed up.

import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN as BIN } from '../../helpers/cli.js';

const REPO = path.dirname(path.dirname(path.dirname(BIN)));

function serve(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('mthds serve start-up', () => {
  it('finds its port taken before warming up, with the default workers and with one process', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      for (const extra of [[], ['--workers', '1']]) {
        const r = await serve(['--port', String(port), ...extra]);
        expect(r.status).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`mthds serve: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE)`);
        // Nothing started: no worker forked, no warm-up run.
        expect(r.stderr).not.toContain('warm-up:');
      }
    } finally {
      holder.close();
    }
  }, 60_000);

  it('prints the URL when the first worker listens, then says when all of them do', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--workers', '2'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
      });
      // The port serves as soon as the URL is out.
      expect((await fetch(`${url}/version`)).status).toBe(200);
      while (!stderr.includes('all 2 worker processes listen')) await new Promise((r) => setTimeout(r, 50));
      const lines = stderr.split('\n');
      const listening = lines.findIndex((l) => l.includes('mthds runner listening on'));
      const all = lines.findIndex((l) => l.includes('all 2 worker processes listen'));
      expect(listening).toBeGreaterThanOrEqual(0);
      expect(all).toBeGreaterThan(listening);
      // One warm-up line per worker: at least one of them after the URL (it was still warming up).
      const warmUps = lines.map((l, i) => (l.startsWith('warm-up:') ? i : -1)).filter((i) => i >= 0);
      expect(warmUps).toHaveLength(2);
      expect(warmUps[0]!).toBeLessThan(listening);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
