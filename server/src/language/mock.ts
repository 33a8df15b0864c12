// Mock minting: plausible content for any concept, from its structure, reproducibly.
//
// The dry run mints mock inputs and outputs (language reference §10.2), and the runner's mock
// provider mints structured outputs the same way, so both share this module. Every value comes
// from a seeded generator: the same seed gives the same content, which keeps dry-run diagnostics
// and mock runs reproducible.

import { nativeBase, type ConceptCatalog, type ConceptInfo, type JsonSchema, type ScalarShapeType, type ShapeField } from './jsonSchema.js';

/** A seeded pseudo-random generator (mulberry32): small, fast, good enough for mocks. */
export interface Rng {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** A child generator: independent of later draws of this one. */
  fork(label: string): Rng;
}

const FNV_OFFSET = 0x811c9dc5;

function fnv1a(text: string, h: number): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

const digits = new Uint8Array(10);

/** fnv1a of the decimal digits of `n` (an unsigned 32-bit integer), without making the string. */
function fnv1aDecimal(n: number, h: number): number {
  let count = 0;
  do {
    digits[count++] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  } while (n > 0);
  while (count > 0) {
    h ^= digits[--count]!;
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** A 32-bit FNV-1a hash of a string: turns any seed material into a seed. */
export function hashSeed(text: string): number {
  return fnv1a(text, FNV_OFFSET) >>> 0;
}

/** hashSeed of the parts written one after the other, without building that string (mocks hash a prompt per call). */
export function hashSeedOf(a: string, b: string, c = '', d = '', e = ''): number {
  return fnv1a(e, fnv1a(d, fnv1a(c, fnv1a(b, fnv1a(a, FNV_OFFSET))))) >>> 0;
}

// A class rather than closures: minting forks a generator per field and item, and the dry run of
// every /validate mints many; one object per fork is what that costs.
class Mulberry32 implements Rng {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  fork(label: string): Rng {
    // hashSeed(`${state}:${label}`), as forks have always been seeded.
    return new Mulberry32(fnv1a(label, fnv1a(':', fnv1aDecimal(this.state, FNV_OFFSET))) >>> 0);
  }
}

/** A generator from seed material: a number, or text (hashed; see hashSeedOf for text in parts). */
export function createRng(seed: number | string): Rng {
  return new Mulberry32((typeof seed === 'string' ? hashSeed(seed) : seed) >>> 0);
}

export interface MintOptions {
  /** Also fill the optional fields (coverage); default true. */
  optionalFields?: boolean;
  /** How deep nested concepts are minted; deeper ones stay empty objects. Default 4. */
  maxDepth?: number;
  /** Items of a variable-length list field or output. Default 2. */
  listLength?: number;
  /** Leave out the verdict natives' uncertainty members, as a model asked for a verdict would. */
  forGeneration?: boolean;
  /** Word used in mock texts, e.g. the pipe or input the value is for. */
  label?: string;
}

const WORDS = ['amber', 'birch', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'iris', 'juniper', 'kestrel', 'lumen', 'meadow', 'nimbus', 'onyx', 'prairie'];
const UNCERTAINTY = new Set(['probability', 'confidence', 'probabilities', 'position']);

function mockText(rng: Rng, label: string): string {
  return `mock ${label} ${rng.pick(WORDS)} ${rng.int(100, 999)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function mintScalar(type: ScalarShapeType, rng: Rng, label: string): unknown {
  switch (type) {
    case 'text':
      return mockText(rng, label);
    case 'integer':
      return rng.int(1, 100);
    case 'number':
      return Math.round(rng.next() * 10000) / 100;
    case 'boolean':
      return rng.next() < 0.5;
    case 'date':
      return `2024-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
    case 'datetime':
      return `2024-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}T${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:00Z`;
    case 'time':
      return `${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:00`;
  }
}

/**
 * The content of one item of a concept: `{ text }` for text-based concepts, an object with every
 * field for structured ones (natives included, refinement followed), a short text for the
 * structureless natives. Choices take their first value and defaults their default, so that
 * mocks satisfy the constraints a validator applies.
 */
export function mintContent(catalog: ConceptCatalog, info: ConceptInfo, rng: Rng, options: MintOptions = {}): unknown {
  return mintItem(catalog, info, rng, options, 0, options.label ?? info.code);
}

/** `count` items of a concept (a list output or input). */
export function mintList(catalog: ConceptCatalog, info: ConceptInfo, count: number, rng: Rng, options: MintOptions = {}): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) out.push(mintContent(catalog, info, rng.fork(String(i)), options));
  return out;
}

function mintItem(catalog: ConceptCatalog, info: ConceptInfo, rng: Rng, options: MintOptions, depth: number, label: string): unknown {
  const base = nativeBase(info);
  if (info.shape === 'open') {
    // Composite is a named composition: empty until branches fill it. Dynamic/Anything hold text.
    return base?.code === 'Composite' ? {} : { text: mockText(rng, label) };
  }
  if (info.shape === 'text') return { text: mockText(rng, label) };
  if (depth > (options.maxDepth ?? 4)) return {};
  const out: Record<string, unknown> = {};
  for (const field of info.fields) {
    if (!field.required && options.optionalFields === false) continue;
    if (options.forGeneration && base && UNCERTAINTY.has(field.name) && ['YesNo', 'Choice', 'Rating'].includes(base.code)) continue;
    const value = mintField(catalog, info, field, rng.fork(field.name), options, depth, label);
    if (value !== undefined) out[field.name] = value;
  }
  return fixNative(base?.code, out, rng);
}

