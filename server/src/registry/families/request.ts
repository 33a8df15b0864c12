// Registry entries: the request family (HTTP request itself).

import { bytes, CLIENT_AUTHOR, family, id, ids, oneOf, step, T } from './define.js';

/** An entry of this family: { retry: false, domain: 'input' } unless it says otherwise. */
const request = family({ retry: false, domain: 'input' });

export const REQUEST = [
  request({
    code: 'request.malformed',
    title: 'Malformed request body',
    status: 422,
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
  request({
    code: 'request.invalid',
    title: 'Invalid request field',
    status: 422,
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
  request({
    code: 'request.too_large',
    title: 'Request too large',
    status: 413,
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
  request({
    code: 'request.not_found',
    title: 'Route not found',
    status: 404,
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
  request({
    code: 'request.method_not_allowed',
    title: 'HTTP method not allowed',
    status: 405,
    detail: 'This route does not accept the HTTP method used.',
    client: [
      step('change_input', 'Use the HTTP method the protocol gives for this route (POST or GET).'),
      step('upgrade', 'Compare your protocol version with GET /version and use a client that matches the runner.'),
    ],
    others: [CLIENT_AUTHOR],
    explanation:
      'The route exists but not for this HTTP method. A client written for another protocol version can meet it.',
  }),
  request({
    code: 'request.unsupported',
    title: 'Unsupported request form',
    status: 422,
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
  request({
    code: 'request.idempotency_conflict',
    title: 'Idempotency key reused',
    status: 409,
    detail: 'The idempotency key was already used with a different request body.',
    client: [step('change_input', 'Send this body under a new idempotency key; one key stands for one request.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'An idempotency key identifies one request; it was earlier sent with another body. It usually means a client reuses keys across different requests.',
  }),
  request({
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
  request({
    code: 'request.already_executed',
    title: 'Request already executed',
    status: 409,
    detail: 'A request under this idempotency key already ran and its answer is no longer kept.',
    client: [
      step('read_run', 'Look up the outcome of the earlier run where it was delivered instead of running it again.'),
      step('change_input', 'Use a new idempotency key only if you mean to run the request a second time.'),
    ],
    others: [step('read_run', 'Check the earlier run: it already executed once.')],
    explanation:
      'The request already ran under this key, and the runner no longer keeps its answer, so it cannot replay it. This protects against running a method twice.',
  }),
  request({
    code: 'request.pipe_not_found',
    title: 'Pipe not found',
    status: 422,
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
  request({
    code: 'request.pipe_ambiguous',
    title: 'Ambiguous pipe code',
    status: 422,
    params: [id('pipe', 'The bare pipe code as requested.'), ids('candidates', 'Qualified codes of the matching pipes.')],
    detail: 'The pipe code {pipe} matches several pipes: {candidates}.',
    client: [step('change_input', 'Send one of the candidates, qualified by its domain (domain.pipe_code).')],
    others: [CLIENT_AUTHOR],
    explanation:
      'A bare pipe code matches pipes in several domains or methods, so the runner cannot choose. Qualify it with its domain.',
  }),
  request({
    code: 'request.pipe_unspecified',
    title: 'No pipe selected',
    status: 422,
    params: [ids('candidates', 'Pipes that could be selected.')],
    detail: 'No pipe was selected: the request has no pipe_code and the method gives no main_pipe. Candidates: {candidates}.',
    client: [step('change_input', 'Send a pipe_code naming the pipe to run, for example one of the candidates.')],
    others: [
      step('change_method', 'The method owner can declare a main_pipe so that callers need not name a pipe.'),
    ],
    explanation:
      'Neither a pipe_code nor a main_pipe selects the pipe to run: the manifest declares none, or without a manifest the bundles declare none or several.',
  }),
  request({
    code: 'request.blobs_missing',
    title: 'Blobs missing',
    status: 422,
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
