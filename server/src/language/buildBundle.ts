// Builds the semantic model of one bundle from its located TOML document. Lenient by design: a
// part that does not have the expected shape is skipped (the shape checks report it), so that a
// half-typed document still yields every concept and pipe that can be read.

import { detached } from '../util/detached.js';
import { getEntry } from '../syntax/lookup.js';
import type { LEntry, LString, LTable, LValue, Range, TomlDocument } from '../syntax/types.js';
import { valueOffsetToSource } from '../syntax/strings.js';
import type {
  Bundle,
  ConceptDecl,
  ConceptRefContext,
  ConceptRefSite,
  InputDecl,
  IoRefSite,
  Located,
  PipeDecl,
  PipeRefContext,
  PipeRefSite,
  StepDecl,
  StructureField,
} from './model.js';
import { parseConceptRef, parseIoRef, parsePipeRef, type IoRef, type ParseResult, type ParsedRef } from './references.js';
import { SPECIAL_OUTCOMES } from './spec/lexical.js';
import { getPipeType } from './spec/pipeTypes.js';

export function buildBundle(file: string, doc: TomlDocument): Bundle {
  const root = doc.root;
  const bundle: Bundle = { file, doc, concepts: [], pipes: [] };
  const domain = stringAt(root, 'domain');
  if (domain) bundle.domain = domain;
  const description = stringAt(root, 'description');
  if (description) bundle.description = description;
  const systemPrompt = getEntry(root, 'system_prompt')?.value;
  if (systemPrompt?.type === 'string') bundle.systemPrompt = systemPrompt;
  const mainPipe = getEntry(root, 'main_pipe')?.value;
  if (mainPipe?.type === 'string') bundle.mainPipe = { value: mainPipe.value, range: mainPipe.range, node: mainPipe };

  const concepts = getEntry(root, 'concept')?.value;
  if (concepts?.type === 'table') {
    for (const entry of concepts.entries) {
      const concept = buildConcept(bundle, entry);
      if (concept) bundle.concepts.push(concept);
    }
  }
  const pipes = getEntry(root, 'pipe')?.value;
  if (pipes?.type === 'table') {
    for (const entry of pipes.entries) {
      if (entry.value.type === 'table') bundle.pipes.push(buildPipe(bundle, entry, entry.value));
    }
  }
  return bundle;
}

/**
 * Parsed references by their text: a bundle writes the same few again and again (`Text`, its own
 * concepts), and an editor builds the model again on every keystroke. A result is never changed,
 * so the sites of equal texts share it.
 */
const MEMO_SIZE = 2048;
const MEMO_TEXT = 200;
const ioRefs = new Map<string, ParseResult<IoRef>>();
const conceptRefs = new Map<string, ParseResult<ParsedRef>>();
const pipeRefs = new Map<string, ParseResult<ParsedRef>>();

function memo<T>(cache: Map<string, ParseResult<T>>, raw: string, parse: (raw: string) => ParseResult<T>): ParseResult<T> {
  if (raw.length > MEMO_TEXT) return parse(raw);
  let r = cache.get(raw);
  if (r === undefined) {
    if (cache.size >= MEMO_SIZE) cache.clear();
    // `raw` is a slice of its bundle's text: kept as the key, or cut into the result's names, it
    // would keep that whole text alive as long as the entry lives (a runner checking distinct
    // bundles kept one text per entry, promoted out of the young generation).
    const own = detached(raw);
    r = parse(own);
    cache.set(own, r);
  }
  return r;
}

/** The range of a slice of a string value, mapped to the source (escapes accounted for). */
export function stringSliceRange(node: LString, start: number, end: number): Range {
  return { start: valueOffsetToSource(node, start), end: valueOffsetToSource(node, end) };
}

function stringAt(table: LTable, key: string): Located<string> | undefined {
  const v = getEntry(table, key)?.value;
  return v?.type === 'string' ? { value: v.value, range: v.range } : undefined;
}

function conceptRefSite(node: LValue | undefined, context: ConceptRefContext): ConceptRefSite | undefined {
  if (node?.type !== 'string') return undefined;
  const site: ConceptRefSite = { context, raw: node.value, node };
  const parsed = memo(conceptRefs, node.value, parseConceptRef);
  if (parsed.ok) site.ref = parsed.value;
  else site.parseError = { message: parsed.error, range: stringSliceRange(node, parsed.start, parsed.end) };
  return site;
}

