// The models a bundle may name, from a runner's model deck (the GET /models body, language
// reference §8): handles, `@alias`, `~waterfall` and `$preset` references per category. Pure: the
// language server fetches the deck (lsp/runner/modelDecks.ts) and completion and hover read this.

import type { ModelCategory } from './spec/values.js';

export type ModelRefKind = 'handle' | 'alias' | 'waterfall' | 'preset';

export interface ModelChoice {
  /** As written in a bundle: `gpt-4o`, `@default-text`, `~fallback`, `$writing-factual`. */
  reference: string;
  kind: ModelRefKind;
  /** The deck category (`llm`, `extract`, `img_gen`, `search`, `judgment`...). */
  category: string;
  /** One line: provider, target or chain. */
  detail: string;
}

export interface ModelCatalog {
  /** Where the deck came from, for documentation: a runner's URL, or the built-in deck. */
  source: string;
  choices: readonly ModelChoice[];
}

const SIGILS: Readonly<Record<ModelRefKind, string>> = { handle: '', alias: '@', waterfall: '~', preset: '$' };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads a named group of the deck. Runners key aliases, waterfalls and presets by category
 * (`{ llm: { name: target } }`); a flat `{ name: target }` is read too, its category taken from
 * the target model when known.
 */
function readGroup(body: Record<string, unknown>, key: string, kind: ModelRefKind, categoryOf: ReadonlyMap<string, string>, out: ModelChoice[]): void {
  const group = body[key];
  if (!isRecord(group)) return;
  const add = (name: string, value: unknown, category: string | undefined): void => {
    const targets = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    const cat = category ?? targets.map((t) => categoryOf.get(t)).find((c) => c !== undefined);
    if (cat === undefined) return;
    const detail = kind === 'alias' ? `alias of ${targets[0] ?? '?'}` : kind === 'waterfall' ? `waterfall: ${targets.join(' → ')}` : kind === 'preset' ? `preset${targets[0] ? ` of ${targets[0]}` : ''}` : '';
    out.push({ reference: `${SIGILS[kind]}${name}`, kind, category: cat, detail });
  };
  for (const [k, v] of Object.entries(group)) {
    if (isRecord(v) && kind !== 'preset') {
      for (const [name, target] of Object.entries(v)) add(name, target, k);
    } else if (isRecord(v) && kind === 'preset') {
      // A preset: { model, ... } under its name, or presets grouped by category.
      if (typeof v['model'] === 'string') add(k, v['model'], typeof v['type'] === 'string' ? v['type'] : undefined);
      else for (const [name, p] of Object.entries(v)) add(name, isRecord(p) && typeof p['model'] === 'string' ? p['model'] : [], k);
    } else add(k, v, undefined);
  }
}

/** The catalog of a /models body; anything malformed in it is skipped. */
export function catalogFromDeck(body: unknown, source: string): ModelCatalog {
  const choices: ModelChoice[] = [];
  if (!isRecord(body)) return { source, choices };
  const categoryOf = new Map<string, string>();
  const models = Array.isArray(body['models']) ? body['models'] : [];
  for (const m of models) {
    if (!isRecord(m) || typeof m['name'] !== 'string' || typeof m['type'] !== 'string') continue;
    categoryOf.set(m['name'], m['type']);
    const provider = typeof m['provider'] === 'string' ? `${m['provider']} model` : 'model';
    choices.push({ reference: m['name'], kind: 'handle', category: m['type'], detail: provider });
  }
  readGroup(body, 'aliases', 'alias', categoryOf, choices);
  readGroup(body, 'waterfalls', 'waterfall', categoryOf, choices);
  readGroup(body, 'presets', 'preset', categoryOf, choices);
  const seen = new Set<string>();
  return { source, choices: choices.filter((c) => (seen.has(`${c.category}:${c.reference}`) ? false : (seen.add(`${c.category}:${c.reference}`), true))) };
}

/**
 * The choices for a pipe type's model category. A judgment model is a language model: a deck
 * listing no judgment models (as the built-in deck) offers its llm models instead.
 */
export function choicesFor(catalog: ModelCatalog, category: ModelCategory | undefined): ModelChoice[] {
  if (category === undefined) return [...catalog.choices];
  const direct = catalog.choices.filter((c) => c.category === category);
  if (direct.length > 0 || category !== 'judgment') return direct;
  return catalog.choices.filter((c) => c.category === 'llm');
}

/** The choice a reference names (sigils and the `alias:`-style spellings both read). */
export function findChoice(catalog: ModelCatalog, reference: string): ModelChoice | undefined {
  const text = reference.trim();
  const spelled = /^(preset|alias|waterfall|handle):(.*)$/.exec(text);
  const normal = spelled ? `${SIGILS[spelled[1] as ModelRefKind]}${spelled[2]}` : text;
  return catalog.choices.find((c) => c.reference === normal);
}

/** How a reference reads, by its sigil (for hovers of references the deck does not list). */
export function referenceKind(reference: string): ModelRefKind {
  const t = reference.trim();
  if (t.startsWith('$') || t.startsWith('preset:')) return 'preset';
  if (t.startsWith('@') || t.startsWith('alias:')) return 'alias';
  if (t.startsWith('~') || t.startsWith('waterfall:')) return 'waterfall';
  return 'handle';
}
