// The runner's configuration: one vocabulary (snake_case keys) for the config file (JSON or TOML)
// and for programmatic use (startRunner), checked and completed with defaults in one place.

import type { HostStructures } from '../language/hostStructures.js';
import { readStructures } from '../workspace/structures.js';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parse as parseTomlValue } from 'smol-toml';
import { dryRun } from './dryRun.js';
import { defaultPackagesDir } from '../workspace/dependencies.js';
import type { DryRunHook } from './validate.js';
import { MODEL_TYPES, type DeckConfig, type NetworkPolicy } from './deckConfig.js';
import { unknownConfigKeys } from './configKeys.js';
import { readRegularText } from '../workspace/readText.js';
import { nodeFileSystem } from '../workspace/nodeFileSystem.js';
import { DEFAULT_CORS_MAX_AGE_SECONDS, parseOriginRule, type CorsPolicy, type OriginRule } from './http/cors.js';

export { MODEL_TYPES, type DeckConfig, type ModelType, type NetworkPolicy, type ProviderConfig, type ProviderModelConfig } from './deckConfig.js';

export interface TokenConfig {
  /** The bearer token in clear, or */
  token?: string;
  /** its SHA-256 (hex), so that the config file need not hold the secret. */
  token_sha256?: string;
  name?: string;
  /** ISO 8601; past it the token answers auth.credential_expired. */
  expires_at?: string;
  /** Route tags the token may use: run, validate, discovery. Absent: all. */
  scopes?: string[];
}

export interface RunnerConfig {
  host?: string;
  port?: number;
  /** Path prefix of the protocol routes; clients compose {host}{base_path}/{route}. Default /v1. */
  base_path?: string;
  limits?: {
    max_body_bytes?: number;
    /** Bytes of request bodies received at once by all requests together; past it: mthdsls.runtime.unavailable. */
    max_body_bytes_in_flight?: number;
    /** Entries of mthds_contents or of files. */
    max_files?: number;
    max_file_bytes?: number;
    /** Nesting depth of JSON bodies. */
    max_json_depth?: number;
    /** Time allowed to receive a whole request body. */
    body_timeout_ms?: number;
    /** Time allowed to one run (execute or start). */
    run_timeout_seconds?: number;
    /** Runs executing at once (execute and start together); past it: mthdsls.runtime.unavailable. */
    max_runs_in_flight?: number;
    /** Items of one batch run concurrently. */
    batch_concurrency?: number;
  };
  auth?: {
    tokens?: TokenConfig[];
    /** Also read MTHDS_RUNNER_TOKENS (comma-separated). Default true. */
    env?: boolean;
  };
  /**
   * Browser pages allowed to call the runner (http/cors.ts): exact origins, `scheme://*.domain`
   * subdomain patterns, or `*` (only with bearer tokens). Absent or empty: no cross-origin access.
   */
  cors?: {
    allow_origins?: string[];
    /** How long a browser may keep a preflight's answer. Default 600. */
    max_age_seconds?: number;
  };
  /** Requests per window per credential (anonymous: per client address). Absent: no limit. */
  rate_limit?: { limit: number; window_seconds: number } | null;
  idempotency?: {
    max_entries?: number;
    ttl_seconds?: number;
    /** Answers larger than this are not kept (a replay then answers request.already_executed). */
    max_answer_bytes?: number;
  };
  /**
   * The verdicts of /validate kept by content (see verdictCache.ts), per process. max_entries 0
   * turns the cache off.
   */
  validate_cache?: { max_entries?: number; max_bytes?: number };
  /**
   * Before listening, run /validate on generated bundles (runner/warmUp.ts) so that the first
   * clients do not wait on V8 compiling the verdict's code: true (a budget of
   * DEFAULT_WARM_UP_CPU_MS of CPU time), or the budget in milliseconds (0: none). Default false
   * here; `mthds serve` turns it on unless `--no-warm-up` or `warm_up = false`.
   */
  warm_up?: boolean | number;
  /**
   * Addresses the runner contacts on a caller's behalf: URL inputs (Image and Document contents,
   * checked when a run request arrives) and what a provider downloads for a run.
   */
  network?: {
    /**
     * Allow loopback, private, link-local and other non-public hosts (tests, local setups). Also
     * allows them for callbacks. Default false.
     */
    allow_private?: boolean;
    /** Largest file a run downloads from a URL input (bytes). */
    download_max_bytes?: number;
    /** Time allowed to one download. */
    download_timeout_ms?: number;
  };
  callbacks?: {
    /** Allow callback URLs on loopback, private and link-local hosts (tests, local setups). */
    allow_private?: boolean;
    timeout_ms?: number;
    retries?: number;
    /** Name of the environment variable holding the HMAC secret signing callbacks. */
    secret_env?: string;
  };
  models?: DeckConfig;
  /** Seed mixed into every mock value (runs stay reproducible for one seed). */
  mock_seed?: string;
  /**
   * Function modules (ES modules) registering the functions PipeFunc pipes call. Paths in a config
   * file are relative to its folder; given programmatically, to the working folder.
   */
  functions?: string[];
  /**
   * The package store: installed methods (`method_ref`) and dependency packages, laid out
   * `{dir}/{address}/{version}/`. Default: $MTHDS_PACKAGES_DIR, else ~/.mthds/packages.
   */
  packages_dir?: string;
  /** Library folders searched (recursively) for packages that references name by address (`-L`). */
  libraries?: string[];
  /**
   * A structures file: the fields of structures the host binds to description-only concepts
   * (language/hostStructures.ts).
   */
  structures?: string;
  /** Started runs (/start) and their reads (/runs/{id}/status, /runs/{id}/results). */
  runs?: {
    /** Where runs go: absent runs them in the server process; redis://HOST:PORT queues them (BullMQ). */
    queue?: string;
    /** How long a finished run (and its result) stays readable. Default 86400. */
    retention_seconds?: number;
    /** Times a queued run is taken up before it is given up (its workers kept stopping). Default 3. */
    attempts?: number;
    /** How long a queue worker may stay silent before its run is taken up by another. Default 30000. */
    stall_timeout_ms?: number;
    /** With a queue, how long /execute waits for its run before answering 202. Default 25. */
    execute_wait_seconds?: number;
  };
}

