// The model deck: what GET /models lists and how a step's model reference finds a model and its
// provider. The built-in mock models serve every category unless the config removes them; an
// OpenAI-compatible provider configured in the deck serves the models it lists.
//
// References follow language reference §8: `$preset`, `@alias`, `~waterfall` or a plain handle
// (and their `preset:` / `alias:` / `waterfall:` / `handle:` spellings). A reference the deck does
// not know falls back to the category default, unless the deck is strict, because bundles name
// the models of the runtime they were written for and the mock serves any of them.

import { suggest } from '../util/suggest.js';
import { MODEL_TYPES, type DeckConfig, type ModelType, type NetworkPolicy } from './deckConfig.js';
import { MockProvider } from './providers/mock.js';
import { OpenAICompatibleProvider } from './providers/openaiCompatible.js';
import type { DeckModel, Provider } from './providers/types.js';
import { Refusal } from './refusal.js';

const MOCK_MODELS: readonly DeckModel[] = [
  { name: 'mock-llm', type: 'llm', provider: 'mock', modelId: 'mock-llm' },
  { name: 'mock-extract', type: 'extract', provider: 'mock', modelId: 'mock-extract' },
  { name: 'mock-img-gen', type: 'img_gen', provider: 'mock', modelId: 'mock-img-gen' },
  { name: 'mock-search', type: 'search', provider: 'mock', modelId: 'mock-search' },
];

export class ModelDeck {
  private readonly models: DeckModel[] = [];
  private readonly byName = new Map<string, DeckModel>();
  private readonly providers = new Map<string, Provider>();
  private readonly defaults = new Map<ModelType, DeckModel>();
  private readonly aliases: Record<string, string>;
  private readonly waterfalls: Record<string, string[]>;
  private readonly strict: boolean;

  /** `log`: where a provider's failures are told to the operator (provider, endpoint, cause). */
  constructor(config: DeckConfig, env: Readonly<Record<string, string | undefined>>, network?: NetworkPolicy, log?: (line: string) => void) {
    this.aliases = { ...(config.aliases ?? {}) };
    this.waterfalls = { ...(config.waterfalls ?? {}) };
    this.strict = config.strict === true;
    for (const p of config.providers ?? []) {
      this.providers.set(p.name, new OpenAICompatibleProvider(p, env, network, log));
      for (const m of p.models) this.add({ name: m.name, type: m.type, provider: p.name, modelId: m.model_id ?? m.name });
    }
    if (config.mock !== false) {
      this.providers.set('mock', new MockProvider(mockLatencyMs(config, env)));
      for (const m of MOCK_MODELS) this.add(m);
    }
    for (const type of MODEL_TYPES) {
      const named = config.defaults?.[type];
      const chosen = named !== undefined ? this.byName.get(named) : this.models.find((m) => m.type === type && m.provider !== 'mock') ?? this.models.find((m) => m.type === type);
      if (chosen && chosen.type === type) this.defaults.set(type, chosen);
    }
  }

  private add(model: DeckModel): void {
    if (this.byName.has(model.name)) return;
    this.models.push(model);
    this.byName.set(model.name, model);
  }

  list(type?: ModelType): DeckModel[] {
    return type ? this.models.filter((m) => m.type === type) : [...this.models];
  }

  provider(model: DeckModel): Provider {
    const p = this.providers.get(model.provider);
    if (!p) throw new Refusal('mthdsls.provider.not_configured', { provider: model.provider });
    return p;
  }

  /** The model a reference names for a category (undefined reference: the category default). */
  resolve(reference: string | undefined, type: ModelType): DeckModel {
    const fallback = (): DeckModel => {
      const d = this.defaults.get(type);
      if (!d) throw new Refusal('mthdsls.provider.not_configured', { provider: `${type} models` }, { detail: `This runner's deck has no ${type} model.` });
      return d;
    };
    if (reference === undefined || reference.trim() === '') return fallback();
    const ref = reference.trim();
    const m = /^(?:([$@~])|(preset|alias|waterfall|handle):)?(.+)$/.exec(ref)!;
    const kind = m[1] === '$' || m[2] === 'preset' ? 'preset' : m[1] === '@' || m[2] === 'alias' ? 'alias' : m[1] === '~' || m[2] === 'waterfall' ? 'waterfall' : 'handle';
    const name = m[3]!;
    let candidates: string[] = [];
    if (kind === 'alias' && this.aliases[name]) candidates = [this.aliases[name]!];
    else if (kind === 'waterfall' && this.waterfalls[name]) candidates = this.waterfalls[name]!;
    else if (kind === 'handle') candidates = [name];
    for (const c of candidates) {
      const model = this.byName.get(c);
      if (model && model.type === type) return model;
    }
    if (!this.strict) return fallback();
    const names = [...this.list(type).map((x) => x.name), ...Object.keys(this.aliases).map((a) => `@${a}`)];
    throw new Refusal('mthdsls.model.unknown', { model: ref, model_type: type, suggestions: suggest(ref, names) });
  }

  /** The GET /models body. Aliases and waterfalls are keyed by category, as reference runners do. */
  wire(type?: ModelType): Record<string, unknown> {
    const models = this.list(type).map((m) => ({ name: m.name, type: m.type, provider: m.provider }));
    const aliases: Partial<Record<ModelType, Record<string, string>>> = {};
    for (const [alias, target] of Object.entries(this.aliases)) {
      const t = this.byName.get(target)?.type;
      if (t && (!type || t === type)) (aliases[t] ??= {})[alias] = target;
    }
    const waterfalls: Partial<Record<ModelType, Record<string, string[]>>> = {};
    for (const [name, chain] of Object.entries(this.waterfalls)) {
      const t = chain.map((c) => this.byName.get(c)?.type).find((x) => x !== undefined);
      if (t && (!type || t === type)) (waterfalls[t] ??= {})[name] = chain;
    }
    const defaults: Partial<Record<ModelType, string>> = {};
    for (const [t, m] of this.defaults) if (!type || t === type) defaults[t] = m.name;
    return { models, aliases, waterfalls, defaults };
  }
}

/** The deck's mock latency, else MTHDS_MOCK_LATENCY_MS; anything not a finite number from 0 is 0. */
export function mockLatencyMs(config: DeckConfig, env: Readonly<Record<string, string | undefined>>): number {
  const raw = config.mock_latency_ms ?? (env['MTHDS_MOCK_LATENCY_MS'] !== undefined && env['MTHDS_MOCK_LATENCY_MS'] !== '' ? Number(env['MTHDS_MOCK_LATENCY_MS']) : 0);
  return Number.isFinite(raw) && raw > 0 ? Math.floor(raw) : 0;
}
