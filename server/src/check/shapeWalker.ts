// The generic shape checker: walks a located TOML table against a table description of the
// language spec and reports unknown keys, retired keys, missing keys, wrong types, values out of
// range and broken key relations. Shapes the spec cannot express go to named custom validators.

import type { LEntry, LTable, LValue, Range } from '../syntax/types.js';
import type { RegistryCode } from '../registry/codes.js';
import { describeSpec, type FieldSpec, type ShapeCode, type TableRule, type ValueSpec } from '../language/spec/values.js';
import { suggest } from '../util/suggest.js';
import { makeFinding, replaceFix, suggestionFixes, type Finding } from './finding.js';

export type CustomValidator = (walker: ShapeWalker, node: LValue, path: string, entry: LEntry | undefined) => void;

export interface TableShape {
  name: string;
  fields: readonly FieldSpec[];
  closed: boolean;
  rules?: readonly TableRule[];
  code?: ShapeCode;
}

/** Where a table is named, for "missing key" findings: its header, or its key, or its braces. */
export function tableAnchor(table: LTable, entry?: LEntry): Range {
  if (table.header) return table.header.range;
  if (entry) return entry.keyRange;
  // The document itself: anchor at its start rather than covering every line.
  if (table.origin === 'root') return { start: 0, end: 0 };
  return table.range;
}

function tomlTypeName(node: LValue): string {
  switch (node.type) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'float':
      return 'a float';
    case 'boolean':
      return 'a boolean';
    case 'datetime':
      return 'a date-time';
    case 'array':
      return 'an array';
    case 'table':
      return 'a table';
    case 'invalid':
      return 'an invalid value';
  }
}

export class ShapeWalker {
  constructor(
    readonly file: string,
    /** The document text, for edits that need to see whole lines. */
    readonly text: string,
    private readonly out: Finding[],
    private readonly custom: Readonly<Record<string, CustomValidator>>,
  ) {}

  report(code: RegistryCode, params: Record<string, unknown>, range: Range, extra: Parameters<typeof makeFinding>[4] = {}): void {
    this.out.push(makeFinding(code, params, this.file, range, extra));
  }

  violation(path: string, finding: string, range: Range, code: ShapeCode = 'method.schema_violation', extra: Parameters<typeof makeFinding>[4] = {}): void {
    const params = code === 'method.model_setting_invalid' ? { field: path, finding } : { field_path: path, finding };
    this.report(code, params, range, extra);
  }

  /** Checks a table against its shape; `entry` is the entry holding it (for anchoring). */
  table(table: LTable, shape: TableShape, path: string, entry?: LEntry): void {
    const code = shape.code ?? 'method.schema_violation';
    const entries = table.entries;
    for (const e of entries) {
      const field = fieldNamed(shape.fields, e.key);
      if (!field) {
        if (!shape.closed) continue;
        const keyPath = path === '' ? e.key : `${path}.${e.key}`;
        const current = shape.fields.filter((f) => !f.retired).map((f) => f.name);
        const candidates = suggest(e.key, current, 3).filter((c) => !table.entries.some((x) => x.key === c));
        const hint = candidates.length > 0 ? ` (did you mean \`${candidates[0]}\`?)` : '';
        this.violation(keyPath, `unknown key \`${e.key}\` in ${articleName(shape.name)}${hint}`, e.keyRange, code, suggestionFixes(candidates.map((c) => replaceFix(`Rename to \`${c}\``, this.file, e.keyRange, c))));
        continue;
      }
      if (field.retired) {
        const keyPath = path === '' ? e.key : `${path}.${e.key}`;
        const replacement = field.retired.replacement;
        const canRename = replacement !== undefined && !table.entries.some((x) => x.key === replacement);
        this.violation(keyPath, field.retired.message, e.keyRange, code, canRename ? { fix: replaceFix(`Rename to \`${replacement}\``, this.file, e.keyRange, replacement) } : {});
        continue;
      }
      // A scalar that fits its description needs no path (nor anything else).
      if (scalarFits(e.value, field.value)) continue;
      this.value(e.value, field.value, path === '' ? e.key : `${path}.${e.key}`, e, code);
    }
    for (const field of shape.fields) {
      if (field.required && !field.retired && !hasKey(entries, field.name)) {
        this.violation(path === '' ? field.name : `${path}.${field.name}`, `missing required key \`${field.name}\` in ${articleName(shape.name)}`, tableAnchor(table, entry), code);
      }
    }
    if (shape.rules) for (const rule of shape.rules) this.rule(table, rule, path, code, entry);
  }

