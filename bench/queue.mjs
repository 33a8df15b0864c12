// Throughput of queued runs (`npm run bench:queue`, builds first): /start -> COMPLETED through a
// Redis queue, with 1 and then 2 workers. A private redis-server (free loopback port, no
// persistence), the built CLI as processes (`mthds serve --queue`, `mthds worker`), the mock
// provider with no latency (MTHDS_MOCK_LATENCY_MS=0). RUNS runs (default 200) of the hello method
// are started by CLIENTS concurrent clients (default 20), then every run's status is polled until
// all are COMPLETED; the figure is runs per second from the first /start to the last COMPLETED.
// WORKER_CONCURRENCY (default 4) is each worker's --concurrency. Exits 1 when a run does not
// complete. Load generator, server, workers and Redis share the machine's cores: report `uptime`.

import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(REPO, 'server/bin/mthds.js');
const RUNS = Number(process.env.RUNS ?? 200);
const CLIENTS = Number(process.env.CLIENTS ?? 20);
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 4);

const HELLO = 'domain = "hello"\nmain_pipe = "greet"\n\n[pipe.greet]\ntype = "PipeLLM"\ndescription = "Greet someone"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Say hello to $name."\n';

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function start(cmd, args, env = {}) {
  const child = spawn(cmd, args, { cwd: REPO, env: { ...process.env, MTHDS_MOCK_LATENCY_MS: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
  return { child, line };
}

async function waitRedis(port) {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('error', () => resolve(false));
      s.once('connect', () => s.write('PING\r\n'));
      s.once('data', (d) => (s.destroy(), resolve(String(d).startsWith('+PONG'))));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start');
}

async function measure(workers) {
  const redisPort = await freePort();
  const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const procs = [redis];
  try {
    await waitRedis(redisPort);
    const queue = `redis://127.0.0.1:${redisPort}`;
    const server = start(process.execPath, [BIN, 'serve', '--port', '0', '--queue', queue]);
    procs.push(server.child);
    const base = await server.line;
    for (let i = 0; i < workers; i++) {
      const w = start(process.execPath, [BIN, 'worker', '--queue', queue, '--concurrency', String(CONCURRENCY)]);
      procs.push(w.child);
      await w.line;
    }
    const ids = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < RUNS) {
          const i = next++;
          const res = await fetch(`${base}/start`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: `n${i}` } } }) });
          if (res.status !== 202) throw new Error(`/start answered ${res.status}: ${await res.text()}`);
          ids.push((await res.json()).pipeline_run_id);
        }
      }),
    );
    const accepted = performance.now();
    let pending = ids;
    while (pending.length > 0) {
      const states = await Promise.all(pending.map(async (id) => [id, (await (await fetch(`${base}/runs/${id}/status`)).json()).status]));
      const failed = states.filter(([, s]) => s !== 'COMPLETED' && s !== 'RUNNING' && s !== 'PENDING');
      if (failed.length > 0) throw new Error(`runs ended ${failed[0][1]}`);
      pending = states.filter(([, s]) => s !== 'COMPLETED').map(([id]) => id);
      if (pending.length > 0) await new Promise((r) => setTimeout(r, 20));
    }
    const done = performance.now();
    return { workers, runs: RUNS, acceptSeconds: (accepted - t0) / 1000, totalSeconds: (done - t0) / 1000, runsPerSecond: RUNS / ((done - t0) / 1000) };
  } finally {
    for (const p of procs.reverse()) p.kill('SIGKILL');
  }
}

const rows = [];
for (const workers of [1, 2]) rows.push(await measure(workers));
console.log(`queue throughput: ${RUNS} runs, ${CLIENTS} clients, worker concurrency ${CONCURRENCY}, mock latency 0; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const r of rows) console.log(`  ${r.workers} worker(s): ${r.runsPerSecond.toFixed(1)} runs/s (all accepted in ${r.acceptSeconds.toFixed(2)} s, all COMPLETED in ${r.totalSeconds.toFixed(2)} s)`);
