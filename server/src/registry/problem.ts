// RFC 7807 problem documents built from registry entries.
//
// Type URI: base address + code. Core codes use `baseUrl` (default https://mthds.ai/errors/),
// extension codes (prefix `mthdsls`) use `extensionBaseUrl` (default
// https://github.com/mthds-language-server/errors/). The registry leaves the exact form open; we
// append the dotted code to the base, e.g. https://mthds.ai/errors/method.concept_unresolved.
//
// Never quoting caller values: a problem carries only the parameters its code declares (anything
// else, e.g. a `value`, is dropped by the builder and reported by validateParams), and the
// `caller_text` parameters of input-domain codes are withheld (kept out of both `detail` and
// `params`) unless the parameter is marked `echo: true`. `input.invalid` therefore names the input
// and the field and can never carry the value.

import { renderTemplate, validateParams } from './detail.js';
import type { RegistryCode } from './codes.js';
import { getEntry, isRegistryCode, requireEntry, RegistryUsageError } from './lookup.js';
import type { AdviceKind, Domain, ParamValues, RegistryEntry } from './types.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const DEFAULT_ERROR_BASE_URL = 'https://mthds.ai/errors/';
export const DEFAULT_EXTENSION_BASE_URL = 'https://github.com/mthds-language-server/errors/';
/** Rendered in place of a withheld parameter in a detail text. */
export const WITHHELD_TEXT = '(withheld)';

export interface ProblemLocation {
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
  /** Dotted path of a request or input field, or bundle-root path of a declaration. */
  field?: string;
  pipe?: string;
  concept?: string;
}

export interface SuggestedFix {
  description: string;
  /** Kept opaque here; the fix layer defines the shape of its edits. */
  edits?: unknown;
  [k: string]: unknown;
}

/**
 * What a client reads to decide what to do, taken from the code's registry entry: who has to act
 * (`domain`), whether repeating unchanged can succeed (`retry`), and the first step of the advice
 * for the acting client.
 */
export interface ClientFacts {
  error_domain: Domain;
  retryable: boolean;
  /** Absent only for an entry with no client advice (every registry entry has some). */
  user_action?: { kind: AdviceKind; detail: string };
}

export interface ProblemItem extends ClientFacts {
  code: string;
  title: string;
  detail: string;
  params: Record<string, unknown>;
  location?: ProblemLocation;
  suggested_fix?: SuggestedFix;
}

export interface ProblemDocument extends ClientFacts {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: string;
  params: Record<string, unknown>;
  errors?: ProblemItem[];
  retry_after?: number;
  suggested_fix?: SuggestedFix;
  request_id?: string;
  /** Where the fault is, for a problem with a single located fault (e.g. method.syntax). */
  location?: ProblemLocation;
  [ext: string]: unknown;
}

export interface TypeUriOptions {
  /** Base address of core codes. Default https://mthds.ai/errors/. */
  baseUrl?: string;
  /** Base address of extension codes. Default https://github.com/mthds-language-server/errors/. */
  extensionBaseUrl?: string;
}

export interface ProblemItemInput {
  code: RegistryCode;
  params?: ParamValues;
  location?: ProblemLocation;
  suggestedFix?: SuggestedFix;
}

export interface ProblemItemOptions {
  location?: ProblemLocation;
  suggestedFix?: SuggestedFix;
  /** Throw a RegistryUsageError when validateParams finds a problem (tests, development). */
  strict?: boolean;
}

export interface ProblemOptions extends TypeUriOptions {
  /** Instance reference, e.g. the request path. */
  instance?: string;
  requestId?: string;
  /** Seconds; only for retryable codes. Rounded up to a whole number. */
  retryAfter?: number;
  /** One item per fault, each with its own code, params and location. */
  errors?: readonly ProblemItemInput[];
  suggestedFix?: SuggestedFix;
  location?: ProblemLocation;
  /** Extra members (an implementation's extensions). May not replace a member set by the builder. */
  extensions?: Readonly<Record<string, unknown>>;
  /** Throw a RegistryUsageError when validateParams finds a problem in any params (tests, development). */
  strict?: boolean;
}