  private rule(table: LTable, rule: TableRule, path: string, code: ShapeCode, entry: LEntry | undefined): void {
    let count = 0;
    for (const k of rule.keys) if (hasKey(table.entries, k)) count += 1;
    const broken =
      (rule.rule === 'exactlyOne' && count === 0) ||
      ((rule.rule === 'exactlyOne' || rule.rule === 'atMostOne') && count > 1) ||
      (rule.rule === 'together' && count > 0 && count < rule.keys.length);
    if (!broken) return;
    const present = rule.keys.map((k) => table.entries.find((e) => e.key === k)).filter((e): e is LEntry => e !== undefined);
    const names = rule.keys.map((k) => `\`${k}\``);
    const list = names.length === 2 ? `${names[0]} or ${names[1]}` : names.join(', ');
    if (rule.rule === 'exactlyOne' && present.length === 0) {
      this.violation(path, `one of ${list} is required`, tableAnchor(table, entry), code);
    } else if ((rule.rule === 'exactlyOne' || rule.rule === 'atMostOne') && present.length > 1) {
      const extra = present[1]!;
      this.violation(`${path}.${extra.key}`, `${present.map((p) => `\`${p.key}\``).join(' and ')} cannot be used together`, extra.keyRange, code);
    } else if (rule.rule === 'together' && present.length > 0 && present.length < rule.keys.length) {
      const missing = rule.keys.filter((k) => !present.some((p) => p.key === k));
      this.violation(`${path}.${present[0]!.key}`, `\`${present[0]!.key}\` needs ${missing.map((m) => `\`${m}\``).join(', ')}`, present[0]!.keyRange, code);
    }
  }

  private wrongType(node: LValue, spec: ValueSpec, path: string, code: ShapeCode): void {
    this.violation(path, `expected ${describeSpec(spec)}, found ${tomlTypeName(node)}`, node.range, code);
  }

  /** Checks one value against a value description. */
  value(node: LValue, spec: ValueSpec, path: string, entry: LEntry | undefined, code: ShapeCode = 'method.schema_violation'): void {
    if (node.type === 'invalid') return; // already a syntax error
    switch (spec.kind) {
      case 'any':
        return;
      case 'string': {
        if (node.type !== 'string') return this.wrongType(node, spec, path, code);
        if (spec.enum && !spec.enum.includes(node.value)) {
          const close = suggest(node.value, spec.enum, 3);
          this.violation(path, `"${node.value}" is not allowed here; expected ${describeSpec(spec)}`, node.range, code, suggestionFixes(close.map((c) => replaceFix(`Replace with "${c}"`, this.file, node.range, JSON.stringify(c)))));
        } else if (spec.nonEmpty && node.value.trim() === '') {
          this.violation(path, 'must not be empty', node.range, code);
        } else if (spec.pattern && !spec.pattern.test(node.value)) {
          this.violation(path, `"${node.value}" is not ${spec.patternName ?? 'well-formed'}`, node.range, code);
        }
        return;
      }
      case 'integer': {
        if (node.type !== 'integer') return this.wrongType(node, spec, path, code);
        const v = Number(node.value);
        if (spec.min !== undefined && v < spec.min) this.violation(path, `must be at least ${spec.min}`, node.range, code);
        else if (spec.max !== undefined && v > spec.max) this.violation(path, `must be at most ${spec.max}`, node.range, code);
        return;
      }
      case 'number': {
        if (node.type !== 'integer' && node.type !== 'float') return this.wrongType(node, spec, path, code);
        const v = Number(node.value);
        if (spec.min !== undefined && v < spec.min) this.violation(path, `must be at least ${spec.min}`, node.range, code);
        else if (spec.max !== undefined && v > spec.max) this.violation(path, `must be at most ${spec.max}`, node.range, code);
        else if (spec.exclusiveMin !== undefined && !(v > spec.exclusiveMin)) this.violation(path, `must be greater than ${spec.exclusiveMin}`, node.range, code);
        else if (spec.exclusiveMax !== undefined && !(v < spec.exclusiveMax)) this.violation(path, `must be less than ${spec.exclusiveMax}`, node.range, code);
        return;
      }
      case 'boolean':
        if (node.type !== 'boolean') this.wrongType(node, spec, path, code);
        return;
      case 'array': {
        if (node.type !== 'array') return this.wrongType(node, spec, path, code);
        if (spec.minItems !== undefined && node.items.length < spec.minItems) {
          this.violation(path, spec.minItems === 1 ? 'must not be empty' : `needs at least ${spec.minItems} items`, node.range, code);
        }
        node.items.forEach((item, i) => {
          if (!scalarFits(item, spec.items)) this.value(item, spec.items, `${path}[${i}]`, undefined, code);
        });
        return;
      }
      case 'table': {
        if (node.type !== 'table') return this.wrongType(node, spec, path, code);
        this.table(node, spec, path, entry);
        return;
      }
      case 'map': {
        if (node.type !== 'table') return this.wrongType(node, spec, path, code);
        if (spec.minEntries !== undefined && node.entries.length < spec.minEntries) {
          this.violation(path, spec.minEntries === 1 ? 'must not be empty' : `needs at least ${spec.minEntries} entries`, tableAnchor(node, entry), code);
        }
        for (const e of node.entries) if (!scalarFits(e.value, spec.values)) this.value(e.value, spec.values, `${path}.${e.key}`, e, code);
        return;
      }
      case 'oneOf': {
        const option = firstAccepting(spec.options, node);
        if (!option) return this.wrongType(node, spec, path, code);
        // A settings table reports its faults under its own code.
        this.value(node, option, path, entry, option.kind === 'table' && option.code ? option.code : code);
        return;
      }
      case 'custom': {
        const validator = this.custom[spec.name];
        if (validator) validator(this, node, path, entry);
        return;
      }
    }
  }
}

// Field lookup by key: the first field of that name, as `fields.find` would give.
const fieldMaps = new WeakMap<readonly FieldSpec[], Map<string, FieldSpec>>();

function fieldNamed(fields: readonly FieldSpec[], key: string): FieldSpec | undefined {
  if (fields.length < 12) {
    for (let i = 0; i < fields.length; i++) if (fields[i]!.name === key) return fields[i];
    return undefined;
  }
  let map = fieldMaps.get(fields);
  if (map === undefined) {
    map = new Map();
    for (const f of fields) if (!map.has(f.name)) map.set(f.name, f);
    fieldMaps.set(fields, map);
  }
  return map.get(key);
}

function hasKey(entries: readonly LEntry[], key: string): boolean {
  for (let i = 0; i < entries.length; i++) if (entries[i]!.key === key) return true;
  return false;
}

/**
 * Whether `value(node, spec)` would find nothing to report, for the scalar descriptions; false
 * (check it in full) for everything else.
 */
function scalarFits(node: LValue, spec: ValueSpec): boolean {
  switch (spec.kind) {
    case 'any':
      return true;
    case 'string':
      if (node.type !== 'string') return false;
      if (spec.enum && !spec.enum.includes(node.value)) return false;
      if (spec.nonEmpty && node.value.trim() === '') return false;
      if (spec.pattern && !spec.pattern.test(node.value)) return false;
      return true;
    case 'boolean':
      return node.type === 'boolean';
    case 'oneOf': {
      const option = firstAccepting(spec.options, node);
      return option !== undefined && scalarFits(node, option);
    }
    default:
      return false;
  }
}

/** The first option whose TOML type fits (`options.find(o => accepts(o, node))`). */
function firstAccepting(options: readonly ValueSpec[], node: LValue): ValueSpec | undefined {
  for (let i = 0; i < options.length; i++) if (accepts(options[i]!, node)) return options[i];
  return undefined;
}

/** Whether a value's TOML type fits a description (the discriminant of `oneOf`). */
function accepts(spec: ValueSpec, node: LValue): boolean {
  switch (spec.kind) {
    case 'string':
      return node.type === 'string';
    case 'integer':
      return node.type === 'integer';
    case 'number':
      return node.type === 'integer' || node.type === 'float';
    case 'boolean':
      return node.type === 'boolean';
    case 'array':
      return node.type === 'array';
    case 'table':
    case 'map':
    case 'custom':
      return node.type === 'table';
    case 'oneOf':
      return spec.options.some((o) => accepts(o, node));
    case 'any':
      return true;
  }
}

function articleName(name: string): string {
  return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
}
