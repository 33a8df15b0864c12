// The bundle file itself: its top-level keys, the concept tables and structure fields.

import { DOMAIN_CODE } from './lexical.js';
import type { FieldSpec, TableSpec } from './values.js';

export const BUNDLE_FIELDS: readonly FieldSpec[] = [
  { name: 'domain', required: true, value: { kind: 'string', role: 'domain', pattern: DOMAIN_CODE, patternName: 'a domain code (snake_case segments joined by dots)' }, doc: 'The domain of this bundle, e.g. `legal.contracts`. Bundles of one domain share one namespace.' },
  { name: 'description', value: { kind: 'string', role: 'description' }, doc: 'What this bundle is about.' },
  { name: 'system_prompt', value: { kind: 'string', role: 'template', category: 'llm_prompt', shorthands: true }, doc: 'Default system prompt for every PipeLLM of this bundle that has none of its own.' },
  { name: 'main_pipe', value: { kind: 'string', role: 'pipe-code' }, doc: 'The entry pipe of this bundle (defined in this bundle); its inputs are the method inputs.' },
  { name: 'concept', value: { kind: 'any' }, doc: 'The concepts: `[concept]` with `Name = "description"`, or `[concept.Name]` tables.' },
  { name: 'pipe', value: { kind: 'any' }, doc: 'The pipes: one `[pipe.name]` table each.' },
  { name: 'definition', value: { kind: 'any' }, doc: '`definition` was renamed `description`.', retired: { message: '`definition` was renamed `description`.', replacement: 'description' } },
];

export const FIELD_TYPES = ['text', 'integer', 'number', 'boolean', 'date', 'datetime', 'time', 'list', 'dict', 'concept'] as const;

export const CONCEPT_FIELDS: readonly FieldSpec[] = [
  { name: 'description', required: true, value: { kind: 'string', role: 'description' }, doc: 'What the concept is.' },
  { name: 'structure', value: { kind: 'custom', name: 'structure' }, doc: 'The fields of the concept: `[concept.Name.structure]` with `field = "description"` (required text) or `field = { type = ..., description = ... }`.' },
  { name: 'refines', value: { kind: 'string', role: 'concept-ref' }, doc: 'The concept this one refines (inherits its structure; usable wherever the parent is expected). Exclusive with `structure`.' },
  { name: 'hints', value: { kind: 'custom', name: 'hints' }, doc: 'Intent hints: a flat table, e.g. `{ intent = "prose" }`.' },
  { name: 'definition', value: { kind: 'any' }, doc: '`definition` was renamed `description`.', retired: { message: '`definition` was renamed `description`.', replacement: 'description' } },
];

// `refines` with `structure`, and the structure-field rules, are method.concept_invalid (concept rules).
export const CONCEPT_TABLE: TableSpec = { kind: 'table', name: 'concept', closed: true, fields: CONCEPT_FIELDS };

export const STRUCTURE_FIELD_FIELDS: readonly FieldSpec[] = [
  { name: 'description', value: { kind: 'string', role: 'description' }, doc: 'What the field holds (required).' },
  { name: 'type', value: { kind: 'string', enum: FIELD_TYPES }, doc: 'The field type: text, integer, number, boolean, date, datetime, time, list, dict or concept. Omit it when `choices` is given.' },
  { name: 'required', value: { kind: 'boolean' }, doc: 'Whether the field must be present (default false).' },
  { name: 'default_value', value: { kind: 'any' }, doc: 'The default, of the field type (not with `required = true`, not for concept fields).' },
  { name: 'choices', value: { kind: 'array', items: { kind: 'string' }, minItems: 1 }, doc: 'The allowed values (an enumeration); `type` must then be omitted.' },
  { name: 'key_type', value: { kind: 'string' }, doc: 'dict fields: the key type, "text".' },
  { name: 'value_type', value: { kind: 'string' }, doc: 'dict fields: the value type.' },
  { name: 'item_type', value: { kind: 'string' }, doc: 'list fields: the item type (a scalar type, or "concept").' },
  { name: 'concept_ref', value: { kind: 'string', role: 'concept-ref' }, doc: 'concept fields: the concept held.' },
  { name: 'item_concept_ref', value: { kind: 'string', role: 'concept-ref' }, doc: 'lists of concepts: the item concept.' },
  { name: 'hints', value: { kind: 'custom', name: 'hints' }, doc: 'Intent hints for this field.' },
];

export const STRUCTURE_FIELD_TABLE: TableSpec = { kind: 'table', name: 'structure field', closed: true, fields: STRUCTURE_FIELD_FIELDS };

/** The one defined hint key and its vocabulary. */
export const HINT_INTENTS: Readonly<Record<string, 'text' | 'number'>> = { prose: 'text', label: 'text', rating: 'number', quantity: 'number' };

/** The `hints` table (closed to one key, `intent`; other keys are warnings, never errors). */
export const HINTS_TABLE: TableSpec = {
  kind: 'table',
  name: 'hints',
  closed: false,
  fields: [{ name: 'intent', value: { kind: 'string', enum: Object.keys(HINT_INTENTS) }, doc: 'The intent of the value: `prose` or `label` (text), `rating` or `quantity` (numbers). Non-normative.' }],
};
