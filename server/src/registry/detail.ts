// Detail templates: parsing, rendering, and parameter validation.
//
// Template syntax
//   {name}     replaced by the rendered value of parameter `name`.
//   [ ... ]    optional segment: rendered only when every parameter named inside it is present
//              (not undefined / null) and, for lists, not empty. Segments do not nest.
//   \c         the character c literally (write \[ \] \{ \} \\ for literal brackets/braces).
//
// Rendering of values, by parameter type
//   identifier, sha256, integer   as is
//   caller_text                   whitespace runs collapsed to one space, trimmed, cut to 300
//                                 characters with a trailing ellipsis
//   enum                          the value's label when the entry gives one, else the value
//   bytes                         "512 bytes", "1 byte", "12.5 MiB (13107200 bytes)"
//   seconds                       "1 second", "30 seconds", "2.5 seconds"
//   list                          items rendered by their type, joined with ", "; an empty list
//                                 renders "none" (and drops an optional segment)
// A required parameter that is absent renders as its placeholder "{name}" (validateParams reports
// it). Design rule for templates: every optional parameter sits inside an optional segment, so a
// missing optional parameter never leaves dangling text.

import { requireEntry, getEntry, RegistryUsageError } from './lookup.js';
import type { ParamSpec, ParamType, ParamValues, RegistryEntry } from './types.js';

// ---------------------------------------------------------------------------------------------
// Template parsing

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'param'; name: string };
export type TemplateToken = TemplatePart | { kind: 'optional'; parts: TemplatePart[] };

const PARAM_NAME = /^[a-z_][a-z0-9_]*$/;
const parsedCache = new Map<string, TemplateToken[]>();

/** Parses a detail template; throws a RegistryUsageError when it is malformed. */
export function parseTemplate(template: string): TemplateToken[] {
  const cached = parsedCache.get(template);
  if (cached) return cached;

  const tokens: TemplateToken[] = [];
  let optionalParts: TemplatePart[] | undefined;
  let text = '';
  const target = (): TemplatePart[] | TemplateToken[] => optionalParts ?? tokens;
  const flush = (): void => {
    if (text !== '') target().push({ kind: 'text', text });
    text = '';
  };
  const fail = (message: string, at: number): never => {
    throw new RegistryUsageError(`detail template ${JSON.stringify(template)}: ${message} at ${at}`);
  };

  for (let i = 0; i < template.length; i++) {
    const c = template[i] as string;
    if (c === '\\') {
      if (i + 1 >= template.length) fail('dangling escape', i);
      text += template[++i];
    } else if (c === '{') {
      const end = template.indexOf('}', i + 1);
      if (end < 0) fail('unclosed placeholder', i);
      const name = template.slice(i + 1, end);
      if (!PARAM_NAME.test(name)) fail(`bad placeholder name ${JSON.stringify(name)}`, i);
      flush();
      target().push({ kind: 'param', name });
      i = end;
    } else if (c === '}') {
      fail('unmatched }', i);
    } else if (c === '[') {
      if (optionalParts) fail('nested optional segment', i);
      flush();
      optionalParts = [];
    } else if (c === ']') {
      if (!optionalParts) fail('unmatched ]', i);
      flush();
      const parts = optionalParts as TemplatePart[];
      optionalParts = undefined;
      if (!parts.some((p) => p.kind === 'param')) fail('optional segment without a placeholder', i);
      tokens.push({ kind: 'optional', parts });
    } else {
      text += c;
    }
  }
  if (optionalParts) fail('unclosed optional segment', template.length);
  flush();
  parsedCache.set(template, tokens);
  return tokens;
}

/** Parameter names a template uses, split by whether they appear inside an optional segment. */
export function templateParams(template: string): { required: string[]; optional: string[] } {
  const required = new Set<string>();
  const optional = new Set<string>();
  for (const token of parseTemplate(template)) {
    if (token.kind === 'param') required.add(token.name);
    else if (token.kind === 'optional') {
      for (const part of token.parts) if (part.kind === 'param') optional.add(part.name);
    }
  }
  return { required: [...required], optional: [...optional] };
}

// ---------------------------------------------------------------------------------------------
// Value formatting

export const CALLER_TEXT_MAX = 300;

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

function formatBytes(n: number): string {
  if (n === 1) return '1 byte';
  if (Math.abs(n) < 1024) return `${n} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]} (${n} bytes)`;
}

function formatSeconds(n: number): string {
  return n === 1 ? '1 second' : `${n} seconds`;
}

function formatCallerText(s: string): string {
  const collapsed = s.replace(/\s+/g, ' ').trim();
  return collapsed.length > CALLER_TEXT_MAX ? `${collapsed.slice(0, CALLER_TEXT_MAX - 1)}…` : collapsed;
}

