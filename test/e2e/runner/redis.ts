// A private redis-server for the queue tests: a free loopback port, no persistence, stopped by the
// test. CI installs Debian's redis-server and sets MTHDS_REQUIRE_REDIS: there a missing server
// fails the tests instead of skipping them.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from '../../helpers/ports.js';

export function redisAvailable(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    if (process.env['MTHDS_REQUIRE_REDIS']) throw new Error('redis-server is required (MTHDS_REQUIRE_REDIS is set) but `redis-server --version` did not answer');
    return false;
  }
}


export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
  });
}

/** Starts redis-server on `port` (a free one when absent) and waits until it answers. */
export async function startRedis(port?: number): Promise<RedisServer> {
  const p = port ?? (await freePort());
  const child: ChildProcess = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  while (!(await ping(p))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`redis-server did not start on port ${p}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
