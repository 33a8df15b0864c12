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

export const WORKER_USAGE = `Usage: mthds worker --queue redis://HOST:PORT [options]

Runs the started runs of a Redis queue (BullMQ): the runs that \`mthds serve --queue\` accepted with
/start (and /execute past its wait). Start as many workers, on as many machines, as wanted. The
config file is the runner's: models deck and providers, limits, callbacks, runs.attempts,
runs.stall_timeout_ms. Prints "worker ready (concurrency N)" on stdout once Redis answers (until
then it waits, and says so on stderr); logs go to stderr: a line per run taken up and per run
ended (status, duration, attempt), callbacks, and an outage of Redis once when it starts, every
30 s while it lasts and once when it ends. SIGINT or SIGTERM stops taking runs and lets the runs in
hand finish; a worker killed outright loses nothing: another worker takes its runs up within
runs.stall_timeout_ms (default 30 s).

Options:
  --queue URL          redis://[:PASSWORD@]HOST:PORT[/DB]: the queue to take runs from (or
                       runs.queue in the config file).
  --concurrency N      Runs at once in this process (default 4, 1 to 1000).
  --config FILE        Runner configuration (JSON, or TOML when it ends in .toml).
  --functions FILE     A function module registering PipeFunc functions (repeatable, relative to
                       the working folder; added to those of the config file).
  -h, --help           Show this help.

Environment:
  MTHDS_PACKAGES_DIR   The package store of installed methods and dependencies.
  (and the variables the config file names: providers' api_key_env, callbacks.secret_env)

Exit status:
  0    stopped by SIGINT or SIGTERM (the runs in hand finished; or before Redis answered)
  2    usage error or unreadable configuration
  130  a second signal while stopping

Examples:
  mthds worker --queue redis://127.0.0.1:6379
  mthds worker --queue redis://127.0.0.1:6379 --concurrency 8 --config runner.toml
  mthds worker --config runner.toml --functions ./functions.mjs`;

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
  // Until Redis answers the worker holds no run: a signal then just stops it (status 0).
  const early = (signal: NodeJS.Signals): void => {
    stderr.write(`mthds worker: ${signal} received before Redis answered, stopping\n`);
    process.exit(0);
  };
  process.once('SIGINT', early);
  process.once('SIGTERM', early);
  let worker;
  try {
    worker = await startWorker(options, concurrency);
  } catch (error) {
    stderr.write(`mthds worker: ${describe(error)}\n`);
    return 2;
  } finally {
    process.off('SIGINT', early);
    process.off('SIGTERM', early);
  }
  stdout.write(`worker ready (concurrency ${concurrency})\n`);
  return untilSignal('worker', stderr, () => worker.close());
}
