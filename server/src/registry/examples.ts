// Examples of the method codes: for each code our language reference illustrates, a small snippet
// that raises it and the same snippet fixed. Data of the registry, kept apart from codes.ts and
// read through `exampleOf`; `mthds mcp`'s explain tool and docs/errors.md show them.
//
// Each snippet is a whole file (a bundle with its `domain` line, or a METHODS.toml), so it can be
// pasted and checked as it stands. `context` holds the other files the snippet needs, unchanged by
// the fix: files of the same folder, or of a sibling package (`../scoring/…`) a manifest names by
// path. test/unit/registry/examples.test.ts writes each example to disk and checks it the way
// `mthds check` does: the fault raises exactly its code, the fixed snippet raises nothing.

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
}

// Files several examples assume.
const INVOICE_CONCEPT: ExampleFile = {
  path: 'invoice.mthds',
  text: `domain = "billing"

[concept.Invoice]
description = "An invoice sent to a client"

[concept.Invoice.structure]
number = { type = "text", description = "The invoice number" }
total = { type = "number", description = "The amount due" }
`,
};

const SCORING_PACKAGE: readonly ExampleFile[] = [
  {
    path: '../scoring/METHODS.toml',
    text: `[package]
name = "scoring"
address = "github.com/acme/scoring"
version = "1.0.0"
description = "Scores texts"

[exports.scoring]
pipes = ["compute"]
`,
  },
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

function manifest(name: string, extra: string): string {
  return `[package]
name = "${name}"
address = "github.com/acme/${name}"
version = "1.0.0"
description = "Reviews texts"
${extra}`;
}

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

const EXAMPLES: { readonly [C in RegistryCode]?: CodeExample } = {
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
    "A pipe implements the signature of signatures.mthds with another input concept; take the signature's inputs.",
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
    [{ path: 'METHODS.toml', text: manifest('review', SCORING_DEPENDENCY) }, ...SCORING_PACKAGE],
  ),
  'method.pipe_not_exported': example(
    'A step calls `internal_helper` of a dependency whose [exports] lists only `compute`; call an exported pipe (or have the dependency export it).',
    'main.mthds',
    caller('scoring->scoring.internal_helper'),
    [
      ['scoring.internal_helper', 'scoring.compute'],
      ['output = "Text"', 'output = "scoring->scoring.Score"'],
    ],
    [{ path: 'METHODS.toml', text: manifest('review', SCORING_DEPENDENCY) }, ...SCORING_PACKAGE],
  ),
};

/** The example of a code, when the registry has one. */
export function exampleOf(code: string): CodeExample | undefined {
  return Object.hasOwn(EXAMPLES, code) ? EXAMPLES[code as RegistryCode] : undefined;
}

/** The codes that have an example, in no particular order. */
export function exampleCodes(): RegistryCode[] {
  return Object.keys(EXAMPLES) as RegistryCode[];
}
