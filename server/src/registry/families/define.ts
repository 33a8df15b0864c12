// The constructors the family files of the registry build their entries with: parameter types,
// advice steps, a problem, a warning, and `family(defaults)`, a family's own constructor, which fills
// in the fields its entries share (an entry may still say otherwise). Data only: every field ends
// up as a plain value in the entry.

import type { AdviceKind, AdviceStep, Domain, ParamSpec, ParamType, RegistryEntry } from '../types.js';

/** Prefix of the codes this implementation adds to the core registry. */
export const EXTENSION_PREFIX = 'mthdsls';

export const T = {
  identifier: { kind: 'identifier' },
  caller_text: { kind: 'caller_text' },
  integer: { kind: 'integer' },
  bytes: { kind: 'bytes' },
  seconds: { kind: 'seconds' },
  sha256: { kind: 'sha256' },
} as const satisfies Record<string, ParamType>;

export function id(name: string, description: string): ParamSpec {
  return { name, type: T.identifier, description };
}
export function text(name: string, description: string): ParamSpec {
  return { name, type: T.caller_text, description };
}
export function int(name: string, description: string): ParamSpec {
  return { name, type: T.integer, description };
}
export function bytes(name: string, description: string): ParamSpec {
  return { name, type: T.bytes, description };
}
export function secs(name: string, description: string): ParamSpec {
  return { name, type: T.seconds, description };
}
export function ids(name: string, description: string): ParamSpec {
  return { name, type: { kind: 'list', of: T.identifier }, description };
}
export function oneOf(
  name: string,
  labels: Readonly<Record<string, string>>,
  description: string,
): ParamSpec {
  return { name, type: { kind: 'enum', values: Object.keys(labels), labels }, description };
}
export function optional(spec: ParamSpec): ParamSpec {
  return { ...spec, optional: true };
}

export function step(kind: AdviceKind, text: string): AdviceStep {
  return { kind, text };
}

export interface EntrySpec<C extends string> {
  code: C;
  title: string;
  status?: number;
  retry: boolean;
  domain: Domain;
  params?: readonly ParamSpec[];
  detail: string;
  client: readonly AdviceStep[];
  others: readonly AdviceStep[];
  explanation: string;
}

export function familyOf(code: string): { family: string; extension: boolean } {
  const parts = code.split('.');
  const extension = parts[0] === EXTENSION_PREFIX;
  const family = (extension ? parts[1] : parts[0]) ?? '';
  return { family, extension };
}

export function problem<const C extends string>(spec: EntrySpec<C>): RegistryEntry & { readonly code: C } {
  const { family, extension } = familyOf(spec.code);
  const entry: RegistryEntry & { code: C } = {
    code: spec.code,
    family,
    title: spec.title,
    retry: spec.retry,
    domain: spec.domain,
    raisedAs: 'problem',
    params: spec.params ?? [],
    detail: spec.detail,
    advice: { client: spec.client, others: spec.others },
    explanation: spec.explanation,
    extension,
  };
  if (spec.status !== undefined) entry.status = spec.status;
  return entry;
}

export function warning<const C extends string>(
  spec: Omit<EntrySpec<C>, 'status' | 'retry' | 'domain'>,
): RegistryEntry & { readonly code: C } {
  const { family, extension } = familyOf(spec.code);
  return {
    code: spec.code,
    family,
    title: spec.title,
    retry: false,
    domain: 'method',
    raisedAs: 'warning',
    params: spec.params ?? [],
    detail: spec.detail,
    advice: { client: spec.client, others: spec.others },
    explanation: spec.explanation,
    extension,
  };
}

type Shared = 'status' | 'retry' | 'domain';

/** A family's constructor: `problem` with the fields `defaults` gives filled in. */
export function family<const D extends Partial<Pick<EntrySpec<string>, Shared>>>(defaults: D) {
  return <const C extends string>(spec: Omit<EntrySpec<C>, keyof D> & Partial<Pick<EntrySpec<C>, keyof D & Shared>>): RegistryEntry & { readonly code: C } =>
    // The defaults fill exactly the fields the spec may leave out.
    problem<C>({ ...defaults, ...spec } as unknown as EntrySpec<C>);
}

// Parameters that recur with the same meaning.
export const P = {
  pipe: id('pipe', 'Code of the pipe concerned.'),
  input: id('input', 'Name of the input concerned.'),
  concept: id('concept', 'Reference of the concept concerned.'),
  finding: text('finding', 'What the checker or runtime found, in its own words.'),
  candidates: ids('candidates', 'The matching candidates.'),
  variables: ids('variables', 'The variable names concerned.'),
  fieldPath: id('field_path', 'Bundle-root path of the declaration, e.g. pipe.summarize.steps.'),
  provider: id('provider', 'Name of the inference provider.'),
  model: id('model', 'The model reference or name concerned.'),
} as const;

export const MULTIPLICITY_LABELS = {
  single: 'a single item',
  list: 'a list',
  fixed: 'a fixed-length list',
} as const;

// Shared advice wordings.
export const OWNER_OF_METHOD = step(
  'contact_owner',
  'If you do not own the method, report the fault to its owner with the reported location.',
);
export const OTHERS_METHOD = [
  step('change_method', 'The method owner fixes the method as written; the run cannot succeed until then.'),
] as const;
export const CLIENT_AUTHOR = step(
  'contact_owner',
  'Report the problem to the maintainer of the client or application that sent the request.',
);
