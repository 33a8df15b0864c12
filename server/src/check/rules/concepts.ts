// method.concept_invalid: the rules of concept declarations and their structure fields.

import type { HostStructures } from '../../language/hostStructures.js';
import type { Bundle, ConceptDecl, StructureField } from '../../language/model.js';
import { checkTomlSyntax } from './syntax.js';
import { FIELD_TYPES } from '../../language/spec/bundle.js';
import { getEntry } from '../../syntax/lookup.js';
import type { LValue, Range } from '../../syntax/types.js';
import { makeFinding, type Finding, type Severity } from '../finding.js';

const SCALAR_ITEM_TYPES = ['text', 'integer', 'number', 'boolean', 'date', 'datetime', 'time'];

/**
 * The faults of a structures file (language/hostStructures.ts): its TOML, entries that are neither
 * a concept nor a domain, and each field by the rules of a concept's structure.
 */
export function checkHostStructures(structures: HostStructures): Finding[] {
  const out: Finding[] = [];
  checkTomlSyntax(structures.file, structures.doc, out);
  for (const { key, range } of structures.misplaced) {
    out.push(makeFinding('method.schema_violation', { field_path: key, finding: 'a structures file holds tables named after a concept (PascalCase) or a domain (snake_case)' }, structures.file, range));
  }
  for (const structure of structures.structures) {
    const report = (finding: string, range: Range): void => {
      out.push(makeFinding('method.concept_invalid', { concept: structure.code, finding }, structures.file, range));
    };
    for (const field of structure.fields) {
      // In a bundle the schema walker reports an unknown type; here nothing else reads the file.
      const type = field.type?.value;
      if (type !== undefined && !(FIELD_TYPES as readonly string[]).includes(type)) report(`field \`${field.name}\`: "${type}" is not a field type (${FIELD_TYPES.join(', ')})`, field.type!.range);
      checkField(field, report);
    }
  }
  return out;
}

export function checkConcepts(bundle: Bundle, out: Finding[], host: HostStructures | undefined): void {
  for (const concept of bundle.concepts) {
    const report = (finding: string, range: Range, severity?: Severity): void => {
      out.push(makeFinding('method.concept_invalid', { concept: concept.code, finding }, bundle.file, range, severity ? { severity } : {}));
    };
    if (concept.form === 'table') checkConceptTable(concept, report, host);
    for (const field of concept.structure ?? []) checkField(field, report);
  }
}

function checkConceptTable(concept: ConceptDecl, report: (finding: string, range: Range, severity?: Severity) => void, host: HostStructures | undefined): void {
  const table = concept.node.type === 'table' ? concept.node : undefined;
  if (!table) return;
  const structure = getEntry(table, 'structure');
  const refines = getEntry(table, 'refines');
  if (structure && refines) report('`refines` and `structure` cannot be used together: a refining concept inherits its structure', refines.keyRange);
  // A single PascalCase word names a class the host program registers: the runtime refuses it when
  // none is registered. Known only from a structures file; without one, the checker cannot tell.
  const named = concept.structureString?.value;
  if (named !== undefined && /^[A-Z][A-Za-z0-9]*$/.test(named) && !host?.structures.some((s) => s.code === named)) {
    if (host) report(`the structure "${named}" names a class the structures file does not declare; declare it there, or the fields in a structure table`, concept.structureString!.range);
    else report(`the structure "${named}" names a class the host program must register (give its fields with a structures file to check against them), else declare the fields in a structure table`, concept.structureString!.range, 'warning');
  }
}

function matchesType(type: string, node: LValue): boolean {
  switch (type) {
    case 'text':
      return node.type === 'string';
    case 'integer':
      return node.type === 'integer';
    case 'number':
      return node.type === 'integer' || node.type === 'float';
    case 'boolean':
      return node.type === 'boolean';
    // Dates and times are TOML's own literals, which the parser has proved real (the runtime
    // refuses a string, and a date-time where a date is typed: the time would be dropped).
    case 'date':
      return node.type === 'datetime' && node.kind === 'local-date';
    case 'datetime':
      return node.type === 'datetime' && (node.kind === 'offset-datetime' || node.kind === 'local-datetime');
    case 'time':
      return node.type === 'datetime' && node.kind === 'local-time';
    case 'list':
      return node.type === 'array';
    case 'dict':
      return node.type === 'table';
    default:
      return true;
  }
}

function checkField(field: StructureField, report: (finding: string, range: Range) => void): void {
  if (field.shorthand || !field.table) return;
  const at = (key: string): Range => getEntry(field.table!, key)?.keyRange ?? field.nameRange;
  const name = `field \`${field.name}\``;
  if (field.description === undefined) report(`${name} has no description`, field.nameRange);
  const type = field.type?.value;
  const hasChoices = field.choices !== undefined;
  if (type === undefined && !hasChoices) report(`${name} needs a \`type\` (or \`choices\`)`, field.nameRange);
  // `type` beside `choices` is tolerated: the reference runtime accepts it (choices are text).
  if (type !== undefined && !(FIELD_TYPES as readonly string[]).includes(type)) return; // shape error already
  if (type === 'dict') {
    if (!field.keyType) report(`${name}: a dict field needs \`key_type\``, field.nameRange);
    else if (field.keyType.value !== 'text' && field.keyType.value !== 'str') report(`${name}: dict keys must be "text"`, field.keyType.range);
    if (!field.valueType) report(`${name}: a dict field needs \`value_type\``, field.nameRange);
  } else {
    if (field.keyType) report(`${name}: \`key_type\` is only for dict fields`, at('key_type'));
    if (field.valueType) report(`${name}: \`value_type\` is only for dict fields`, at('value_type'));
  }
  if (type === 'list') {
    const item = field.itemType?.value;
    // A concept named in `item_type` (shorthand) is judged where references resolve (rules/references.ts).
    const shorthand = field.itemConceptRef?.context === 'item_type';
    if (item !== undefined && item !== 'concept' && !shorthand && !SCALAR_ITEM_TYPES.includes(item)) report(`${name}: "${item}" is not an item type`, field.itemType!.range);
    if (item === 'concept' && !field.itemConceptRef) report(`${name}: a list of concepts needs \`item_concept_ref\``, at('item_type'));
    if (item !== 'concept' && !shorthand && field.itemConceptRef) report(`${name}: \`item_concept_ref\` needs \`item_type = "concept"\``, at('item_concept_ref'));
  } else {
    if (field.itemType) report(`${name}: \`item_type\` is only for list fields`, at('item_type'));
    if (field.itemConceptRef) report(`${name}: \`item_concept_ref\` is only for lists of concepts`, at('item_concept_ref'));
  }
  if (type === 'concept') {
    if (!field.conceptRef) report(`${name}: a concept field needs \`concept_ref\``, at('type'));
    if (field.defaultValue) report(`${name}: a concept field cannot have a \`default_value\``, at('default_value'));
  } else if (field.conceptRef) {
    report(`${name}: \`concept_ref\` needs \`type = "concept"\``, at('concept_ref'));
  }
  if (field.defaultValue) {
    if (field.required) report(`${name}: a required field cannot have a \`default_value\``, at('default_value'));
    if (hasChoices) {
      const v = field.defaultValue;
      if (v.type !== 'string' || !field.choices!.includes(v.value)) report(`${name}: \`default_value\` is not one of the choices`, v.range);
    } else if (type !== undefined && type !== 'concept' && !matchesType(type, field.defaultValue)) {
      report(`${name}: \`default_value\` is not of type ${type}`, field.defaultValue.range);
    }
  }
}
