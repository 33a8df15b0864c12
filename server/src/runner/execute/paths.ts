// Walking a working-memory path (`invoice.total`, `pages.page_view`): binding steps, dotted
// `batch_over` and construct `from` values (language reference §7.4). Each segment names a field of
// the structure reached; the result takes the concept the field declares (a scalar field becomes
// the native of its type), and crossing a list maps over its items and flattens.

import type { ConceptCatalog, ConceptInfo, ShapeField } from '../../language/jsonSchema.js';
import type { Stuff, WorkingMemory } from './memory.js';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SCALAR_NATIVE: Readonly<Record<string, { ref: string; wrap: (v: unknown) => unknown }>> = {
  text: { ref: 'native.Text', wrap: (v) => ({ text: v }) },
  choices: { ref: 'native.Text', wrap: (v) => ({ text: v }) },
  integer: { ref: 'native.Number', wrap: (v) => ({ number: v }) },
  number: { ref: 'native.Number', wrap: (v) => ({ number: v }) },
  boolean: { ref: 'native.YesNo', wrap: (v) => ({ yes_no: v }) },
  date: { ref: 'native.Date', wrap: (v) => ({ date: v }) },
  datetime: { ref: 'native.Date', wrap: (v) => ({ date: String(v).slice(0, 10), time: String(v).slice(11) }) },
  time: { ref: 'native.Time', wrap: (v) => ({ time: v }) },
  dict: { ref: 'native.JSON', wrap: (v) => ({ json_obj: v }) },
};

/** The concept and content of a raw value held by a field of no declared concept (Anything). */
function guessed(catalog: ConceptCatalog, value: unknown): { info: ConceptInfo; content: unknown } | undefined {
  if (typeof value === 'string') return { info: catalog.byRef('native.Text')!, content: { text: value } };
  if (typeof value === 'number') return { info: catalog.byRef('native.Number')!, content: { number: value } };
  if (typeof value === 'boolean') return { info: catalog.byRef('native.YesNo')!, content: { yes_no: value } };
  if (isRecord(value)) return { info: catalog.byRef('native.JSON')!, content: { json_obj: value } };
  return undefined;
}

export class PathError extends Error {}

/**
 * The stuff at a path, or undefined when the root is absent or a segment holds nothing (an absent
 * value, not an error). Throws a PathError when the path walks into something that has no fields.
 */
export function walkPath(catalog: ConceptCatalog, memory: WorkingMemory, path: string): Stuff | undefined {
  const [root, ...segments] = path.split('.');
  const start = memory.get(root!);
  if (!start) return undefined;
  let info = start.concept;
  let items = start.list ? (start.content as unknown[]) : [start.content];
  let list = start.list;
  for (const segment of segments) {
    const field: ShapeField | undefined = info.shape === 'structured' ? info.fields.find((f) => f.name === segment) : undefined;
    if (!field && info.shape !== 'open') throw new PathError(`${segment} is not a field of ${info.ref}`);
    const next: unknown[] = [];
    let nextInfo: ConceptInfo | undefined;
    for (const item of items) {
      const value = isRecord(item) ? item[segment] : undefined;
      if (value === undefined || value === null) continue;
      if (!field) {
        const g = guessed(catalog, value);
        if (!g) throw new PathError(`${segment} holds a value of no concept`);
        nextInfo ??= g.info;
        next.push(g.content);
        continue;
      }
      if (field.type === 'concept' || (field.type === 'list' && field.itemType === 'concept')) {
        const target = field.concept ? catalog.byRef(field.concept) : undefined;
        if (!target) throw new PathError(`${segment} holds a concept that cannot be resolved`);
        nextInfo = target;
        if (field.type === 'list') {
          if (!Array.isArray(value)) throw new PathError(`${segment} is not a list`);
          next.push(...value);
          list = true;
        } else next.push(value);
        continue;
      }
      const scalarType = field.type === 'list' ? field.itemType ?? 'text' : field.type;
      const native = SCALAR_NATIVE[scalarType];
      if (!native) throw new PathError(`${segment} cannot be walked`);
      nextInfo = catalog.byRef(native.ref)!;
      if (field.type === 'list') {
        if (!Array.isArray(value)) throw new PathError(`${segment} is not a list`);
        next.push(...value.map(native.wrap));
        list = true;
      } else next.push(native.wrap(value));
    }
    if (!nextInfo) {
      // Nothing there: an absent single value, or an empty list.
      if (!list) return undefined;
      const target = field?.concept ? catalog.byRef(field.concept) : undefined;
      return { concept: target ?? catalog.byRef('native.Anything')!, content: [], list: true };
    }
    info = nextInfo;
    items = next;
  }
  if (list) return { concept: info, content: structuredClone(items), list: true };
  return items.length === 0 ? undefined : { concept: info, content: structuredClone(items[0]), list: false };
}

/** The raw value at a path (construct `from`): a scalar stays a scalar, a content stays an object. */
export function rawAt(memory: WorkingMemory, path: string): unknown {
  const [root, ...segments] = path.split('.');
  const start = memory.get(root!);
  if (!start) return undefined;
  let value: unknown = start.list ? start.content : start.content;
  for (const segment of segments) {
    if (Array.isArray(value)) value = value.map((v) => (isRecord(v) ? v[segment] : undefined)).filter((v) => v !== undefined);
    else if (isRecord(value)) value = value[segment];
    else return undefined;
  }
  return value === undefined ? undefined : structuredClone(value);
}
