// A refusal: any answer of the runner that is a registry problem. Thrown wherever the fault is
// found (request shape, auth, the method, a run) and turned into an RFC 7807 document in one place
// (http/respond.ts), so that no code path can answer an error that is not a registry code.

import type { ParamValues, ProblemItemInput, ProblemLocation, RegistryCode } from '../registry/index.js';

export interface RefusalOptions {
  /** Seconds; only for retryable codes (the builder refuses it otherwise). */
  retryAfter?: number;
  errors?: readonly ProblemItemInput[];
  location?: ProblemLocation;
  /** Extra response headers (Allow, WWW-Authenticate, ...). */
  headers?: Readonly<Record<string, string>>;
  /** Replaces the rendered detail when the template's wording does not fit (never quotes values). */
  detail?: string;
  extensions?: Readonly<Record<string, unknown>>;
}

export class Refusal extends Error {
  constructor(
    readonly code: RegistryCode,
    readonly params: ParamValues = {},
    readonly options: RefusalOptions = {},
  ) {
    super(code);
    this.name = 'Refusal';
  }
}

export function isRefusal(error: unknown): error is Refusal {
  return error instanceof Refusal;
}

/**
 * A dotted field path fit for an `identifier` parameter: members named by the caller may hold any
 * character, so control characters are replaced and the length is bounded.
 */
export function fieldPath(...segments: Array<string | number>): string {
  const joined = segments.map(String).join('.');
  // eslint-disable-next-line no-control-regex
  const clean = joined.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 256 ? `${clean.slice(0, 255)}…` : clean || 'body';
}
