// The settings of the models deck and of outbound connections: a leaf module, so that the deck,
// the providers and the executor read them without depending on the whole runner config (which
// itself depends on the dry run, and so on the executor).

export type ModelType = 'llm' | 'extract' | 'img_gen' | 'search';
export const MODEL_TYPES: readonly ModelType[] = ['llm', 'extract', 'img_gen', 'search'];

export interface ProviderModelConfig {
  name: string;
  type: ModelType;
  /** The provider's own model id, when it differs from the deck name. */
  model_id?: string;
}

export interface ProviderConfig {
  name: string;
  /** OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1. */
  base_url: string;
  /** Name of the environment variable holding the API key (never the key itself). */
  api_key_env?: string;
  models: ProviderModelConfig[];
  /** Bounds of one request to the endpoint (providers/timedFetch.ts has the defaults). */
  timeouts?: { connect_ms?: number; first_byte_ms?: number; total_ms?: number };
}

export interface DeckConfig {
  providers?: ProviderConfig[];
  /** alias -> model name (bundles write `@alias`). */
  aliases?: Record<string, string>;
  /** waterfall -> ordered model names (bundles write `~waterfall`). */
  waterfalls?: Record<string, string[]>;
  /** The model a category uses when a bundle names one the deck does not know. */
  defaults?: Partial<Record<ModelType, string>>;
  /** Keep the built-in deterministic mock models in the deck (default true). */
  mock?: boolean;
  /**
   * Milliseconds every mock call waits before answering (default 0; MTHDS_MOCK_LATENCY_MS when
   * unset), so that runs stay in flight long enough to be observed or interrupted.
   */
  mock_latency_ms?: number;
  /** Refuse model references the deck does not know instead of using the category default. */
  strict?: boolean;
}

/** Where runs may reach on a caller's behalf (see network.ts). */
export interface NetworkPolicy {
  allowPrivate: boolean;
  downloadMaxBytes: number;
  downloadTimeoutMs: number;
}
