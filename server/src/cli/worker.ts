// `mthds worker`: takes started runs from a Redis queue (the one `mthds serve --queue` fills) and
// runs them, --concurrency at once. SIGINT / SIGTERM stop taking runs and let the runs in hand
// finish; a worker killed outright loses nothing (another worker takes its runs up after the
// stall timeout).

import { parseArgs } from 'node:util';
import { startWorker } from '../runner/index.js';
import { commonOptions, describe, untilSignal } from './serve.js';

interface Writable {
  write(text: string): unknown;
}

export const WORKER_USAGE = `Usage: mthds worker --queue redis://HOST:PORT [--concurrency 4] [--config FILE] [--functions FILE]...

Runs the started runs of a Redis queue (BullMQ), as many workers and machines as wanted. The config
file is the runner's (models deck, limits, callbacks, runs.attempts, runs.stall_timeout_ms).`;

export async function runWorker(args: string[], stdout: Writable, stderr: Writable): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        queue: { type: 'string' },
        concurrency: { type: 'string' },
        config: { type: 'string' },
        functions: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    stderr.write(`mthds worker: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    stdout.write(`${WORKER_USAGE}\n`);
    return 0;
  }
  const concurrency = parsed.values.concurrency === undefined ? 4 : Number(parsed.values.concurrency);
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 1000) {
    stderr.write('mthds worker: --concurrency must be a whole number from 1 to 1000\n');
    return 2;
  }
  const options = commonOptions('worker', parsed.values, stderr);
  if (!options) return 2;
  let worker;
  try {
    worker = await startWorker(options, concurrency);
  } catch (error) {
    stderr.write(`mthds worker: ${describe(error)}\n`);
    return 2;
  }
  stdout.write(`worker ready (concurrency ${concurrency})\n`);
  return untilSignal('worker', stderr, () => worker.close());
}
