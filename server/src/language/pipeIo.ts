// What a pipe takes and gives, in the three shapes the MTHDS standard owns: the pipe I/O contract
// (per input: concept, presence, multiplicity, item count, JSON Schema; the output: concept,
// multiplicity, item count, optional), the input-form descriptor (ordered field nodes) and the
// output-form descriptor (one node named `output`). One derivation for every surface: the MCP
// tool, the runner's /validate and /pipe-io, the hover and the editor's run prompt all call this
// module, so that no two of them can describe a pipe differently.
//
// Every object here is a closed shape: a member the standard does not define is never emitted,
// and a slot that does not apply is absent (never null), except `item_count` of the contract,
// which the standard keeps on the wire as null off the fixed arm.

import { conceptJsonSchema, type ConceptCatalog, type ConceptInfo, type JsonSchema, type ShapeField } from './jsonSchema.js';
import type { Bundle, PipeDecl } from './model.js';
import { getNative } from './spec/natives.js';
import type { IoRef } from './references.js';
import type { MethodTree } from './tree.js';
import type { LTable } from '../syntax/types.js';

export type Presence = 'plain' | 'optional' | 'force';
export type IoMultiplicity = 'single' | 'variable' | 'fixed';

export interface InputContract {
  concept_ref: string;
  presence: Presence;
  multiplicity: IoMultiplicity;
  item_count: number | null;
  json_schema: JsonSchema;
}

export interface OutputContract {
  concept_ref: string;
  multiplicity: IoMultiplicity;
  item_count: number | null;
  optional: boolean;
}

export interface PipeIoContract {
  inputs: Record<string, InputContract>;
  output: OutputContract;
}

export type FieldKind = 'text' | 'prose' | 'date' | 'number' | 'boolean' | 'enum' | 'document' | 'image' | 'object' | 'list' | 'unknown';

/** A field descriptor of the input-form and output-form descriptors (one node union for both). */
export interface FormField {
  kind: FieldKind;
  name?: string;
  concept_ref?: string;
  refines?: string[];
  description?: string;
  required: boolean;
  presence?: Presence;
  gating?: boolean;
  default_value?: unknown;
  hints?: Record<string, string>;
  datetime?: boolean;
  integer?: boolean;
  format?: string;
  choices?: unknown[];
  fields?: FormField[];
  item?: FormField;
  item_count?: number;
}

export interface InputFormDescriptor {
  fields: FormField[];
}

export interface OutputFormDescriptor {
  field: FormField;
}

export type PipeIoContracts = Record<string, PipeIoContract>;
export type InputForm = Record<string, InputFormDescriptor>;
export type OutputForm = Record<string, OutputFormDescriptor>;

/** The three artifacts over one key set. */
export interface PipeIoArtifacts {
  pipe_io_contracts: PipeIoContracts;
  input_form: InputForm;
  output_form: OutputForm;
}

/** The namespaced ref a pipe is keyed by: `domain.code` (the bare code in a bundle with no domain). */
export function pipeRefOf(pipe: PipeDecl): string {
  const domain = pipe.bundle.domain?.value;
  return domain === undefined ? pipe.code : `${domain}.${pipe.code}`;
}

/** The pipes a tree declares, in bundle order (a signature and its implementation are one key: the implementation wins). */
export function describedPipes(tree: MethodTree): PipeDecl[] {
  const byRef = new Map<string, PipeDecl>();
  for (const bundle of tree.bundles) {
    for (const pipe of bundle.pipes) {
      const ref = pipeRefOf(pipe);
      const known = byRef.get(ref);
      if (!known || (known.typeless && !pipe.typeless)) byRef.set(ref, pipe);
    }
  }
  return [...byRef.values()];
}

