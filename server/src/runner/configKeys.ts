// The keys a runner configuration may hold, as one tree, so that a misspelt key ([limit],
// [callback], warmup, [model]) is an error with a "did you mean" rather than a setting silently
// ignored. The types of the values are checked by resolveConfig; this only knows the names.

import { suggest } from '../util/suggest.js';
import { MODEL_TYPES } from './deckConfig.js';

/** 'value': any value (checked elsewhere); 'names': a table whose keys are the operator's own names. */
type Shape = 'value' | 'names' | { readonly [key: string]: Shape } | readonly [Shape];

const LIMITS = ['max_body_bytes', 'max_body_bytes_in_flight', 'max_files', 'max_file_bytes', 'max_json_depth', 'body_timeout_ms', 'run_timeout_seconds', 'max_runs_in_flight', 'batch_concurrency'];

function leaves(...keys: string[]): Record<string, Shape> {
  return Object.fromEntries(keys.map((k) => [k, 'value' as const]));
}

const CONFIG_SHAPE: Shape = {
  ...leaves('host', 'port', 'base_path', 'warm_up', 'mock_seed', 'functions', 'packages_dir', 'libraries', 'structures'),
  limits: leaves(...LIMITS),
  auth: { tokens: [leaves('token', 'token_sha256', 'name', 'expires_at', 'scopes')], env: 'value' },
  cors: leaves('allow_origins', 'max_age_seconds'),
  rate_limit: leaves('limit', 'window_seconds'),
  idempotency: leaves('max_entries', 'ttl_seconds', 'max_answer_bytes'),
  validate_cache: leaves('max_entries', 'max_bytes'),
  network: leaves('allow_private', 'download_max_bytes', 'download_timeout_ms'),
  callbacks: leaves('allow_private', 'timeout_ms', 'retries', 'secret_env'),
  models: {
    providers: [{ ...leaves('name', 'base_url', 'api_key_env'), models: [leaves('name', 'type', 'model_id')], timeouts: leaves('connect_ms', 'first_byte_ms', 'total_ms') }],
    aliases: 'names',
    waterfalls: 'names',
    defaults: leaves(...MODEL_TYPES),
    ...leaves('mock', 'mock_latency_ms', 'strict'),
  },
  runs: leaves('queue', 'retention_seconds', 'attempts', 'stall_timeout_ms', 'execute_wait_seconds'),
  // Given programmatically only (startRunner), never in a file.
  ...leaves('dry_run', 'log', 'request_log', 'env', 'startup_warnings'),
};

/** Every key of `config` the runner does not know, as problems with a "did you mean" when one is near. */
export function unknownConfigKeys(config: unknown): string[] {
  const problems: string[] = [];
  const walk = (value: unknown, shape: Shape, where: string): void => {
    if (shape === 'value' || shape === 'names' || value === null || typeof value !== 'object') return;
    if (Array.isArray(shape)) {
      if (Array.isArray(value)) value.forEach((item, i) => walk(item, shape[0]!, `${where}[${i}]`));
      return;
    }
    if (Array.isArray(value)) return;
    const known = shape as { readonly [key: string]: Shape };
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      const path = where === '' ? key : `${where}.${key}`;
      if (Object.hasOwn(known, key)) {
        walk(inner, known[key]!, path);
        continue;
      }
      const near = suggest(key, Object.keys(known), 1)[0];
      problems.push(`unknown key ${path}${where === '' ? '' : ` in [${where}]`}${near ? `: did you mean ${where === '' ? near : `${where}.${near}`}?` : ''}`);
    }
  };
  walk(config, CONFIG_SHAPE, '');
  return problems;
}
