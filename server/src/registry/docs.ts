// Generator of docs/errors.md, the reference page of every code, and links into it.
//
// docs/errors.md is this generator's output, checked by test/unit/registry/docs.test.ts; refresh it
// with `UPDATE_DOCS=1 npx vitest run test/unit/registry/docs.test.ts`. The files raising each code
// are read from the sources by that test (test/helpers/codeSources.ts) and passed in: the sources
// stay the one truth, and the page says where to look.

import { EXTENSION_PREFIX } from './codes.js';
import { exampleOf, noExampleReason, type CodeExample } from './examples.js';
import { allEntries, CORE_REGISTRY_VERSION, PROTOCOL_VERSION } from './lookup.js';
import { DEFAULT_ERROR_BASE_URL, DEFAULT_EXTENSION_BASE_URL, problemTypeUri } from './problem.js';
import type { AdviceStep, ParamSpec, ParamType, RegistryEntry } from './types.js';

export const DEFAULT_DOCS_BASE =
  'https://github.com/mthds-language-server/mthds-language-server/blob/main/docs/errors.md';

/** The anchor of a code in docs/errors.md: the code with dots as dashes. */
export function codeAnchor(code: string): string {
  return code.replaceAll('.', '-');
}

/** A link to the section of a code in the error reference. */
export function codeDocumentationUrl(code: string, docsBase: string = DEFAULT_DOCS_BASE): string {
  return `${docsBase}#${codeAnchor(code)}`;
}

const FAMILY_TITLES: ReadonlyArray<[string, string]> = [
  ['request', 'the HTTP request itself'],
  ['auth', 'credentials and permissions'],
  ['account', "the account's limits"],
  ['input', "a run's inputs"],
  ['method', 'the method as written, including the validation vocabulary'],
  ['pipe', 'a pipe failing at run time'],
  ['model', 'the model a step names'],
  ['provider', 'the inference provider'],
  ['run', "a run's lifecycle and reads"],
  ['security', 'refusals for safety'],
  ['runtime', 'the runtime itself'],
  ['client', 'what a client detects itself and never receives as a body'],
];

