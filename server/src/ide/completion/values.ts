// Values: what a string (or a value not yet quoted) may hold at its place, by the role and the
// allowed values the language description gives it.

import type { LString, Range } from '../../syntax/types.js';
import { stringSliceRange } from '../../language/buildBundle.js';
import type { CursorPlace } from './cursor.js';
import { fieldMarkdown, pipeTypeMarkdown } from '../describe.js';
import { FIELD_TYPES } from '../../language/spec/bundle.js';
import { PIPE_TYPES } from '../../language/spec/pipeTypes.js';
import type { ValueSpec } from '../../language/spec/values.js';
import { specAt, stringSpecOf, type PathSegment, type SpecAt } from '../../language/specPaths.js';
import { isNarrowed, markNarrowed } from './narrow.js';
import { conceptCompletions, modelCompletions, pipeCompletions } from './refs.js';
import { pathCompletions, templateCompletions } from './templates.js';
import type { Completion, CompletionRequest } from './types.js';

type StringPlace = Extract<CursorPlace, { kind: 'string' }>;

/** Where a value is written and what closes it. */
interface Slot {
  range: Range;
  /** Before each insertion (an opening quote for a value not yet quoted). */
  open: string;
  /** After each insertion (the closing quote an unterminated string lacks). */
  close: string;
}

function enumItems(values: readonly string[], at: SpecAt, slot: Slot): Completion[] {
  return values.map((v, i) => ({
    label: v,
    kind: 'value',
    ...(at.field ? { detail: at.field.name, documentation: fieldMarkdown(at.field) } : {}),
    insertText: `${slot.open}${v}${slot.close}`,
    range: slot.range,
    sortText: String(i).padStart(3, '0'),
    filterText: v,
  }));
}

function pipeTypeItems(slot: Slot): Completion[] {
  return PIPE_TYPES.map((spec, i) => ({
    label: spec.name,
    kind: 'pipe-type',
    detail: `${spec.kind}${spec.standard ? '' : ' (extension)'}`,
    documentation: pipeTypeMarkdown(spec),
    insertText: `${slot.open}${spec.name}${slot.close}`,
    range: slot.range,
    sortText: `${spec.standard ? '0' : '1'}${String(i).padStart(2, '0')}`,
    filterText: spec.name,
  }));
}

/** The values a string at `at` may take, except those that depend on the cursor inside the string. */
function wholeValueItems(req: CompletionRequest, at: SpecAt, path: readonly PathSegment[], slot: Slot, typed = ''): Completion[] {
  const { tree, bundle } = req;
  const spec = stringSpecOf(at.spec);
  if (!spec) return [];
  if (spec.role === 'pipe-type') return pipeTypeItems(slot);
  if (spec.enum) return enumItems(spec.enum, at, slot);
  // `item_type` of a list field: a scalar field type, or `concept`.
  if (at.field?.name === 'item_type' && at.owner?.name === 'structure field') return enumItems(FIELD_TYPES.filter((t) => t !== 'list' && t !== 'dict'), at, slot);
  if (spec.role === 'pipe-ref' || spec.role === 'pipe-code') {
    const options = { range: slot.range, close: slot.close, specials: at.field?.name === 'default_outcome' || at.named === 'outcome', ownOnly: path.length === 1 && path[0] === 'main_pipe', qualified: typed.includes('.') };
    const items = pipeCompletions(tree, bundle, { ...options, ...(at.pipe ? { exclude: at.pipe } : {}), ...(req.narrowed ? { narrowAt: req.offset } : {}) });
    // The same items, opened: what was narrowed stays so.
    const opened = items.map((i) => withOpen(i, slot));
    return isNarrowed(items) ? markNarrowed(opened) : opened;
  }
  if (spec.role === 'model-ref') {
    if (!req.models) return [];
    const category = at.field?.name === 'model_to_structure' ? 'llm' : at.pipe?.spec?.modelCategory;
    return modelCompletions(req.models, category, slot.range, slot.close).map((i) => withOpen(i, slot));
  }
  if (spec.role === 'input-name' && at.pipe) {
    return at.pipe.inputs.map((input) => ({
      label: input.name,
      kind: 'variable',
      detail: input.ref?.raw ?? 'input',
      insertText: `${slot.open}${input.name}${slot.close}`,
      range: slot.range,
      // The list inputs first: `input_list_name` names one.
      sortText: `${input.ref?.io?.multiplicity.kind === 'single' ? '1' : '0'}${input.name}`,
    }));
  }
  return [];
}

