// Examples of the method codes: for each code our language reference illustrates, a small snippet
// that raises it and the same snippet fixed. Data of the registry, kept apart from codes.ts and
// read through `exampleOf`; `mthds mcp`'s explain tool and docs/errors.md show them.
//
// Each snippet is a whole file (a bundle with its `domain` line, or a METHODS.toml), so it can be
// pasted and checked as it stands. `context` holds the other files the snippet needs, unchanged by
// the fix: files of the same folder, or of a sibling package (`../scoring/…`) a manifest names by
// path. test/unit/registry/examples.test.ts writes each example to disk and checks it the way
// `mthds check` does: the fault raises exactly its code, the fixed snippet raises nothing.

import { lazy } from '../util/lazy.js';
import type { RegistryCode } from './codes.js';

export interface ExampleFile {
  /** Relative to the folder checked, with forward slashes; `../name/…` is a sibling package. */
  path: string;
  text: string;
}

export interface CodeExample {
  /** One sentence: what is wrong and what the fix changes. */
  summary: string;
  /** The file the snippet is, relative to the folder checked. */
  file: string;
  /** The file as written, raising the code. */
  fault: string;
  /** The same file, fixed. */
  fixed: string;
  /** Other files the snippet needs, unchanged by the fix. */
  context?: readonly ExampleFile[];
  /** Files of `context` the check is given as function modules (`mthds check --functions`). */
  functions?: readonly string[];
  /** The fault passes the folder check and is refused when this pipe runs (see ExampleRun). */
  run?: ExampleRun;
}

/**
 * A run of the snippet on the built-in runner with its mock provider: what the runner's /execute,
 * `mthds mcp`'s run tool and the editor's Run lens do, for a code only a run raises.
 */
export interface ExampleRun {
  pipe: string;
  inputs: Readonly<Record<string, { concept: string; content: unknown }>>;
}

// Files several examples assume.
const INVOICE_CONCEPT: ExampleFile = {
  path: 'invoice.mthds',
  text: `domain = "billing"

[concept.Invoice]
description = "An invoice sent to a client"

[concept.Invoice.structure]
number = { type = "text", description = "The invoice number", required = true }
total = { type = "number", description = "The amount due", required = true }
`,
};

function manifest(name: string, description: string, extra = ''): string {
  return `[package]
name = "${name}"
address = "github.com/acme/${name}"
version = "1.0.0"
description = "${description}"
${extra}`;
}

const SCORING_PACKAGE: readonly ExampleFile[] = [
  { path: '../scoring/METHODS.toml', text: manifest('scoring', 'Scores texts', '\n[exports.scoring]\npipes = ["compute"]\n') },
  {
    path: '../scoring/scoring.mthds',
    text: `domain = "scoring"

[concept]
Score = "A score from 0 to 10"

[pipe.compute]
type = "PipeLLM"
description = "Scores a text"
inputs = { text = "Text" }
output = "Score"
prompt = "Score this text from 0 to 10: $text"

[pipe.internal_helper]
type = "PipeLLM"
description = "A step of the scoring"
inputs = { text = "Text" }
output = "Text"
prompt = "Restate $text"
`,
  },
];

const SCORING_DEPENDENCY = `
[dependencies]
scoring = { address = "github.com/acme/scoring", version = "^1.0.0", path = "../scoring" }
`;

/** A bundle calling one pipe in a sequence: the caller side of the reference examples. */
function caller(ref: string, output = 'Text'): string {
  return `domain = "review"

[pipe.review]
type = "PipeSequence"
description = "Reviews a text"
inputs = { text = "Text" }
output = "${output}"
steps = [{ pipe = "${ref}", result = "verdict" }]
`;
}

/** An example whose fixed file is the fault with each `[from, to]` replaced (`from` occurs once). */
function example(summary: string, file: string, fault: string, edits: ReadonlyArray<readonly [string, string]>, context?: readonly ExampleFile[]): CodeExample {
  let fixed = fault;
  for (const [from, to] of edits) {
    if (fixed.split(from).length !== 2) throw new Error(`example edit ${JSON.stringify(from)} does not occur exactly once`);
    fixed = fixed.replace(from, () => to);
  }
  return context === undefined ? { summary, file, fault, fixed } : { summary, file, fault, fixed, context };
}

