// `mthds serve`: the built-in method runner over HTTP (MTHDS protocol 0.6.0). The first line on
// stdout is the URL clients use (with `--port 0`, the port the system chose); logs go to stderr.
// SIGINT / SIGTERM stop it gracefully: no new connections, requests in flight finish.

import cluster, { type Worker } from 'node:cluster';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { answerStoreCalls, isListening, primaryStores, PrimaryLeases, workerExecArgv, type ListeningMessage } from '../runner/cluster.js';
import { RateLimiter } from '../runner/rateLimit.js';
import { ConfigError, configWarnings, readConfigFile, resolveConfig, startRunner, type RunnerOptions } from '../runner/index.js';
import { localStores } from '../runner/sharedStores.js';
import { MemoryRunStore } from '../runner/lifecycle/store.js';

/** Set by the primary in the environment of the workers it forks. */
const WORKER_ENV = 'MTHDS_SERVE_WORKER';

interface Writable {
  write(text: string): unknown;
}

export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'base-path': { type: 'string' },
  config: { type: 'string' },
  functions: { type: 'string', multiple: true },
  library: { type: 'string', short: 'L', multiple: true },
  structures: { type: 'string' },
  queue: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  workers: { type: 'string' },
  'no-warm-up': { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const SERVE_USAGE = `Usage: mthds serve [options]

Serves the MTHDS runner protocol 0.6.0 over HTTP: POST /execute, /start, /validate, GET /models,
/version under the base path, the reads of started runs (GET /runs/{id}/status and
/runs/{id}/results) and GET /health at the origin. Every error is an RFC 7807 problem with a registry code. Prints the
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
  -L, --library DIR    A library folder searched recursively for packages that references name by
                       address (repeatable; added to the config file's libraries).
  --structures FILE    Host structures (TOML): the fields of structures the host program binds to
                       description-only concepts.
  --allow-origin ORIGIN
                       Let browser pages of ORIGIN call the runner (CORS; repeatable, added to the
                       config file's cors.allow_origins): an origin (https://vscode.dev), a
                       subdomain pattern (https://*.vscode-cdn.net: where vscode.dev and github.dev
                       run extensions), or * (only with bearer tokens). Default: none.
  --queue URL          redis://HOST:PORT: put started runs (/start, and /execute past its wait) on
                       a Redis queue (BullMQ) for \`mthds worker\` processes instead of running them
                       here; run state, results and idempotency keys live in Redis, so any server
                       answers reads for any run.
  --workers N          Serve with N processes on one port (default: the number of cores; 1 serves
                       in this process alone). Idempotency keys, rate limits and started runs are
                       held by the primary process and shared by all workers: any worker answers
                       the reads of any run. The URL is printed when the first worker listens.
  --no-warm-up         Listen at once: skip the warm-up, in which each serving process first runs
                       /validate on generated bundles (2.5 s of CPU, 5 s at most however busy
                       the cores; config: warm_up = MS sets the CPU budget) so that its first
                       clients do not wait on the compiler (config: warm_up = false).
  -q, --quiet          Leave out the per-request log lines (faults and lifecycle lines stay).
  -h, --help           Show this help.

Environment:
  MTHDS_RUNNER_TOKENS  Bearer tokens, comma-separated (none anywhere: anonymous access).
  MTHDS_PACKAGES_DIR   The package store of installed methods and dependencies.
  MTHDS_RUNNER_ALLOW_ORIGINS
                       Origins allowed as with --allow-origin, comma-separated.

Exit status:
  0  stopped by SIGINT or SIGTERM
  2  usage error, unreadable configuration (an unknown key included), or the port could not be
     opened (a taken port is found before the warm-up)
  130  a second signal while stopping

Examples:
  mthds serve
  mthds serve --port 0 --config runner.toml
  MTHDS_RUNNER_TOKENS=secret mthds serve --host 0.0.0.0 --port 8080
  MTHDS_RUNNER_TOKENS=secret mthds serve --allow-origin 'https://*.vscode-cdn.net'`;


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
    stderr.write(`mthds ${command}: cannot read ${values.config}: ${describe(error, '; ')}\n`);
    return undefined;
  }
  if (values.functions) options.functions = withPaths(options.functions, values.functions);
  if (values.queue !== undefined) options.runs = { ...(options.runs ?? {}), queue: values.queue };
  options.log = (line) => stderr.write(`${line}\n`);
  return options;
}

