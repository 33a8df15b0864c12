// Keys of a table: the fields the language description gives that table (a pipe section gets the
// fields of its declared type only), required ones first, those already written left out. A key
// typed on its own gets `= value` with a placeholder shaped by the value's spec.

import type { CursorPlace } from './cursor.js';
import { fieldMarkdown } from '../describe.js';
import { PIPE_TYPES } from '../../language/spec/pipeTypes.js';
import { describeSpec, type FieldSpec, type ValueSpec } from '../../language/spec/values.js';
import { tableSpecAt } from '../../language/specPaths.js';
import { conceptSnippets, pipeSnippets } from './snippets.js';
import type { Completion, CompletionRequest } from './types.js';

type KeyPlace = Extract<CursorPlace, { kind: 'key' }>;

const MULTI_LINE_CATEGORIES = new Set(['llm_prompt', 'img_gen_prompt', 'html', 'markdown', 'mermaid']);

function choice(values: readonly string[]): string {
  return `\${1|${values.map((v) => v.replace(/[,|\\$}]/g, (c) => `\\${c}`)).join(',')}|}`;
}

/** The text after `key = ` for a value of this spec (snippet syntax). */
export function valuePlaceholder(spec: ValueSpec, inline: boolean): string {
  switch (spec.kind) {
    case 'string':
      if (spec.enum) return `"${choice(spec.enum)}"`;
      if (spec.role === 'pipe-type') return `"${choice(PIPE_TYPES.map((p) => p.name))}"`;
      if (spec.role === 'template' && !inline && spec.category !== undefined && MULTI_LINE_CATEGORIES.has(spec.category)) return '"""\n$1\n"""';
      return '"$1"';
    case 'boolean':
      return '${1|true,false|}';
    case 'integer':
    case 'number':
      return '$1';
    case 'array':
      if (spec.items.kind === 'table') return inline ? '[{ $1 }]' : '[\n  { $1 },\n]';
      return spec.items.kind === 'string' ? '["$1"]' : '[$1]';
    case 'table':
    case 'map':
      return '{ $1 }';
    case 'oneOf':
      return valuePlaceholder(spec.options[0]!, inline);
    case 'custom':
      return spec.name === 'levels' ? '["$1", "$2"]' : '{ $1 }';
    case 'any':
      return '$1';
  }
}

function keyItem(field: FieldSpec, place: KeyPlace, owner: string, rank: number): Completion {
  const item: Completion = {
    label: field.name,
    kind: 'key',
    detail: `${field.required ? 'required · ' : ''}${field.value.kind === 'any' ? owner : describeSpec(field.value)}`,
    documentation: fieldMarkdown(field, owner),
    insertText: place.hasValue ? field.name : `${field.name} = ${valuePlaceholder(field.value, place.inline)}`,
    snippet: !place.hasValue,
    range: place.range,
    sortText: `${field.required ? '0' : '1'}${String(rank).padStart(3, '0')}`,
    filterText: field.name,
  };
  return item;
}

/** Completion of a key (or, on a fresh line of a section, of a new declaration). */
export function keyCompletions(req: CompletionRequest, place: KeyPlace): Completion[] {
  const { bundle } = req;
  const path = place.tablePath;
  const out: Completion[] = [];
  const wholeLine = !place.inline && place.atLineStart && !place.hasValue;
  if (path.length === 1 && path[0] === 'concept') {
    // `[concept]`: each key is a new concept's code.
    return wholeLine ? conceptSnippets(place.range, '2', true) : [];
  }
  const table = path.length === 0 ? undefined : tableSpecAt(bundle, path);
  const fields: readonly FieldSpec[] =
    path.length === 0
      ? // The root: the bundle's own keys; `concept` and `pipe` tables come as snippets.
        tableSpecAt(bundle, [])?.fields.filter((f) => f.name !== 'concept' && f.name !== 'pipe') ?? []
      : (table?.fields ?? []);
  const owner = path.length === 0 ? 'bundle' : path[0] === 'pipe' && path.length === 2 ? `pipe ${bundle.pipes.find((p) => p.code === path[1])?.type?.value ?? ''}`.trim() : (table?.name ?? '');
  const present = new Set(place.table.entries.filter((e) => e.keyRange.start !== place.range.start).map((e) => e.key));
  fields.forEach((field, i) => {
    if (field.retired || present.has(field.name)) return;
    out.push(keyItem(field, place, owner, i));
  });
  // A new pipe or concept may start on any fresh line outside inline tables.
  if (wholeLine && req.trigger === undefined) {
    out.push(...pipeSnippets(place.range, '3'), ...conceptSnippets(place.range, '4', false));
  }
  return out;
}
