// The model deck completion and hover offer: the configured runner's GET /models when it answers,
// else the built-in deck (the one the in-process runner serves). The runner's deck is cached for a
// few minutes; a request never waits on the network longer than a short budget: past it, the
// built-in deck (or the previous answer) is used and the fetch finishes in the background for the
// next request.

import { catalogFromDeck, type ModelCatalog } from '../../language/modelCatalog.js';
import { RunnerClient } from '../../protocol/client.js';
import type { RunnerSettings } from '../settings.js';

/** How long a runner's deck is trusted. */
const FRESH_MS = 3 * 60_000;
/** How long an unreachable runner is left alone before trying again. */
const RETRY_MS = 30_000;
/** The most a completion waits for the runner. */
export const DECK_WAIT_MS = 300;
/** The most the background fetch takes before giving up. */
const FETCH_TIMEOUT_MS = 5_000;

interface Entry {
  catalog?: ModelCatalog;
  fetchedAt: number;
  failedAt?: number;
  pending?: Promise<ModelCatalog | undefined>;
}

export interface ModelDeckSource {
  /** The deck offered without a configured runner (the built-in runner's; none in a browser). */
  builtIn(): ModelCatalog;
  settings(): RunnerSettings;
  token(): string | undefined;
  log?(line: string): void;
}

export class ModelDecks {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly source: ModelDeckSource,
    private readonly now: () => number = Date.now,
    private readonly waitMs = DECK_WAIT_MS,
  ) {}

  /** The catalog to offer now: the runner's (cached, or fetched within the budget), else the built-in one. */
  async catalog(): Promise<ModelCatalog> {
    const url = this.source.settings().url;
    if (url === undefined) return this.source.builtIn();
    let entry = this.entries.get(url);
    if (!entry) this.entries.set(url, (entry = { fetchedAt: 0 }));
    const now = this.now();
    if (entry.catalog && now - entry.fetchedAt < FRESH_MS) return entry.catalog;
    if (!entry.pending && (entry.failedAt === undefined || now - entry.failedAt >= RETRY_MS)) entry.pending = this.fetch(url, entry);
    const fallback = entry.catalog ?? this.source.builtIn();
    if (!entry.pending) return fallback;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.waitMs);
    });
    const got = await Promise.race([entry.pending, late]);
    clearTimeout(timer);
    return got ?? fallback;
  }

  /** The catalog at hand, without waiting (hover); a stale one is refreshed in the background. */
  cached(): ModelCatalog {
    const url = this.source.settings().url;
    if (url === undefined) return this.source.builtIn();
    const entry = this.entries.get(url);
    if (!entry?.catalog || this.now() - entry.fetchedAt >= FRESH_MS) void this.catalog();
    return this.entries.get(url)?.catalog ?? this.source.builtIn();
  }

  private async fetch(url: string, entry: Entry): Promise<ModelCatalog | undefined> {
    try {
      const token = this.source.token();
      const configured = this.source.settings().timeoutMs;
      const client = new RunnerClient({ baseUrl: url, timeoutMs: Math.min(configured ?? FETCH_TIMEOUT_MS, FETCH_TIMEOUT_MS), ...(token !== undefined ? { token } : {}) });
      const result = await client.models();
      if (!result.ok) {
        entry.failedAt = this.now();
        this.source.log?.(`mthds: the runner's model deck is unavailable (${result.error.kind}); completing from the built-in deck`);
        return undefined;
      }
      entry.catalog = catalogFromDeck(result.value, `the runner at ${url}`);
      entry.fetchedAt = this.now();
      delete entry.failedAt;
      return entry.catalog;
    } catch (error) {
      entry.failedAt = this.now();
      this.source.log?.(`mthds: cannot ask the runner for its models: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    } finally {
      delete entry.pending;
    }
  }
}