/** Origins allowed from the environment (comma-separated), read by `serve` only: the runners started inside the editors never allow any. */
const ALLOW_ORIGINS_ENV = 'MTHDS_RUNNER_ALLOW_ORIGINS';

function originsOfEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Adds origins to the config file's cors.allow_origins (a malformed table is left for resolveConfig to report). */
function allowOrigins(options: RunnerOptions, origins: string[]): void {
  if (origins.length === 0) return;
  const cors = options.cors ?? {};
  if (typeof cors !== 'object' || cors === null || Array.isArray(cors)) return;
  const fromFile = cors.allow_origins;
  if (fromFile !== undefined && !Array.isArray(fromFile)) return;
  options.cors = { ...cors, allow_origins: [...(fromFile ?? []), ...origins] };
}

/** The config file's paths, then those of the command line (relative to the working folder). */
function withPaths(fromFile: string[] | undefined, fromCommandLine: string[]): string[] {
  return [...(Array.isArray(fromFile) ? fromFile : []), ...fromCommandLine.map((p) => path.resolve(p))];
}

/**
 * Resolves when the first SIGINT / SIGTERM has stopped the work (`stop`'s status, default 0); a
 * second signal means the operator wants out now (`now`, then 130).
 */
export function untilSignal(command: string, stderr: Writable, stop: () => Promise<number | void>, now?: () => void): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: string): void => {
      if (stopping) {
        now?.();
        resolve(130);
        return;
      }
      stopping = true;
      stderr.write(`mthds ${command}: ${signal} received, stopping\n`);
      void stop().then((status) => resolve(status ?? 0));
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
  let workers = availableParallelism();
  if (parsed.values.workers !== undefined) {
    workers = Number(parsed.values.workers);
    if (!/^\d+$/.test(parsed.values.workers) || workers < 1 || workers > 256) {
      stderr.write(`mthds serve: --workers must be a number from 1 to 256\n`);
      return 2;
    }
  }
  if (parsed.values.host !== undefined) options.host = parsed.values.host;
  if (parsed.values['base-path'] !== undefined) options.base_path = parsed.values['base-path'];
  if (parsed.values.library) options.libraries = withPaths(options.libraries, parsed.values.library);
  if (parsed.values.structures !== undefined) options.structures = path.resolve(parsed.values.structures);
  allowOrigins(options, [...originsOfEnv(process.env[ALLOW_ORIGINS_ENV]), ...(parsed.values['allow-origin'] ?? [])]);
  if (!parsed.values.quiet) options.request_log = options.log;
  if (parsed.values['no-warm-up']) options.warm_up = false;
  else options.warm_up ??= true;

  if (cluster.isWorker && process.env[WORKER_ENV] === '1') return serveWorker(options, stderr);
  // A port taken is found before any warm-up (seconds of it), not after.
  const taken = await portTaken(options.host ?? '127.0.0.1', options.port ?? 8080);
  if (taken) {
    stderr.write(`mthds serve: cannot listen on ${options.host ?? '127.0.0.1'}:${options.port ?? 8080}: ${taken}\n`);
    return 2;
  }
  if (workers > 1) return servePrimary(options, workers, stdout, stderr);

  let runner;
  try {
    runner = await startRunner(options);
  } catch (error) {
    stderr.write(`mthds serve: ${describe(error)}\n`);
    return 2;
  }
  stdout.write(`${runner.url}\n`);
  stderr.write(`mthds runner listening on ${runner.url}\n`);
  return untilSignal('serve', stderr, () => runner.close());
}

/**
 * Why `host:port` cannot be listened on (in use, not an address of this machine, not allowed), or
 * undefined when it can: a listener opened and closed at once. Port 0 is always free.
 */
