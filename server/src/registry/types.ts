// Types of the error registry: one entry per error code a runner or a client can raise.
//
// The core codes and their status / retry / domain / parameters follow the error registry 8.0.0
// (`runner-protocol-and-error-registry.md`). Codes this implementation adds carry the extension
// prefix `mthdsls` and `extension: true`.

/** Who has to act: the caller's input, the runtime itself, the account, or the method as written. */
export type Domain = 'input' | 'runtime' | 'account' | 'method';

/**
 * Type of a parameter value.
 *
 * - `identifier`: a name, code, dotted path, file path, host or reference. A non-empty string of at
 *   most 1024 characters with no control characters (no newlines). Never free text.
 * - `caller_text`: free text (a parser finding, a bad name as written). Any string.
 * - `integer`: a safe integer.
 * - `bytes`: a non-negative integer count of bytes.
 * - `seconds`: a non-negative finite number of seconds.
 * - `sha256`: 64 lowercase hexadecimal digits.
 * - `list`: an array whose items all have the type `of`.
 * - `enum`: one of `values`. `labels` (an addition to the registry's model) gives, per value, the
 *   phrase used when the value is rendered into a detail text; the wire always carries the value.
 */
export type ParamType =
  | { kind: 'identifier' }
  | { kind: 'caller_text' }
  | { kind: 'integer' }
  | { kind: 'bytes' }
  | { kind: 'seconds' }
  | { kind: 'sha256' }
  | { kind: 'list'; of: ParamType }
  | { kind: 'enum'; values: readonly string[]; labels?: Readonly<Record<string, string>> };

export type ParamKind = ParamType['kind'];

export interface ParamSpec {
  name: string;
  type: ParamType;
  /** Marked optional in the registry: the parameter may be absent. */
  optional?: boolean;
  description: string;
  /**
   * For an `identifier` the registry leaves open: every value this implementation raises, with
   * what it means (an addition to the registry's model, listed in docs/errors.md; the wire type
   * stays the registry's).
   */
  known?: Readonly<Record<string, string>>;
  /**
   * Only meaningful for `caller_text` parameters of codes whose domain is `input`: such text comes
   * from the caller's own input and is withheld from problem documents (neither in `detail` nor in
   * `params`) unless the parameter is marked `echo: true`. See `withheldParams` in problem.ts.
   */
  echo?: boolean;
}

export type AdviceKind =
  | 'change_input'
  | 'change_method'
  | 'contact_owner'
  | 'check_credentials'
  | 'check_account'
  | 'request_access'
  | 'refresh'
  | 'retry'
  | 'wait'
  | 'upgrade'
  | 'read_run';

export interface AdviceStep {
  kind: AdviceKind;
  text: string;
}

export type RaisedAs = 'problem' | 'warning';

export interface RegistryEntry {
  /** Full code, e.g. `method.concept_unresolved` or `mthdsls.pipe.execution_failed`. */
  code: string;
  /** Family: the segment before the name (`method`, `pipe`, `client`, …), without any prefix. */
  family: string;
  /** Short title, e.g. `Concept not found`. */
  title: string;
  /** HTTP status. Absent for warnings and for client-family codes (never sent as a body). */
  status?: number;
  /** True when repeating the request later, unchanged, can succeed. */
  retry: boolean;
  domain: Domain;
  raisedAs: RaisedAs;
  params: readonly ParamSpec[];
  /**
   * Detail template. `{name}` is replaced by the rendered value of parameter `name`;
   * `[ … ]` is an optional segment, dropped when a parameter it names is absent (or an empty list);
   * `\` escapes the next character (write `\[`, `\]`, `\{`, `\}`, `\\` for literals).
   * See detail.ts.
   */
  detail: string;
  /** Advice for the acting client (who sent the request or runs the tool) and for anyone else. */
  advice: { client: readonly AdviceStep[]; others: readonly AdviceStep[] };
  /** One or two sentences: what the code means and what usually causes it. */
  explanation: string;
  /** True for codes this implementation adds (not in registry 8.0.0). */
  extension: boolean;
}

/** A parameter bag as passed to the builder and the renderer. Absent = `undefined` or `null`. */
export type ParamValues = Readonly<Record<string, unknown>>;
