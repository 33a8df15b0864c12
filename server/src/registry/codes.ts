// Every error code, as data.
//
// Core codes (families request, auth, account, input, method, and the three warnings) follow the
// error registry 8.0.0 exactly: status, retry, domain and parameters (names, types, enum values,
// optional markers) are those of `runner-protocol-and-error-registry.md`; test/unit/registry/
// registry-doc.test.ts parses that document and checks this file against it. Titles, detail
// templates, advice and explanations are ours (the registry does not publish its texts).
//
// `pipe.output_multiplicity` is core too: the registry names it as the run-time twin of
// `method.output_multiplicity_mismatch` without listing it; its parameters mirror that code.
//
// The registry leaves the families pipe, model, provider, run, security, runtime and client
// unlisted. Codes this implementation needs there are EXTENSION codes under the prefix `mthdsls`
// (e.g. `mthdsls.pipe.execution_failed`), `extension: true`, documented under a base address of our
// own (see problem.ts). Their status / retry / domain choices are justified next to each entry.
//
// Detail template syntax (see detail.ts): `{name}` placeholder; `[ … ]` optional segment, dropped
// when a parameter it names is absent or an empty list; `\` escapes the next character.

import type { AdviceKind, AdviceStep, Domain, ParamSpec, ParamType, RegistryEntry } from './types.js';

/** Prefix of the codes this implementation adds to the core registry. */
export const EXTENSION_PREFIX = 'mthdsls';

// ---------------------------------------------------------------------------------------------
// Helpers (data only; every field ends up as a plain value in the entry)

const T = {
  identifier: { kind: 'identifier' },
  caller_text: { kind: 'caller_text' },
  integer: { kind: 'integer' },
  bytes: { kind: 'bytes' },
  seconds: { kind: 'seconds' },
  sha256: { kind: 'sha256' },
} as const satisfies Record<string, ParamType>;

function id(name: string, description: string): ParamSpec {
  return { name, type: T.identifier, description };
}
function text(name: string, description: string): ParamSpec {
  return { name, type: T.caller_text, description };
}
function int(name: string, description: string): ParamSpec {
  return { name, type: T.integer, description };
}
function bytes(name: string, description: string): ParamSpec {
  return { name, type: T.bytes, description };
}
function secs(name: string, description: string): ParamSpec {
  return { name, type: T.seconds, description };
}
function ids(name: string, description: string): ParamSpec {
  return { name, type: { kind: 'list', of: T.identifier }, description };
}
function oneOf(
  name: string,
  labels: Readonly<Record<string, string>>,
  description: string,
): ParamSpec {
  return { name, type: { kind: 'enum', values: Object.keys(labels), labels }, description };
}
function optional(spec: ParamSpec): ParamSpec {
  return { ...spec, optional: true };
}

function step(kind: AdviceKind, text: string): AdviceStep {
  return { kind, text };
}

