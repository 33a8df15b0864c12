// What the language description says about a place of a bundle: the spec of the value at a path
// (`['pipe', 'x', 'model', 'temperature']`), the field naming it, and the pipe or concept it belongs
// to. Completion and hover read the spec through this walk, so that they never hold a list of
// their own.

import { getEntry } from '../syntax/lookup.js';
import type { LValue } from '../syntax/types.js';
import type { Bundle, ConceptDecl, PipeDecl } from './model.js';
import { BUNDLE_FIELDS, CONCEPT_TABLE, HINTS_TABLE, STRUCTURE_FIELD_TABLE } from './spec/bundle.js';
import { INPUT_SLOT_TABLE, PIPE_TYPES, SIGNATURE_FIELDS } from './spec/pipeTypes.js';
import type { FieldSpec, TableSpec, ValueSpec } from './spec/values.js';

export type PathSegment = string | number;

/**
 * The shapes the description leaves to custom validators (`custom` specs), in the description's
 * own vocabulary, so that completion can walk into them. Their keys and values are the ones the
 * custom validators of check/rules/shape.ts accept.
 */
const INPUT_SLOTS: ValueSpec = { kind: 'map', name: 'inputs', values: { kind: 'oneOf', options: [{ kind: 'string', role: 'io-ref' }, INPUT_SLOT_TABLE] } };
const STRUCTURE: ValueSpec = { kind: 'map', name: 'structure', values: { kind: 'oneOf', options: [{ kind: 'string', role: 'description' }, STRUCTURE_FIELD_TABLE] } };

/** The `type` field as completion offers it for a section without one. */
const TYPE_FIELD: FieldSpec = PIPE_TYPES[0]!.fields.find((f) => f.name === 'type')!;

/** The keys of a pipe section: its type's fields, or for a typeless section `type` and a signature's keys. */
export function pipeFields(pipe: PipeDecl | undefined): readonly FieldSpec[] {
  if (pipe?.spec) return pipe.spec.fields;
  if (pipe?.type) {
    // A type being typed or unknown: the keys common to every type.
    return PIPE_TYPES[0]!.fields.filter((f) => SIGNATURE_FIELDS.some((s) => s.name === f.name) || f.name === 'type');
  }
  return [TYPE_FIELD, ...SIGNATURE_FIELDS];
}

/** What the description says about the value at a path. */
export interface SpecAt {
  /** The spec of the value (undefined when the description says nothing there). */
  spec?: ValueSpec;
  /** The field whose key names the value (the last named key on the way). */
  field?: FieldSpec;
  /** The spec of the table the last key belongs to. */
  owner?: TableSpec;
  pipe?: PipeDecl;
  concept?: ConceptDecl;
  /** Set when the path names a user-chosen key (a pipe, a concept, an input, a structure field). */
  named?: 'pipe' | 'concept' | 'input' | 'structure-field' | 'outcome' | 'question';
}

/** Chooses among `oneOf` options by the kind of the value actually written there. */
function pick(spec: ValueSpec, node: LValue | undefined, next: PathSegment | undefined): ValueSpec {
  if (spec.kind !== 'oneOf') return spec;
  const want = next !== undefined ? (typeof next === 'number' ? 'array' : 'table') : node?.type === 'table' ? 'table' : node?.type === 'array' ? 'array' : node?.type === 'string' || node?.type === 'invalid' || node === undefined ? 'string' : node.type;
  const found = spec.options.find((o) => (want === 'table' ? o.kind === 'table' || o.kind === 'map' : o.kind === want));
  return found ?? spec.options[0]!;
}

function expand(spec: ValueSpec): ValueSpec {
  if (spec.kind !== 'custom') return spec;
  if (spec.name === 'hints') return HINTS_TABLE;
  if (spec.name === 'input-slot') return INPUT_SLOTS;
  if (spec.name === 'structure') return STRUCTURE;
  return spec;
}

/** The spec at `path` from the bundle's root. */
export function specAt(bundle: Bundle, path: readonly PathSegment[]): SpecAt {
  const out: SpecAt = {};
  const root: TableSpec = { kind: 'table', name: 'bundle', closed: true, fields: BUNDLE_FIELDS };
  let spec: ValueSpec | undefined = root;
  let node: LValue | undefined = bundle.doc.root;
  let i = 0;
  const head = path[0];
  if (head === 'pipe' || head === 'concept') {
    out.field = BUNDLE_FIELDS.find((f) => f.name === head)!;
    out.owner = root;
    node = getEntry(bundle.doc.root, head)?.value;
    if (path.length === 1) {
      out.spec = { kind: 'map', name: head, values: { kind: 'any' } };
      return out;
    }
    const code = String(path[1]);
    node = getEntry(node, code)?.value;
    if (head === 'pipe') {
      out.pipe = bundle.pipes.find((p) => p.code === code);
      out.named = 'pipe';
      spec = { kind: 'table', name: 'pipe', closed: true, fields: pipeFields(out.pipe) };
    } else {
      out.concept = bundle.concepts.find((c) => c.code === code);
      out.named = 'concept';
      spec = { kind: 'oneOf', options: [{ kind: 'string', role: 'description' }, CONCEPT_TABLE] };
    }
    i = 2;
  }
  for (; i < path.length; i++) {
    if (spec === undefined) break;
    const seg = path[i]!;
    spec = expand(pick(expand(spec), node, seg));
    delete out.named;
    if (spec.kind === 'table' && typeof seg === 'string') {
      out.owner = spec;
      const field: FieldSpec | undefined = spec.fields.find((f) => f.name === seg);
      if (field) out.field = field;
      spec = field?.value;
    } else if (spec.kind === 'map' && typeof seg === 'string') {
      const names: Record<string, SpecAt['named']> = { inputs: 'input', structure: 'structure-field', outcomes: 'outcome', questions: 'question' };
      const named = names[spec.name];
      if (named) out.named = named;
      spec = spec.values;
    } else if (spec.kind === 'array' && typeof seg === 'number') {
      spec = spec.items;
    } else spec = undefined;
    node = typeof seg === 'number' ? (node?.type === 'array' ? node.items[seg] : undefined) : getEntry(node, seg)?.value;
  }
  if (spec !== undefined) out.spec = expand(pick(expand(spec), node, undefined));
  return out;
}

/** The table spec of the table at `path` (for key completion), when it has fixed keys. */
export function tableSpecAt(bundle: Bundle, path: readonly PathSegment[]): TableSpec | undefined {
  const at = specAt(bundle, path);
  let spec = at.spec;
  if (spec?.kind === 'oneOf') spec = spec.options.find((o) => o.kind === 'table');
  return spec?.kind === 'table' ? spec : undefined;
}

/** The string spec of a value spec (the string option of a oneOf), for value completion. */
export function stringSpecOf(spec: ValueSpec | undefined): Extract<ValueSpec, { kind: 'string' }> | undefined {
  if (spec === undefined) return undefined;
  if (spec.kind === 'string') return spec;
  if (spec.kind === 'oneOf') {
    for (const o of spec.options) {
      const s = stringSpecOf(o);
      if (s) return s;
    }
  }
  return undefined;
}