/** A markdown code span that survives backticks in the text. */
function code(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Plain prose as markdown: escapes what markdown would read as markup (emphasis, links, HTML,
 * code spans). Underscores inside words (main_pipe) stay as they are.
 */
function prose(text: string): string {
  return text
    .replace(/[\\`*<>[\]]/g, (c) => `\\${c}`)
    .replace(/(^|[^A-Za-z0-9])_|_(?=[^A-Za-z0-9]|$)/g, (m) => m.replace('_', '\\_'));
}

/** Prose in a markdown table cell. */
function cell(text: string): string {
  return prose(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function typeText(type: ParamType): string {
  switch (type.kind) {
    case 'list':
      return `list of ${typeText(type.of)}`;
    case 'enum':
      return `enum: ${type.values.map((v) => code(v)).join(', ')}`;
    default:
      return type.kind;
  }
}

function statusText(entry: RegistryEntry): string {
  if (entry.status !== undefined) return String(entry.status);
  return entry.raisedAs === 'warning' ? 'none (warning)' : 'none (client-side; never sent)';
}

function paramsTable(params: readonly ParamSpec[]): string[] {
  if (params.length === 0) return ['**Parameters:** none', ''];
  const lines = ['**Parameters:**', '', '| Name | Type | Required | Description |', '|---|---|---|---|'];
  for (const p of params) {
    const notes = p.echo ? ' Echoed although caller text.' : '';
    lines.push(
      `| ${code(p.name)} | ${cell(typeText(p.type))} | ${p.optional ? 'no' : 'yes'} | ${cell(p.description + notes)} |`,
    );
  }
  lines.push('');
  for (const p of params) {
    if (!p.known) continue;
    lines.push(`**Values of ${code(p.name)}** raised by this implementation:`, '');
    for (const [value, meaning] of Object.entries(p.known)) lines.push(`- ${code(value)}: ${prose(meaning)}`);
    lines.push('');
  }
  return lines;
}

function adviceLines(label: string, steps: readonly AdviceStep[]): string[] {
  if (steps.length === 0) return [];
  return [`${label}`, '', ...steps.map((s) => `- ${code(s.kind)}: ${prose(s.text)}`), ''];
}

/** Prose whose backtick spans stay code spans (the summaries of examples are written so). */
function proseWithCode(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) => (i % 2 === 1 ? part : prose(part)))
    .join('');
}

/** A fenced block that survives backtick runs in the text: TOML, or JavaScript for a function module. */
function fileBlock(text: string, file = ''): string[] {
  const runs = text.match(/`{3,}/g) ?? [];
  const fence = '`'.repeat(Math.max(2, ...runs.map((r) => r.length)) + 1);
  return [`${fence}${/\.m?js$/.test(file) ? 'js' : 'toml'}`, text.trimEnd(), fence];
}

/** How an example is shown when a plain folder check does not show it. */
function shownBy(example: CodeExample): string[] {
  if (example.run) {
    return [`Shown by a run, not by ${code('mthds check')} (which passes the fault): ${code(example.run.pipe)} run on the built-in runner with the inputs ${code(JSON.stringify(example.run.inputs))}, as the runner's ${code('/execute')}, the run tool of ${code('mthds mcp')} and the editor's Run lens do.`, ''];
  }
  if (example.functions) return [`Shown by ${code(`mthds check ${example.functions.map((f) => `--functions ${f}`).join(' ')}`)}.`, ''];
  return [];
}

/**
 * An example as markdown: the fault, the same file fixed, and the files it needs. Also the text of
 * `mthds mcp`'s explain tool, so agents read what the page shows.
 */
export function exampleMarkdown(example: CodeExample): string[] {
  const lines = [`**Example:** ${proseWithCode(example.summary)}`, '', ...shownBy(example), `${code(example.file)}, raising the code:`, '', ...fileBlock(example.fault, example.file), '', 'Fixed:', '', ...fileBlock(example.fixed, example.file), ''];
  const context = example.context ?? [];
  if (context.length > 0) lines.push('The files it needs beside it, unchanged by the fix:', '');
  for (const file of context) {
    if (file.text === '') lines.push(`${code(file.path)} (any content)`, '');
    else lines.push(`${code(file.path)}:`, '', ...fileBlock(file.text, file.path), '');
  }
  return lines;
}

/** Code to the repository paths of the source files that raise it. */
export type RaisingFiles = ReadonlyMap<string, readonly string[]>;

function raisedInText(files: readonly string[] | undefined): string {
  return files && files.length > 0 ? files.map((f) => code(f)).join(', ') : 'no source file names it (built from parts)';
}

function entrySection(entry: RegistryEntry, raisedIn: RaisingFiles | undefined): string[] {
  const example = exampleOf(entry.code);
  const lines = [
    `<a id="${codeAnchor(entry.code)}"></a>`,
    '',
    `### ${code(entry.code)}: ${prose(entry.title)}`,
    '',
    prose(entry.explanation),
    '',
    '| | |',
    '|---|---|',
    `| Status | ${statusText(entry)} |`,
    `| Retry | ${entry.retry ? 'yes' : 'no'} |`,
    `| Domain | ${entry.domain} |`,
    `| Raised as | ${entry.raisedAs} |`,
    `| Type | ${code(problemTypeUri(entry.code))} |`,
    `| Origin | ${entry.extension ? `extension (${code(EXTENSION_PREFIX)})` : `core registry ${CORE_REGISTRY_VERSION}`} |`,
    ...(raisedIn ? [`| Raised in | ${raisedInText(raisedIn.get(entry.code))} |`] : []),
    '',
    ...paramsTable(entry.params),
    `**Detail template:** ${code(entry.detail)}`,
    '',
    ...adviceLines('**Advice for the acting client:**', entry.advice.client),
    ...adviceLines('**Advice for others:**', entry.advice.others),
    ...(example ? exampleMarkdown(example) : []),
  ];
  const reason = example ? undefined : noExampleReason(entry.code);
  if (reason !== undefined) lines.push(`**No file example:** ${proseWithCode(reason)}`, '');
  return lines;
}

/** The whole reference page, deterministic; with `raisedIn`, each code says which files raise it. */
export function renderErrorsMarkdown(raisedIn?: RaisingFiles): string {
  const entries = allEntries();
  const lines: string[] = [
    '# Error reference',
    '',
    '<!-- Generated by server/src/registry/docs.ts. Do not edit by hand: run',
    '     UPDATE_DOCS=1 npx vitest run test/unit/registry/docs.test.ts -->',
    '',
    `Every error code the MTHDS language server, the ${code('mthds')} command and the built-in runner raise.`,
    `Core codes follow the error registry ${CORE_REGISTRY_VERSION} of the runner protocol ${PROTOCOL_VERSION};`,
    `codes under the prefix ${code(EXTENSION_PREFIX)} are extensions of this implementation.`,
    '',
    `Errors are RFC 7807 problem documents served as ${code('application/problem+json')}. The ${code('type')} of a`,
    `problem is a base address followed by the code: ${code(DEFAULT_ERROR_BASE_URL)} for core codes,`,
    `${code(DEFAULT_EXTENSION_BASE_URL)} for extension codes. The parameters of a code travel in ${code('params')};`,
    `a problem with several faults carries one item per fault in ${code('errors')}, each with its own code and`,
    `${code('location')}. Retryable refusals may carry ${code('retry_after')} (seconds). The problem and each item`,
    `also carry ${code('error_domain')} (the code's domain), ${code('retryable')} (its retry) and ${code('user_action')}`,
    `(${code('{kind, detail}')}: the first step of the advice for the client) and ${code('request_id')} on the problem.`,
    '',
    `- **Retry** yes: repeating the request later, unchanged, can succeed; no: the request or method must change first.`,
    `- **Domain**: who has to act: ${code('input')} (the caller's input), ${code('method')} (the method as written),`,
    `  ${code('account')} (the account), ${code('runtime')} (the runner or its environment).`,
    `- **Detail template**: ${code('{name}')} is replaced by a parameter; ${code('[ … ]')} is dropped when a parameter in it is`,
    `  absent or an empty list; lists read ${code('a, b, c')} and an empty list reads ${code('none')}.`,
    `- Warnings never make a method invalid and have no HTTP status. Client-side codes are detected by a`,
    `  client itself and never travel as a body.`,
    `- **Example**: most ${code('method')} codes end with a file that raises the code and the same file fixed.`,
    ...(raisedIn ? [`- **Raised in**: the source files that raise the code, read from the sources when this page is generated.`] : []),
    '',
    '## Contents',
    '',
  ];

  for (const [family, about] of FAMILY_TITLES) {
    const ofFamily = entries.filter((e) => e.family === family);
    if (ofFamily.length === 0) continue;
    lines.push(`- [${family}](#family-${family}): ${about} (${ofFamily.length})`);
  }
  lines.push('');

  for (const [family, about] of FAMILY_TITLES) {
    const ofFamily = entries.filter((e) => e.family === family);
    if (ofFamily.length === 0) continue;
    lines.push(`<a id="family-${family}"></a>`, '', `## ${family}: ${about}`, '');
    lines.push('| Code | Title | Status | Retry | Domain |', '|---|---|---|---|---|');
    for (const e of ofFamily) {
      lines.push(
        `| [${code(e.code)}](#${codeAnchor(e.code)}) | ${cell(e.title)} | ${statusText(e)} | ${e.retry ? 'yes' : 'no'} | ${e.domain} |`,
      );
    }
    lines.push('');
    for (const e of ofFamily) lines.push(...entrySection(e, raisedIn));
  }

  const known = new Set(FAMILY_TITLES.map(([f]) => f));
  const stray = entries.filter((e) => !known.has(e.family));
  if (stray.length > 0) throw new Error(`no documentation family for ${stray.map((e) => e.code).join(', ')}`);

  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
