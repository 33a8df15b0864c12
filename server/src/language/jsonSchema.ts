// Concept structures as data, and their JSON Schemas.
//
// The runner (structured generation, content validation), the mock minting (language/mock.ts) and
// the dry run all need the same view of a concept: its canonical reference, its refinement chain
// and the fields its content holds, natives and user structures alike, refinement followed. The
// catalog below computes that view once per tree; the schema generator turns it into the JSON
// Schema a model fills in (language reference §3.2 "Runtime type mapping").

import type { Bundle, ConceptDecl, StructureField } from './model.js';
import { hostStructureOf } from './hostStructures.js';
import { parseConceptRef, type ParsedRef } from './references.js';
import { getNative, type NativeConcept } from './spec/natives.js';
import { noteAccess, resolveConcept, treeOfBundle, type MethodTree } from './tree.js';
import { toPlainValue } from '../syntax/values.js';
import { ObjectCache } from '../util/objectCache.js';

export type ShapeFieldType = 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'list' | 'dict' | 'concept' | 'choices';
export type ScalarShapeType = 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time';

export interface ShapeField {
  name: string;
  description?: string;
  required: boolean;
  type: ShapeFieldType;
  choices?: readonly string[];
  /** Lists: the item type; 'concept' with `itemConcept`. */
  itemType?: ScalarShapeType | 'concept';
  /** Canonical reference of the concept held (type 'concept') or of list items. */
  concept?: string;
  /** Dicts: the value type as written ('Any' when unspecified). */
  valueType?: string;
  /** The declared default, as a plain JSON value. */
  defaultValue?: unknown;
}

/** How a concept's content is shaped at run time. */
export type ContentShape =
  /** `{ text }`: Text, concepts refining it, and concepts with neither structure nor refines. */
  | 'text'
  /** An object with `fields` (natives with fields, user structures, refinements of either). */
  | 'structured'
  /** Dynamic, Anything, Composite and refinements of them: any JSON value. */
  | 'open';

export interface ConceptInfo {
  /** Canonical reference: `native.Text`, `domain.Code`. */
  ref: string;
  code: string;
  domain: string;
  description?: string;
  native?: NativeConcept;
  decl?: ConceptDecl;
  /** Canonical references of the concept and its ancestors, the concept first. */
  lineage: readonly string[];
  /** The native the refinement chain ends at, when it ends at one. */
  baseNative?: NativeConcept;
  shape: ContentShape;
  /** The content fields (for 'text', the single `text` field). */
  fields: readonly ShapeField[];
}

const TEXT_FIELDS: readonly ShapeField[] = [{ name: 'text', required: true, type: 'text', description: 'The text.' }];

/**
 * The concepts of one tree, resolved on demand and cached. A catalog is cheap to create; keep one
 * per run or per validation so that every lookup of a concept returns the same object.
 */
export class ConceptCatalog {
  private readonly byRefCache = new Map<string, ConceptInfo | null>();
  private readonly inProgress = new Set<string>();
  private readonly byDecl = new Map<ConceptDecl, ConceptInfo>();

  constructor(readonly tree: MethodTree) {}

  /** A concept reference as written in `from` (bare, `domain.Code` or `native.Code`). */
  resolve(ref: string | Pick<ParsedRef, 'prefix' | 'domain' | 'code'>, from?: Bundle): ConceptInfo | undefined {
    let parsed: Pick<ParsedRef, 'prefix' | 'domain' | 'code'>;
    if (typeof ref === 'string') {
      const r = parseConceptRef(ref);
      if (!r.ok) return undefined;
      parsed = r.value;
    } else parsed = ref;
    if (parsed.prefix !== undefined && !from) return parsed.domain !== undefined ? this.byRef(`${parsed.prefix}->${parsed.domain}.${parsed.code}`) : undefined;
    if (!from) {
      // Without a bundle, a bare code is a native or the only concept of that code in the tree.
      if (parsed.domain !== undefined) return this.byRef(`${parsed.domain}.${parsed.code}`);
      if (getNative(parsed.code)) return this.byRef(`native.${parsed.code}`);
      const hits = [...this.tree.symbols].filter(([, t]) => t.concepts.has(parsed.code)).map(([d]) => d);
      return hits.length === 1 ? this.byRef(`${hits[0]}.${parsed.code}`) : undefined;
    }
    const resolution = resolveConcept(this.tree, from, parsed);
    if (resolution.kind === 'native') return this.byRef(`native.${resolution.native.code}`);
    if (resolution.kind === 'concept') return this.fromDecl(resolution.decl);
    return undefined;
  }

