// `mthds serve`: the built-in method runner over HTTP (MTHDS protocol 0.6.0). The first line on
// stdout is the URL clients use (with `--port 0`, the port the system chose); logs go to stderr.
// SIGINT / SIGTERM stop it gracefully: no new connections, requests in flight finish.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, readConfigFile, startRunner, type RunnerOptions } from '../runner/index.js';

interface Writable {
  write(text: string): unknown;
}

export const SERVE_USAGE = `Usage: mthds serve [--port 8080] [--host 127.0.0.1] [--base-path /v1] [--config FILE] [--functions FILE]... [--library DIR | -L DIR]... [--structures FILE]

Serves the MTHDS runner protocol 0.6.0. The config file (JSON, or TOML when it ends in .toml)
sets limits, bearer tokens, rate limits, callbacks and the model deck; MTHDS_RUNNER_TOKENS adds
bearer tokens (comma-separated). Without a configured provider, every model is the deterministic
mock. --functions (repeatable) adds a function module (an ES module registering the functions
PipeFunc pipes call) to those of the config file. --library / -L (repeatable) adds a folder searched
for packages that references name by address; --structures names a structures file (the fields of
structures the host binds to description-only concepts). Prints the runner URL on the first line
of stdout.`;

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
        library: { type: 'string', short: 'L', multiple: true },
        structures: { type: 'string' },
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
  if (parsed.values.library) options.libraries = [...(Array.isArray(options.libraries) ? options.libraries : []), ...parsed.values.library.map((d) => path.resolve(d))];
  if (parsed.values.structures !== undefined) options.structures = path.resolve(parsed.values.structures);
  options.log = (line) => stderr.write(`${line}\n`);

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