export function ioRefSite(node: LString, context: 'input' | 'output'): IoRefSite {
  const site: IoRefSite = { context, raw: node.value, node };
  const parsed = memo(ioRefs, node.value, parseIoRef);
  if (parsed.ok) {
    site.io = parsed.value;
    site.ref = parsed.value;
  } else site.parseError = { message: parsed.error, range: stringSliceRange(node, parsed.start, parsed.end) };
  return site;
}

function pipeRefSite(node: LValue | undefined, context: PipeRefContext, allowSpecial: boolean): PipeRefSite | undefined {
  if (node?.type !== 'string') return undefined;
  const special = allowSpecial && SPECIAL_OUTCOMES.includes(node.value);
  const site: PipeRefSite = { context, raw: node.value, node, special };
  if (special) return site;
  const parsed = memo(pipeRefs, node.value, parsePipeRef);
  if (parsed.ok) site.ref = parsed.value;
  else site.parseError = { message: parsed.error, range: stringSliceRange(node, parsed.start, parsed.end) };
  return site;
}

function buildConcept(bundle: Bundle, entry: LEntry): ConceptDecl | undefined {
  const node = entry.value;
  if (node.type === 'string') {
    return { bundle, code: entry.key, codeRange: entry.keyRange, range: entry.range, node, form: 'simple', description: { value: node.value, range: node.range } };
  }
  if (node.type !== 'table') return undefined;
  const concept: ConceptDecl = { bundle, code: entry.key, codeRange: entry.keyRange, range: entry.range, node, form: 'table' };
  const description = stringAt(node, 'description');
  if (description) concept.description = description;
  const refines = conceptRefSite(getEntry(node, 'refines')?.value, 'refines');
  if (refines) concept.refines = refines;
  const hints = getEntry(node, 'hints')?.value;
  if (hints?.type === 'table') concept.hints = hints;
  const structure = getEntry(node, 'structure')?.value;
  if (structure?.type === 'string') concept.structureString = { value: structure.value, range: structure.range };
  else if (structure?.type === 'table') concept.structure = structure.entries.map(buildStructureField);
  return concept;
}

export function buildStructureField(entry: LEntry): StructureField {
  const node = entry.value;
  const field: StructureField = { name: entry.key, nameRange: entry.keyRange, range: entry.range, node, shorthand: false, required: false };
  if (node.type === 'string') {
    field.shorthand = true;
    field.required = true;
    field.description = node.value;
    field.type = { value: 'text', range: node.range };
    return field;
  }
  if (node.type !== 'table') return field;
  field.table = node;
  const description = stringAt(node, 'description');
  if (description) field.description = description.value;
  const type = stringAt(node, 'type');
  if (type) field.type = type;
  const required = getEntry(node, 'required')?.value;
  field.required = required?.type === 'boolean' && required.value;
  const choices = getEntry(node, 'choices')?.value;
  if (choices?.type === 'array') field.choices = choices.items.flatMap((i) => (i.type === 'string' ? [i.value] : []));
  const itemType = stringAt(node, 'item_type');
  if (itemType) field.itemType = itemType;
  const keyType = stringAt(node, 'key_type');
  if (keyType) field.keyType = keyType;
  const valueType = stringAt(node, 'value_type');
  if (valueType) field.valueType = valueType;
  const conceptRef = conceptRefSite(getEntry(node, 'concept_ref')?.value, 'concept_ref');
  if (conceptRef) field.conceptRef = conceptRef;
  const itemConceptRef = conceptRefSite(getEntry(node, 'item_concept_ref')?.value, 'item_concept_ref');
  if (itemConceptRef) field.itemConceptRef = itemConceptRef;
  else if (itemType && type?.value === 'list' && /^[A-Z]/.test(itemType.value.split('.').at(-1) ?? '')) {
    // `item_type = "Stop"`: the runtime takes a concept named there as the item concept.
    const shorthand = conceptRefSite(getEntry(node, 'item_type')?.value, 'item_type');
    if (shorthand?.ref) field.itemConceptRef = shorthand;
  }
  const defaultValue = getEntry(node, 'default_value')?.value;
  if (defaultValue) field.defaultValue = defaultValue;
  return field;
}

