// Registry entries: the input family (a run's inputs): all 422, domain input.

import { family, id, int, oneOf, optional, P, step } from './define.js';

/** An entry of this family: { status: 422, retry: false, domain: 'input' } unless it says otherwise. */
const input = family({ status: 422, retry: false, domain: 'input' });

const INPUT_OTHERS = [
  step('contact_owner', 'If the inputs come from an application, report the problem to its maintainer.'),
] as const;

export const INPUT = [
  input({
    code: 'input.missing',
    title: 'Input missing',
    params: [P.input],
    detail: 'The required input {input} was not given.',
    client: [step('change_input', 'Add the input, with the concept the pipe declares for it, and run again.')],
    others: INPUT_OTHERS,
    explanation:
      'A required input of the selected pipe is omitted. Inputs declared with a trailing ? are optional; all others must be given.',
  }),
  input({
    code: 'input.unexpected',
    title: 'Unexpected input',
    params: [P.input],
    detail: 'The input {input} is not declared by the selected pipe.',
    client: [step('change_input', 'Remove the input or correct its name to one the pipe declares.')],
    others: INPUT_OTHERS,
    explanation:
      'An input is given that the pipe does not declare. A misspelled input name or a pipe whose inputs changed are the usual causes.',
  }),
  input({
    code: 'input.wrong_concept',
    title: 'Input of the wrong concept',
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
  input({
    code: 'input.wrong_multiplicity',
    title: 'Input of the wrong multiplicity',
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
  input({
    code: 'input.invalid',
    title: 'Invalid input value',
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
  input({
    code: 'input.file_unreadable',
    title: 'File input unreadable',
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
  input({
    code: 'input.file_type_unsupported',
    title: 'File format not supported',
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
  input({
    code: 'input.too_large',
    title: 'Input too large',
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
  input({
    code: 'input.reference_not_found',
    title: 'Referenced input not found',
    params: [P.input],
    detail: 'The file, stored object or URL named by the input {input} does not exist.',
    client: [step('change_input', 'Check the path, object or URL given in the input; it must exist and be accessible.')],
    others: INPUT_OTHERS,
    explanation:
      'An input names a file path, stored object or URL that is not there. The problem names the input, not the reference itself.',
  }),
  input({
    code: 'input.url_unreachable',
    title: 'Input URL unreachable',
    retry: true,
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