function withOpen(item: Completion, slot: Slot): Completion {
  if (slot.open === '') return item;
  return { ...item, insertText: `${slot.open}${item.insertText}`, filterText: item.filterText ?? item.label };
}

function quoteOf(node: LString): string {
  return node.style === 'basic' ? '"' : node.style === 'literal' ? "'" : node.style === 'ml-basic' ? '"""' : "'''";
}

/** Inside a string: references, templates, paths and allowed values. */
export function stringCompletions(req: CompletionRequest, place: StringPlace): Completion[] {
  const { tree, bundle } = req;
  const { node, index, path } = place;
  const at = specAt(bundle, path);
  const close = place.unterminated && (node.style === 'basic' || node.style === 'literal') ? quoteOf(node) : '';
  const whole: Slot = { range: stringSliceRange(node, 0, node.value.length), open: '', close };

  // Construct fields of a PipeCompose are shapes of their own (a custom spec).
  if (at.pipe && path[2] === 'construct') {
    const last = path[path.length - 1];
    if (last === 'template') return templateCompletions(tree, at.pipe, node, index, { shorthands: true, expression: false });
    if (last === 'from') return templateCompletions(tree, at.pipe, node, index, { shorthands: false, expression: true });
    return [];
  }
  const spec = stringSpecOf(at.spec);
  if (!spec) return [];
  switch (spec.role) {
    case 'io-ref':
    case 'concept-ref': {
      const value = node.value;
      // The reference ends where a multiplicity or a marker begins; those are kept as typed.
      const suffix = spec.role === 'io-ref' ? value.search(/[[?!]/) : -1;
      const refEnd = suffix < 0 ? value.length : suffix;
      if (index > refEnd || value.slice(0, index).includes('->')) return [];
      const exclude = spec.role === 'concept-ref' && at.field?.name === 'refines' && at.concept ? `${bundle.domain?.value ?? ''}.${at.concept.code}` : undefined;
      const options = { range: stringSliceRange(node, 0, refEnd), close: suffix < 0 ? close : '', qualified: value.slice(0, index).includes('.') };
      return conceptCompletions(tree, bundle, { ...options, ...(exclude !== undefined ? { exclude } : {}), ...(req.narrowed ? { narrowAt: req.offset } : {}) });
    }
    case 'template':
    case 'expression':
      return at.pipe ? templateCompletions(tree, at.pipe, node, index, { shorthands: spec.shorthands === true, expression: spec.role === 'expression' }) : [];
    case 'path':
      return at.pipe && typeof path[3] === 'number' ? pathCompletions(tree, at.pipe, path[3], node, index) : [];
    default:
      if (at.field?.name === 'batch_over' && at.pipe && typeof path[3] === 'number') return pathCompletions(tree, at.pipe, path[3], node, index);
      return wholeValueItems(req, at, path, whole, node.value.slice(0, index));
  }
}

function booleanIn(spec: ValueSpec | undefined): boolean {
  return spec?.kind === 'boolean' || (spec?.kind === 'oneOf' && spec.options.some((o) => o.kind === 'boolean'));
}

/** After `key =`, before any quote: the same values, quoted (with a space when `=` is right before). */
export function bareCompletions(req: CompletionRequest, path: readonly PathSegment[], range: Range): Completion[] {
  const at = specAt(req.bundle, path);
  const space = req.bundle.doc.text[range.start - 1] === '=' ? ' ' : '';
  if (booleanIn(at.spec)) {
    return ['true', 'false'].map((v) => ({ label: v, kind: 'value', insertText: `${space}${v}`, range, filterText: v, ...(at.field ? { documentation: fieldMarkdown(at.field) } : {}) }));
  }
  const spec = stringSpecOf(at.spec);
  if (!spec) return [];
  const slot: Slot = { range, open: `${space}"`, close: '"' };
  if (spec.role === 'io-ref' || spec.role === 'concept-ref') {
    return conceptCompletions(req.tree, req.bundle, { range, close: '"' }).map((i) => withOpen(i, slot));
  }
  return wholeValueItems(req, at, path, slot);
}
