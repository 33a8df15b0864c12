#!/usr/bin/env node
// Over stdio the thread reading stdin starts first, gated, and boots while the server's code is
// compiled; the server takes it over (dist/server.js, lsp/stdinReader.ts EARLY_STDIN_WORKER).
import { Worker } from 'node:worker_threads';

const args = process.argv.slice(2);
if (args.includes('--stdio') && !args.some((a) => ['--help', '-h', '--version', '-v'].includes(a))) {
  globalThis[Symbol.for('mthds.earlyStdinWorker')] = new Worker(new URL('../dist/stdinWorker.js', import.meta.url), { workerData: { gated: true } });
}
await import('../dist/server.js');