/** The artifacts of the given pipes (keys in the order given). */
export function pipeIoArtifacts(catalog: ConceptCatalog, pipes: readonly PipeDecl[]): PipeIoArtifacts {
  const out: PipeIoArtifacts = { pipe_io_contracts: {}, input_form: {}, output_form: {} };
  for (const pipe of pipes) {
    const ref = pipeRefOf(pipe);
    out.pipe_io_contracts[ref] = pipeContract(catalog, pipe);
    out.input_form[ref] = inputFormOf(catalog, pipe);
    out.output_form[ref] = outputFormOf(catalog, pipe);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The contract

function presenceOf(io: IoRef): Presence {
  return io.marker === '?' ? 'optional' : io.marker === '!' ? 'force' : 'plain';
}

/** `Concept[1]` is single: a count of one is a way of writing `Concept`. */
function multiplicityOf(io: IoRef | undefined): { multiplicity: IoMultiplicity; count: number | null } {
  const m = io?.multiplicity;
  if (!m || m.kind === 'single' || (m.kind === 'fixed' && m.count < 2)) return { multiplicity: 'single', count: null };
  if (m.kind === 'list') return { multiplicity: 'variable', count: null };
  return { multiplicity: 'fixed', count: m.count };
}

/** The canonical ref of a concept as written, for a reference that does not resolve (a broken tree). */
function writtenRef(io: IoRef | undefined, bundle: Bundle): string {
  if (!io) return 'native.Anything';
  const qualified = io.domain !== undefined ? `${io.domain}.${io.code}` : `${bundle.domain?.value ?? 'native'}.${io.code}`;
  return io.prefix !== undefined ? `${io.prefix}->${qualified}` : qualified;
}

export function pipeContract(catalog: ConceptCatalog, pipe: PipeDecl): PipeIoContract {
  const inputs: Record<string, InputContract> = {};
  for (const input of pipe.inputs) {
    const io = input.ref?.io;
    if (!io) continue;
    const info = catalog.resolve(io, pipe.bundle);
    const { multiplicity, count } = multiplicityOf(io);
    const element: JsonSchema = info ? conceptJsonSchema(catalog, info) : {};
    let schema: JsonSchema = element;
    if (multiplicity !== 'single') {
      schema = { type: 'array', items: element };
      if (count !== null) {
        schema['minItems'] = count;
        schema['maxItems'] = count;
      }
    }
    inputs[input.name] = { concept_ref: info?.ref ?? writtenRef(io, pipe.bundle), presence: multiplicity === 'single' ? presenceOf(io) : 'plain', multiplicity, item_count: count, json_schema: schema };
  }
  const io = pipe.output?.io;
  const info = io ? catalog.resolve(io, pipe.bundle) : undefined;
  const { multiplicity, count } = multiplicityOf(io);
  return { inputs, output: { concept_ref: info?.ref ?? writtenRef(io, pipe.bundle), multiplicity, item_count: count, optional: io?.marker === '?' } };
}

// ---------------------------------------------------------------------------------------------
// The form descriptors

export function inputFormOf(catalog: ConceptCatalog, pipe: PipeDecl): InputFormDescriptor {
  const fields: FormField[] = [];
  for (const input of pipe.inputs) {
    const io = input.ref?.io;
    if (!io) continue;
    const info = catalog.resolve(io, pipe.bundle);
    const { multiplicity, count } = multiplicityOf(io);
    const presence = multiplicity === 'single' ? presenceOf(io) : 'plain';
    const site = stringMap(input.hints);
    const node = slotNode(catalog, info, io, pipe.bundle, site, multiplicity, count);
    // Key order is for readers of the JSON: kind and name first, the slot facts last.
    const field: FormField = Object.assign({ kind: node.kind, name: input.name }, node);
    field.required = presence !== 'optional';
    field.presence = presence;
    // A variable list is satisfied by the empty list: required, yet it never blocks a run.
    field.gating = presence !== 'optional' && multiplicity !== 'variable';
    fields.push(field);
  }
  return { fields };
}

export function outputFormOf(catalog: ConceptCatalog, pipe: PipeDecl): OutputFormDescriptor {
  const io = pipe.output?.io;
  const info = io ? catalog.resolve(io, pipe.bundle) : undefined;
  const { multiplicity, count } = multiplicityOf(io);
  // Outputs take concept-level hints only: slot-level hints exist on inputs alone.
  const node = slotNode(catalog, info, io, pipe.bundle, undefined, multiplicity, count);
  return { field: Object.assign({ kind: node.kind, name: 'output' }, node, { required: true }) };
}

/** A slot's node: the element node, wrapped in a list node when the slot is plural. */
function slotNode(catalog: ConceptCatalog, info: ConceptInfo | undefined, io: IoRef | undefined, bundle: Bundle, site: Record<string, string> | undefined, multiplicity: IoMultiplicity, count: number | null): FormField {
  const element: FormField = info ? conceptNode(catalog, info, site, new Set(), 0) : { kind: 'unknown', concept_ref: writtenRef(io, bundle), required: true };
  if (multiplicity === 'single') return element;
  const list: FormField = { kind: 'list', required: true };
  if (element.concept_ref !== undefined) list.concept_ref = element.concept_ref;
  if (element.refines) list.refines = element.refines;
  if (element.description !== undefined) list.description = element.description;
  if (element.hints) list.hints = element.hints;
  list.item = element;
  if (count !== null) list.item_count = count;
  return list;
}

type NativeKind = Pick<FormField, 'kind' | 'integer' | 'datetime' | 'format'>;

/** The standard's table of pinned natives; a native not listed here takes the structure rows. */
const NATIVE_KINDS: Readonly<Record<string, NativeKind>> = {
  Text: { kind: 'prose' },
  Html: { kind: 'prose' },
  Number: { kind: 'number', integer: false },
  YesNo: { kind: 'boolean' },
  Date: { kind: 'date', datetime: false },
  Time: { kind: 'text', format: 'time' },
  Document: { kind: 'document' },
  Image: { kind: 'image' },
  Dynamic: { kind: 'unknown' },
  JSON: { kind: 'unknown' },
  Anything: { kind: 'unknown' },
  Composite: { kind: 'unknown' },
};

/** The native whose kind a concept takes: the first tabled native on its chain (itself first). */
function kindNative(info: ConceptInfo): string | undefined {
  for (const ref of info.lineage) {
    // Natives outside the table (Markdown refines Text) pass on to their own parent; a chain
    // that reaches no tabled native decides by its structure, like Page or a user concept.
    if (ref.startsWith('native.') && NATIVE_KINDS[ref.slice('native.'.length)]) return ref.slice('native.'.length);
  }
  return undefined;
}

/** The concept's effective hints: its chain's, the farthest ancestor first so that nearer ones win, then the site's. */
function effectiveHints(catalog: ConceptCatalog, info: ConceptInfo, site: Record<string, string> | undefined): Record<string, string> | undefined {
  let merged: Record<string, string> | undefined;
  for (let i = info.lineage.length - 1; i >= 0; i--) {
    const decl = (i === 0 ? info : catalog.byRef(info.lineage[i]!))?.decl;
    const own = stringMap(decl?.hints);
    if (own) merged = Object.assign(merged ?? {}, own);
  }
  if (site) merged = Object.assign(merged ?? {}, site);
  return merged;
}

function stringMap(table: LTable | undefined): Record<string, string> | undefined {
  if (!table) return undefined;
  let out: Record<string, string> | undefined;
  for (const entry of table.entries) if (entry.value.type === 'string') (out ??= {})[entry.key] = entry.value.value;
  return out;
}

/**
 * The node of a concept, by the standard's kind assignment (first row that matches): a native or
 * a chain reaching a tabled native takes the native's kind; a structure (own or inherited) is an
 * object; no structure at all is prose; anything else is unknown.
 */
function conceptNode(catalog: ConceptCatalog, info: ConceptInfo, site: Record<string, string> | undefined, path: Set<string>, depth: number): FormField {
  const node: FormField = { kind: 'unknown', concept_ref: info.ref, required: true };
  if (info.lineage.length > 1) node.refines = info.lineage.slice(1);
  if (info.description !== undefined) node.description = info.description;
  const hints = effectiveHints(catalog, info, site);
  if (hints) node.hints = hints;
  const native = kindNative(info);
  if (native !== undefined) {
    Object.assign(node, NATIVE_KINDS[native]);
    // Text reached through Text (not Html) is text-valued: an `intent` word may choose its kind.
    if (native === 'Text') applyTextIntent(node);
    return node;
  }
  if (info.shape === 'text') {
    node.kind = 'prose';
    applyTextIntent(node);
    return node;
  }
  if (info.shape === 'open' || info.fields.length === 0) return node;
  node.kind = 'object';
  // A concept already on the path (a recursive structure) is an object with no fields, so that the node stays finite.
  if (path.has(info.ref) || depth > 6) {
    node.fields = [];
    return node;
  }
  path.add(info.ref);
  node.fields = info.fields.map((f) => fieldNode(catalog, f, path, depth + 1));
  path.delete(info.ref);
  return node;
}

function applyTextIntent(node: FormField): void {
  const intent = node.hints?.['intent'];
  if (intent === 'prose') node.kind = 'prose';
  else if (intent === 'label') node.kind = 'text';
}

function scalarNode(type: ShapeField['type'] | undefined): FormField {
  switch (type) {
    case 'text':
      return { kind: 'text', required: true };
    case 'integer':
    case 'number':
      return { kind: 'number', required: true, integer: type === 'integer' };
    case 'boolean':
      return { kind: 'boolean', required: true };
    case 'date':
    case 'datetime':
      return { kind: 'date', required: true, datetime: type === 'datetime' };
    case 'time':
      return { kind: 'text', required: true, format: 'time' };
    default:
      return { kind: 'unknown', required: true };
  }
}

function fieldNode(catalog: ConceptCatalog, field: ShapeField, path: Set<string>, depth: number): FormField {
  let node: FormField;
  if (field.type === 'choices') {
    node = { kind: 'enum', required: true, choices: [...(field.choices ?? [])] };
  } else if (field.type === 'concept') {
    const target = field.concept !== undefined ? catalog.byRef(field.concept) : undefined;
    node = target ? conceptNode(catalog, target, undefined, path, depth) : { kind: 'unknown', required: true };
  } else if (field.type === 'list') {
    let item: FormField;
    if (field.itemType === 'concept') {
      const target = field.concept !== undefined ? catalog.byRef(field.concept) : undefined;
      item = target ? conceptNode(catalog, target, undefined, path, depth) : { kind: 'unknown', required: true };
    } else item = scalarNode(field.itemType);
    node = { kind: 'list', required: true };
    if (item.concept_ref !== undefined) node.concept_ref = item.concept_ref;
    if (item.refines) node.refines = item.refines;
    node.item = item;
  } else node = scalarNode(field.type);
  // A nested node: its name is the structure field's, its description the field's own when written.
  const out: FormField = Object.assign({ kind: node.kind, name: field.name }, node);
  if (field.description !== undefined) out.description = field.description;
  // A defaulted field is never required: the pair would be two contradictory instructions.
  out.required = field.required && field.defaultValue === undefined;
  if (field.defaultValue !== undefined) out.default_value = field.defaultValue;
  return out;
}

// ---------------------------------------------------------------------------------------------
// For people: one line per input, as the hover and the run prompt show it

/** One `name: domain.Concept[] (optional) — kind` line per input, in authored order. */
export function pipeIoLines(form: InputFormDescriptor): string[] {
  return form.fields.map((field) => {
    const element = field.kind === 'list' && field.item ? field.item : field;
    const plural = field.kind === 'list' ? `[${field.item_count ?? ''}]` : '';
    const kind = field.kind === 'list' ? `list of ${element.kind}` : field.kind;
    return `${field.name ?? '?'}: ${field.concept_ref ?? '?'}${plural}${field.presence === 'optional' ? ' (optional)' : ''} — ${kind}`;
  });
}

/** The hover's and the completion documentation's section on what a pipe takes and gives. */
export function pipeIoMarkdown(catalog: ConceptCatalog, pipe: PipeDecl): string {
  const lines = pipeIoLines(inputFormOf(catalog, pipe)).map((l) => `- ${markdownLine(l)}`);
  const output = outputFormOf(catalog, pipe).field;
  const gives = output.kind === 'list' ? `${output.concept_ref ?? '?'}[${output.item_count ?? ''}] — list of ${output.item?.kind ?? 'unknown'}` : `${output.concept_ref ?? '?'} — ${output.kind}`;
  return [`**Takes**${lines.length === 0 ? ' nothing' : ''}`, ...lines, '', `**Gives** ${markdownLine(gives)}`].join('\n');
}

/** The concept part as code, the rest as prose. */
function markdownLine(line: string): string {
  const dash = line.lastIndexOf(' — ');
  return `\`${line.slice(0, dash)}\`${line.slice(dash)}`;
}

// ---------------------------------------------------------------------------------------------
// The run prompt: what an editor asks for, one input at a time, before running a pipe

/** One input to ask for. `key`: the content is `{ [key]: the value typed }`; absent: the value is JSON. */
export interface RunPromptField {
  name: string;
  concept: string;
  kind: FieldKind;
  required: boolean;
  key?: string;
  /** How the typed text becomes the value: as is, a number, or a yes/no. */
  value?: 'text' | 'number' | 'boolean';
  /** For an answer typed as JSON: a content of the right shape, one line, to start from. */
  sample?: string;
}

/** The tabled native that decided a node's kind: the first on its chain (itself first). */
function kindNativeOf(field: FormField): string | undefined {
  for (const ref of [field.concept_ref, ...(field.refines ?? [])]) {
    if (ref?.startsWith('native.') && NATIVE_KINDS[ref.slice('native.'.length)]) return ref.slice('native.'.length);
  }
  return undefined;
}

/**
 * The one member a typed answer fills: the native's only required member, when it holds a scalar
 * (Text's `text`, Html's `inner_html`, Image's `url`...). Read from the spec, so that a native's
 * content and its prompt cannot disagree; a native with no such member is typed as JSON.
 */
function promptMember(native: string): { key: string; value: NonNullable<RunPromptField['value']> } | undefined {
  const required = getNative(native)?.fields.filter((f) => f.required) ?? [];
  const only = required.length === 1 ? required[0]! : undefined;
  switch (only?.type) {
    case 'text':
    case 'date':
    case 'datetime':
    case 'time':
      return { key: only.name, value: 'text' };
    case 'number':
    case 'integer':
      return { key: only.name, value: 'number' };
    case 'boolean':
      return { key: only.name, value: 'boolean' };
    default:
      return undefined;
  }
}

export function runPrompt(form: InputFormDescriptor): RunPromptField[] {
  return form.fields.map((field) => {
    const out: RunPromptField = { name: field.name ?? '', concept: field.concept_ref ?? 'native.Anything', kind: field.kind, required: field.gating === true };
    // Lists and structures are typed as JSON; a node whose kind a native decided, as that native's member.
    const native = field.kind === 'list' || field.kind === 'object' ? undefined : kindNativeOf(field);
    const member = native !== undefined ? promptMember(native) : undefined;
    if (member) {
      out.key = member.key;
      out.value = member.value;
    } else {
      const sample = sampleContent(field, 0);
      if (sample !== null) out.sample = JSON.stringify(sample);
    }
    return out;
  });
}

/** A value of a scalar node the runner's content check accepts. */
function sampleScalar(node: FormField): unknown {
  switch (node.kind) {
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'date':
      return node.datetime ? '2024-01-31T09:00:00Z' : '2024-01-31';
    case 'enum':
      return node.choices?.[0] ?? '';
    default:
      return node.format === 'time' ? '09:00' : '…';
  }
}

/**
 * A content of a node's shape, every member filled (optional ones too, to show them), from the
 * input-form descriptor alone: a structure is an object of its fields, a list holds one item, a
 * native is its one member. `null` where nothing is known (unknown kinds, nodes past the depth).
 */
function sampleContent(node: FormField, depth: number): unknown {
  if (depth > 6) return null;
  if (node.kind === 'list') {
    const item = node.item ? sampleContent(node.item, depth + 1) : null;
    // A fixed list takes its count of items; a variable one shows one.
    return item === null ? [] : Array.from({ length: node.item_count ?? 1 }, () => item);
  }
  if (node.kind === 'object') {
    const out: Record<string, unknown> = {};
    for (const f of node.fields ?? []) {
      if (f.name === undefined) continue;
      // An unknown member (a dict, an open concept) takes an object, which either accepts.
      const value = f.kind === 'object' || f.kind === 'list' || kindNativeOf(f) !== undefined ? sampleContent(f, depth + 1) : f.kind === 'unknown' ? {} : sampleScalar(f);
      out[f.name] = value ?? {};
    }
    return out;
  }
  const native = kindNativeOf(node);
  if (native !== undefined) {
    const member = promptMember(native);
    return member ? { [member.key]: sampleScalar(node) } : null;
  }
  return node.kind === 'unknown' ? null : sampleScalar(node);
}