interface EntrySpec<C extends string> {
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

function familyOf(code: string): { family: string; extension: boolean } {
  const parts = code.split('.');
  const extension = parts[0] === EXTENSION_PREFIX;
  const family = (extension ? parts[1] : parts[0]) ?? '';
  return { family, extension };
}

function problem<const C extends string>(spec: EntrySpec<C>): RegistryEntry & { readonly code: C } {
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

function warning<const C extends string>(
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

// Parameters that recur with the same meaning.
const P = {
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

const MULTIPLICITY_LABELS = {
  single: 'a single item',
  list: 'a list',
  fixed: 'a fixed-length list',
} as const;

// Shared advice wordings.
const OWNER_OF_METHOD = step(
  'contact_owner',
  'If you do not own the method, report the fault to its owner with the reported location.',
);
const OTHERS_METHOD = [
  step('change_method', 'The method owner fixes the method as written; the run cannot succeed until then.'),
] as const;
const CLIENT_AUTHOR = step(
  'contact_owner',
  'Report the problem to the maintainer of the client or application that sent the request.',
);

// ---------------------------------------------------------------------------------------------
// request family (HTTP request itself)

const REQUEST = [
  problem({
    code: 'request.malformed',
    title: 'Malformed request body',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      oneOf(
        'reason',
        {
          not_json: 'the body is not valid JSON',
          not_utf8: 'a text entry holds a code point UTF-8 cannot encode',
          bad_base64: 'a Base64 payload is corrupt',
          bad_zip: 'a zip payload is corrupt',
        },
        'Why the body could not be decoded.',
      ),
    ],
    detail: 'The request body could not be decoded: {reason}.',
    client: [
      step(
        'change_input',
        'Send a body serialized by a JSON encoder as UTF-8; re-encode any Base64 or zip payload from the original bytes.',
      ),
    ],
    others: [CLIENT_AUTHOR],
    explanation:
      'The runner could not decode the request before reading its meaning. Usual causes are a body assembled by string concatenation, a lone surrogate in a text entry, or a truncated Base64 or zip payload.',
  }),
  problem({
    code: 'request.invalid',
    title: 'Invalid request field',
    status: 422,
    retry: false,
    domain: 'input',
    params: [id('field', 'Dotted path of the offending field, e.g. inputs.text.concept.')],
    detail: 'The request field {field} does not satisfy the schema of this route.',
    client: [
      step(
        'change_input',
        'Correct the named field: check its type, whether it is required and its allowed values, then send again.',
      ),
    ],
    others: [CLIENT_AUTHOR],
    explanation:
      'The body is valid JSON but a field has the wrong type, lacks a required value or holds a value outside the allowed set. It also covers one hash given twice with different sizes, a blob upload whose bytes differ from its hash, and an undefined ?type= on GET /models.',
  }),
  problem({
    code: 'request.too_large',
    title: 'Request too large',
    status: 413,
    retry: false,
    domain: 'input',
    params: [
      bytes('limit', 'The size bound that was passed.'),
      bytes('size', 'The size of the body or file that passed it.'),
    ],
    detail: 'The request, or a file in it, is {size}, over the limit of {limit}.',
    client: [
      step(
        'change_input',
        'Send less: fewer or smaller files, or send large files by hash to a runner whose GET /version declares blob_store.',
      ),
    ],
    others: [step('contact_owner', 'Ask the runner operator whether a larger bound can be configured.')],
    explanation:
      'The body or a file inside it exceeds a size bound of this runner. Each implementation sets its own bounds; they are not part of the protocol.',
  }),
  problem({
    code: 'request.not_found',
    title: 'Route not found',
    status: 404,
    retry: false,
    domain: 'input',
    detail: 'This runner has no such route.',
    client: [
      step(
        'change_input',
        'Check the base address: the version segment belongs to the base address, protocol paths carry none.',
      ),
      step('upgrade', 'Compare your protocol version with GET /version and use a client that matches the runner.'),
    ],
    others: [CLIENT_AUTHOR],
    explanation:
      'The path does not exist on this runner. It usually means a wrong base address or a client written for another protocol version than the runner implements.',
  }),
  problem({
    code: 'request.method_not_allowed',
    title: 'HTTP method not allowed',
    status: 405,
    retry: false,
    domain: 'input',
    detail: 'This route does not accept the HTTP method used.',
    client: [
      step('change_input', 'Use the HTTP method the protocol gives for this route (POST or GET).'),
      step('upgrade', 'Compare your protocol version with GET /version and use a client that matches the runner.'),
    ],
    others: [CLIENT_AUTHOR],
    explanation:
      'The route exists but not for this HTTP method. A client written for another protocol version can meet it.',
  }),
  problem({
    code: 'request.unsupported',
    title: 'Unsupported request form',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      id('field', 'Dotted path of the member using the unsupported form.'),
      id('reason', 'Short identifier of what is unsupported, e.g. extension_member or address_form.'),
    ],
    detail: 'The request uses a form this runner does not support at {field} ({reason}).',
    client: [
      step('change_input', 'Remove the member or use a form this runner supports.'),
      step('upgrade', 'If you need the feature, send the request to a runner that supports it.'),
    ],
    others: [CLIENT_AUTHOR],
    explanation:
      'The request is well formed but uses a form this runtime never supports, such as a method address form it cannot resolve or an extension member of another implementation. Runners refuse such members rather than ignore them.',
  }),
  problem({
    code: 'request.idempotency_conflict',
    title: 'Idempotency key reused',
    status: 409,
    retry: false,
    domain: 'input',
    detail: 'The idempotency key was already used with a different request body.',
    client: [step('change_input', 'Send this body under a new idempotency key; one key stands for one request.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'An idempotency key identifies one request; it was earlier sent with another body. It usually means a client reuses keys across different requests.',
  }),
  problem({
    code: 'request.idempotency_key_in_use',
    title: 'Request still in flight',
    status: 409,
    retry: true,
    domain: 'runtime',
    detail: 'A request with the same idempotency key and body is still being processed.',
    client: [
      step('wait', 'Wait for retry_after seconds when given, otherwise a few seconds.'),
      step('retry', 'Repeat the request unchanged, with the same key, to receive the answer.'),
    ],
    others: [step('wait', 'Nothing to fix: the first request is still running.')],
    explanation:
      'The same request, under the same key, is still in flight. Repeating it unchanged later returns its answer instead of running it twice.',
  }),
  problem({
    code: 'request.already_executed',
    title: 'Request already executed',
    status: 409,
    retry: false,
    domain: 'input',
    detail: 'A request under this idempotency key already ran and its answer is no longer kept.',
    client: [
      step('read_run', 'Look up the outcome of the earlier run where it was delivered instead of running it again.'),
      step('change_input', 'Use a new idempotency key only if you mean to run the request a second time.'),
    ],
    others: [step('read_run', 'Check the earlier run: it already executed once.')],
    explanation:
      'The request already ran under this key, and the runner no longer keeps its answer, so it cannot replay it. This protects against running a method twice.',
  }),
  problem({
    code: 'request.pipe_not_found',
    title: 'Pipe not found',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      id('pipe', 'The pipe code as requested.'),
      ids('suggestions', 'Pipe codes of the method close to the request, likeliest first.'),
    ],
    detail: 'The method has no pipe {pipe}.[ Did you mean: {suggestions}?]',
    client: [step('change_input', 'Use one of the suggested pipe codes, or check the spelling and domain of pipe_code.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'The selected pipe_code is not a pipe of the method. Usual causes are a typo, a pipe renamed in the method, or a bundle that was not sent.',
  }),
  problem({
    code: 'request.pipe_ambiguous',
    title: 'Ambiguous pipe code',
    status: 422,
    retry: false,
    domain: 'input',
    params: [id('pipe', 'The bare pipe code as requested.'), ids('candidates', 'Qualified codes of the matching pipes.')],
    detail: 'The pipe code {pipe} matches several pipes: {candidates}.',
    client: [step('change_input', 'Send one of the candidates, qualified by its domain (domain.pipe_code).')],
    others: [CLIENT_AUTHOR],
    explanation:
      'A bare pipe code matches pipes in several domains or methods, so the runner cannot choose. Qualify it with its domain.',
  }),
  problem({
    code: 'request.pipe_unspecified',
    title: 'No pipe selected',
    status: 422,
    retry: false,
    domain: 'input',
    params: [ids('candidates', 'Pipes that could be selected.')],
    detail: 'No pipe was selected: the request has no pipe_code and the method gives no main_pipe. Candidates: {candidates}.',
    client: [step('change_input', 'Send a pipe_code naming the pipe to run, for example one of the candidates.')],
    others: [
      step('change_method', 'The method owner can declare a main_pipe so that callers need not name a pipe.'),
    ],
    explanation:
      'Neither a pipe_code nor a main_pipe selects the pipe to run: the manifest declares none, or without a manifest the bundles declare none or several.',
  }),
  problem({
    code: 'request.blobs_missing',
    title: 'Blobs missing',
    status: 422,
    retry: false,
    domain: 'input',
    params: [{ name: 'missing_blobs', type: { kind: 'list', of: T.sha256 }, description: 'SHA-256 hashes of the bytes the runner does not hold.' }],
    detail: 'The runner does not hold the bytes of these blobs: {missing_blobs}.',
    client: [
      step(
        'change_input',
        'Upload the missing blobs (POST /blobs/missing guides the upload) and send the request again; if the runner keeps no blob store, send the files inline.',
      ),
    ],
    others: [CLIENT_AUTHOR],
    explanation:
      'A hash entry of the files map names bytes the runner does not hold, or the runner keeps no blob store at all. Hash entries only work after the bytes were uploaded to a runner that declares blob_store: true.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// auth and account families

const AUTH_ACCOUNT = [
  problem({
    code: 'auth.missing_credential',
    title: 'Credential missing',
    status: 401,
    retry: false,
    domain: 'account',
    detail: 'This route needs a credential and none was sent.',
    client: [step('check_credentials', 'Send a bearer token in the Authorization header.')],
    others: [step('request_access', 'Ask the runner operator for a credential.')],
    explanation:
      'The route needs a credential and the request carried no Authorization header. Only GET /version is always public.',
  }),
  problem({
    code: 'auth.invalid_credential',
    title: 'Credential refused',
    status: 401,
    retry: false,
    domain: 'account',
    detail: 'The credential sent is unknown, revoked or malformed.',
    client: [step('check_credentials', 'Check the token: it must be sent as "Bearer <token>" and still be valid.')],
    others: [step('request_access', 'Ask the runner operator for a new credential if it was revoked.')],
    explanation:
      'The runner does not accept the credential: it is unknown, was revoked, or is not a well-formed bearer token. A copy-paste error or a token of another environment are common causes.',
  }),
  problem({
    code: 'auth.credential_expired',
    title: 'Credential expired',
    status: 401,
    retry: false,
    domain: 'account',
    detail: 'The credential was valid and is past its expiry.',
    client: [step('refresh', 'Obtain a fresh credential and send the request again.')],
    others: [step('request_access', 'Ask for a credential with a longer lifetime if expiries are frequent.')],
    explanation: 'The credential was valid but has expired. Renew it and repeat the request.',
  }),
  problem({
    code: 'auth.forbidden',
    title: 'Permission missing',
    status: 403,
    retry: false,
    domain: 'account',
    params: [id('requirement', 'The role, flag or session the operation needs.')],
    detail: 'The authenticated identity lacks {requirement}, which this operation needs.',
    client: [step('request_access', 'Ask the operator of the runner to grant the missing requirement.')],
    others: [step('request_access', 'An administrator can grant the requirement to this identity.')],
    explanation:
      'The credential is valid but the identity lacks a role, flag or session the operation needs. Repeating the request does not help until access is granted.',
  }),
  problem({
    code: 'account.rate_limited',
    title: 'Rate limit reached',
    status: 429,
    retry: true,
    domain: 'account',
    params: [int('limit', 'Number of requests allowed per window.'), secs('window', 'Length of the window.')],
    detail: 'More than {limit} requests were sent within {window}.',
    client: [
      step('wait', 'Wait for retry_after seconds when given, otherwise until the window has passed.'),
      step('retry', 'Repeat the request unchanged, and spread later requests over time.'),
    ],
    others: [step('check_account', 'Check the account plan if the rate is regularly too low.')],
    explanation:
      'The account sent more requests than its rate allows in one window. The request itself is fine and can be repeated later.',
  }),
  problem({
    code: 'account.quota_exhausted',
    title: 'Quota exhausted',
    status: 429,
    retry: false,
    domain: 'account',
    params: [id('quota', 'Name of the spent quota.')],
    detail: 'The account quota {quota} is spent.',
    client: [step('check_account', 'Check the quota in the account settings; it renews or must be raised.')],
    others: [step('upgrade', 'The account owner can raise the quota or wait for it to renew.')],
    explanation:
      'A quota other than the request rate (for example monthly runs or spend) is used up. Requests are refused until it renews or is raised.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// input family (a run's inputs): all 422, domain input

const INPUT_OTHERS = [
  step('contact_owner', 'If the inputs come from an application, report the problem to its maintainer.'),
] as const;

const INPUT = [
  problem({
    code: 'input.missing',
    title: 'Input missing',
    status: 422,
    retry: false,
    domain: 'input',
    params: [P.input],
    detail: 'The required input {input} was not given.',
    client: [step('change_input', 'Add the input, with the concept the pipe declares for it, and run again.')],
    others: INPUT_OTHERS,
    explanation:
      'A required input of the selected pipe is omitted. Inputs declared with a trailing ? are optional; all others must be given.',
  }),
  problem({
    code: 'input.unexpected',
    title: 'Unexpected input',
    status: 422,
    retry: false,
    domain: 'input',
    params: [P.input],
    detail: 'The input {input} is not declared by the selected pipe.',
    client: [step('change_input', 'Remove the input or correct its name to one the pipe declares.')],
    others: INPUT_OTHERS,
    explanation:
      'An input is given that the pipe does not declare. A misspelled input name or a pipe whose inputs changed are the usual causes.',
  }),
  problem({
    code: 'input.wrong_concept',
    title: 'Input of the wrong concept',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.input,
      id('expected', 'The concept the pipe declares for the input.'),
      id('provided', 'The concept the input names or holds.'),
    ],
    detail: 'The input {input} holds concept {provided}, but the pipe expects {expected} or a refinement of it.',
    client: [step('change_input', 'Send the input with the expected concept, or a concept that refines it.')],
    others: INPUT_OTHERS,
    explanation:
      'An input names or holds a concept not accepted there, unknown concepts included. A refinement of the declared concept is accepted; a stuff names its concept in its concept member.',
  }),
  problem({
    code: 'input.wrong_multiplicity',
    title: 'Input of the wrong multiplicity',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.input,
      oneOf(
        'expected',
        { single: 'a single item', list: 'a list', count: 'a fixed-length list' },
        'What the pipe expects: one item, a list, or a list of a given length.',
      ),
      optional(int('expected_count', 'The length expected when expected is count.')),
      int('provided_count', 'Number of items given.'),
    ],
    detail: 'The input {input} must be {expected}[ of exactly {expected_count} items] (items given: {provided_count}).',
    client: [
      step('change_input', 'Send one item where one is expected, a list where a list is expected, of the expected length.'),
    ],
    others: INPUT_OTHERS,
    explanation:
      'A list was given for one item, one item for a list, or a list of the wrong length. The pipe declares the multiplicity with Concept, Concept[] or Concept[N].',
  }),
  problem({
    code: 'input.invalid',
    title: 'Invalid input value',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.input,
      id('field', 'Dotted path, inside the input, of the value that fails; the input name when the whole value fails.'),
    ],
    detail: 'The input {input} does not satisfy its concept at {field}.',
    client: [step('change_input', 'Correct the value at the named field so that it fits the concept structure.')],
    others: INPUT_OTHERS,
    explanation:
      "The value fails its concept's structure or content-type rules: a missing required field, a wrong type, a choice outside the allowed set. The problem names the field and never quotes the value, so it can be logged safely.",
  }),
  problem({
    code: 'input.file_unreadable',
    title: 'File input unreadable',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.input,
      id('file_type', 'The file type as detected or declared, e.g. application/pdf.'),
      id('reason', 'Short identifier of the failure, e.g. corrupt, encrypted, empty.'),
    ],
    detail: 'The file given for {input} ({file_type}) could not be read: {reason}.',
    client: [step('change_input', 'Send a file that opens in an ordinary viewer: not corrupt, not encrypted, not empty.')],
    others: INPUT_OTHERS,
    explanation:
      'A file input does not decode, parse or open. Truncated uploads, password-protected documents and files whose content does not match their declared type are the usual causes.',
  }),
  problem({
    code: 'input.file_type_unsupported',
    title: 'File format not supported',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.input,
      id('format', 'The format of the file given.'),
      id('model', 'The model (or pipe) that cannot take the format.'),
    ],
    detail: 'The file given for {input} is in format {format}, which {model} cannot take.',
    client: [step('change_input', 'Convert the file to a format the pipe accepts, for example PDF or PNG.')],
    others: [step('change_method', 'The method owner can choose a model that accepts this format.')],
    explanation:
      'The pipe or the model it uses cannot take files of this format. Converting the file or choosing another model resolves it.',
  }),
  problem({
    code: 'input.too_large',
    title: 'Input too large',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.input,
      int('limit', 'The bound, in the unit the runner applies (bytes, characters or tokens).'),
      int('size', 'The size found, in the same unit.'),
    ],
    detail: 'The input {input} has size {size}, over the bound of {limit}.',
    client: [step('change_input', 'Send a smaller input, or split it and run the method on each part.')],
    others: INPUT_OTHERS,
    explanation:
      'An input, or what a template renders from it, passes a bound of the runner or of the model (for example a context window). The unit of the bound is the runner\'s choice.',
  }),
  problem({
    code: 'input.reference_not_found',
    title: 'Referenced input not found',
    status: 422,
    retry: false,
    domain: 'input',
    params: [P.input],
    detail: 'The file, stored object or URL named by the input {input} does not exist.',
    client: [step('change_input', 'Check the path, object or URL given in the input; it must exist and be accessible.')],
    others: INPUT_OTHERS,
    explanation:
      'An input names a file path, stored object or URL that is not there. The problem names the input, not the reference itself.',
  }),
  problem({
    code: 'input.url_unreachable',
    title: 'Input URL unreachable',
    status: 422,
    retry: true,
    domain: 'input',
    params: [P.input, id('host', 'Host name of the URL.')],
    detail: 'The URL given for {input} on host {host} did not answer or answered with an error.',
    client: [
      step('retry', 'Repeat the run later: the host may be temporarily down.'),
      step('change_input', 'If it keeps failing, check that the URL is public and correct, or send the file itself.'),
    ],
    others: [step('contact_owner', 'The owner of the host can check why it refuses or does not answer.')],
    explanation:
      'A URL given in an input was fetched and the host did not answer, or answered with an error. It can be transient; a private or wrong URL fails every time.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// method family (the method as written)

const METHOD = [
  problem({
    code: 'method.invalid',
    title: 'Invalid method',
    status: 422,
    retry: false,
    domain: 'method',
    detail: 'The method is invalid; each fault is listed in errors.',
    client: [
      step('change_method', 'Fix each fault listed in errors, each at its location, then validate again.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'Umbrella refusal carrying one item per fault in errors, each with its own code and location. It is used only when at least one item is a fault of the method itself.',
  }),
  problem({
    code: 'method.syntax',
    title: 'Syntax error',
    status: 422,
    retry: false,
    domain: 'method',
    params: [text('finding', 'The parser message.')],
    detail: 'The file is not valid TOML or MTHDS syntax: {finding}',
    client: [step('change_method', 'Fix the syntax at the reported file, line and column.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A .mthds file is not valid TOML, or a reference in it does not parse (for example an unclosed table header or a concept reference like Text[). The location gives file, line and column.',
  }),
  problem({
    code: 'method.schema_violation',
    title: 'Schema violation',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.fieldPath, P.finding],
    detail: 'The declaration at {field_path} breaks the language schema: {finding}',
    client: [step('change_method', 'Correct the declaration: a missing or unknown key, a wrong value type or value.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A declaration fails the language schema or a pipe-type rule that no sharper code names: an unknown or missing key, a wrong value type, an enum value out of range, two exclusive keys together. It is also the code for method faults no other code describes.',
  }),
  problem({
    code: 'method.not_found',
    title: 'Method not found',
    status: 404,
    retry: false,
    domain: 'input',
    params: [id('method_ref', 'The method address, name or path as given.')],
    detail: 'No method matches {method_ref}.',
    client: [step('change_input', 'Check the method address, name or path; it must name an existing method.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'The method address, name or path names no method. Typos, a method not yet published, or a path relative to the wrong directory are usual causes.',
  }),
  problem({
    code: 'method.ambiguous',
    title: 'Ambiguous method reference',
    status: 422,
    retry: false,
    domain: 'input',
    params: [id('method_ref', 'The method address, name or directory as given.'), P.candidates],
    detail: 'The reference {method_ref} matches several methods: {candidates}.',
    client: [step('change_input', 'Name the method by its full address, one of the candidates.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'The address, name or directory matches several packages or installed methods, so the runner cannot choose one. A full address removes the ambiguity.',
  }),
  problem({
    code: 'method.fetch_failed',
    title: 'Method fetch failed',
    status: 502,
    retry: true,
    domain: 'runtime',
    params: [id('method_ref', 'Address of the method or dependency being fetched.')],
    detail: 'The host serving {method_ref} did not answer or failed.',
    client: [step('retry', 'Repeat the request later; the host may be temporarily unavailable.')],
    others: [step('contact_owner', 'If it persists, the owner of the hosting service can check its availability.')],
    explanation:
      'The host serving the method or one of its dependencies did not answer or answered with a failure. It is usually transient.',
  }),
  problem({
    code: 'method.package_invalid',
    title: 'Invalid package',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      {
        ...id('reason', 'Short identifier of the broken rule, e.g. symlink, too_many_files, no_manifest.'),
        known: {
          symlink: 'A symbolic link in the package (or a method file linked in a checked folder): links are never followed, so a package cannot reach outside its folder.',
          not_regular_file: 'A FIFO, a socket or a device where a method file or manifest is expected: never read (a FIFO would block, a device never ends).',
          file_unreadable: 'A file of the tree could not be read (permission, a file gone meanwhile).',
          folder_unreadable: 'A folder of the tree could not be listed: what it holds is unknown, so the tree is never called clean.',
          file_too_large: 'A file is larger than the bound (16 MB for method files on disk; max_file_bytes for a request), counted by the bytes read.',
          too_many_files: 'The package holds more files than the bound; the walk stopped there.',
          clashing_names: 'Two file names differ only by letter case or Unicode form (one file on many file systems).',
          no_source: 'The method holds no bundle (.mthds).',
          not_a_tree: 'A request\'s files map names a path both as a file and as a folder of other files.',
          lock_invalid: 'methods.lock does not have the form of a lock file, or disagrees with the manifest.',
          manifest_unknown_key: 'METHODS.toml has a key the manifest does not define.',
          manifest_missing_field: 'METHODS.toml lacks a required key.',
          manifest_invalid_field: 'A key of METHODS.toml has a value of the wrong type or form (a dependency alias, a version constraint).',
          name_mismatch: 'The package folder must be named like package.name, a dash and an underscore taken alike (a stored package is named by its version folder instead); the fix renames package.name after the folder.',
          main_pipe_not_exported: 'package.main_pipe names a pipe that [exports] does not list.',
          export_invalid: 'An [exports] entry is not a domain code, or lists a pipe code that is not snake_case.',
          exported_pipe_missing: '[exports] lists a pipe that the package does not declare.',
          empty_path: 'A request\'s files map has an empty path.',
          backslash: 'A path of a request\'s files map uses a backslash (paths use /).',
          scheme: 'A path of a request\'s files map starts with a URI scheme.',
          absolute: 'A path of a request\'s files map is absolute.',
          leaves_tree: 'A path of a request\'s files map leaves the tree (..).',
          not_normalized: 'A path of a request\'s files map has an empty or . segment.',
          unloadable_name: 'A path of a request\'s files map has control characters or is too long to be a file name.',
        },
      },
      optional(id('path', 'Path, in the package, of the offending file.')),
      optional(int('limit', 'The bound that was passed, for size or file-count rules.')),
    ],
    detail: 'The package breaks a rule ({reason})[ at {path}][; the limit is {limit}].',
    client: [step('change_method', 'Fix the package layout, manifest or lock file at the reported place.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'The package layout, manifest, lock, files or size break a rule: a symbolic link, too many files or bytes, no manifest or source, clashing or unloadable file names, a files map that is not a tree. Its limit gives the bound when one was passed.',
  }),
  problem({
    code: 'method.dependency_missing',
    title: 'Dependency missing',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      oneOf(
        'kind',
        { package: 'package', function: 'function', requirement: 'Python requirement' },
        'What is missing: a package, a PipeFunc function, or a Python requirement.',
      ),
      id('name', 'Name or address of the dependency.'),
      oneOf(
        'reason',
        {
          not_found: 'it was not found',
          no_matching_version: 'no version satisfies the constraints',
          cycle: 'the dependencies form a cycle',
        },
        'Why it cannot be satisfied.',
      ),
    ],
    detail: 'Dependency {name} ({kind}) cannot be satisfied: {reason}.',
    client: [
      step('change_method', 'Declare the dependency in the manifest, relax its version constraint, or break the cycle.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      "A dependency is unavailable, no version satisfies the constraints, dependencies form a cycle, or a Python requirement of the tree's requirements.txt cannot be satisfied. A PipeFunc function missing from the runtime registry is also this code, with kind function.",
  }),
  problem({
    code: 'method.dependency_invalid',
    title: 'Invalid dependency package',
    status: 422,
    retry: false,
    domain: 'method',
    params: [id('package', 'Address of the dependency package.'), P.finding],
    detail: 'A file of the dependency package {package} is not UTF-8 or does not parse: {finding}',
    client: [step('change_method', 'Pin another version of the dependency, or remove it.')],
    others: [step('contact_owner', 'The owner of the dependency package fixes the file.')],
    explanation:
      'A file of a dependency package is not UTF-8 or does not parse. The fault is in the dependency, not in the calling method.',
  }),
  problem({
    code: 'method.resource_missing',
    title: 'File reference not resolved',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      id('file', 'The file reference as written.'),
      oneOf(
        'reason',
        {
          not_in_tree: 'no such file in the tree',
          leaves_tree: 'it leaves the tree',
          absolute: 'it is an absolute path',
          backslash: 'it uses backslashes',
          scheme: 'it carries a URL scheme',
        },
        'Why the reference resolves to no file.',
      ),
    ],
    detail: 'The file reference {file} resolves to no file of the tree: {reason}.',
    client: [
      step('change_method', 'Use a relative path with forward slashes naming a file sent with the method.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'A file reference resolves to no file of the tree; references are relative paths with forward slashes, looked up in the set of paths without opening any file. A bundle sent as a bare string with no files tree has no files to refer to.',
  }),
  problem({
    code: 'method.concept_unresolved',
    title: 'Concept not found',
    status: 422,
    retry: false,
    domain: 'method',
    params: [id('concept', 'The concept reference as written.'), ids('suggestions', 'Concepts with a close name, likeliest first.')],
    detail: 'The concept {concept} is not defined.[ Did you mean: {suggestions}?]',
    client: [step('change_method', 'Correct the reference, declare the concept, or add the dependency that defines it.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A concept reference resolves to no concept of the bundle, its domain, its dependencies or the native set. A typo or a missing domain prefix is the usual cause.',
  }),
  problem({
    code: 'method.pipe_unresolved',
    title: 'Pipe reference not resolved',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      id('pipe', 'The pipe (or manifest main_pipe entry) holding the reference.'),
      id('missing', 'The pipe reference that resolves to nothing.'),
      ids('candidates', 'Existing pipes with a close name.'),
    ],
    detail: 'The pipe {missing} named by {pipe} does not exist.[ Did you mean: {candidates}?]',
    client: [step('change_method', 'Correct the reference or declare the missing pipe.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A controller step, branch, outcome or the manifest's main_pipe names a pipe that does not exist. Typos and pipes renamed in one place only are the usual causes.",
  }),
  problem({
    code: 'method.pipe_not_exported',
    title: 'Pipe not exported',
    status: 422,
    retry: false,
    domain: 'method',
    params: [id('pipe', 'The referenced pipe of the dependency.'), id('package', 'The dependency package.')],
    detail: 'The pipe {pipe} of package {package} is not exported, so it cannot be called from outside the package.',
    client: [step('change_method', 'Call an exported pipe of the dependency instead.')],
    others: [step('contact_owner', 'The owner of the dependency can add the pipe to its exports.')],
    explanation:
      "A dependency's pipe is called but not listed in its [exports]. Only exported pipes (and a bundle's main_pipe) are callable across packages.",
  }),
  problem({
    code: 'method.ref_ambiguous',
    title: 'Ambiguous reference',
    status: 422,
    retry: false,
    domain: 'method',
    params: [id('ref', 'The bare reference as written.'), P.candidates],
    detail: 'The reference {ref} resolves in several packages: {candidates}. Qualify it as alias->domain.Name or domain.Name.',
    client: [step('change_method', 'Qualify the reference with its domain, or alias->domain.Name for a dependency.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A bare pipe or concept reference resolves in several packages, so its meaning depends on resolution order. Qualifying it makes it unambiguous.',
  }),
  problem({
    code: 'method.name_conflict',
    title: 'Name conflict',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      id('name', 'The conflicting name.'),
      oneOf(
        'conflict',
        {
          duplicate_declaration: 'it is declared twice',
          native_concept: 'it redeclares a native concept',
          batch_item: 'it collides with another batch item name',
          reserved_domain: 'it uses a reserved domain',
        },
        'What the name collides with.',
      ),
    ],
    detail: 'The name {name} conflicts: {conflict}.',
    client: [step('change_method', 'Rename one of the declarations.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'Two declarations share a name, or a name collides with a native concept, another batch item or a reserved domain (native, mthds, pipelex).',
  }),
  problem({
    code: 'method.cycle',
    title: 'Cycle',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      oneOf(
        'kind',
        { refines: 'refinement', structure: 'structure', pipe: 'pipe call' },
        'What loops: concept refinement, concept structure, or pipe calls.',
      ),
      ids('cycle', 'The concepts or pipes of the loop, in order.'),
    ],
    detail: 'A {kind} cycle runs through, in order: {cycle}.',
    client: [step('change_method', 'Break the loop by removing or redirecting one of its links.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'Concepts refine or contain each other, or pipes call each other, in a loop. Package dependency cycles are method.dependency_missing instead.',
  }),
  problem({
    code: 'method.identifier_invalid',
    title: 'Invalid name',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      oneOf(
        'identifier_kind',
        { pipe_code: 'pipe code', main_pipe: 'main pipe', input_name: 'input name' },
        'What kind of name is invalid.',
      ),
      text('name', 'The name as written.'),
    ],
    detail: 'The {identifier_kind} {name} is not a valid name; names match \\[a-z\\]\\[a-z0-9_\\]*.',
    client: [step('change_method', 'Rename it in lowercase snake_case, for example extract_invoice.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A pipe code, main pipe or input name does not match [a-z][a-z0-9_]*; stored names (a step's result or batch_as, a PipeBatch's input_item_name) follow the input-name form. A plain batch_over starting with the reserved prefix _bound_ is also this code.",
  }),
  problem({
    code: 'method.pipe_type_invalid',
    title: 'Invalid pipe type',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.pipe,
      oneOf(
        'reason',
        { missing: 'it names no type', unknown: 'the type is unknown', retired: 'the type is retired' },
        'Why the type is invalid.',
      ),
      optional(text('pipe_type', 'The type as written, when one is written.')),
    ],
    detail: 'The pipe {pipe} has an invalid type[ {pipe_type}]: {reason}.',
    client: [
      step('change_method', 'Give the pipe a current type (PipeLLM, PipeSequence, …), or migrate a retired form.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'A pipe names no type, an unknown one, or a retired one such as PipeJinja2 or PipeOcr. A pipe without a type is only valid as a signature (description, inputs and output only).',
  }),
  problem({
    code: 'method.signature_mismatch',
    title: 'Signature mismatch',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, P.finding],
    detail: 'The pipe {pipe} differs from the signature it implements: {finding}',
    client: [step('change_method', 'Align the inputs and output of the pipe with its signature, or update the signature.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A concrete pipe's inputs or output differ from the signature declared under the same code. Signatures are contracts: implementations must match them.",
  }),
  problem({
    code: 'method.not_runnable',
    title: 'Pipe not implemented',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe],
    detail: 'The pipe {pipe} is declared as a signature with no implementation, so it cannot run.',
    client: [step('change_method', 'Implement the pipe (give it a type and its settings) before running the method.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A run reached a pipe still declared as a signature. Validation reports such pipes as pending_signatures, not as a fault; only a run refuses them.',
  }),
  problem({
    code: 'method.input_undeclared',
    title: 'Undeclared input',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, ids('variables', 'The variables read but not declared.')],
    detail: 'The pipe {pipe} reads variables its inputs do not declare: {variables}.',
    client: [step('change_method', 'Declare the variables in the inputs of the pipe, or fix their names in the template.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A template or step reads a variable the pipe's inputs do not declare. Typos in $variable references are the usual cause.",
  }),
  problem({
    code: 'method.input_unused',
    title: 'Unused input',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, ids('variables', 'The declared inputs nothing reads.')],
    detail: 'The pipe {pipe} declares inputs that nothing it runs reads: {variables}.',
    client: [step('change_method', 'Remove the unused inputs (a suggested fix may do it) or use them in a template.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A pipe declares inputs that nothing it runs reads, which usually means a template forgot a variable. The item's suggested_fix may carry the removal.",
  }),
  problem({
    code: 'method.input_concept_mismatch',
    title: 'Input concept mismatch',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.pipe,
      P.input,
      id('declared', 'The concept declared for the input.'),
      ids('expected', 'Concepts its use accepts.'),
    ],
    detail: 'The input {input} of pipe {pipe} is declared as {declared}, but its use accepts {expected}.',
    client: [step('change_method', 'Declare the input with an accepted concept, or change how it is used.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "An input's declared concept is not accepted by its use: a controller's declaration differs from its children's needs, or a pipe type needs another kind of input (for example PipeExtract needs a Document or Image).",
  }),
  problem({
    code: 'method.output_concept_mismatch',
    title: 'Output concept mismatch',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.pipe,
      id('declared', 'The output concept declared.'),
      id('pipe_type', 'The type of the pipe.'),
      ids('expected', 'Concepts the type or wiring accepts.'),
    ],
    detail: 'The output {declared} of pipe {pipe} ({pipe_type}) breaks the rule of its type or wiring; accepted: {expected}.',
    client: [step('change_method', 'Declare an accepted output concept, or change the pipe type or wiring.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "The output concept breaks the rule of the pipe's type or wiring, for example a PipeLLM declaring an image output, or a sequence whose output differs from its last step's.",
  }),
  problem({
    code: 'method.output_multiplicity_mismatch',
    title: 'Output multiplicity mismatch',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.pipe,
      id('declared', 'The output as declared, e.g. Joke or Joke[].'),
      oneOf('expected', MULTIPLICITY_LABELS, 'The multiplicity its use calls for.'),
    ],
    detail: 'The pipe {pipe} declares the output {declared}, but its use calls for {expected}.',
    client: [step('change_method', 'Declare the output as Concept, Concept[] or Concept[N] to match its use.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'The declared output multiplicity does not fit its use, for example a sequence declaring one item whose last step is a batch producing a list. It is found before any run; its run-time twin is pipe.output_multiplicity.',
  }),
  problem({
    code: 'method.wiring_invalid',
    title: 'Invalid wiring',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, id('variable_path', 'The variable or attribute path read.'), P.finding],
    detail: 'The pipe {pipe} reads {variable_path} in a shape its wiring does not give: {finding}',
    client: [step('change_method', 'Connect the steps so that each reads what an earlier step or input provides.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A pipe reads a variable or attribute in a shape its wiring does not give (for example batching over a value that is not a list), or a controller's steps do not connect.",
  }),
  problem({
    code: 'method.field_path_unresolved',
    title: 'Field path not resolved',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.pipe,
      id('path', 'The field path as written.'),
      id('segment', 'The first segment that does not exist.'),
      ids('available_fields', 'Fields available at that point; empty at a leaf.'),
    ],
    detail: 'In pipe {pipe}, the path {path} has no field {segment}. Available fields: {available_fields}.',
    client: [step('change_method', 'Correct the path to one of the available fields.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A binding's from, a construct's from or a template field read walks past what the concept structures hold. Typos in field names and reading into a leaf value are the usual causes.",
  }),
  problem({
    code: 'method.binding_step_invalid',
    title: 'Invalid binding step',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, P.fieldPath],
    detail: 'The binding step at {field_path} in pipe {pipe} is malformed.',
    client: [
      step('change_method', 'Give the binding step a from and a plain result only, with a well-formed dotted path.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'A binding step is malformed: it has both pipe and from, lacks result, carries nb_output, multiple_output, batch_over or batch_as, has a non-plain result or a path that breaks the grammar, or sits inside a PipeParallel.',
  }),
  problem({
    code: 'method.optional_marker_invalid',
    title: 'Presence marker not allowed',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, P.fieldPath],
    detail: 'The pipe {pipe} uses a presence marker (? or !) where none is allowed, at {field_path}.',
    client: [step('change_method', 'Remove the marker; ? and ! apply only to single inputs, and ! never to an output.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A presence marker is written where it is not allowed, for example ? on a plural reference or ! on an output.',
  }),
  problem({
    code: 'method.optional_unhandled',
    title: 'Optional value not handled',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.pipe,
      id('input', 'The maybe-absent input or stored value.'),
      oneOf(
        'site',
        {
          sequence_step: 'a sequence step whose boundary is not optional',
          condition: 'a condition whose boundary is not optional',
          condition_output: 'a condition that can continue without producing its required output',
          template: 'a template read without a guard',
          parallel_branch: 'a parallel branch feeding a required field',
        },
        'Where the maybe-absent value arrives.',
      ),
    ],
    detail: 'In pipe {pipe}, the maybe-absent value {input} reaches {site}.',
    client: [
      step('change_method', 'Mark the receiving side optional with ?, guard the read, or make the value always present.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'A maybe-absent value reaches a place needing a value: a step, sequence or condition whose boundary is not optional, a condition that can continue without a non-optional output, an unguarded template read, or a parallel branch feeding a required field.',
  }),
  problem({
    code: 'method.template_invalid',
    title: 'Invalid template',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, id('template', 'Which template: the key holding it, e.g. prompt or expression.'), P.finding],
    detail: 'The template {template} of pipe {pipe} is invalid: {finding}',
    client: [step('change_method', 'Fix the template at the reported place.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A prompt, expression or construct template does not parse, cannot be read, or misuses an input or filter, for example an unclosed {{ or a filter unavailable in that kind of template. The location gives the place.',
  }),
  problem({
    code: 'method.template_private_name',
    title: 'Private name in template',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, ids('variables', 'The reserved names read.')],
    detail: 'A template of pipe {pipe} reads names reserved to the runtime: {variables}.',
    client: [step('change_method', 'Read declared inputs and their public fields only.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A template reads a name reserved to the runtime, for example an attribute starting with an underscore. Such names are internal and may change.',
  }),
  problem({
    code: 'method.function_invalid',
    title: 'Invalid function',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, id('function', 'The function name or import path.'), P.finding],
    detail: 'The function {function} of pipe {pipe} cannot be used: {finding}',
    client: [
      step('change_method', 'Fix the function: importable from the tree root, with a declared return type, under a unique name.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      "A PipeFunc's function cannot be imported under its import path from the tree root, lacks or breaks its return type, or shares a name with another function.",
  }),
  problem({
    code: 'method.concept_invalid',
    title: 'Invalid concept',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.concept, P.finding],
    detail: 'The structure of concept {concept} is invalid: {finding}',
    client: [step('change_method', 'Fix the concept structure at the reported field.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A concept's structure cannot be generated, found, completed or described as a JSON Schema: for example refines together with structure, a field without description, or a default value that breaks its own type.",
  }),
  problem({
    code: 'method.model_setting_invalid',
    title: 'Invalid model setting',
    status: 422,
    retry: false,
    domain: 'method',
    params: [id('field', 'Path of the model setting, e.g. pipe.summarize.model.'), P.finding],
    detail: 'The model setting at {field} is invalid: {finding}',
    client: [step('change_method', 'Correct the model reference or remove the conflicting setting.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A model reference does not parse, or settings of a step conflict, for example a temperature out of range or reasoning_effort together with reasoning_budget.',
  }),
  problem({
    code: 'method.mock_unsatisfiable',
    title: 'Mock unsatisfiable',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.concept],
    detail: 'The dry run cannot build a value of concept {concept} that satisfies all its constraints.',
    client: [step('change_method', 'Make the constraints of the concept compatible (choices, defaults, required fields).'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'The dry run needs a mock of an output concept and no value satisfies its constraints together, for example a default outside its own choices or a required field that contains itself.',
  }),
  problem({
    code: 'method.changed_concurrently',
    title: 'File changed concurrently',
    status: 409,
    retry: true,
    domain: 'runtime',
    detail: 'A file the fix read was changed by someone else before the fix wrote it; nothing was overwritten.',
    client: [
      step('refresh', 'Reload the file to see the other change.'),
      step('retry', 'Apply the fix again on the fresh content.'),
    ],
    others: [step('wait', 'Nothing to do: the other change was kept intact.')],
    explanation:
      'A file a fix read was changed by someone else before the fix wrote it, so the fix stopped without overwriting. Applying it again on the new content can succeed.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// warnings (raised_as = warning; no status; never make a method invalid)

const WARNINGS = [
  warning({
    code: 'method.hint_invalid',
    title: 'Invalid hint',
    params: [
      oneOf(
        'reason',
        {
          unknown_key: 'its key is unknown',
          unknown_intent: 'its intent word is unknown',
          inapplicable_intent: 'its intent does not apply where it is written',
        },
        'Why the hint is ignored.',
      ),
      text('hint', 'The hint key or intent word as written.'),
    ],
    detail: 'The hint {hint} is ignored: {reason}.',
    client: [step('change_method', 'Correct or remove the hint; it has no effect as written.')],
    others: [step('change_method', 'Optional: the method owner can clean up the hint.')],
    explanation:
      "A hint's key or intent word is unknown, or its intent does not apply where it is written. Hints are advisory, so the method stays valid.",
  }),
  warning({
    code: 'method.input_presence_vacuous',
    title: 'Vacuous presence check',
    params: [P.pipe, P.input],
    detail: 'In pipe {pipe}, the presence check on {input} always succeeds: the input is always present.',
    client: [step('change_method', 'Remove the check, or declare the input optional with ? if it may be absent.')],
    others: [step('change_method', 'Optional: the method owner can simplify the check.')],
    explanation:
      'A presence check tests an input that is always present, so the check can never fail. It often means the input was meant to be declared optional.',
  }),
  warning({
    code: 'method.optional_force_redundant',
    title: 'Redundant force marker',
    params: [P.pipe, P.input],
    detail: 'In pipe {pipe}, the ! marker on {input} is redundant: the input is present wherever it is read.',
    client: [step('change_method', 'Remove the ! marker.')],
    others: [step('change_method', 'Optional: the method owner can remove the marker.')],
    explanation:
      'A ! marker forces an input that every analysed flow already guarantees present, so the marker has no effect.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// pipe family (a pipe failing at run time)

const PIPE = [
  // Core: named by method.output_multiplicity_mismatch as its run-time twin. Same status, retry and
  // domain as that code (the method must change); parameters mirror it, with the counts observed.
  problem({
    code: 'pipe.output_multiplicity',
    title: 'Output multiplicity violated at run time',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.pipe,
      oneOf('expected', MULTIPLICITY_LABELS, 'The multiplicity the output declares.'),
      optional(int('expected_count', 'The length declared for a fixed-length output.')),
      int('produced_count', 'Number of items the pipe produced.'),
    ],
    detail: 'The output of pipe {pipe} must be {expected}[ of exactly {expected_count} items] (items produced: {produced_count}).',
    client: [step('change_method', 'Align the declared output multiplicity with what the pipe produces.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'At run time a pipe produced a number of items its declared output does not allow. It is the run-time twin of method.output_multiplicity_mismatch, for cases the static check cannot see.',
  }),
  // 422 / no / method: sharper codes cover providers, timeouts and internal faults; what remains is
  // the method's own logic failing (a function raising, a construct failing), which must change.
  problem({
    code: 'mthdsls.pipe.execution_failed',
    title: 'Pipe failed',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, text('finding', 'What failed, in the runtime\'s words; never quotes input values.')],
    detail: 'The pipe {pipe} failed at run time: {finding}',
    client: [step('change_method', 'Fix the pipe so that it handles this case.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A pipe failed while running, for a cause no sharper code names, for example a PipeFunc function raising an exception. The method must handle the case.',
  }),
  // 422 / no / method: the runtime already retried generation under its own policy; repeating the
  // whole run blindly would spend again for the same likely result. The prompt or concept must change.
  problem({
    code: 'mthdsls.pipe.output_invalid',
    title: 'Pipe output invalid',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, id('concept', 'The output concept.'), id('field', 'Dotted path of the first failing field.')],
    detail: 'The output of pipe {pipe} does not satisfy concept {concept} at {field}.',
    client: [
      step('change_method', 'Tighten the prompt, or relax the concept (optional fields, wider choices).'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'The value a pipe produced fails its output concept. With a model, the prompt usually leaves the model too free or the concept is stricter than the task allows.',
  }),
  // 422 / no / runtime: like request.unsupported, a form this runner does not support as configured;
  // the fix is on the runner's side (function modules) or another runner, not the caller's input.
  problem({
    code: 'mthdsls.pipe.func_unsupported',
    title: 'PipeFunc not supported by this runner',
    status: 422,
    retry: false,
    domain: 'runtime',
    params: [P.pipe, id('function', 'The function the pipe calls.')],
    detail: 'The pipe {pipe} calls the function {function}, but this runner has no function registry.',
    client: [step('upgrade', 'Run the method on a runner that registers the function, such as the reference runtime or a runner started with function modules.')],
    others: [step('contact_owner', 'The runner operator can register functions with function modules (functions in the runner configuration, or mthds serve --functions).')],
    explanation:
      'The method uses a PipeFunc and this runner was started without function modules, so it has no function to call. The method itself is valid.',
  }),
  // 422 / no / method: the expression is part of the method; an empty result means it does not
  // cover every input it can meet.
  problem({
    code: 'mthdsls.pipe.condition_no_result',
    title: 'Condition produced no result',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe],
    detail: 'The expression of the PipeCondition {pipe} rendered an empty result, so no outcome could be chosen.',
    client: [step('change_method', 'Make the expression always render a value, or rely on default_outcome.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A PipeCondition expression rendered an empty or None result. It usually reads an optional field that was absent for this input.',
  }),
  // 422 / no / input: a `fail` outcome is the method's deliberate refusal of this input; the caller
  // must send another input (the method is working as its author designed).
  problem({
    code: 'mthdsls.pipe.condition_failed',
    title: 'Condition reached a fail outcome',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.pipe,
      id('outcome', 'The outcome key that maps to fail, or default_outcome when no key matched.'),
    ],
    detail: 'The PipeCondition {pipe} routed outcome {outcome} to fail; the run stops here by design.',
    client: [step('change_input', 'Send an input the method accepts; the method refuses this one on purpose.')],
    others: [step('change_method', 'If this input should be handled, the method owner routes the outcome to a pipe.')],
    explanation:
      'A PipeCondition reached an outcome mapped to fail, which stops the run on purpose. The method was written to refuse inputs that lead there.',
  }),
  // 422 / no / method: run-time twin of method.template_invalid (render-time failures such as an
  // unknown format or a filter applied to an undefined value).
  problem({
    code: 'mthdsls.pipe.template_render_failed',
    title: 'Template failed to render',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, id('template', 'Which template: the key holding it, e.g. prompt.'), P.finding],
    detail: 'The template {template} of pipe {pipe} failed to render: {finding}',
    client: [step('change_method', 'Fix the template so that it renders for every input, guarding optional values.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A template parsed but failed while rendering, for example a filter applied to an undefined value or an unknown format name. It is the run-time twin of method.template_invalid.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// model family (the model a step names)

const MODEL = [
  // 422 / no / method: the method names the model; it must name one of the deck (GET /models).
  problem({
    code: 'mthdsls.model.unknown',
    title: 'Unknown model',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.model,
      oneOf(
        'model_type',
        { llm: 'LLM', extract: 'extraction', img_gen: 'image generation', search: 'search' },
        'The model category the step needs.',
      ),
      ids('suggestions', 'Models of the deck with a close name, likeliest first.'),
    ],
    detail: "The {model_type} model {model} is not in this runner's model deck.[ Did you mean: {suggestions}?]",
    client: [
      step('change_method', 'Name a model listed by GET /models, or an alias the deck defines.'),
      step('upgrade', 'Or run the method on a runner whose deck has this model.'),
    ],
    others: OTHERS_METHOD,
    explanation:
      "A model reference (name, alias, preset or fallback chain) is not defined by the runner's model deck. Decks differ between runners, so a method can be valid on one runner and refer to an unknown model on another.",
  }),
  // 422 / no / method: the model is known but refuses a setting the step asks for.
  problem({
    code: 'mthdsls.model.setting_refused',
    title: 'Model setting refused',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.model, id('setting', 'The setting the model refuses, e.g. temperature.')],
    detail: 'The model {model} refuses the setting {setting}.',
    client: [step('change_method', 'Remove the setting, or choose a model that accepts it.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'The model exists but does not accept a setting the step gives it, for example a temperature on a reasoning model. It is the run-time counterpart of method.model_setting_invalid.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// provider family (the inference provider)

const PROVIDER = [
  // 502 / yes / runtime: an upstream did not answer; repeating later usually succeeds.
  problem({
    code: 'mthdsls.provider.unavailable',
    title: 'Provider unavailable',
    status: 502,
    retry: true,
    domain: 'runtime',
    params: [P.provider],
    detail: 'The inference provider {provider} did not answer.',
    client: [step('retry', 'Repeat the run later.')],
    others: [step('contact_owner', 'If it persists, the runner operator checks the provider status and network.')],
    explanation:
      'The inference provider did not answer or the network to it failed. It is usually transient.',
  }),
  // 503 / no / runtime: the runner cannot serve this provider at all until its operator configures
  // it (typically an API key); repeating unchanged fails the same way.
  problem({
    code: 'mthdsls.provider.not_configured',
    title: 'Provider not configured',
    status: 503,
    retry: false,
    domain: 'runtime',
    params: [P.provider],
    detail: 'The inference provider {provider} is not configured on this runner.',
    client: [step('contact_owner', 'Ask the runner operator to configure the provider, or use a model of another provider.')],
    others: [step('check_credentials', 'The runner operator sets the provider credentials (for example its API key).')],
    explanation:
      'A step needs a provider this runner has no configuration or credentials for. The operator must configure it before the step can run.',
  }),
  // 422 / no / input: a refusal (content policy) is caused by what is sent, most often the input;
  // repeating it unchanged is refused again.
  problem({
    code: 'mthdsls.provider.refused',
    title: 'Provider refused the request',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.provider,
      {
        ...text('finding', "The provider's reason, trimmed; runners must not forward text that quotes the input."),
        echo: true,
      },
    ],
    detail: 'The inference provider {provider} refused the request: {finding}',
    client: [step('change_input', 'Change the input so that it complies with the provider policy.')],
    others: [step('change_method', 'If the prompt itself triggers the refusal, the method owner rewords it.')],
    explanation:
      'The provider refused to process the request, most often under its content policy. The input, or sometimes the prompt, must change.',
  }),
  // 429 / yes / runtime: the runner's own provider account is limited, not the caller's account.
  problem({
    code: 'mthdsls.provider.rate_limited',
    title: 'Provider rate limit reached',
    status: 429,
    retry: true,
    domain: 'runtime',
    params: [P.provider],
    detail: 'The inference provider {provider} is rate-limiting this runner.',
    client: [step('wait', 'Wait for retry_after seconds when given.'), step('retry', 'Repeat the run unchanged.')],
    others: [step('check_account', 'The runner operator can raise the limits of the provider account.')],
    explanation:
      "The provider refuses more requests from this runner for now. It is the runner's provider account that is limited, not the caller's.",
  }),
  // 502 / yes / runtime: the upstream answered something unusable; often transient.
  problem({
    code: 'mthdsls.provider.invalid_response',
    title: 'Invalid provider response',
    status: 502,
    retry: true,
    domain: 'runtime',
    params: [P.provider, P.finding],
    detail: 'The inference provider {provider} answered something unusable: {finding}',
    client: [step('retry', 'Repeat the run later.')],
    others: [step('contact_owner', 'If it persists, the runner operator reports it to the provider.')],
    explanation:
      'The provider answered, but with a body the runner cannot use (truncated, wrong shape, an error page). It is usually transient.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// run family (a run's lifecycle and reads)

const RUN = [
  // 504 / yes / runtime: the run passed the runner's own time bound; load-dependent, may pass later.
  problem({
    code: 'mthdsls.run.timeout',
    title: 'Run timed out',
    status: 504,
    retry: true,
    domain: 'runtime',
    params: [secs('seconds', 'The time bound that was passed.')],
    detail: 'The run did not finish within {seconds}.',
    client: [
      step('retry', 'Repeat later, when the runner or provider is less loaded.'),
      step('change_input', 'For long methods use POST /start instead of /execute, or send smaller inputs.'),
    ],
    others: [step('contact_owner', 'The runner operator can raise the time bound.')],
    explanation:
      'The run passed the time bound of this runner. Slow providers, large inputs and long methods run through /execute are the usual causes.',
  }),
  // 409 / yes / runtime: the run was stopped, not refused; nothing needs to change to run it again.
  problem({
    code: 'mthdsls.run.cancelled',
    title: 'Run cancelled',
    status: 409,
    retry: true,
    domain: 'runtime',
    params: [
      optional(
        oneOf('reason', { requested: 'on request', shutdown: 'the runner is shutting down' }, 'Why the run was cancelled.'),
      ),
    ],
    detail: 'The run was cancelled before it finished[ ({reason})].',
    client: [step('retry', 'Start the run again if you still need its result.')],
    others: [step('read_run', 'Check who cancelled the run if that was not expected.')],
    explanation:
      'The run was cancelled before it finished, on request or because the runner was shutting down. Nothing in the request needs to change.',
  }),
  // 404 / no / input: a status read (e.g. the Location of a 202) names a run the runner does not know.
  problem({
    code: 'mthdsls.run.not_found',
    title: 'Run not found',
    status: 404,
    retry: false,
    domain: 'input',
    params: [id('run_id', 'The pipeline_run_id asked for.')],
    detail: 'No run {run_id} is known to this runner.',
    client: [step('change_input', 'Check the run identifier; runners keep no run store, so old runs are forgotten.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'A read names a run this runner does not know: a wrong identifier, a run started on another runner, or a run forgotten since (the protocol keeps no run store).',
  }),
  // 409 / no / runtime: the results of a run that ended without any (the status says how it ended).
  problem({
    code: 'mthdsls.run.not_completed',
    title: 'Run ended without a result',
    status: 409,
    retry: false,
    domain: 'runtime',
    params: [
      id('run_id', 'The pipeline_run_id asked for.'),
      oneOf('status', { FAILED: 'FAILED', CANCELLED: 'CANCELLED', TIMED_OUT: 'TIMED_OUT' }, 'The terminal status of the run (clients read it from the detail).'),
    ],
    detail: 'Run {run_id} finished with status {status}; no result available.',
    client: [step('read_run', 'Read GET /runs/{id}/status: its error member says why the run ended.'), step('retry', 'Start the run again if you still need its result.')],
    others: [CLIENT_AUTHOR],
    explanation: 'The run reached a terminal state other than COMPLETED, so it has no result to read; its status record carries the problem that ended it.',
  }),
  // 503 / yes / runtime: every attempt of a queued run lost its worker (killed or stalled).
  problem({
    code: 'mthdsls.run.abandoned',
    title: 'Run abandoned',
    status: 503,
    retry: true,
    domain: 'runtime',
    params: [int('attempts', 'How many times a worker took the run up.')],
    detail: 'The run was given up after {attempts} attempts: each time the worker running it stopped before it finished.',
    client: [step('retry', 'Start the run again.')],
    others: [step('contact_owner', 'The runner operator checks why its workers stop (memory, deployments, crashes).')],
    explanation:
      'A queued run is taken up again by another worker when its worker stops answering; after the configured number of attempts the run ends FAILED with this code rather than being retried forever.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// security family (refusals for safety; an implementation may also record them as security events)

const SECURITY = [
  // 422 / no / input: the request names an address the runner will never contact (SSRF guard).
  problem({
    code: 'mthdsls.security.address_refused',
    title: 'Address refused',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      id('field', 'Dotted path of the member holding the address, e.g. callback_url or inputs.page.content.url.'),
      id('host', 'The host of the refused address.'),
    ],
    detail: 'The address in {field} points at {host}, a loopback, private or link-local host, which this runner refuses to contact.',
    client: [step('change_input', 'Use a public address, or send the content itself instead of a URL.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'A URL input or callback address points at a loopback, private or link-local host. Runners refuse such addresses so that requests cannot reach their internal network.',
  }),
  // 422 / no / input: the request names a file outside the allowed tree (path traversal guard).
  problem({
    code: 'mthdsls.security.path_refused',
    title: 'Path refused',
    status: 422,
    retry: false,
    domain: 'input',
    params: [id('field', 'Dotted path of the member holding the path.'), id('path', 'The refused path.')],
    detail: 'The path {path} in {field} leaves the allowed tree and is refused.',
    client: [step('change_input', 'Use a relative path inside the allowed tree.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'A file path escapes the tree the runner allows (an absolute path, .. segments, a symbolic link out). Runners refuse such paths so that requests cannot read other files.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// runtime family (the runtime itself)

const RUNTIME = [
  // 500 / yes / runtime: a fault of the runner; the request may well succeed when repeated. The
  // detail is fixed text so that no internals (stack, paths, messages) ever reach the caller.
  problem({
    code: 'mthdsls.runtime.internal',
    title: 'Internal error',
    status: 500,
    retry: true,
    domain: 'runtime',
    detail: 'The runner failed unexpectedly. The failure is logged; quote the request id when reporting it.',
    client: [step('retry', 'Repeat the request once.')],
    others: [step('contact_owner', 'If it persists, report it to the runner operator with the request id.')],
    explanation:
      'The runner met an unexpected fault while handling the request. The problem never exposes internals; the request id links it to the runner logs.',
  }),
  // 503 / yes / runtime: overloaded, starting or in maintenance; retry after retry_after.
  problem({
    code: 'mthdsls.runtime.unavailable',
    title: 'Runner unavailable',
    status: 503,
    retry: true,
    domain: 'runtime',
    detail: 'The runner cannot take requests right now.',
    client: [step('wait', 'Wait for retry_after seconds when given.'), step('retry', 'Repeat the request unchanged.')],
    others: [step('contact_owner', 'If it persists, the runner operator checks its capacity.')],
    explanation:
      'The runner is overloaded, starting or in maintenance and refuses new work for now.',
  }),
] as const;

// ---------------------------------------------------------------------------------------------
// client family (what a client detects itself; never received as a body; no status)

const CLIENT = [
  // no status / yes / runtime: the network or the runner is down; may come back.
  problem({
    code: 'mthdsls.client.unreachable',
    title: 'Runner unreachable',
    retry: true,
    domain: 'runtime',
    params: [id('url', 'The runner base address that was tried.')],
    detail: 'The runner at {url} could not be reached.',
    client: [
      step('retry', 'Try again in a moment.'),
      step('change_input', 'Check the runner address in the settings and that the runner is started.'),
    ],
    others: [step('contact_owner', 'The runner operator checks that the runner is up and reachable.')],
    explanation:
      'The client could not connect to the runner: a wrong address, a runner that is not started, or a network failure.',
  }),
  // no status / yes / runtime: the runner may answer in time later; /start avoids long waits.
  problem({
    code: 'mthdsls.client.timeout',
    title: 'Runner did not answer in time',
    retry: true,
    domain: 'runtime',
    params: [secs('seconds', 'The time the client waited.')],
    detail: 'The runner did not answer within {seconds}.',
    client: [
      step('retry', 'Try again, or raise the client timeout.'),
      step('change_input', 'For long methods use POST /start rather than /execute.'),
    ],
    others: [step('contact_owner', 'If the runner is slow for every request, its operator checks its load.')],
    explanation:
      'The client stopped waiting for an answer. A long method run through /execute, or an overloaded runner, are usual causes.',
  }),
  // no status / no / runtime: usually a wrong address (not a runner) or a protocol mismatch, which
  // repeating does not fix; a transient gateway page shows in the status.
  problem({
    code: 'mthdsls.client.bad_response',
    title: 'Unexpected runner answer',
    retry: false,
    domain: 'runtime',
    params: [int('status', 'The HTTP status received.')],
    detail: 'The runner answered with status {status} and a body that is neither a problem document nor the expected result.',
    client: [
      step('change_input', 'Check that the address points at an MTHDS runner and not at a proxy or another service.'),
      step('upgrade', 'Compare the protocol version of GET /version with the client; update whichever is behind.'),
    ],
    others: [step('contact_owner', 'The runner operator checks the proxies in front of the runner.')],
    explanation:
      'The answer is neither an RFC 7807 problem document nor the shape the protocol gives for this route. A proxy error page, a wrong address or a protocol version mismatch are usual causes.',
  }),
] as const;

/** Every entry, core first (in the registry's order), then the extensions. */
export const REGISTRY_ENTRIES = [
  ...REQUEST,
  ...AUTH_ACCOUNT,
  ...INPUT,
  ...METHOD,
  ...WARNINGS,
  ...PIPE,
  ...MODEL,
  ...PROVIDER,
  ...RUN,
  ...SECURITY,
  ...RUNTIME,
  ...CLIENT,
] as const;

/** Every code of the registry, core and extension, as a literal union. */
export type RegistryCode = (typeof REGISTRY_ENTRIES)[number]['code'];
