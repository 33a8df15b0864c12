// The generic shape checker: walks a located TOML table against a table description of the
// language spec and reports unknown keys, retired keys, missing keys, wrong types, values out of
// range and broken key relations. Shapes the spec cannot express go to named custom validators.

import type { LEntry, LTable, LValue, Range } from '../syntax/types.js';
import { describeSpec, type FieldSpec, type ShapeCode, type TableRule, type ValueSpec } from '../language/spec/values.js';
import { suggest } from '../util/suggest.js';
import { makeFinding, replaceFix, type Finding } from './finding.js';

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

  report(code: ShapeCode | string, params: Record<string, unknown>, range: Range, extra: Parameters<typeof makeFinding>[4] = {}): void {
    this.out.push(makeFinding(code, params, this.file, range, extra));
  }

  violation(path: string, finding: string, range: Range, code: ShapeCode = 'method.schema_violation', extra: Parameters<typeof makeFinding>[4] = {}): void {
    const params = code === 'method.model_setting_invalid' ? { field: path, finding } : { field_path: path, finding };
    this.report(code, params, range, extra);
  }

  /** Checks a table against its shape; `entry` is the entry holding it (for anchoring). */
  table(table: LTable, shape: TableShape, path: string, entry?: LEntry): void {
    const code = shape.code ?? 'method.schema_violation';
    for (const e of table.entries) {
      const field = shape.fields.find((f) => f.name === e.key);
      const keyPath = path === '' ? e.key : `${path}.${e.key}`;
      if (!field) {
        if (!shape.closed) continue;
        const current = shape.fields.filter((f) => !f.retired).map((f) => f.name);
        const candidates = suggest(e.key, current, 3).filter((c) => !table.entries.some((x) => x.key === c));
        const hint = candidates.length > 0 ? ` (did you mean \`${candidates[0]}\`?)` : '';
        this.violation(keyPath, `unknown key \`${e.key}\` in ${articleName(shape.name)}${hint}`, e.keyRange, code, {
          alternatives: candidates.map((c) => replaceFix(`Rename to \`${c}\``, this.file, e.keyRange, c)),
        });
        continue;
      }
      if (field.retired) {
        const replacement = field.retired.replacement;
        const canRename = replacement !== undefined && !table.entries.some((x) => x.key === replacement);
        this.violation(keyPath, field.retired.message, e.keyRange, code, canRename ? { fix: replaceFix(`Rename to \`${replacement}\``, this.file, e.keyRange, replacement) } : {});
        continue;
      }
      this.value(e.value, field.value, keyPath, e, code);
    }
    for (const field of shape.fields) {
      if (field.required && !field.retired && !table.entries.some((e) => e.key === field.name)) {
        this.violation(path === '' ? field.name : `${path}.${field.name}`, `missing required key \`${field.name}\` in ${articleName(shape.name)}`, tableAnchor(table, entry), code);
      }
    }
    for (const rule of shape.rules ?? []) this.rule(table, rule, path, code, entry);
  }

  private rule(table: LTable, rule: TableRule, path: string, code: ShapeCode, entry: LEntry | undefined): void {
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

  /** Checks one value against a value description. */
  value(node: LValue, spec: ValueSpec, path: string, entry: LEntry | undefined, code: ShapeCode = 'method.schema_violation'): void {
    if (node.type === 'invalid') return; // already a syntax error
    const wrongType = (): void => this.violation(path, `expected ${describeSpec(spec)}, found ${tomlTypeName(node)}`, node.range, code);
    switch (spec.kind) {
      case 'any':
        return;
      case 'string': {
        if (node.type !== 'string') return wrongType();
        if (spec.enum && !spec.enum.includes(node.value)) {
          const close = suggest(node.value, spec.enum, 3);
          this.violation(path, `"${node.value}" is not allowed here; expected ${describeSpec(spec)}`, node.range, code, {
            alternatives: close.map((c) => replaceFix(`Replace with "${c}"`, this.file, node.range, JSON.stringify(c))),
          });
        } else if (spec.nonEmpty && node.value.trim() === '') {
          this.violation(path, 'must not be empty', node.range, code);
        } else if (spec.pattern && !spec.pattern.test(node.value)) {
          this.violation(path, `"${node.value}" is not ${spec.patternName ?? 'well-formed'}`, node.range, code);
        }
        return;
      }
      case 'integer': {
        if (node.type !== 'integer') return wrongType();
        const v = Number(node.value);
        if (spec.min !== undefined && v < spec.min) this.violation(path, `must be at least ${spec.min}`, node.range, code);
        else if (spec.max !== undefined && v > spec.max) this.violation(path, `must be at most ${spec.max}`, node.range, code);
        return;
      }
      case 'number': {
        if (node.type !== 'integer' && node.type !== 'float') return wrongType();
        const v = Number(node.value);
        if (spec.min !== undefined && v < spec.min) this.violation(path, `must be at least ${spec.min}`, node.range, code);
        else if (spec.max !== undefined && v > spec.max) this.violation(path, `must be at most ${spec.max}`, node.range, code);
        else if (spec.exclusiveMin !== undefined && !(v > spec.exclusiveMin)) this.violation(path, `must be greater than ${spec.exclusiveMin}`, node.range, code);
        else if (spec.exclusiveMax !== undefined && !(v < spec.exclusiveMax)) this.violation(path, `must be less than ${spec.exclusiveMax}`, node.range, code);
        return;
      }
      case 'boolean':
        if (node.type !== 'boolean') wrongType();
        return;
      case 'array': {
        if (node.type !== 'array') return wrongType();
        if (spec.minItems !== undefined && node.items.length < spec.minItems) {
          this.violation(path, spec.minItems === 1 ? 'must not be empty' : `needs at least ${spec.minItems} items`, node.range, code);
        }
        node.items.forEach((item, i) => this.value(item, spec.items, `${path}[${i}]`, undefined, code));
        return;
      }
      case 'table': {
        if (node.type !== 'table') return wrongType();
        this.table(node, spec, path, entry);
        return;
      }
      case 'map': {
        if (node.type !== 'table') return wrongType();
        if (spec.minEntries !== undefined && node.entries.length < spec.minEntries) {
          this.violation(path, spec.minEntries === 1 ? 'must not be empty' : `needs at least ${spec.minEntries} entries`, tableAnchor(node, entry), code);
        }
        for (const e of node.entries) this.value(e.value, spec.values, `${path}.${e.key}`, e, code);
        return;
      }
      case 'oneOf': {
        const option = spec.options.find((o) => accepts(o, node));
        if (!option) return wrongType();
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