/** Programmatic-only members (not in a config file). */
export interface RunnerOptions extends RunnerConfig {
  /** The dry run of /validate: the built-in one by default, another hook, or false for none. */
  dry_run?: DryRunHook | false;
  /** Where the runner logs server faults and lifecycle lines. Default: stderr. */
  log?: (line: string) => void;
  /** Where the runner logs one line per request (http/accessLog.ts). Default: no request log. */
  request_log?: (line: string) => void;
  /** Environment to read tokens and API keys from. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Log the configuration's warnings at start (default true; the workers of a cluster leave them to the primary). */
  startup_warnings?: boolean;
}

export interface ResolvedToken {
  name: string;
  sha256: Buffer;
  expiresAt?: number;
  scopes?: ReadonlySet<string>;
}

export interface ResolvedConfig {
  host: string;
  port: number;
  basePath: string;
  limits: Required<NonNullable<RunnerConfig['limits']>>;
  tokens: ResolvedToken[];
  /** Absent: no origin allowed, no CORS header sent. */
  cors?: CorsPolicy;
  rateLimit?: { limit: number; windowSeconds: number };
  idempotency: { maxEntries: number; ttlSeconds: number; maxAnswerBytes: number };
  validateCache: { maxEntries: number; maxBytes: number };
  /** CPU milliseconds of warm-up before listening; 0: none. */
  warmUp: number;
  callbacks: { allowPrivate: boolean; timeoutMs: number; retries: number; secret?: string };
  network: NetworkPolicy;
  models: DeckConfig;
  mockSeed: string;
  runs: { queue?: string; retentionSeconds: number; attempts: number; stallTimeoutMs: number; executeWaitSeconds: number };
  /** Absolute paths of the function modules (empty: no function registry, PipeFunc refused). */
  functions: string[];
  /** The package store (absolute). */
  packagesDir: string;
  /** Library folders (absolute). */
  libraries: string[];
  /** The structures file's content, when one is configured. */
  structures?: HostStructures;
  dryRun?: DryRunHook;
  log: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid runner configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

const DEFAULT_LIMITS = {
  max_body_bytes: 16 * 1024 * 1024,
  max_body_bytes_in_flight: 256 * 1024 * 1024,
  max_files: 64,
  max_file_bytes: 1024 * 1024,
  max_json_depth: 64,
  body_timeout_ms: 30_000,
  run_timeout_seconds: 600,
  max_runs_in_flight: 64,
  batch_concurrency: 4,
};

/** Reads a config file: `.toml` as TOML, anything else as JSON. */
export function readConfigFile(file: string): RunnerConfig {
  const read = readRegularText(file);
  if (!read.ok) throw new ConfigError([`the file ${read.message}`]);
  const text = read.text;
  const value: unknown = file.endsWith('.toml') ? parseTomlValue(text) : JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError([`${file} does not hold a table`]);
  const config = value as RunnerConfig;
  // Paths (function modules, folders, files) are named relative to the config file.
  const here = (p: string): string => path.resolve(path.dirname(path.resolve(file)), p);
  if (Array.isArray(config.functions)) config.functions = config.functions.map((f) => (typeof f === 'string' && f !== '' ? here(f) : f));
  if (typeof config.packages_dir === 'string' && config.packages_dir !== '') config.packages_dir = here(config.packages_dir);
  if (Array.isArray(config.libraries)) config.libraries = config.libraries.map((d) => (typeof d === 'string' && d !== '' ? here(d) : d));
  if (typeof config.structures === 'string' && config.structures !== '') config.structures = here(config.structures);
  return config;
}

function sha256Hex(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

function positiveInt(value: unknown, where: string, problems: string[], allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    problems.push(`${where} must be a ${allowZero ? 'non-negative' : 'positive'} integer`);
    return undefined;
  }
  return value;
}

/**
 * The CPU time a serving process spends warming up by default (runner/warmUp.ts). Measured on a
 * fresh process with the built CLI: the warm-up's own requests cost about 5 ms of CPU each at
 * first, 3 ms after one second, 2 ms after two and about 1.7 ms after three; the first 200 distinct
 * 30-pipe bundles served next cost 2.6 ms each after a 1,000 ms budget, 1.8 ms after 2,500 ms and
 * 1.6 ms after 3,500 ms (1.4-1.6 ms once warm). Start-up grows by the budget (the workers of
 * `--workers N` warm up at once).
 */
export const DEFAULT_WARM_UP_CPU_MS = 2500;

/**
 * What a configuration allows but an operator most likely did not mean: a provider whose API key
 * variable is not set (its models answer mthdsls.provider.not_configured until it is).
 */
export function configWarnings(config: ResolvedConfig): string[] {
  const warnings: string[] = [];
  if (config.cors && config.tokens.length === 0) {
    warnings.push('cors.allow_origins lets browser pages call this runner, which has no bearer tokens: any page of those origins can run methods here; configure tokens (auth.tokens or MTHDS_RUNNER_TOKENS)');
  }
  for (const [i, p] of (config.models.providers ?? []).entries()) {
    if (p.api_key_env && !config.env[p.api_key_env]) {
      warnings.push(`models.providers[${i}] (${p.name}): api_key_env names ${p.api_key_env}, which is not set: its models answer mthdsls.provider.not_configured until it is`);
    }
  }
  return warnings;
}

function corsPolicyOf(cors: RunnerConfig['cors'], hasTokens: boolean, problems: string[]): CorsPolicy | undefined {
  if (cors === undefined) return undefined;
  if (typeof cors !== 'object' || cors === null || Array.isArray(cors)) {
    problems.push('cors must be a table');
    return undefined;
  }
  const maxAgeSeconds = positiveInt(cors.max_age_seconds, 'cors.max_age_seconds', problems, true) ?? DEFAULT_CORS_MAX_AGE_SECONDS;
  const values: unknown = cors.allow_origins ?? [];
  if (!Array.isArray(values)) {
    problems.push('cors.allow_origins must be a list of origins');
    return undefined;
  }
  const rules: OriginRule[] = [];
  for (const [i, value] of values.entries()) {
    const read = parseOriginRule(value);
    if (!read.ok) problems.push(`cors.allow_origins[${i}]: ${read.problem}`);
    else if (read.rule.kind === 'any' && !hasTokens) {
      problems.push(`cors.allow_origins[${i}]: "*" needs bearer tokens (auth.tokens or MTHDS_RUNNER_TOKENS): without them any page open in a browser that reaches this runner could run methods on it; name the origins instead`);
    } else rules.push(read.rule);
  }
  return rules.length > 0 ? { rules, maxAgeSeconds } : undefined;
}

/** Checks a configuration and fills in the defaults; throws a ConfigError listing every problem. */
export function resolveConfig(options: RunnerOptions = {}): ResolvedConfig {
  const problems: string[] = unknownConfigKeys(options);
  const env = options.env ?? process.env;
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') problems.push('host must be a non-empty string');
  const port = options.port ?? 8080;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) problems.push('port must be an integer from 0 to 65535');
  let basePath = options.base_path ?? '/v1';
  if (typeof basePath !== 'string' || !/^(\/[A-Za-z0-9._~-]+)*\/?$/.test(basePath)) {
    problems.push('base_path must be a path like /v1 (or empty)');
    basePath = '/v1';
  }
  basePath = basePath.replace(/\/+$/, '');

  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof typeof DEFAULT_LIMITS>) {
    const v = positiveInt(options.limits?.[key], `limits.${key}`, problems);
    if (v !== undefined) limits[key] = v;
  }
  if (options.limits?.max_body_bytes_in_flight === undefined) limits.max_body_bytes_in_flight = Math.max(limits.max_body_bytes_in_flight, limits.max_body_bytes);
  else if (limits.max_body_bytes_in_flight < limits.max_body_bytes) problems.push('limits.max_body_bytes_in_flight must be at least limits.max_body_bytes');

  const tokens: ResolvedToken[] = [];
  for (const [i, t] of (options.auth?.tokens ?? []).entries()) {
    const where = `auth.tokens[${i}]`;
    if (typeof t !== 'object' || t === null) {
      problems.push(`${where} must be a table`);
      continue;
    }
    let sha: Buffer | undefined;
    if (typeof t.token === 'string' && t.token !== '') sha = sha256Hex(t.token);
    else if (typeof t.token_sha256 === 'string' && /^[0-9a-fA-F]{64}$/.test(t.token_sha256)) sha = Buffer.from(t.token_sha256.toLowerCase(), 'hex');
    else {
      problems.push(`${where} needs token or token_sha256 (64 hexadecimal digits)`);
      continue;
    }
    const resolved: ResolvedToken = { name: t.name ?? `token-${i + 1}`, sha256: sha };
    if (t.expires_at !== undefined) {
      const at = typeof t.expires_at === 'string' ? Date.parse(t.expires_at) : Number.NaN;
      if (Number.isNaN(at)) problems.push(`${where}.expires_at must be an ISO 8601 date-time`);
      else resolved.expiresAt = at;
    }
    if (t.scopes !== undefined) {
      if (!Array.isArray(t.scopes) || t.scopes.some((s) => typeof s !== 'string')) problems.push(`${where}.scopes must be a list of strings`);
      else resolved.scopes = new Set(t.scopes);
    }
    tokens.push(resolved);
  }
  if (options.auth?.env !== false) {
    const fromEnv = env['MTHDS_RUNNER_TOKENS'];
    if (fromEnv) {
      fromEnv
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
        .forEach((token, i) => tokens.push({ name: `env-${i + 1}`, sha256: sha256Hex(token) }));
    }
  }

  const cors = corsPolicyOf(options.cors, tokens.length > 0, problems);

  let rateLimit: ResolvedConfig['rateLimit'];
  if (options.rate_limit) {
    const limit = positiveInt(options.rate_limit.limit, 'rate_limit.limit', problems);
    const window = positiveInt(options.rate_limit.window_seconds, 'rate_limit.window_seconds', problems);
    if (limit !== undefined && window !== undefined) rateLimit = { limit, windowSeconds: window };
  }

  const idempotency = {
    maxEntries: positiveInt(options.idempotency?.max_entries, 'idempotency.max_entries', problems) ?? 1000,
    ttlSeconds: positiveInt(options.idempotency?.ttl_seconds, 'idempotency.ttl_seconds', problems) ?? 24 * 3600,
    maxAnswerBytes: positiveInt(options.idempotency?.max_answer_bytes, 'idempotency.max_answer_bytes', problems, true) ?? 1024 * 1024,
  };

  const validateCache = {
    maxEntries: positiveInt(options.validate_cache?.max_entries, 'validate_cache.max_entries', problems, true) ?? 2000,
    maxBytes: positiveInt(options.validate_cache?.max_bytes, 'validate_cache.max_bytes', problems) ?? 64 * 1024 * 1024,
  };

  let warmUp = 0;
  if (options.warm_up === true) warmUp = DEFAULT_WARM_UP_CPU_MS;
  else if (typeof options.warm_up === 'number' && Number.isSafeInteger(options.warm_up) && options.warm_up >= 0) warmUp = options.warm_up;
  else if (options.warm_up !== undefined && options.warm_up !== false) problems.push('warm_up must be a boolean or a non-negative integer (milliseconds of CPU time)');

  const network: NetworkPolicy = {
    allowPrivate: options.network?.allow_private === true,
    downloadMaxBytes: positiveInt(options.network?.download_max_bytes, 'network.download_max_bytes', problems) ?? 20 * 1024 * 1024,
    downloadTimeoutMs: positiveInt(options.network?.download_timeout_ms, 'network.download_timeout_ms', problems) ?? 30_000,
  };
  if (options.network?.allow_private !== undefined && typeof options.network.allow_private !== 'boolean') problems.push('network.allow_private must be a boolean');

  const callbacks: ResolvedConfig['callbacks'] = {
    allowPrivate: options.callbacks?.allow_private === true || network.allowPrivate,
    timeoutMs: positiveInt(options.callbacks?.timeout_ms, 'callbacks.timeout_ms', problems) ?? 10_000,
    retries: positiveInt(options.callbacks?.retries, 'callbacks.retries', problems, true) ?? 2,
  };
  const secretEnv = options.callbacks?.secret_env;
  if (secretEnv !== undefined) {
    const secret = env[secretEnv];
    if (!secret) problems.push(`callbacks.secret_env names ${secretEnv}, which is not set`);
    else callbacks.secret = secret;
  }

  const models = options.models ?? {};
  if (models.mock_latency_ms !== undefined && !(typeof models.mock_latency_ms === 'number' && Number.isFinite(models.mock_latency_ms) && models.mock_latency_ms >= 0)) {
    problems.push('models.mock_latency_ms must be a number of milliseconds from 0');
  }
  for (const [i, p] of (models.providers ?? []).entries()) {
    const where = `models.providers[${i}]`;
    if (typeof p?.name !== 'string' || p.name === '') problems.push(`${where}.name must be a non-empty string`);
    if (typeof p?.base_url !== 'string' || !/^https?:\/\//.test(p.base_url)) problems.push(`${where}.base_url must be an http(s) URL`);
    if (!Array.isArray(p?.models) || p.models.length === 0) problems.push(`${where}.models must list at least one model`);
    for (const [j, m] of (Array.isArray(p?.models) ? p.models : []).entries()) {
      if (typeof m?.name !== 'string' || m.name === '') problems.push(`${where}.models[${j}].name must be a non-empty string`);
      if (!MODEL_TYPES.includes(m?.type)) problems.push(`${where}.models[${j}].type must be one of ${MODEL_TYPES.join(', ')}`);
      // OpenAI-compatible endpoints have no web search API: such a model could only pretend.
      if (m?.type === 'search') problems.push(`${where}.models[${j}]: an OpenAI-compatible provider cannot serve search models`);
    }
    if (p?.timeouts !== undefined && (typeof p.timeouts !== 'object' || p.timeouts === null)) problems.push(`${where}.timeouts must be a table`);
    for (const key of ['connect_ms', 'first_byte_ms', 'total_ms'] as const) positiveInt(p?.timeouts?.[key], `${where}.timeouts.${key}`, problems);
  }

  const functions: string[] = [];
  if (options.functions !== undefined) {
    if (!Array.isArray(options.functions) || options.functions.some((f) => typeof f !== 'string' || f === '')) problems.push('functions must be a list of module paths');
    else functions.push(...options.functions.map((f) => path.resolve(f)));
  }

  if (options.packages_dir !== undefined && (typeof options.packages_dir !== 'string' || options.packages_dir === '')) problems.push('packages_dir must be a folder path');
  const packagesDir = typeof options.packages_dir === 'string' && options.packages_dir !== '' ? path.resolve(options.packages_dir) : defaultPackagesDir(nodeFileSystem, env);

  const libraries: string[] = [];
  if (options.libraries !== undefined) {
    if (!Array.isArray(options.libraries) || options.libraries.some((d) => typeof d !== 'string' || d === '')) problems.push('libraries must be a list of folder paths');
    else libraries.push(...options.libraries.map((d) => path.resolve(d)));
  }
  let structures: HostStructures | undefined;
  if (options.structures !== undefined) {
    if (typeof options.structures !== 'string' || options.structures === '') problems.push('structures must be the path of a structures file');
    else {
      const read = readStructures(nodeFileSystem, path.resolve(options.structures));
      if (!read.ok) problems.push(read.message);
      else {
        for (const f of read.findings.filter((x) => x.severity === 'error')) problems.push(`structures: ${f.code} ${f.message}`);
        structures = read.structures;
      }
    }
  }
  const runs: ResolvedConfig['runs'] = {
    retentionSeconds: positiveInt(options.runs?.retention_seconds, 'runs.retention_seconds', problems) ?? 86_400,
    attempts: positiveInt(options.runs?.attempts, 'runs.attempts', problems) ?? 3,
    stallTimeoutMs: positiveInt(options.runs?.stall_timeout_ms, 'runs.stall_timeout_ms', problems) ?? 30_000,
    executeWaitSeconds: positiveInt(options.runs?.execute_wait_seconds, 'runs.execute_wait_seconds', problems, true) ?? 25,
  };
  if (options.runs?.queue !== undefined) {
    if (typeof options.runs.queue !== 'string' || !/^rediss?:\/\/[^\s]+$/.test(options.runs.queue)) problems.push('runs.queue must be a redis:// URL');
    else runs.queue = options.runs.queue;
  }

  if (problems.length > 0) throw new ConfigError(problems);
  const resolved: ResolvedConfig = {
    host,
    port,
    basePath,
    limits,
    tokens,
    idempotency,
    validateCache,
    warmUp,
    callbacks,
    network,
    models,
    mockSeed: options.mock_seed ?? '',
    runs,
    functions,
    packagesDir,
    libraries,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    env,
  };
  if (rateLimit) resolved.rateLimit = rateLimit;
  if (cors) resolved.cors = cors;
  if (structures) resolved.structures = structures;
  const hook = options.dry_run === undefined ? dryRun : options.dry_run;
  if (hook) resolved.dryRun = hook;
  return resolved;
}
