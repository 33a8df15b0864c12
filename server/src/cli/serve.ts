// `mthds serve`: the built-in method runner over HTTP (MTHDS protocol 0.6.0). The first line on
// stdout is the URL clients use (with `--port 0`, the port the system chose); logs go to stderr.
// SIGINT / SIGTERM stop it gracefully: no new connections, requests in flight finish.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, readConfigFile, startRunner, type RunnerOptions } from '../runner/index.js';

interface Writable {
  write(text: string): unknown;
}

export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'base-path': { type: 'string' },
  config: { type: 'string' },
  functions: { type: 'string', multiple: true },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const SERVE_USAGE = `Usage: mthds serve [options]

Serves the MTHDS runner protocol 0.6.0 over HTTP: POST /execute, /start, /validate, GET /models,
/version under the base path. Every error is an RFC 7807 problem with a registry code. Prints the
runner URL on the first line of stdout; logs go to stderr, one line per request (time, method,
path, status, duration, request id, the client's User-Agent). SIGINT or SIGTERM stops it gracefully
(requests in flight finish). Without a configured provider, every model is the deterministic mock.

Options:
  --port N             TCP port (default 8080; 0: a free port, printed on the first line).
  --host ADDRESS       Address to listen on (default 127.0.0.1).
  --base-path PATH     Prefix of the routes (default /v1).
  --config FILE        Runner configuration (JSON, or TOML when it ends in .toml): limits, bearer
                       tokens, rate limits, callbacks, network guard, package store, the model deck.
  --functions FILE     A function module registering PipeFunc functions (repeatable, relative to
                       the working folder; added to those of the config file).
  -q, --quiet          Leave out the per-request log lines (faults and lifecycle lines stay).
  -h, --help           Show this help.

Environment:
  MTHDS_RUNNER_TOKENS  Bearer tokens, comma-separated (none anywhere: anonymous access).
  MTHDS_PACKAGES_DIR   The package store of installed methods and dependencies.

Exit status:
  0  stopped by SIGINT or SIGTERM
  2  usage error, unreadable configuration, or the port could not be opened
  130  a second signal while stopping

Examples:
  mthds serve
  mthds serve --port 0 --config runner.toml
  MTHDS_RUNNER_TOKENS=secret mthds serve --host 0.0.0.0 --port 8080`;

export async function runServe(args: string[], stdout: Writable, stderr: Writable): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: SERVE_OPTIONS,
    });
  } catch (error) {
    stderr.write(`mthds serve: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  let options: RunnerOptions = {};
  try {
    if (parsed.values.config) options = readConfigFile(parsed.values.config);
  } catch (error) {
    stderr.write(`mthds serve: cannot read ${parsed.values.config}: ${error instanceof ConfigError ? error.problems.join('; ') : error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
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
  // Function modules of the command line are relative to the working folder.
  if (parsed.values.functions) options.functions = [...(Array.isArray(options.functions) ? options.functions : []), ...parsed.values.functions.map((f) => path.resolve(f))];
  options.log = (line) => stderr.write(`${line}\n`);
  if (!parsed.values.quiet) options.request_log = options.log;

  let runner;
  try {
    runner = await startRunner(options);
  } catch (error) {
    stderr.write(`mthds serve: ${error instanceof ConfigError ? error.problems.join('\n  ') : error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  stdout.write(`${runner.url}\n`);
  stderr.write(`mthds runner listening on ${runner.url}\n`);
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        // A second signal: the operator wants out now.
        resolve(130);
        return;
      }
      stopping = true;
      stderr.write(`mthds serve: ${signal} received, stopping\n`);
      void runner.close().then(() => resolve(0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
