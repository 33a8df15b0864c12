// Contents against their concepts (language reference §11.3): checking a value against a concept's
// structure (run inputs, and every output a pipe produces), normalising the short forms callers
// may send, and the template view of a content (metadata members added, as Pipelex exposes them).

import { nativeBase, type ConceptCatalog, type ConceptInfo, type ShapeField } from '../../language/jsonSchema.js';
import { CONCEPT_CODE_KEY, STUFF_NAME_KEY } from '../../language/templates/render.js';
import type { Stuff } from './memory.js';
import { plainCopy } from '../../util/plainCopy.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The dotted path (inside the content) of the first value that fails the concept, or undefined
 * when the content fits. Fields beyond the structure are tolerated; the metadata members are not
 * part of the check.
 */
export function contentFault(catalog: ConceptCatalog, info: ConceptInfo, content: unknown, path = '', depth = 0): string | undefined {
  if (info.shape === 'open') return undefined;
  if (depth > 32) return undefined;
  if (!isRecord(content)) return path || '(content)';
  for (const field of info.fields) {
    const here = path === '' ? field.name : `${path}.${field.name}`;
    const value = content[field.name];
    if (value === undefined || value === null) {
      if (field.required) return here;
      continue;
    }
    const fault = fieldFault(catalog, field, value, here, depth);
    if (fault) return fault;
  }
  return undefined;
}

function scalarFault(type: string, value: unknown): boolean {
  switch (type) {
    case 'text':
      return typeof value !== 'string';
    case 'integer':
      return typeof value !== 'number' || !Number.isInteger(value);
    case 'number':
      return typeof value !== 'number' || !Number.isFinite(value);
    case 'boolean':
      return typeof value !== 'boolean';
    case 'date':
      return typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value));
    case 'datetime':
      return typeof value !== 'string' || !DATETIME.test(value);
    case 'time':
      return typeof value !== 'string' || !TIME.test(value);
    default:
      return false;
  }
}

function fieldFault(catalog: ConceptCatalog, field: ShapeField, value: unknown, path: string, depth: number): string | undefined {
  switch (field.type) {
    case 'choices':
      return typeof value === 'string' && (field.choices ?? []).includes(value) ? undefined : path;
    case 'concept': {
      const target = field.concept ? catalog.byRef(field.concept) : undefined;
      return target ? contentFault(catalog, target, value, path, depth + 1) : undefined;
    }
    case 'list': {
      if (!Array.isArray(value)) return path;
      for (let i = 0; i < value.length; i++) {
        const here = `${path}.${i}`;
        if (field.itemType === 'concept') {
          const target = field.concept ? catalog.byRef(field.concept) : undefined;
          const fault = target ? contentFault(catalog, target, value[i], here, depth + 1) : undefined;
          if (fault) return fault;
        } else if (scalarFault(field.itemType ?? 'text', value[i])) return here;
      }
      return undefined;
    }
    case 'dict':
      return isRecord(value) ? undefined : path;
    default:
      if (scalarFault(field.type, value)) return path;
      if (field.choices && !field.choices.includes(String(value))) return path;
      return undefined;
  }
}

/**
 * The short forms a caller may send for a single item: a bare string for a text-based concept, a
 * bare number for Number, a bare boolean for YesNo.
 */
export function normalizeItem(info: ConceptInfo, content: unknown): unknown {
  const base = nativeBase(info)?.code;
  if (typeof content === 'string' && info.shape === 'text') return { text: content };
  if (typeof content === 'number' && base === 'Number') return { number: content };
  if (typeof content === 'boolean' && base === 'YesNo') return { yes_no: content };
  if (typeof content === 'string' && info.shape === 'open') return { text: content };
  return content;
}

/** Items of a list content as sent: a JSON array, or Pipelex's list content `{ items: [...] }`. */
export function listItems(content: unknown): unknown[] | undefined {
  if (Array.isArray(content)) return content;
  if (isRecord(content) && Array.isArray(content['items']) && Object.keys(content).every((k) => k === 'items' || k.startsWith('_'))) return content['items'];
  return undefined;
}

/**
 * A content as templates see it: the metadata members `_concept_code` (and `_stuff_name` at the
 * top) added on every object typed by a concept, so that filters know an Image from other values.
 */
export function templateView(catalog: ConceptCatalog, stuff: Stuff, name?: string): unknown {
  const one = (item: unknown): unknown => {
    const view = annotate(catalog, stuff.concept, item, 0);
    if (name !== undefined && isRecord(view)) view[STUFF_NAME_KEY] = name;
    return view;
  };
  return stuff.list ? (stuff.content as unknown[]).map(one) : one(stuff.content);
}

function annotate(catalog: ConceptCatalog, info: ConceptInfo, content: unknown, depth: number): unknown {
  if (!isRecord(content) || depth > 16) return content;
  // A copy, then the member set: a spread with members after it takes V8's slow path.
  const out: Record<string, unknown> = plainCopy(content);
  out[CONCEPT_CODE_KEY] = info.ref;
  if (info.shape !== 'structured') return out;
  for (const field of info.fields) {
    const target = field.concept ? catalog.byRef(field.concept) : undefined;
    if (!target) continue;
    const value = out[field.name];
    if (field.type === 'concept') out[field.name] = annotate(catalog, target, value, depth + 1);
    else if (field.type === 'list' && Array.isArray(value)) out[field.name] = value.map((v) => annotate(catalog, target, v, depth + 1));
  }
  return out;
}

/** The plain text a content stands for (Text, Html, a text-based concept), else undefined. */
export function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!isRecord(content)) return undefined;
  if (typeof content['text'] === 'string') return content['text'];
  if (isRecord(content['text']) && typeof content['text']['text'] === 'string') return content['text']['text'];
  if (typeof content['inner_html'] === 'string') return content['inner_html'];
  return undefined;
}

/** A copied value in the shape its target field expects (a Text content into a text field...). */
export function coerceToField(catalog: ConceptCatalog, value: unknown, field: ShapeField | undefined): unknown {
  if (!field || value === undefined || value === null) return value;
  const unwrap = (v: unknown, type: string): unknown => {
    if (!isRecord(v)) return v;
    if ((type === 'text' || type === 'choices') && typeof v['text'] === 'string') return v['text'];
    if ((type === 'number' || type === 'integer') && typeof v['number'] === 'number') return v['number'];
    if (type === 'boolean' && typeof v['yes_no'] === 'boolean') return v['yes_no'];
    if (type === 'date' && typeof v['date'] === 'string') return v['date'];
    if (type === 'time' && typeof v['time'] === 'string') return v['time'];
    if (type === 'dict' && isRecord(v['json_obj'])) return v['json_obj'];
    return v;
  };
  if (field.type === 'list') return Array.isArray(value) ? value.map((v) => unwrap(v, field.itemType ?? 'text')) : value;
  if (field.type === 'concept') {
    const target = field.concept ? catalog.byRef(field.concept) : undefined;
    if (target?.shape === 'text' && typeof value === 'string') return { text: value };
    return value;
  }
  if (field.type === 'text' && typeof value !== 'string' && !isRecord(value)) return String(value);
  return unwrap(value, field.type);
}