  /** A canonical reference (`native.Text`, `domain.Code`, `package->domain.Code`). */
  byRef(ref: string): ConceptInfo | undefined {
    const cached = this.byRefCache.get(ref);
    if (cached !== undefined) return cached ?? undefined;
    const arrow = ref.indexOf('->');
    if (arrow >= 0) {
      const decl = this.dependencyConcept(ref.slice(0, arrow), ref.slice(arrow + 2));
      return decl ? this.fromDecl(decl) : undefined;
    }
    const dot = ref.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const domain = ref.slice(0, dot);
    const code = ref.slice(dot + 1);
    let info: ConceptInfo | undefined;
    if (domain === 'native') {
      const native = getNative(code);
      if (native) info = nativeInfo(native);
    } else {
      const decl = this.tree.symbols.get(domain)?.concepts.get(code)?.[0];
      if (decl) info = this.fromDecl(decl);
    }
    this.byRefCache.set(ref, info ?? null);
    return info;
  }

  /** True when `tested` is `wanted` or refines it (directly or through ancestors). */
  refines(tested: ConceptInfo, wanted: ConceptInfo): boolean {
    return tested.lineage.includes(wanted.ref);
  }

  /** A concept of a dependency, by the package part of a canonical reference (address or alias). */
  private dependencyConcept(pkg: string, qualified: string): ConceptDecl | undefined {
    const dot = qualified.lastIndexOf('.');
    if (dot <= 0) return undefined;
    for (const dep of this.tree.dependencies?.values() ?? []) {
      if (dep.prefix !== pkg && dep.address !== pkg && dep.tree.root !== pkg) continue;
      const decl = dep.tree.symbols.get(qualified.slice(0, dot))?.concepts.get(qualified.slice(dot + 1))?.[0];
      if (decl) return decl;
    }
    return undefined;
  }

  /**
   * The canonical reference of a declaration: `domain.Code` in the catalog's own tree; in another
   * package, qualified by that package (its address, else its folder), so that two packages'
   * concepts of the same domain never meet.
   */
  private canonicalRef(decl: ConceptDecl, domain: string): string {
    const owner = treeOfBundle(decl.bundle);
    if (!owner || owner === this.tree) return `${domain}.${decl.code}`;
    return `${owner.manifest?.address?.value ?? owner.root}->${domain}.${decl.code}`;
  }

  private fromDecl(decl: ConceptDecl): ConceptInfo | undefined {
    noteAccess(decl.bundle);
    // A run resolves the same declarations again and again (every input and output of every call).
    const known = this.byDecl.get(decl);
    if (known) return known;
    const domain = decl.bundle.domain?.value;
    if (domain === undefined) return undefined;
    const ref = this.canonicalRef(decl, domain);
    const cached = this.byRefCache.get(ref);
    if (cached) {
      this.byDecl.set(decl, cached);
      return cached;
    }
    // A refinement cycle is reported by the checks; here it ends the chain.
    if (this.inProgress.has(ref)) return undefined;
    this.inProgress.add(ref);
    try {
      const info = this.buildUserInfo(decl, domain, ref);
      this.byRefCache.set(ref, info);
      this.byDecl.set(decl, info);
      return info;
    } finally {
      this.inProgress.delete(ref);
    }
  }

  private buildUserInfo(decl: ConceptDecl, domain: string, ref: string): ConceptInfo {
    // Built member by member (a spread followed by members is V8's slow path: microseconds per
    // concept, for every concept of every /validate), in the order the spreads gave.
    const info = { ref, code: decl.code, domain, decl } as ConceptInfo;
    if (decl.description) info.description = decl.description.value;
    const fields = decl.structure ?? hostStructureOf(this.tree.hostStructures, decl)?.fields;
    if (fields) return withShape(info, [ref], 'structured', fields.map((f) => this.shapeField(f, decl.bundle)));
    const parentRef = decl.refines?.ref;
    const parent = parentRef ? this.resolve(parentRef, decl.bundle) : undefined;
    if (parent) {
      withShape(info, [ref, ...parent.lineage], parent.shape, parent.fields);
      const baseNative = parent.baseNative ?? parent.native;
      if (baseNative) info.baseNative = baseNative;
      return info;
    }
    // Neither structure nor (resolvable) refines: a Text-based concept.
    return withShape(info, [ref], 'text', TEXT_FIELDS);
  }