export function portTaken(host: string, port: number): Promise<string | undefined> {
  if (port === 0 || typeof host !== 'string' || typeof port !== 'number') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE' ? 'the port is in use (EADDRINUSE)' : error.message));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/** An error of startup for stderr: a configuration's problems one after the other (`separator`). */
export function describe(error: unknown, separator = '\n  '): string {
  return error instanceof ConfigError ? error.problems.join(separator) : error instanceof Error ? error.message : String(error);
}

/**
 * The primary of `--workers N`: checks the configuration, forks the workers, holds the shared
 * stores they reach over IPC, prints the URL once every worker listens, forks a worker again
 * when one dies, and stops them all on a signal. It serves no HTTP itself.
 */
async function servePrimary(options: RunnerOptions, workers: number, stdout: Writable, stderr: Writable): Promise<number> {
  let config;
  try {
    config = resolveConfig(options);
  } catch (error) {
    stderr.write(`mthds serve: ${describe(error)}\n`);
    return 2;
  }
  // One run store for every worker: a run started through one is read through any other.
  for (const line of configWarnings(config)) stderr.write(`warning: ${line}\n`);
  const stores = { ...localStores(config), runs: new MemoryRunStore(config.runs.retentionSeconds) };
  const leases = config.rateLimit ? new PrimaryLeases(new RateLimiter(config.rateLimit.limit, config.rateLimit.windowSeconds)) : undefined;
  let url: string | undefined;
  // The URL is printed as soon as a worker listens: from then on the port serves (the cluster hands
  // connections only to workers that listen), and the others join as their warm-up ends.
  const pending = new Set<Worker>();
  let allListen = false;
  let stopping = false;
  let status = 0;
  return new Promise<number>((resolve) => {
    const live = new Set<Worker>();
    const fork = (): void => {
      const worker = cluster.fork({ [WORKER_ENV]: '1' });
      live.add(worker);
      if (url === undefined) pending.add(worker);
      leases?.attach(worker);
      answerStoreCalls(worker, stores, leases);
      worker.on('message', (message: unknown) => {
        if (!isListening(message)) return;
        pending.delete(worker);
        if (url === undefined) {
          url = message.url;
          stdout.write(`${url}\n`);
          stderr.write(`mthds runner listening on ${url} (${workers} worker processes)\n`);
        }
        if (pending.size === 0 && !allListen) {
          allListen = true;
          stderr.write(`mthds serve: all ${workers} worker processes listen\n`);
        }
      });
      worker.on('exit', (code, signal) => {
        live.delete(worker);
        if (stopping) {
          if (live.size === 0) resolve(status);
          return;
        }
        if (url === undefined || pending.has(worker)) {
          // A worker of the first set that never listened: the port, the host or a function module
          // is at fault, and every other worker meets the same fault. Its own message is on stderr already.
          stopping = true;
          status = 2;
          for (const other of live) other.process.kill('SIGTERM');
          if (live.size === 0) resolve(status);
          return;
        }
        stderr.write(`mthds serve: worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
        fork();
      });
    };
    cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, process.env['NODE_OPTIONS']) });
    for (let i = 0; i < workers; i++) fork();
    void untilSignal(
      'serve',
      stderr,
      () => {
        stopping = true;
        // Each worker stops gracefully (requests in flight finish) and exits; the last exit resolves.
        for (const worker of live) worker.process.kill('SIGTERM');
        return live.size === 0 ? Promise.resolve(0) : new Promise<number>(() => {});
      },
      () => {
        for (const worker of live) worker.process.kill('SIGKILL');
      },
    ).then((code) => resolve(code));
  });
}

/** A worker of `--workers N`: serves with the primary's stores and reports its URL to it. */
async function serveWorker(options: RunnerOptions, stderr: Writable): Promise<number> {
  // A message to a primary that is gone (its output closed, or killed) fails with EPIPE on the
  // cluster's channel: nobody is left to serve for, so the worker leaves quietly.
  cluster.worker?.on('error', () => process.exit(0));
  let runner;
  try {
    const config = resolveConfig(options);
    runner = await startRunner({ ...options, startup_warnings: false }, primaryStores(config.rateLimit));
  } catch (error) {
    stderr.write(`mthds serve: ${describe(error)}\n`);
    leaveCluster();
    return 2;
  }
  const listening: ListeningMessage = { mthds: 'listening', url: runner.url };
  process.send?.(listening, undefined, {}, () => undefined);
  const stop = async (): Promise<number> => {
    await runner.close();
    leaveCluster();
    return 0;
  };
  return new Promise<number>((resolve) => {
    let stopping = false;
    // The primary relays the operator's signal; a terminal's Ctrl-C reaches the workers as well.
    const onSignal = (): void => {
      if (stopping) return;
      stopping = true;
      void stop().then(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // The primary gone: nobody holds the shared stores any more.
    process.once('disconnect', onSignal);
  });
}

/** Closes a worker's channel to the primary, which would otherwise keep the process alive. */
function leaveCluster(): void {
  if (process.connected) process.disconnect();
}