/** A bundle of the domain `notes`. */
function notes(body: string): string {
  return `domain = "notes"\n\n${body}`;
}

const SUMMARIZE = `[pipe.summarize]
type = "PipeLLM"
description = "Summarizes a text"
inputs = { text = "Text" }
output = "Text"
prompt = "Summarize $text"
`;

/** Made on first use: each example's fixed file is computed, work that start-up has no need of. */
const EXAMPLES = lazy((): { readonly [C in RegistryCode]?: CodeExample } => ({
  'method.syntax': example('A table header misses its closing bracket; close it.', 'main.mthds', notes(SUMMARIZE.replace('[pipe.summarize]', '[pipe.summarize')), [['[pipe.summarize\n', '[pipe.summarize]\n']]),
  'method.schema_violation': example(
    'A PipeLLM names its system prompt `system`, a key the pipe does not have; the key is `system_prompt`.',
    'main.mthds',
    notes(SUMMARIZE.replace('prompt =', 'system = "You write short, plain summaries."\nprompt =')),
    [['system =', 'system_prompt =']],
  ),
  'method.identifier_invalid': example('A pipe code written in PascalCase; pipe codes are snake_case.', 'main.mthds', notes(SUMMARIZE.replace('summarize]', 'SummarizeText]')), [['SummarizeText', 'summarize_text']]),
  'method.name_conflict': example(
    'A concept named like the native concept `Text`; give it a name of its own.',
    'main.mthds',
    notes('[concept]\nText = "A note taken during a meeting"\n'),
    [['Text =', 'MeetingNote =']],
  ),
  'method.concept_invalid': example(
    'A structure field both required and given a default value; a field with a default is optional.',
    'main.mthds',
    `domain = "billing"

[concept.Invoice]
description = "An invoice sent to a client"

[concept.Invoice.structure]
total = { type = "number", description = "The amount due", required = true, default_value = 0 }
`,
    [[' required = true,', '']],
  ),
  'method.pipe_type_invalid': example('A pipe with a prompt but no `type`; say which pipe type it is.', 'main.mthds', notes(SUMMARIZE.replace('type = "PipeLLM"\n', '')), [['[pipe.summarize]\n', '[pipe.summarize]\ntype = "PipeLLM"\n']]),
  'method.signature_mismatch': example(
    "A pipe implements the signature of `signatures.mthds` with another input concept; take the signature's inputs.",
    'main.mthds',
    notes(SUMMARIZE.replaceAll('$text', '$doc').replace('text = "Text"', 'doc = "Text"')),
    [['doc = "Text"', 'doc = "Document"']],
    [{ path: 'signatures.mthds', text: notes('[pipe.summarize]\ndescription = "Summarizes a document"\ninputs = { doc = "Document" }\noutput = "Text"\n') }],
  ),
  'method.concept_unresolved': example(
    'An output names `Sumary`, a concept nowhere declared; the concept is `Summary`.',
    'main.mthds',
    notes(`[concept]\nSummary = "A short summary of a text"\n\n${SUMMARIZE.replace('output = "Text"', 'output = "Sumary"')}`),
    [['"Sumary"', '"Summary"']],
  ),
  'method.pipe_unresolved': example(
    'A sequence step calls `sumarize`, a pipe that does not exist; the pipe is `summarize`.',
    'main.mthds',
    notes(`[pipe.digest]
type = "PipeSequence"
description = "Digests a text"
inputs = { text = "Text" }
output = "Text"
steps = [{ pipe = "sumarize", result = "summary" }]
`),
    [['"sumarize"', '"summarize"']],
    [{ path: 'summarize.mthds', text: notes(SUMMARIZE) }],
  ),
  'method.dependency_missing': example(
    'A step calls a pipe through `scorng->`, an alias METHODS.toml does not declare; the dependency is `scoring`.',
    'main.mthds',
    caller('scorng->scoring.compute', 'scoring->scoring.Score'),
    [['scorng->', 'scoring->']],
    [{ path: 'METHODS.toml', text: manifest('review', 'Reviews texts', SCORING_DEPENDENCY) }, ...SCORING_PACKAGE],
  ),
  'method.pipe_not_exported': example(
    'A step calls `internal_helper` of a dependency whose `[exports]` list only `compute`; call an exported pipe (or have the dependency export it).',
    'main.mthds',
    caller('scoring->scoring.internal_helper'),
    [
      ['scoring.internal_helper', 'scoring.compute'],
      ['output = "Text"', 'output = "scoring->scoring.Score"'],
    ],
    [{ path: 'METHODS.toml', text: manifest('review', 'Reviews texts', SCORING_DEPENDENCY) }, ...SCORING_PACKAGE],
  ),
  'method.ref_ambiguous': example(
    'A bare `Score` that this package does not declare and two dependencies do; say which one with `alias->domain.Score`.',
    'main.mthds',
    caller('scoring->scoring.compute', 'Score'),
    [['output = "Score"', 'output = "scoring->scoring.Score"']],
    [
      { path: 'METHODS.toml', text: manifest('review', 'Reviews texts', `${SCORING_DEPENDENCY}grading = { address = "github.com/acme/grading", version = "^1.0.0", path = "../grading" }\n`) },
      ...SCORING_PACKAGE,
      { path: '../grading/METHODS.toml', text: manifest('grading', 'Grades texts') },
      { path: '../grading/grading.mthds', text: 'domain = "grading"\n\n[concept]\nScore = "A grade from A to F"\n' },
    ],
  ),
  'method.dependency_invalid': example(
    "A bundle of the `scoring` dependency misses a closing bracket; the package depending on it reports it on its `[dependencies]` line until the dependency's file is fixed.",
    '../scoring/scoring.mthds',
    SCORING_PACKAGE[1]!.text.replace('[pipe.internal_helper]', '[pipe.internal_helper'),
    [['[pipe.internal_helper\n', '[pipe.internal_helper]\n']],
    [{ path: 'METHODS.toml', text: manifest('review', 'Reviews texts', SCORING_DEPENDENCY) }, { path: 'main.mthds', text: caller('scoring->scoring.compute', 'scoring->scoring.Score') }, SCORING_PACKAGE[0]!],
  ),
  'method.function_invalid': {
    ...example(
      'The function `shout` returns a Text, but the PipeFunc calling it outputs a Number; make the output what the function returns.',
      'main.mthds',
      notes('[pipe.shout_text]\ntype = "PipeFunc"\ndescription = "Shouts a text"\ninputs = { text = "Text" }\noutput = "Number"\nfunction_name = "shout"\n'),
      [['output = "Number"', 'output = "Text"']],
      [{ path: 'functions.mjs', text: "export const shout = { output: 'Text', run: ({ text }) => text.text.toUpperCase() };\n" }],
    ),
    functions: ['functions.mjs'],
  },
  'method.not_runnable': {
    ...example(
      'A pipe declared as a signature (no `type`) passes the checks, but running it is refused; implement it.',
      'main.mthds',
      notes('main_pipe = "summarize"\n\n[pipe.summarize]\ndescription = "Summarizes a text"\ninputs = { text = "Text" }\noutput = "Text"\n'),
      [['[pipe.summarize]\n', '[pipe.summarize]\ntype = "PipeLLM"\n'], ['output = "Text"\n', 'output = "Text"\nprompt = "Summarize $text"\n']],
    ),
    run: { pipe: 'notes.summarize', inputs: { text: { concept: 'Text', content: { text: 'A long text.' } } } },
  },
  'method.resource_missing': example(
    'A template file outside the package (`../`); keep the file in the package and name it from there.',
    'main.mthds',
    notes(`[pipe.make_deck]
type = "PipeDocGen"
description = "Makes a slide deck"
output = "Document"
format = "pptx"
template_file = "../shared/deck.pptx"
`),
    [['../shared/deck.pptx', 'templates/deck.pptx']],
    [{ path: 'templates/deck.pptx', text: '' }],
  ),
  'method.cycle': example(
    'Two concepts contain each other through their structures; break the loop (here the client keeps the number of its latest invoice, not the invoice).',
    'main.mthds',
    `domain = "billing"

[concept.Invoice]
description = "An invoice"

[concept.Invoice.structure]
client = { type = "concept", concept_ref = "Client", description = "Who pays" }

[concept.Client]
description = "A client"

[concept.Client.structure]
last_invoice = { type = "concept", concept_ref = "Invoice", description = "The latest invoice" }
`,
    [['last_invoice = { type = "concept", concept_ref = "Invoice", description = "The latest invoice" }', 'last_invoice_number = { type = "text", description = "The number of the latest invoice" }']],
  ),
  'method.input_undeclared': example(
    'A prompt reads `$tone`, which the pipe does not declare; declare it among the inputs.',
    'main.mthds',
    notes(SUMMARIZE.replace('Summarize $text', 'Summarize $text in a $tone tone')),
    [['inputs = { text = "Text" }', 'inputs = { text = "Text", tone = "Text" }']],
  ),
  'method.input_unused': example(
    'The pipe declares `tone` but its prompt never reads it; read it (or remove the input).',
    'main.mthds',
    notes(SUMMARIZE.replace('inputs = { text = "Text" }', 'inputs = { text = "Text", tone = "Text" }')),
    [['Summarize $text', 'Summarize $text in a $tone tone']],
  ),
  'method.input_concept_mismatch': example(
    'A PipeExtract reads pages from a Text; its input is a Document or an Image.',
    'main.mthds',
    notes(`[pipe.read_scan]
type = "PipeExtract"
description = "Reads the pages of a scan"
inputs = { scan = "Text" }
output = "Page[]"
`),
    [['scan = "Text"', 'scan = "Image"']],
  ),
  'method.output_concept_mismatch': example(
    'A PipeImgGen declares a Text output; it makes an Image.',
    'main.mthds',
    notes(`[pipe.draw]
type = "PipeImgGen"
description = "Draws a scene"
inputs = { scene = "Text" }
output = "Text"
prompt = "A watercolor of $scene"
`),
    [['output = "Text"', 'output = "Image"']],
  ),
  'method.output_multiplicity_mismatch': example(
    'A PipeExtract declares one Page; it gives a list of pages.',
    'main.mthds',
    notes(`[pipe.read_scan]
type = "PipeExtract"
description = "Reads the pages of a scan"
inputs = { scan = "Image" }
output = "Page"
`),
    [['output = "Page"', 'output = "Page[]"']],
  ),
  'method.wiring_invalid': example(
    'A PipeBatch runs over `topics`, declared as one Text; the list it runs over is `Text[]`.',
    'main.mthds',
    notes(`[pipe.write_all]
type = "PipeBatch"
description = "Writes a paragraph per topic"
inputs = { topics = "Text" }
output = "Text[]"
branch_pipe_code = "write_one"
input_list_name = "topics"
input_item_name = "topic"

[pipe.write_one]
type = "PipeLLM"
description = "Writes a paragraph"
inputs = { topic = "Text" }
output = "Text"
prompt = "Write a paragraph about $topic"
`),
    [['topics = "Text"', 'topics = "Text[]"']],
  ),
  'method.field_path_unresolved': example(
    'A binding reads `invoice.totl`, a field Invoice does not have; the field is `total`.',
    'main.mthds',
    `domain = "billing"

[pipe.amount_due]
type = "PipeSequence"
description = "Takes the amount due of an invoice"
inputs = { invoice = "Invoice" }
output = "Number"
steps = [{ from = "invoice.totl", result = "amount" }]
`,
    [['invoice.totl', 'invoice.total']],
    [INVOICE_CONCEPT],
  ),
  'method.binding_step_invalid': example(
    'A binding step (`from`) asks for two outputs with `nb_output`; a binding names a value, it makes nothing.',
    'main.mthds',
    `domain = "billing"

[pipe.amount_due]
type = "PipeSequence"
description = "Takes the amount due of an invoice"
inputs = { invoice = "Invoice" }
output = "Number"
steps = [{ from = "invoice.total", result = "amount", nb_output = 2 }]
`,
    [[', nb_output = 2', '']],
    [INVOICE_CONCEPT],
  ),
  'method.optional_marker_invalid': example(
    'An output marked `!`; the `!` marker is for inputs only.',
    'main.mthds',
    notes(SUMMARIZE.replace('output = "Text"', 'output = "Text!"')),
    [['"Text!"', '"Text"']],
  ),
  'method.optional_unhandled': example(
    'A prompt reads `$hint`, an input that may be absent, without testing it; guard it.',
    'main.mthds',
    notes(SUMMARIZE.replace('inputs = { text = "Text" }', 'inputs = { text = "Text", hint = "Text?" }').replace('Summarize $text', 'Summarize $text. Keep in mind: $hint')),
    [[' Keep in mind: $hint', '{% if hint %} Keep in mind: {{ hint }}{% endif %}']],
  ),
  'method.template_invalid': example(
    'A prompt whose `{{ text` is never closed; close it with `}}`.',
    'main.mthds',
    notes(SUMMARIZE.replace('Summarize $text', 'Summarize {{ text ')),
    [['{{ text ', '{{ text }}']],
  ),
  'method.template_private_name': example(
    'A prompt reads `_content`, a name reserved to the runtime; read the input itself.',
    'main.mthds',
    notes(SUMMARIZE.replace('Summarize $text', 'Summarize {{ text._content }}')),
    [['{{ text._content }}', '{{ text }}']],
  ),
  'method.model_setting_invalid': example(
    'A temperature above 1; temperatures run from 0 to 1.',
    'main.mthds',
    notes(`${SUMMARIZE}model = { model = "gpt-4o", temperature = 1.5 }\n`),
    [['temperature = 1.5', 'temperature = 0.5']],
  ),
  'method.package_invalid': example(
    'A manifest whose `[package]` has no `address`; a package is known by its address.',
    'METHODS.toml',
    manifest('review', 'Reviews texts').replace('address = "github.com/acme/review"\n', ''),
    [['name = "review"\n', 'name = "review"\naddress = "github.com/acme/review"\n']],
    [{ path: 'review.mthds', text: notes(SUMMARIZE) }],
  ),
  'method.hint_invalid': example(
    'An intent hint the language does not know; the intents are prose, label, rating and quantity.',
    'main.mthds',
    notes('[concept.Review]\ndescription = "A review of a product"\nhints = { intent = "essay" }\n'),
    [['"essay"', '"prose"']],
  ),
  'method.input_presence_vacuous': example(
    'A prompt tests whether `text` is there, but a plain input always is; drop the test (or mark the input `?`).',
    'main.mthds',
    notes(SUMMARIZE.replace('Summarize $text', '{% if text %}Summarize $text{% endif %}')),
    [['{% if text %}Summarize $text{% endif %}', 'Summarize $text']],
  ),
  'method.optional_force_redundant': example(
    'An input marked `!` that every caller already gives; the plain form says the same.',
    'main.mthds',
    notes(`[pipe.digest]
type = "PipeSequence"
description = "Digests a text"
inputs = { text = "Text" }
output = "Text"
steps = [{ pipe = "summarize", result = "summary" }]

${SUMMARIZE.replace('{ text = "Text" }', '{ text = "Text!" }')}`),
    [['"Text!"', '"Text"']],
  ),
}));

