// `mthds serve`: the built-in method runner over HTTP (MTHDS protocol 0.6.0). The first line on
// stdout is the URL clients use (with `--port 0`, the port the system chose); logs go to stderr.
// SIGINT / SIGTERM stop it gracefully: no new connections, requests in flight finish.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, readConfigFile, startRunner, type RunnerOptions } from '../runner/index.js';

interface Writable {
  write(text: string): unknown;
}

export const SERVE_USAGE = `Usage: mthds serve [--port 8080] [--host 127.0.0.1] [--base-path /v1] [--config FILE] [--functions FILE]... [--queue redis://HOST:PORT]

Serves the MTHDS runner protocol 0.6.0. The config file (JSON, or TOML when it ends in .toml)
sets limits, bearer tokens, rate limits, callbacks and the model deck; MTHDS_RUNNER_TOKENS adds
bearer tokens (comma-separated). Without a configured provider, every model is the deterministic
mock. --functions (repeatable) adds a function module (an ES module registering the functions
PipeFunc pipes call) to those of the config file. --queue puts started runs on a Redis queue
(BullMQ) for \`mthds worker\` processes instead of running them in this process; their state and
results are then read from Redis by any server. Prints the runner URL on the first line of stdout.`;

/** The options `serve` and `worker` share: the config file, function modules and the queue. */
export function commonOptions(
  command: string,
  values: { config?: string | undefined; functions?: string[] | undefined; queue?: string | undefined },
  stderr: Writable,
): RunnerOptions | undefined {
  let options: RunnerOptions = {};
  try {
    if (values.config) options = readConfigFile(values.config);
  } catch (error) {
    stderr.write(`mthds ${command}: cannot read ${values.config}: ${error instanceof ConfigError ? error.problems.join('; ') : error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
  // Function modules of the command line are relative to the working folder.
  if (values.functions) options.functions = [...(Array.isArray(options.functions) ? options.functions : []), ...values.functions.map((f) => path.resolve(f))];
  if (values.queue !== undefined) options.runs = { ...(options.runs ?? {}), queue: values.queue };
  options.log = (line) => stderr.write(`${line}\n`);
  return options;
}

/** Resolves on the first SIGINT or SIGTERM (after calling `stop`); a second one resolves 130 at once. */
export function untilSignal(command: string, stderr: Writable, stop: () => Promise<void>): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: string): void => {
      if (stopping) {
        // A second signal: the operator wants out now.
        resolve(130);
        return;
      }
      stopping = true;
      stderr.write(`mthds ${command}: ${signal} received, stopping\n`);
      void stop().then(() => resolve(0));
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
  });
}

export async function runServe(args: string[], stdout: Writable, stderr: Writable): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'base-path': { type: 'string' },
        config: { type: 'string' },
        functions: { type: 'string', multiple: true },
        queue: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    stderr.write(`mthds serve: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  const options = commonOptions('serve', parsed.values, stderr);
  if (!options) return 2;
  if (parsed.values.port !== undefined) {
    const port = Number(parsed.values.port);
    if (!/^\d+$/.test(parsed.values.port) || port > 65535) {
      stderr.write(`mthds serve: --port must be a number from 0 to 65535\n`);
      return 2;
    }
    options.port = port;
  }
  if (parsed.values.host !== undefined) options.host = parsed.values.host;
  if (parsed.values['base-path'] !== undefined) options.base_path = parsed.values['base-path'];

  let runner;
  try {
    runner = await startRunner(options);
  } catch (error) {
    stderr.write(`mthds serve: ${error instanceof ConfigError ? error.problems.join('\n  ') : error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  stdout.write(`${runner.url}\n`);
  stderr.write(`mthds runner listening on ${runner.url}\n`);
  return untilSignal('serve', stderr, () => runner.close());
}
