// The warm-up of a serving process (runner/warmUp.ts): its requests go through the request handler
// and answer what a plain validate answers, cover every pipe type, and leave nothing a client could
// observe (verdict cache, idempotency keys, rate-limit windows, runs).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { PIPE_TYPES } from '../../../server/src/language/spec/pipeTypes.js';
import { DEFAULT_WARM_UP_CPU_MS, resolveConfig, type RunnerOptions } from '../../../server/src/runner/config.js';
import { IdempotencyStore } from '../../../server/src/runner/idempotency.js';
import { loadOptionsOf } from '../../../server/src/runner/method.js';
import { RateLimiter } from '../../../server/src/runner/rateLimit.js';
import { RunRegistry } from '../../../server/src/runner/runs.js';
import { validateContents, type ValidationVerdict } from '../../../server/src/runner/validate.js';
import { VerdictCache } from '../../../server/src/runner/verdictCache.js';
import { warmUp, warmUpBundles, type WarmUpExchange } from '../../../server/src/runner/warmUp.js';

const OPTIONS: RunnerOptions = { env: {}, log: () => {} };

async function exchanges(options: RunnerOptions, rounds: number): Promise<WarmUpExchange[]> {
  const seen: WarmUpExchange[] = [];
  const report = await warmUp(resolveConfig(options), undefined, { rounds, cpuBudgetMs: Number.POSITIVE_INFINITY, onExchange: (e) => seen.push(e) });
  expect(report.rounds).toBe(rounds);
  expect(report.requests).toBe(seen.length);
  expect(report.failed).toBe(0);
  return seen;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('warm-up', () => {
  it('answers every generated bundle byte for byte as a plain validate does', async () => {
    const config = resolveConfig(OPTIONS);
    const seen = await exchanges(OPTIONS, 4);
    expect(seen.length).toBeGreaterThan(PIPE_TYPES.length);
    for (const e of seen) {
      expect(e.status).toBe(200);
      const plain = await validateContents({ kind: 'contents', contents: e.contents }, { allowSignatures: false, ...loadOptionsOf(config), dryRun: config.dryRun! });
      expect(e.body).toBe(JSON.stringify(plain));
    }
  });

  it('covers every pipe type, and runs a valid bundle of every pipe type in the dry run, controllers included, with the deck\'s models', async () => {
    const seen = await exchanges(OPTIONS, 3);
    for (const type of PIPE_TYPES) expect(seen.some((e) => e.contents[0]!.includes(`type = "${type.name}"`)), type.name).toBe(true);
    const valid = seen.filter((e) => /^domain = "warm_up_\d+_valid"/.test(e.contents[0]!));
    expect(valid).toHaveLength(3);
    for (const e of valid) {
      const verdict = JSON.parse(e.body) as ValidationVerdict & { validated_pipes?: Array<{ status: string }> };
      expect(verdict.is_valid).toBe(true);
      // Every pipe of the bundle went through the dry run, as large as a real bundle.
      const pipes = (e.contents[0]!.match(/^\[pipe\./gm) ?? []).length;
      expect(pipes).toBeGreaterThanOrEqual(36);
      expect(verdict.validated_pipes!.length).toBe(pipes);
      expect(verdict.validated_pipes!.every((p) => p.status === 'SUCCESS')).toBe(true);
      for (const type of PIPE_TYPES) expect(e.contents[0]).toContain(`type = "${type.name}"`);
      expect(e.contents[0]).toMatch(/^model = "/m);
    }
  });

  it('makes each round new (codes, descriptions and templates), so that no cache answers it', () => {
    const texts = [0, 1, 2, 3, 8].flatMap((round) => warmUpBundles(round).map((b) => b.text));
    expect(new Set(texts).size).toBe(texts.length);
    // Every eighth round also each pipe type alone.
    expect(warmUpBundles(8)).toHaveLength(1 + PIPE_TYPES.length);
    expect(warmUpBundles(9)).toHaveLength(1);
    // Odd rounds open the templates with Jinja, even ones with text.
    expect(warmUpBundles(1).some((b) => b.text.includes('{% if true %}Variant 1{% endif %}'))).toBe(true);
    expect(warmUpBundles(2).some((b) => b.text.includes('{%'))).toBe(false);
  });

  it('answers with tokens and a rate limit configured, and leaves the verdict cache, idempotency keys, rate limits and runs untouched', async () => {
    const kept: number[] = [];
    const set = VerdictCache.prototype.set;
    vi.spyOn(VerdictCache.prototype, 'set').mockImplementation(function (this: VerdictCache, ...args: Parameters<VerdictCache['set']>) {
      set.apply(this, args);
      kept.push(this.size);
    });
    const limited = vi.spyOn(RateLimiter.prototype, 'check');
    const admitted = vi.spyOn(IdempotencyStore.prototype, 'admit');
    const opened = vi.spyOn(RunRegistry.prototype, 'open');
    const seen = await exchanges(
      { ...OPTIONS, auth: { tokens: [{ token: 'secret', name: 'ops' }] }, rate_limit: { limit: 1, window_seconds: 60 }, validate_cache: { max_entries: 100 } },
      3,
    );
    expect(seen.every((e) => e.status === 200)).toBe(true);
    // No cache ever held a warm-up verdict.
    expect(kept.every((size) => size === 0)).toBe(true);
    expect(limited).not.toHaveBeenCalled();
    expect(admitted).not.toHaveBeenCalled();
    expect(opened).not.toHaveBeenCalled();
  });

  it('takes its budget from warm_up: true is the default budget, a number is milliseconds, false or 0 is none', () => {
    expect(resolveConfig({}).warmUp).toBe(0);
    expect(resolveConfig({ warm_up: false }).warmUp).toBe(0);
    expect(resolveConfig({ warm_up: true }).warmUp).toBe(DEFAULT_WARM_UP_CPU_MS);
    expect(resolveConfig({ warm_up: 700 }).warmUp).toBe(700);
    expect(resolveConfig({ warm_up: 0 }).warmUp).toBe(0);
    for (const bad of [-1, 1.5, 'yes', Number.NaN]) expect(() => resolveConfig({ warm_up: bad as unknown as number })).toThrow(/warm_up must be a boolean or a non-negative integer/);
  });

  it('stops at its CPU budget', async () => {
    const report = await warmUp(resolveConfig(OPTIONS), undefined, { rounds: 1000, cpuBudgetMs: 1 });
    // No round starts past the budget: the first one may not start either, when the process (its
    // compiler threads included) spent a millisecond before it on a busy machine.
    expect(report.rounds).toBeLessThanOrEqual(1);
  });
});