/**
 * The method codes no file shows, each with the reason in one line (docs/errors.md prints it in
 * place of an example). test/unit/registry/examples.test.ts holds every method code to one of the
 * two.
 */
const NO_EXAMPLE: { readonly [C in RegistryCode]?: string } = {
  'method.invalid': 'It wraps the faults of a refused method: a file raises the codes listed in its errors, never this one alone.',
  'method.not_found': 'It says that a method reference or a path leads to no method at all: there is no file to show.',
  'method.ambiguous': 'It comes from a method reference that matches several methods a runner holds, not from the content of a file.',
  'method.fetch_failed': 'It comes from a method reference naming a URL that does not answer, in a request to a runner: no file content raises it.',
  'method.mock_unsatisfiable': "The dry run's guard behind the concept rules: a concept whose mock breaks its own constraints is refused first as `method.concept_invalid`.",
  'method.changed_concurrently': 'It reports a file changed on disk while a fix or the formatter was writing it: a race between two writers, not a content.',
};

/** Why a method code has no example, when it is one of those no file shows. */
export function noExampleReason(code: string): string | undefined {
  return Object.hasOwn(NO_EXAMPLE, code) ? NO_EXAMPLE[code as RegistryCode] : undefined;
}

/** The example of a code, when the registry has one. */
export function exampleOf(code: string): CodeExample | undefined {
  const examples = EXAMPLES();
  return Object.hasOwn(examples, code) ? examples[code as RegistryCode] : undefined;
}

/** The codes that have an example, in no particular order. */
export function exampleCodes(): RegistryCode[] {
  return Object.keys(EXAMPLES()) as RegistryCode[];
}
