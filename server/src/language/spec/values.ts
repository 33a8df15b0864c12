// The vocabulary the language description is written in: what a TOML value at a given place may
// be. The shape checker, completion, hover and the runner all read descriptions built from these.

/** What a string at this place means, beyond being a string. Drives resolution, completion, tokens. */
export type StringRole =
  | 'description'
  | 'domain'
  | 'pipe-code'
  | 'pipe-ref'
  | 'pipe-type'
  | 'concept-ref'
  | 'io-ref'
  | 'model-ref'
  | 'template'
  | 'expression'
  | 'stored-name'
  | 'input-name'
  | 'path'
  | 'function'
  | 'file';

export type TemplateCategory =
  | 'basic'
  | 'expression'
  | 'html'
  | 'markdown'
  | 'mermaid'
  | 'llm_prompt'
  | 'img_gen_prompt';

export type ModelCategory = 'llm' | 'extract' | 'img_gen' | 'search' | 'judgment' | 'doc_gen';

/** Registry codes a malformed value may be reported under instead of method.schema_violation. */
export type ShapeCode = 'method.schema_violation' | 'method.model_setting_invalid';

export type ValueSpec =
  | {
      kind: 'string';
      enum?: readonly string[];
      pattern?: RegExp;
      /** Human wording of `pattern` for messages ("snake_case", "a domain code"). */
      patternName?: string;
      nonEmpty?: boolean;
      role?: StringRole;
      /** For role 'template': how the runtime renders it. */
      category?: TemplateCategory;
      /** For role 'template': whether `$var` / `@var` shorthands apply. */
      shorthands?: boolean;
    }
  | { kind: 'integer'; min?: number; max?: number }
  | { kind: 'number'; min?: number; max?: number; exclusiveMin?: number; exclusiveMax?: number }
  | { kind: 'boolean' }
  | { kind: 'array'; items: ValueSpec; minItems?: number }
  | TableSpec
  | { kind: 'map'; name: string; values: ValueSpec; minEntries?: number; doc?: string }
  | { kind: 'oneOf'; options: readonly ValueSpec[] }
  | { kind: 'any' }
  /** A shape too irregular for the generic checker; validated by the named custom rule. */
  | { kind: 'custom'; name: 'construct' | 'hints' | 'input-slot' | 'structure' | 'levels' };

export interface TableSpec {
  kind: 'table';
  /** Name used in messages ("the LLM setting table"). */
  name: string;
  fields: readonly FieldSpec[];
  /** Closed tables refuse unknown keys. */
  closed: boolean;
  rules?: readonly TableRule[];
  /** Code for faults inside this table (default method.schema_violation). */
  code?: ShapeCode;
}

/** Relations between the keys of one table. */
export type TableRule =
  | { rule: 'exactlyOne'; keys: readonly string[] }
  | { rule: 'atMostOne'; keys: readonly string[] }
  | { rule: 'together'; keys: readonly string[] };

export interface FieldSpec {
  name: string;
  value: ValueSpec;
  required?: boolean;
  /** Documentation shown on hover and completion. */
  doc: string;
  /** A key of an older generation, kept so that its use gets a migration message. */
  retired?: { replacement?: string; message: string };
}

/** The TOML type names used in messages. */
export function describeSpec(spec: ValueSpec): string {
  switch (spec.kind) {
    case 'string':
      return spec.enum ? `one of ${spec.enum.map((v) => `"${v}"`).join(', ')}` : 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'array':
      return 'an array';
    case 'table':
      return `a table (${spec.name})`;
    case 'map':
      return `a table (${spec.name})`;
    case 'oneOf':
      return spec.options.map(describeSpec).join(' or ');
    case 'any':
      return 'any value';
    case 'custom':
      return `a ${spec.name} table`;
  }
}