const STEP_KEYS = ['steps', 'branches'] as const;

function buildPipe(bundle: Bundle, entry: LEntry, table: LTable): PipeDecl {
  const typeEntry = getEntry(table, 'type');
  const pipe: PipeDecl = {
    bundle,
    code: entry.key,
    codeRange: entry.keyRange,
    range: entry.range,
    table,
    typeless: typeEntry === undefined,
    inputs: [],
    steps: [],
    pipeRefs: [],
  };
  if (typeEntry?.value.type === 'string') {
    pipe.type = { value: typeEntry.value.value, range: typeEntry.value.range };
    const spec = getPipeType(typeEntry.value.value);
    if (spec) pipe.spec = spec;
  }
  const description = stringAt(table, 'description');
  if (description) pipe.description = description;
  const inputs = getEntry(table, 'inputs')?.value;
  if (inputs?.type === 'table') pipe.inputs = inputs.entries.map(buildInput);
  const output = getEntry(table, 'output')?.value;
  if (output?.type === 'string') pipe.output = ioRefSite(output, 'output');

  for (const key of STEP_KEYS) {
    const steps = getEntry(table, key)?.value;
    if (steps?.type !== 'array') continue;
    const items = steps.items;
    for (let index = 0; index < items.length; index++) {
      const item = items[index]!;
      if (item.type !== 'table') continue;
      const step = buildStep(item, index, key === 'steps' ? 'step' : 'branch');
      pipe.steps.push(step);
      if (step.pipe) pipe.pipeRefs.push(step.pipe);
    }
  }
  const outcomes = getEntry(table, 'outcomes')?.value;
  if (outcomes?.type === 'table') {
    for (const outcome of outcomes.entries) {
      const site = pipeRefSite(outcome.value, 'outcome', true);
      if (site) pipe.pipeRefs.push(site);
    }
  }
  const defaultOutcome = pipeRefSite(getEntry(table, 'default_outcome')?.value, 'default_outcome', true);
  if (defaultOutcome) pipe.pipeRefs.push(defaultOutcome);
  const branch = pipeRefSite(getEntry(table, 'branch_pipe_code')?.value, 'branch_pipe_code', false);
  if (branch) pipe.pipeRefs.push(branch);
  return pipe;
}

function buildInput(entry: LEntry): InputDecl {
  const input: InputDecl = { name: entry.key, nameRange: entry.keyRange, range: entry.range };
  const node = entry.value;
  if (node.type === 'string') input.ref = ioRefSite(node, 'input');
  else if (node.type === 'table') {
    const concept = getEntry(node, 'concept')?.value;
    if (concept?.type === 'string') input.ref = ioRefSite(concept, 'input');
    const hints = getEntry(node, 'hints')?.value;
    if (hints?.type === 'table') input.hints = hints;
  }
  return input;
}

function located<T extends string | number | boolean>(node: LValue | undefined, type: 'string' | 'integer' | 'boolean'): Located<T> | undefined {
  if (!node || node.type !== type) return undefined;
  if (node.type === 'string' || node.type === 'boolean') return { value: node.value as T, range: node.range };
  if (node.type === 'integer') return { value: Number(node.value) as T, range: node.range };
  return undefined;
}

function buildStep(node: LTable, index: number, context: 'step' | 'branch'): StepDecl {
  const step: StepDecl = { node, index };
  const pipe = pipeRefSite(getEntry(node, 'pipe')?.value, context, false);
  if (pipe) step.pipe = pipe;
  const from = located<string>(getEntry(node, 'from')?.value, 'string');
  if (from) step.from = from;
  const result = located<string>(getEntry(node, 'result')?.value, 'string');
  if (result) step.result = result;
  const batchOver = located<string>(getEntry(node, 'batch_over')?.value, 'string');
  if (batchOver) step.batchOver = batchOver;
  const batchAs = located<string>(getEntry(node, 'batch_as')?.value, 'string');
  if (batchAs) step.batchAs = batchAs;
  const nbOutput = located<number>(getEntry(node, 'nb_output')?.value, 'integer');
  if (nbOutput) step.nbOutput = nbOutput;
  const multipleOutput = located<boolean>(getEntry(node, 'multiple_output')?.value, 'boolean');
  if (multipleOutput) step.multipleOutput = multipleOutput;
  return step;
}