  private shapeField(field: StructureField, bundle: Bundle): ShapeField {
    const out: ShapeField = { name: field.name, required: field.required, type: 'text' };
    if (field.description !== undefined) out.description = field.description;
    if (field.choices && field.choices.length > 0 && field.type === undefined) {
      out.type = 'choices';
      out.choices = field.choices;
    } else {
      const t = field.type?.value;
      out.type = isShapeType(t) ? t : 'text';
      if (field.choices && field.choices.length > 0) out.choices = field.choices;
    }
    if (out.type === 'concept' && field.conceptRef?.ref) {
      const target = this.resolveRef(field.conceptRef.ref, bundle);
      if (target) out.concept = target;
    }
    if (out.type === 'list') {
      const item = field.itemType?.value;
      if (item === 'concept' || field.itemConceptRef?.context === 'item_type') {
        out.itemType = 'concept';
        const target = field.itemConceptRef?.ref ? this.resolveRef(field.itemConceptRef.ref, bundle) : undefined;
        if (target) out.concept = target;
      } else if (isScalarType(item)) out.itemType = item;
      else if (item === 'str') out.itemType = 'text';
    }
    if (out.type === 'dict') out.valueType = field.valueType?.value ?? 'Any';
    if (field.defaultValue) out.defaultValue = jsonOf(toPlainValue(field.defaultValue));
    return out;
  }

  /** The canonical reference a field points at, without building its info (fields may loop). */
  private resolveRef(ref: ParsedRef, bundle: Bundle): string | undefined {
    const resolution = resolveConcept(this.tree, bundle, ref);
    if (resolution.kind === 'native') return `native.${resolution.native.code}`;
    if (resolution.kind === 'concept') {
      const domain = resolution.decl.bundle.domain?.value;
      return domain === undefined ? undefined : this.canonicalRef(resolution.decl, domain);
    }
    return undefined;
  }
}

function withShape(info: ConceptInfo, lineage: readonly string[], shape: ContentShape, fields: readonly ShapeField[]): ConceptInfo {
  info.lineage = lineage;
  info.shape = shape;
  info.fields = fields;
  return info;
}

function isShapeType(t: string | undefined): t is Exclude<ShapeFieldType, 'choices'> {
  return t === 'text' || t === 'integer' || t === 'number' || t === 'boolean' || t === 'date' || t === 'datetime' || t === 'time' || t === 'list' || t === 'dict' || t === 'concept';
}

function isScalarType(t: string | undefined): t is ScalarShapeType {
  return t === 'text' || t === 'integer' || t === 'number' || t === 'boolean' || t === 'date' || t === 'datetime' || t === 'time';
}

function jsonOf(value: unknown): unknown {
  // Scalars (most defaults) as JSON would give them back, without the round trip.
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') {
    const n = Number(value);
    return Number.isFinite(n) ? n + 0 : null;
  }
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) ?? 'null');
}

const nativeInfos = new Map<string, ConceptInfo>();

function nativeInfo(native: NativeConcept): ConceptInfo {
  const cached = nativeInfos.get(native.code);
  if (cached) return cached;
  const ref = `native.${native.code}`;
  const fields: ShapeField[] = native.fields.map((f) => {
    const field: ShapeField = { name: f.name, required: f.required, type: f.type, description: f.description };
    if (f.type === 'concept' && f.concept) field.concept = `native.${f.concept}`;
    if (f.type === 'list') {
      field.itemType = f.itemType ?? 'text';
      if (f.itemType === 'concept' && f.concept) field.concept = `native.${f.concept}`;
    }
    if (f.type === 'dict') field.valueType = f.valueType ?? 'Any';
    return field;
  });
  const parent = native.refines !== undefined ? getNative(native.refines) : undefined;
  const parentInfo = parent ? nativeInfo(parent) : undefined;
  const shape: ContentShape = native.structureless ? 'open' : native.code === 'Text' ? 'text' : (parentInfo?.shape ?? 'structured');
  const info: ConceptInfo = { ref, code: native.code, domain: 'native', description: native.description, native, baseNative: native, lineage: [ref, ...(parentInfo?.lineage ?? [])], shape, fields };
  nativeInfos.set(native.code, info);
  return info;
}

/** The native a concept is or refines, if any. */
export function nativeBase(info: ConceptInfo): NativeConcept | undefined {
  return info.native ?? info.baseNative;
}

// ---------------------------------------------------------------------------------------------
// JSON Schema

export type JsonSchema = Record<string, unknown>;

export interface SchemaOptions {
  /**
   * Leave out the verdict natives' uncertainty members (YesNo.probability, Choice.confidence, ...):
   * a model asked to produce a verdict must not fill them in (language reference §3.3).
   */
  forGeneration?: boolean;
  /** How deep nested concepts are inlined before falling back to a plain object. */
  maxDepth?: number;
}

const UNCERTAINTY = new Set(['probability', 'confidence', 'probabilities', 'position']);
const VERDICTS = new Set(['YesNo', 'Choice', 'Rating']);