/** Natives whose fields constrain each other, or whose URLs should look like URLs. */
function fixNative(code: string | undefined, content: Record<string, unknown>, rng: Rng): Record<string, unknown> {
  switch (code) {
    case 'Image': {
      content['url'] = `mock://image/${rng.int(1000, 9999)}.png`;
      content['mime_type'] = 'image/png';
      content['width'] = 1024;
      content['height'] = 1024;
      delete content['public_url'];
      break;
    }
    case 'Document':
      content['url'] = `mock://document/${rng.int(1000, 9999)}.pdf`;
      content['mime_type'] = 'application/pdf';
      delete content['public_url'];
      break;
    case 'YesNo':
      if (typeof content['probability'] === 'number') content['probability'] = content['yes_no'] ? 0.8 : 0.2;
      break;
    case 'Rating':
      content['level'] = rng.int(0, 4);
      break;
    case 'Date':
      delete content['time'];
      break;
    case 'Html':
      content['inner_html'] = `<p>${String(content['inner_html'] ?? 'mock')}</p>`;
      break;
    case 'JSON':
      content['json_obj'] = {};
      break;
    default:
      break;
  }
  // Verdict natives: a measured confidence, never made-up probabilities or scale positions.
  if (code === 'YesNo' || code === 'Choice' || code === 'Rating') {
    if (typeof content['confidence'] === 'number') content['confidence'] = 0.9;
    delete content['probabilities'];
    delete content['position'];
  }
  return content;
}

/** Choices are written as strings; a typed field holds them as values of its type. */
export function choiceValue(type: string, choice: string): unknown {
  if ((type === 'integer' || type === 'number') && choice.trim() !== '' && Number.isFinite(Number(choice))) return Number(choice);
  if (type === 'boolean' && (choice === 'true' || choice === 'false')) return choice === 'true';
  return choice;
}

function mintField(catalog: ConceptCatalog, owner: ConceptInfo, field: ShapeField, rng: Rng, options: MintOptions, depth: number, label: string): unknown {
  if (field.defaultValue !== undefined && field.defaultValue !== null) return field.defaultValue;
  const fieldLabel = `${label} ${field.name}`;
  switch (field.type) {
    case 'choices':
      return field.choices?.[0] ?? mockText(rng, fieldLabel);
    case 'concept': {
      const target = field.concept ? catalog.byRef(field.concept) : undefined;
      if (!target || target.ref === owner.ref) return field.required ? {} : undefined;
      return mintItem(catalog, target, rng, options, depth + 1, fieldLabel);
    }
    case 'list': {
      const n = options.listLength ?? 2;
      const items: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const child = rng.fork(String(i));
        if (field.itemType === 'concept') {
          const target = field.concept ? catalog.byRef(field.concept) : undefined;
          if (!target || target.ref === owner.ref) break;
          items.push(mintItem(catalog, target, child, options, depth + 1, fieldLabel));
        } else items.push(mintScalar(field.itemType ?? 'text', child, fieldLabel));
      }
      return items;
    }
    case 'dict':
      return {};
    default:
      if (field.choices && field.choices.length > 0) return choiceValue(field.type, field.choices[0]!);
      return mintScalar(field.type, rng, fieldLabel);
  }
}

/**
 * A value satisfying a JSON Schema of the kind conceptJsonSchema and the runner's judge schemas
 * produce (objects, arrays, enums, scalars with formats). For schemas built for one call rather
 * than for a concept, such as a judge's verdict with its option keys.
 */
export function mintFromSchema(schema: JsonSchema, rng: Rng, label = 'value', depth = 0): unknown {
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0) return enumValues[0];
  const type = Array.isArray(schema['type']) ? (schema['type'] as unknown[]).find((t) => t !== 'null') : schema['type'];
  switch (type) {
    case 'object': {
      const props = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      for (const [name, sub] of Object.entries(props)) out[name] = mintFromSchema(sub, rng.fork(name), `${label} ${name}`, depth + 1);
      return out;
    }
    case 'array': {
      const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 2;
      const max = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : Math.max(min, 2);
      const n = Math.min(Math.max(min, 2), max);
      const items = (schema['items'] ?? {}) as JsonSchema;
      return Array.from({ length: n }, (_, i) => mintFromSchema(items, rng.fork(String(i)), label, depth + 1));
    }
    case 'integer': {
      const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
      const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Math.max(min, 100);
      return rng.int(min, max);
    }
    case 'number':
      return Math.round(rng.next() * 10000) / 100;
    case 'boolean':
      return rng.next() < 0.5;
    case 'string': {
      const format = schema['format'];
      if (format === 'date') return mintScalar('date', rng, label);
      if (format === 'date-time') return mintScalar('datetime', rng, label);
      if (format === 'time') return mintScalar('time', rng, label);
      return mockText(rng, label);
    }
    default:
      return { text: mockText(rng, label) };
  }
}
