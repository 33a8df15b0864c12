// method.schema_violation, method.pipe_type_invalid and method.model_setting_invalid (shape part):
// every table of a bundle checked against the language description, naming the real mistake.

import type { Bundle } from '../../language/model.js';
import { BUNDLE_FIELDS, CONCEPT_TABLE, HINT_INTENTS, STRUCTURE_FIELD_TABLE } from '../../language/spec/bundle.js';
import { PASCAL, PY_IDENTIFIER, PYTHON_KEYWORDS, RESERVED_FIELD_NAMES } from '../../language/spec/lexical.js';
import { INPUT_SLOT_TABLE, PIPE_TYPES, RETIRED_PIPE_TYPES, SIGNATURE_FIELDS, getPipeType, type PipeTypeSpec } from '../../language/spec/pipeTypes.js';
import { getEntry } from '../../syntax/lookup.js';
import type { LEntry, LTable, LValue } from '../../syntax/types.js';
import { suggest } from '../../util/suggest.js';
import { replaceFix, suggestionFixes, type Finding } from '../finding.js';
import { ShapeWalker, tableAnchor, type CustomValidator, type TableShape } from '../shapeWalker.js';
import { deleteEntryEdit } from '../edits.js';

const SIGNATURE_KEYS = new Set(SIGNATURE_FIELDS.map((f) => f.name));
const KEYWORDS = new Set(PYTHON_KEYWORDS);
const RESERVED_FIELDS = new Set(RESERVED_FIELD_NAMES);
const SIGNATURE_SHAPE: TableShape = { name: 'signature', fields: SIGNATURE_FIELDS, closed: true };

/** The shape of each pipe type's table (built once per type). */
const pipeShapes = new WeakMap<PipeTypeSpec, TableShape>();

function pipeShape(spec: PipeTypeSpec): TableShape {
  let shape = pipeShapes.get(spec);
  if (!shape) {
    shape = { name: `${spec.name} pipe`, fields: spec.fields, closed: true, rules: spec.rules };
    pipeShapes.set(spec, shape);
  }
  return shape;
}

/** Validators for shapes the generic description cannot express. */
export const CUSTOM_VALIDATORS: Readonly<Record<string, CustomValidator>> = {
  'input-slot': checkInputs,
  hints: checkHints,
  structure: checkStructure,
  construct: (w, node, path, entry) => {
    if (node.type !== 'table') return w.violation(path, 'expected a table of fields to construct', node.range);
    checkConstructTable(w, node, path, entry);
  },
  levels: checkLevels,
};

export function checkBundleShape(bundle: Bundle, out: Finding[]): void {
  const w = new ShapeWalker(bundle.file, bundle.doc.text, out, CUSTOM_VALIDATORS);
  const root = bundle.doc.root;
  w.table(root, { name: 'bundle', fields: BUNDLE_FIELDS, closed: true }, '');
  const concepts = getEntry(root, 'concept');
  if (concepts) {
    if (concepts.value.type !== 'table') w.violation('concept', 'expected a table of concepts', concepts.value.range);
    else for (const e of concepts.value.entries) checkConceptEntry(w, e);
  }
  const pipes = getEntry(root, 'pipe');
  if (pipes) {
    if (pipes.value.type !== 'table') w.violation('pipe', 'expected a table of pipes', pipes.value.range);
    else for (const e of pipes.value.entries) checkPipeEntry(w, e);
  }
}

function checkConceptEntry(w: ShapeWalker, e: LEntry): void {
  const path = `concept.${e.key}`;
  if (!PASCAL.test(e.key)) {
    w.violation(path, `the concept code \`${e.key}\` is not PascalCase`, e.keyRange);
  }
  if (e.value.type === 'string') return;
  if (e.value.type !== 'table') return w.violation(path, 'a concept is a description string or a table', e.value.range);
  w.table(e.value, CONCEPT_TABLE, path, e);
}