/**
 * The JSON Schema of a concept's content: an object with one property per field, required fields
 * listed, no extra properties. Nested concepts are inlined (a concept already on the path becomes
 * a plain object, so that recursive structures stay finite).
 */
export function conceptJsonSchema(catalog: ConceptCatalog, info: ConceptInfo, options: SchemaOptions = {}): JsonSchema {
  // A run asks for the schema of the same concepts again and again (every call of every pipe that
  // outputs them): built once per catalog. Shared by every caller: never mutate a schema.
  let built = schemas.get(catalog);
  if (!built) schemas.set(catalog, (built = new Map()));
  const key = `${info.ref}\u0000${options.forGeneration ? 1 : 0}\u0000${options.maxDepth ?? ''}`;
  let schema = built.get(key);
  if (!schema) built.set(key, (schema = schemaOf(catalog, info, options, new Set(), 0)));
  return schema;
}

// On the catalog itself (ObjectCache), not in a WeakMap: a catalog is made per run and per
// /validate, and an old WeakMap keeps its young keys (the catalog, its tree, the bundle texts)
// alive through every scavenge on Node 20.
const schemas = new ObjectCache<ConceptCatalog, Map<string, JsonSchema>>('schemas');

/** The schema of a list of the concept's contents, wrapped as `{ items: [...] }`. */
export function conceptListJsonSchema(catalog: ConceptCatalog, info: ConceptInfo, count: number | undefined, options: SchemaOptions = {}): JsonSchema {
  const items: JsonSchema = { type: 'array', items: conceptJsonSchema(catalog, info, options) };
  if (count !== undefined) {
    items['minItems'] = count;
    items['maxItems'] = count;
  }
  return { type: 'object', properties: { items }, required: ['items'], additionalProperties: false };
}

function schemaOf(catalog: ConceptCatalog, info: ConceptInfo, options: SchemaOptions, path: Set<string>, depth: number): JsonSchema {
  const schema: JsonSchema = {};
  if (info.description) schema['description'] = info.description;
  if (info.shape === 'open') return schema;
  if (path.has(info.ref) || depth > (options.maxDepth ?? 6)) {
    schema['type'] = 'object';
    return schema;
  }
  path.add(info.ref);
  const base = nativeBase(info);
  const dropUncertainty = options.forGeneration === true && base !== undefined && VERDICTS.has(base.code);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of info.fields) {
    if (dropUncertainty && UNCERTAINTY.has(field.name)) continue;
    properties[field.name] = fieldSchema(catalog, field, options, path, depth);
    if (field.required) required.push(field.name);
  }
  path.delete(info.ref);
  schema['type'] = 'object';
  schema['properties'] = properties;
  schema['required'] = required;
  schema['additionalProperties'] = false;
  return schema;
}

function scalarSchema(type: ScalarShapeType): JsonSchema {
  switch (type) {
    case 'text':
      return { type: 'string' };
    case 'integer':
      return { type: 'integer' };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'time':
      return { type: 'string', format: 'time' };
  }
}

function fieldSchema(catalog: ConceptCatalog, field: ShapeField, options: SchemaOptions, path: Set<string>, depth: number): JsonSchema {
  // Every branch builds a new schema, so members are set on it (no spread: V8's slow path).
  let schema: JsonSchema;
  switch (field.type) {
    case 'choices':
      schema = { type: 'string', enum: [...(field.choices ?? [])] };
      break;
    case 'concept': {
      const target = field.concept ? catalog.byRef(field.concept) : undefined;
      schema = target ? schemaOf(catalog, target, options, path, depth + 1) : { type: 'object' };
      break;
    }
    case 'list': {
      let items: JsonSchema;
      if (field.itemType === 'concept') {
        const target = field.concept ? catalog.byRef(field.concept) : undefined;
        items = target ? schemaOf(catalog, target, options, path, depth + 1) : { type: 'object' };
      } else items = scalarSchema(field.itemType ?? 'text');
      schema = { type: 'array', items };
      break;
    }
    case 'dict': {
      const value = field.valueType && isScalarType(field.valueType) ? scalarSchema(field.valueType) : {};
      schema = { type: 'object', additionalProperties: value };
      break;
    }
    default:
      schema = scalarSchema(field.type);
      // Choices are written as strings; a typed field takes them as values of its type.
      if (field.choices) schema['enum'] = field.choices.map((c) => (field.type === 'integer' || field.type === 'number') && Number.isFinite(Number(c)) && c.trim() !== '' ? Number(c) : c);
  }
  if (field.description) schema['description'] = field.description;
  return schema;
}