const RESERVED_MEMBERS = new Set([
  'type',
  'title',
  'status',
  'detail',
  'instance',
  'code',
  'params',
  'errors',
  'retry_after',
  'suggested_fix',
  'request_id',
  'location',
  'error_domain',
  'retryable',
  'user_action',
]);

function withSlash(base: string): string {
  return base.endsWith('/') || base.endsWith('#') ? base : `${base}/`;
}

/** The `type` URI of a code: its base address (core or extension) followed by the code. */
export function problemTypeUri(code: string, options: TypeUriOptions = {}): string {
  const entry = requireEntry(code);
  const base = entry.extension
    ? (options.extensionBaseUrl ?? DEFAULT_EXTENSION_BASE_URL)
    : (options.baseUrl ?? DEFAULT_ERROR_BASE_URL);
  return withSlash(base) + entry.code;
}

/**
 * The registry code a problem `type` names, or undefined. Tries the configured (or default) base
 * addresses, then falls back to the last path segment when it is a registry code (a runner may
 * publish its codes under another base).
 */
export function codeFromTypeUri(uri: string, options: TypeUriOptions = {}): RegistryCode | undefined {
  for (const base of [
    options.baseUrl ?? DEFAULT_ERROR_BASE_URL,
    options.extensionBaseUrl ?? DEFAULT_EXTENSION_BASE_URL,
  ]) {
    const prefix = withSlash(base);
    if (uri.startsWith(prefix)) {
      const code = uri.slice(prefix.length);
      return isRegistryCode(code) ? code : undefined;
    }
  }
  const last = uri.replace(/[/#]+$/, '').split(/[/#]/).pop() ?? '';
  return isRegistryCode(last) ? last : undefined;
}

/** Names of the parameters of an entry that are withheld from problem documents. */
export function withheldParams(entry: RegistryEntry): string[] {
  if (entry.domain !== 'input') return [];
  return entry.params.filter((p) => p.type.kind === 'caller_text' && p.echo !== true).map((p) => p.name);
}

/** The members of a problem (and of each item) a client acts on, from the code's entry. */
export function clientFacts(entry: RegistryEntry): ClientFacts {
  const facts: ClientFacts = { error_domain: entry.domain, retryable: entry.retry };
  const first = entry.advice.client[0];
  if (first) facts.user_action = { kind: first.kind, detail: first.text };
  return facts;
}

function copyValue(value: unknown): unknown {
  return Array.isArray(value) ? value.map(copyValue) : value;
}

/**
 * The parameters that may go on the wire: declared ones only, absent values left out, withheld
 * caller text left out. Also returns the bag used to render the detail (withheld text replaced).
 */
function sanitize(entry: RegistryEntry, params: ParamValues): { wire: Record<string, unknown>; render: Record<string, unknown> } {
  const withheld = new Set(withheldParams(entry));
  const wire: Record<string, unknown> = {};
  const render: Record<string, unknown> = {};
  for (const spec of entry.params) {
    const value = params[spec.name];
    if (value === undefined || value === null) continue;
    if (withheld.has(spec.name)) {
      render[spec.name] = WITHHELD_TEXT;
      continue;
    }
    wire[spec.name] = copyValue(value);
    render[spec.name] = value;
  }
  return { wire, render };
}

function assertWellFormed(code: string, params: ParamValues): void {
  const problems = validateParams(code, params);
  if (problems.length > 0) {
    throw new RegistryUsageError(`bad params for ${code}: ${problems.map((p) => p.message).join('; ')}`);
  }
}

function copyLocation(location: ProblemLocation): ProblemLocation {
  const out: ProblemLocation = {};
  for (const key of ['file', 'line', 'column', 'field', 'pipe', 'concept'] as const) {
    const value = location[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * One item of a problem's `errors` (or a located finding, warnings included, e.g. for the editor):
 * its code, title, detail rendered from the template, params and location. Client-family codes
 * are refused (they never travel).
 */
export function buildProblemItem(
  code: RegistryCode,
  params: ParamValues = {},
  options: ProblemItemOptions = {},
): ProblemItem {
  const entry = requireEntry(code);
  if (options.strict) assertWellFormed(code, params);
  return problemItemFromEntry(entry, params, options);
}

/**
 * As buildProblemItem, from an entry object (e.g. one of a vendored snapshot, or a test entry).
 * Applies the same rules: declared params only, withheld caller text, no client-side codes.
 * `options.strict` is not applied here (validateParams looks codes up in the registry).
 */
export function problemItemFromEntry(
  entry: RegistryEntry,
  params: ParamValues = {},
  options: ProblemItemOptions = {},
): ProblemItem {
  if (entry.family === 'client') {
    throw new RegistryUsageError(`${entry.code} is a client-side code and never appears in a problem`);
  }
  const { wire, render } = sanitize(entry, params);
  const item: ProblemItem = {
    code: entry.code,
    title: entry.title,
    detail: renderTemplate(entry.detail, entry.params, render),
    params: wire,
    ...clientFacts(entry),
  };
  if (options.location) item.location = copyLocation(options.location);
  if (options.suggestedFix) item.suggested_fix = options.suggestedFix;
  return item;
}

/**
 * Builds the RFC 7807 problem document of a code. Throws a RegistryUsageError (a programming error)
 * for an unknown code, a warning or client-only code, a warning or client-only item in `errors`,
 * `method.invalid` without an item that is a fault of the method, `retryAfter` on a code that is
 * not retryable, or an extension member that would replace a builder member.
 */
export function buildProblem(
  code: RegistryCode,
  params: ParamValues = {},
  options: ProblemOptions = {},
): ProblemDocument {
  const entry = requireEntry(code);
  if (entry.raisedAs === 'warning') {
    throw new RegistryUsageError(`${code} is a warning; warnings are never problem documents`);
  }
  if (entry.family === 'client' || entry.status === undefined) {
    throw new RegistryUsageError(`${code} is a client-side code and has no problem document`);
  }
  if (options.strict) assertWellFormed(code, params);

  const items = (options.errors ?? []).map((input) => {
    const itemEntry = getEntry(input.code);
    if (itemEntry?.raisedAs === 'warning') {
      throw new RegistryUsageError(`warning ${input.code} cannot be an item of errors`);
    }
    const itemOptions: ProblemItemOptions = {};
    if (input.location) itemOptions.location = input.location;
    if (input.suggestedFix) itemOptions.suggestedFix = input.suggestedFix;
    if (options.strict) itemOptions.strict = true;
    return buildProblemItem(input.code, input.params ?? {}, itemOptions);
  });
  if (entry.code === 'method.invalid' && !items.some((item) => getEntry(item.code)?.domain === 'method')) {
    throw new RegistryUsageError('method.invalid needs at least one errors item that is a fault of the method');
  }

  const { wire, render } = sanitize(entry, params);
  const doc: ProblemDocument = {
    type: problemTypeUri(entry.code, options),
    title: entry.title,
    status: entry.status,
    detail: renderTemplate(entry.detail, entry.params, render),
    code: entry.code,
    params: wire,
    ...clientFacts(entry),
  };
  if (options.instance !== undefined) doc.instance = options.instance;
  if (items.length > 0) doc.errors = items;
  if (options.retryAfter !== undefined) {
    if (!entry.retry) throw new RegistryUsageError(`${code} is not retryable; it cannot carry retry_after`);
    if (!Number.isFinite(options.retryAfter) || options.retryAfter < 0) {
      throw new RegistryUsageError(`retry_after must be a non-negative number of seconds`);
    }
    doc.retry_after = Math.ceil(options.retryAfter);
  }
  if (options.suggestedFix) doc.suggested_fix = options.suggestedFix;
  if (options.requestId !== undefined) doc.request_id = options.requestId;
  if (options.location) doc.location = copyLocation(options.location);
  for (const [key, value] of Object.entries(options.extensions ?? {})) {
    if (RESERVED_MEMBERS.has(key)) {
      throw new RegistryUsageError(`extension member ${key} would replace a member of the problem`);
    }
    doc[key] = value;
  }
  return doc;
}