/** Renders one parameter value for a detail text, according to its type. */
export function formatParamValue(type: ParamType, value: unknown): string {
  switch (type.kind) {
    case 'list': {
      const items = Array.isArray(value) ? value : [value];
      if (items.length === 0) return 'none';
      return items.map((item) => formatParamValue(type.of, item)).join(', ');
    }
    case 'enum': {
      const s = String(value);
      return type.labels && Object.hasOwn(type.labels, s) ? (type.labels[s] as string) : s;
    }
    case 'bytes':
      return typeof value === 'number' ? formatBytes(value) : String(value);
    case 'seconds':
      return typeof value === 'number' ? formatSeconds(value) : String(value);
    case 'caller_text':
      return formatCallerText(String(value));
    case 'identifier':
    case 'integer':
    case 'sha256':
      return String(value);
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering

/**
 * Renders a template with the given parameter specs and values (see the syntax at the top of this
 * file). Values of names absent from `specs` are rendered as plain strings.
 */
export function renderTemplate(
  template: string,
  specs: readonly ParamSpec[],
  params: ParamValues,
): string {
  const specOf = specsByName(specs);
  const render = (name: string): string => {
    const value = params[name];
    if (isAbsent(value)) return `{${name}}`;
    const spec = specOf.get(name);
    return spec ? formatParamValue(spec.type, value) : String(value);
  };
  const presentForSegment = (name: string): boolean => {
    const value = params[name];
    if (isAbsent(value)) return false;
    return !(Array.isArray(value) && value.length === 0);
  };

  let out = '';
  for (const token of parseTemplate(template)) {
    if (token.kind === 'text') out += token.text;
    else if (token.kind === 'param') out += render(token.name);
    else {
      const complete = token.parts.every((p) => p.kind === 'text' || presentForSegment(p.name));
      if (complete) {
        for (const part of token.parts) out += part.kind === 'text' ? part.text : render(part.name);
      }
    }
  }
  return out;
}

// Each code's specs by name, made once: a check may render tens of thousands of one code's details.
const specMaps = new WeakMap<readonly ParamSpec[], ReadonlyMap<string, ParamSpec>>();

function specsByName(specs: readonly ParamSpec[]): ReadonlyMap<string, ParamSpec> {
  let map = specMaps.get(specs);
  if (!map) specMaps.set(specs, (map = new Map(specs.map((s) => [s.name, s]))));
  return map;
}

/** The detail text of a code, rendered from its template and the given parameters. */
export function renderDetail(code: string, params: ParamValues = {}): string {
  const entry = requireEntry(code);
  return renderTemplate(entry.detail, entry.params, params);
}

// ---------------------------------------------------------------------------------------------
// Parameter validation

export type ParamProblemKind = 'unknown_code' | 'unknown_param' | 'missing_param' | 'wrong_type' | 'enum_value';

export interface ParamProblem {
  kind: ParamProblemKind;
  code: string;
  /** The parameter concerned (absent for unknown_code). */
  param?: string;
  message: string;
}

const IDENTIFIER_MAX = 1024;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const SHA256 = /^[0-9a-f]{64}$/;

function describeType(type: ParamType): string {
  switch (type.kind) {
    case 'list':
      return `list of ${describeType(type.of)}`;
    case 'enum':
      return `one of ${type.values.join(', ')}`;
    default:
      return type.kind;
  }
}

/** Checks one value against a type; returns problems with `where` naming the value. */
function checkValue(
  code: string,
  param: string,
  where: string,
  type: ParamType,
  value: unknown,
  out: ParamProblem[],
): void {
  const wrong = (expected: string): void => {
    out.push({
      kind: 'wrong_type',
      code,
      param,
      message: `${where} must be ${expected}, got ${preview(value)}`,
    });
  };
  switch (type.kind) {
    case 'identifier':
      if (typeof value !== 'string' || value.length === 0) return wrong('a non-empty string (identifier)');
      if (value.length > IDENTIFIER_MAX) return wrong(`an identifier of at most ${IDENTIFIER_MAX} characters`);
      if (CONTROL_CHARS.test(value)) return wrong('an identifier without control characters');
      return;
    case 'caller_text':
      if (typeof value !== 'string') return wrong('a string (caller_text)');
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return wrong('an integer');
      return;
    case 'bytes':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        return wrong('a non-negative integer number of bytes');
      }
      return;
    case 'seconds':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        return wrong('a non-negative number of seconds');
      }
      return;
    case 'sha256':
      if (typeof value !== 'string' || !SHA256.test(value)) return wrong('a sha256 (64 lowercase hex digits)');
      return;
    case 'enum':
      if (typeof value !== 'string') return wrong(describeType(type));
      if (!type.values.includes(value)) {
        out.push({
          kind: 'enum_value',
          code,
          param,
          message: `${where} must be one of ${type.values.join(', ')}, got ${JSON.stringify(value)}`,
        });
      }
      return;
    case 'list':
      if (!Array.isArray(value)) return wrong(describeType(type));
      value.forEach((item, i) => checkValue(code, param, `${where}[${i}]`, type.of, item, out));
      return;
  }
}

function preview(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? `the number ${value}` : String(value);
  return typeof value;
}

/**
 * Checks that `params` is well formed for `code`: no undeclared parameter, every required one
 * present, every value of its declared type, enum values allowed. Returns the problems found
 * (empty when well formed). Values are never quoted in the messages, only described.
 */
export function validateParams(code: string, params: ParamValues = {}): ParamProblem[] {
  const entry: RegistryEntry | undefined = getEntry(code);
  if (!entry) return [{ kind: 'unknown_code', code, message: `unknown error code ${JSON.stringify(code)}` }];

  const problems: ParamProblem[] = [];
  const declared = new Map(entry.params.map((p) => [p.name, p]));
  for (const name of Object.keys(params)) {
    if (!declared.has(name)) {
      problems.push({ kind: 'unknown_param', code, param: name, message: `${code} declares no parameter ${name}` });
    }
  }
  for (const spec of entry.params) {
    const value = params[spec.name];
    if (isAbsent(value)) {
      if (!spec.optional) {
        problems.push({
          kind: 'missing_param',
          code,
          param: spec.name,
          message: `${code} requires the parameter ${spec.name}`,
        });
      }
      continue;
    }
    checkValue(code, spec.name, spec.name, spec.type, value, problems);
  }
  return problems;
}