function checkStructure(w: ShapeWalker, node: LValue, path: string): void {
  if (node.type === 'string') return;
  if (node.type !== 'table') return w.violation(path, 'expected a table of fields (or a string)', node.range);
  for (const f of node.entries) {
    const fieldPath = `${path}.${f.key}`;
    if (f.key.startsWith('_')) w.violation(fieldPath, `field name \`${f.key}\` must not start with an underscore`, f.keyRange);
    else if (!PY_IDENTIFIER.test(f.key)) w.violation(fieldPath, `field name \`${f.key}\` is not a valid identifier`, f.keyRange);
    else if (KEYWORDS.has(f.key)) w.violation(fieldPath, `field name \`${f.key}\` is a reserved keyword`, f.keyRange);
    else if (RESERVED_FIELDS.has(f.key)) w.violation(fieldPath, `field name \`${f.key}\` is reserved by the runtime`, f.keyRange);
    if (f.value.type === 'string') continue;
    if (f.value.type !== 'table') {
      w.violation(fieldPath, 'a structure field is a description string or a table', f.value.range);
      continue;
    }
    w.table(f.value, STRUCTURE_FIELD_TABLE, fieldPath, f);
  }
}

function checkHints(w: ShapeWalker, node: LValue, path: string): void {
  if (node.type !== 'table') return w.violation(path, 'hints must be a flat table of strings', node.range);
  for (const h of node.entries) {
    if (h.value.type !== 'string') {
      w.violation(`${path}.${h.key}`, 'hint values must be strings (hints is a flat table)', h.value.range);
      continue;
    }
    if (h.key !== 'intent') {
      w.report('method.hint_invalid', { reason: 'unknown_key', hint: h.key }, h.keyRange);
    } else if (!(h.value.value in HINT_INTENTS)) {
      w.report('method.hint_invalid', { reason: 'unknown_intent', hint: h.value.value }, h.value.range, suggestionFixes(suggest(h.value.value, Object.keys(HINT_INTENTS), 2).map((c) => replaceFix(`Replace with "${c}"`, w.file, h.value.range, JSON.stringify(c)))));
    }
  }
}

function checkInputs(w: ShapeWalker, node: LValue, path: string): void {
  if (node.type !== 'table') return w.violation(path, 'inputs must be a table of `name = "Concept"`', node.range);
  for (const input of node.entries) {
    const v = input.value;
    if (v.type === 'string') continue;
    const inputPath = `${path}.${input.key}`;
    if (v.type !== 'table') {
      w.violation(inputPath, 'an input is a concept string or `{ concept = "...", hints = { ... } }`', v.range);
      continue;
    }
    if (v.origin === 'dotted' || v.origin === 'implicit') {
      // `a.b = "X"` makes a nested table: a dotted input name written without quotes.
      w.violation(inputPath, `\`${input.key}.${v.entries[0]?.key ?? ''}\` is read by TOML as a nested table; input names are never dotted`, input.keyRange);
      continue;
    }
    w.table(
      v,
      INPUT_SLOT_TABLE,
      inputPath,
      input,
    );
  }
}

function checkConstructTable(w: ShapeWalker, table: LTable, path: string, entry: LEntry | undefined): void {
  if (table.entries.length === 0) w.violation(path, 'must construct at least one field', tableAnchor(table, entry));
  for (const f of table.entries) {
    const fieldPath = `${path}.${f.key}`;
    const v = f.value;
    if (v.type !== 'table') continue; // fixed values: strings, numbers, booleans, arrays
    const hasFrom = v.entries.some((e) => e.key === 'from');
    const hasTemplate = v.entries.some((e) => e.key === 'template');
    if (hasFrom && hasTemplate) {
      w.violation(fieldPath, '`from` and `template` cannot be used together', v.entries.find((e) => e.key === 'template')!.keyRange);
    } else if (hasFrom) {
      w.table(v, { name: 'construct reference', closed: true, fields: [
        { name: 'from', required: true, value: { kind: 'string', nonEmpty: true, role: 'path' }, doc: '' },
        { name: 'list_to_dict_keyed_by', value: { kind: 'string', nonEmpty: true }, doc: '' },
      ] }, fieldPath, f);
    } else if (hasTemplate) {
      w.table(v, { name: 'construct template', closed: true, fields: [
        { name: 'template', required: true, value: { kind: 'string', role: 'template', category: 'basic', shorthands: true }, doc: '' },
      ] }, fieldPath, f);
    } else {
      checkConstructTable(w, v, fieldPath, f);
    }
  }
}

function checkLevels(w: ShapeWalker, node: LValue, path: string): void {
  if (node.type !== 'array') return w.violation(path, 'levels must be an array (lowest level first)', node.range);
  if (node.items.length < 2) w.violation(path, 'needs at least 2 levels', node.range);
  let labelled = 0;
  const labels = new Set<string>();
  node.items.forEach((item, i) => {
    const itemPath = `${path}[${i}]`;
    if (item.type === 'string') {
      if (item.value.trim() === '') w.violation(itemPath, 'a level must not be empty', item.range);
      return;
    }
    if (item.type !== 'table') return w.violation(itemPath, 'a level is a string or `{ label, description }`', item.range);
    w.table(item, { name: 'level', closed: true, fields: [
      { name: 'label', value: { kind: 'string', nonEmpty: true }, doc: '' },
      { name: 'description', value: { kind: 'string', nonEmpty: true }, doc: '' },
    ] }, itemPath);
    const label = getEntry(item, 'label')?.value;
    if (!label && !getEntry(item, 'description')) w.violation(itemPath, 'a level needs a `label` or a `description`', item.range);
    if (label?.type === 'string') {
      labelled += 1;
      if (labels.has(label.value)) w.violation(`${itemPath}.label`, `the label "${label.value}" is used twice`, label.range);
      labels.add(label.value);
    }
  });
  if (labelled > 0 && labelled < node.items.length) w.violation(path, 'either every level has a `label` or none has', node.range);
}

function checkPipeEntry(w: ShapeWalker, e: LEntry): void {
  const path = `pipe.${e.key}`;
  if (e.value.type !== 'table') return w.violation(path, 'a pipe is a table', e.value.range);
  const table = e.value;
  const typeEntry = getEntry(table, 'type');
  if (!typeEntry) {
    const extra = table.entries.filter((x) => !SIGNATURE_KEYS.has(x.key));
    if (extra.length > 0) {
      w.report('method.pipe_type_invalid', { pipe: e.key, reason: 'missing' }, e.keyRange);
      return;
    }
    w.table(table, SIGNATURE_SHAPE, path, e);
    return;
  }
  const t = typeEntry.value;
  if (t.type !== 'string') return w.violation(`${path}.type`, 'the pipe type must be a string', t.range);
  const spec = getPipeType(t.value);
  if (spec) {
    w.table(table, pipeShape(spec), path, e);
    return;
  }
  const retired = RETIRED_PIPE_TYPES[t.value];
  if (retired !== undefined) {
    const fix = t.value === 'PipeSignature'
      ? { title: 'Delete the `type` line (a pipe without type is a signature)', edits: [deleteEntryEdit(w.file, w.text, typeEntry)], safe: true }
      : undefined;
    w.report('method.pipe_type_invalid', { pipe: e.key, reason: 'retired', pipe_type: t.value }, t.range, fix ? { fix } : {});
    if (t.value === 'PipeSignature') w.table({ ...table, entries: table.entries.filter((x) => x !== typeEntry) }, { name: 'signature', fields: SIGNATURE_FIELDS, closed: true }, path, e);
    return;
  }
  const candidates = suggest(t.value, PIPE_TYPES.map((p) => p.name), 3);
  // One candidate (`PipeConditional`: PipeCondition) is the repair.
  w.report('method.pipe_type_invalid', { pipe: e.key, reason: 'unknown', pipe_type: t.value }, t.range, suggestionFixes(candidates.map((c) => replaceFix(`Replace with "${c}"`, w.file, t.range, JSON.stringify(c)))));
}
