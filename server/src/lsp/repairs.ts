// Repairs the editor offers beyond a finding's own fix and alternatives, written from the finding's
// code and params against the checked tree: creating a missing concept or pipe (a stub), declaring
// an input a template reads, removing an input nothing reads. Plain model edits (offsets); the code
// action feature turns them into workspace edits.

import type { Finding, Fix, TextEdit } from '../check/finding.js';
import { wholeLines } from '../check/edits.js';
import type { Bundle, PipeDecl } from '../language/model.js';
import { isConceptCode, isPipeCode, parseConceptRef, parsePipeRef } from '../language/references.js';
import type { MethodTree } from '../language/tree.js';
import { getEntry } from '../syntax/lookup.js';
import type { LEntry, LTable } from '../syntax/types.js';

/** The concept a declared input gets when nothing better is known: the user refines it. */
const DEFAULT_INPUT_CONCEPT = 'Text';

export function repairsFor(finding: Finding, tree: MethodTree): Fix[] {
  switch (finding.code) {
    case 'method.concept_unresolved':
      return optional(createConcept(finding, tree));
    case 'method.pipe_unresolved':
      return optional(createPipe(finding, tree));
    case 'method.input_undeclared':
      return declareInputs(finding, tree);
    case 'method.input_unused':
      return removeInputs(finding, tree);
    default:
      return [];
  }
}

function optional(fix: Fix | undefined): Fix[] {
  return fix ? [fix] : [];
}

function stringParam(finding: Finding, name: string): string | undefined {
  const v = finding.params[name];
  return typeof v === 'string' ? v : undefined;
}

function stringsParam(finding: Finding, name: string): string[] {
  const v = finding.params[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The bundle a new declaration goes to: the referencing bundle, or the bundle of the named domain. */
function targetBundle(tree: MethodTree, from: Bundle | undefined, domain: string | undefined): Bundle | undefined {
  if (domain === undefined) return from;
  if (from?.domain?.value === domain) return from;
  return tree.bundles.find((b) => b.domain?.value === domain);
}

/** Appends a block of lines at the end of a file, after one blank line. */
function appendBlock(bundle: Bundle, lines: string[]): TextEdit {
  const text = bundle.doc.text;
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const lead = text === '' ? '' : text.endsWith(`${nl}${nl}`) ? '' : text.endsWith(nl) ? nl : `${nl}${nl}`;
  return { file: bundle.file, range: { start: text.length, end: text.length }, newText: `${lead}${lines.join(nl)}${nl}` };
}

function where(target: Bundle, from: Bundle | undefined): string {
  if (target === from) return '';
  const base = target.file.split(/[\\/]/).pop() ?? target.file;
  return ` in ${base}`;
}

function bundleOf(tree: MethodTree, file: string): Bundle | undefined {
  return tree.bundles.find((b) => b.file === file);
}

function createConcept(finding: Finding, tree: MethodTree): Fix | undefined {
  const written = stringParam(finding, 'concept');
  if (written === undefined) return undefined;
  const parsed = parseConceptRef(written);
  if (!parsed.ok || parsed.value.prefix !== undefined || !isConceptCode(parsed.value.code)) return undefined;
  const { code, domain } = parsed.value;
  if (domain === 'native') return undefined;
  const from = bundleOf(tree, finding.file);
  const target = targetBundle(tree, from, domain);
  if (!target) return undefined;
  if (target.concepts.some((c) => c.code === code)) return undefined;
  const edit = appendBlock(target, [`[concept.${code}]`, `description = "TODO: describe ${code}"`]);
  return { title: `Create concept \`${code}\`${where(target, from)}`, edits: [edit], safe: false };
}

function createPipe(finding: Finding, tree: MethodTree): Fix | undefined {
  const written = stringParam(finding, 'missing');
  if (written === undefined) return undefined;
  const parsed = parsePipeRef(written);
  if (!parsed.ok || parsed.value.prefix !== undefined || !isPipeCode(parsed.value.code)) return undefined;
  const { code, domain } = parsed.value;
  // A manifest's main_pipe names a pipe of some bundle: which one is not ours to guess.
  const from = bundleOf(tree, finding.file);
  if (!from) return undefined;
  const target = targetBundle(tree, from, domain);
  if (!target || target.pipes.some((p) => p.code === code)) return undefined;
  // A signature: valid MTHDS that declares the pipe before it is implemented.
  const edit = appendBlock(target, [
    `[pipe.${code}]`,
    `description = "TODO: describe ${code}"`,
    'inputs = {}',
    `output = "${DEFAULT_INPUT_CONCEPT}"`,
  ]);
  return { title: `Create pipe \`${code}\`${where(target, from)}`, edits: [edit], safe: false };
}

function findPipe(finding: Finding, tree: MethodTree): { bundle: Bundle; pipe: PipeDecl } | undefined {
  const code = stringParam(finding, 'pipe');
  const bundle = bundleOf(tree, finding.file);
  const pipe = bundle?.pipes.find((p) => p.code === code);
  return bundle && pipe ? { bundle, pipe } : undefined;
}

/** A variable path (`invoice.total`) names the input of its first segment. */
function inputName(variable: string): string | undefined {
  const name = variable.replace(/^[$@]/, '').split('.')[0] ?? '';
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : undefined;
}

function inlineEntryText(text: string, entry: LEntry): string {
  return text.slice(entry.range.start, entry.range.end);
}

/** Rewrites an inline `inputs = { ... }` table with the given entries (kept as written). */
function rewriteInline(file: string, table: LTable, entries: string[]): TextEdit {
  return { file, range: table.range, newText: entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }` };
}

function declareInputsEdit(bundle: Bundle, pipe: PipeDecl, names: string[]): TextEdit | undefined {
  const text = bundle.doc.text;
  const lines = names.map((n) => `${n} = "${DEFAULT_INPUT_CONCEPT}"`);
  const inputs = getEntry(pipe.table, 'inputs');
  if (!inputs) {
    if (pipe.table.origin !== 'header') return undefined;
    // Where the language reference puts it: after the description (else after the type).
    const anchor = getEntry(pipe.table, 'description') ?? getEntry(pipe.table, 'type');
    return insertLineAfter(bundle.file, text, anchor ? anchor.range.end : lastEntryEnd(pipe.table), `inputs = { ${lines.join(', ')} }`);
  }
  const table = inputs.value;
  if (table.type !== 'table') return undefined;
  if (table.origin === 'inline') return rewriteInline(bundle.file, table, [...table.entries.map((e) => inlineEntryText(text, e)), ...lines]);
  if (table.origin === 'header') return insertLineAfter(bundle.file, text, lastEntryEnd(table), lines.join(newlineOf(text)));
  // Dotted keys (`inputs.text = "Text"`): add more of them after the last.
  return insertLineAfter(bundle.file, text, lastEntryEnd(table), names.map((n) => `inputs.${n} = "${DEFAULT_INPUT_CONCEPT}"`).join(newlineOf(text)));
}

function newlineOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function lastEntryEnd(table: LTable): number {
  const last = table.entries[table.entries.length - 1];
  return last ? last.range.end : table.header ? table.header.range.end : table.range.end;
}

/** Inserts `line` on a line of its own after the line holding offset `at`. */
function insertLineAfter(file: string, text: string, at: number, line: string): TextEdit {
  const nl = newlineOf(text);
  let end = at;
  while (end < text.length && text[end] !== '\n') end += 1;
  if (end >= text.length) return { file, range: { start: text.length, end: text.length }, newText: `${nl}${line}${nl}` };
  return { file, range: { start: end + 1, end: end + 1 }, newText: `${line}${nl}` };
}

function declareInputs(finding: Finding, tree: MethodTree): Fix[] {
  const found = findPipe(finding, tree);
  if (!found) return [];
  const declared = new Set(found.pipe.inputs.map((i) => i.name));
  const names = [...new Set(stringsParam(finding, 'variables').map(inputName).filter((n): n is string => n !== undefined && !declared.has(n)))];
  const fixes: Fix[] = [];
  // The finding's own fix declares a lone variable already.
  if (names.length === 1 && finding.fix) return fixes;
  for (const name of names) {
    const edit = declareInputsEdit(found.bundle, found.pipe, [name]);
    if (edit) fixes.push({ title: `Declare input \`${name}\``, edits: [edit], safe: false });
  }
  if (names.length > 1) {
    const edit = declareInputsEdit(found.bundle, found.pipe, names);
    if (edit) fixes.push({ title: `Declare inputs ${names.map((n) => `\`${n}\``).join(', ')}`, edits: [edit], safe: false });
  }
  return fixes;
}

function removeInputsEdit(bundle: Bundle, pipe: PipeDecl, names: ReadonlySet<string>): TextEdit[] {
  const text = bundle.doc.text;
  const inputs = getEntry(pipe.table, 'inputs');
  const table = inputs?.value;
  if (!inputs || table?.type !== 'table') return [];
  const removed = table.entries.filter((e) => names.has(e.key));
  if (removed.length === 0) return [];
  if (table.origin === 'inline') return [rewriteInline(bundle.file, table, table.entries.filter((e) => !names.has(e.key)).map((e) => inlineEntryText(text, e)))];
  return removed.map((e) => ({ file: bundle.file, range: wholeLines(text, e.range), newText: '' }));
}

function removeInputs(finding: Finding, tree: MethodTree): Fix[] {
  const found = findPipe(finding, tree);
  if (!found) return [];
  const names = [...new Set(stringsParam(finding, 'variables'))].filter((n) => found.pipe.inputs.some((i) => i.name === n));
  const fixes: Fix[] = [];
  // The finding's own fix removes them all; one per input lets a user keep some.
  if (names.length === 1 && finding.fix) return fixes;
  for (const name of names) {
    const edits = removeInputsEdit(found.bundle, found.pipe, new Set([name]));
    if (edits.length > 0) fixes.push({ title: `Remove unused input \`${name}\``, edits, safe: false });
  }
  if (names.length > 1 && !finding.fix) {
    const edits = removeInputsEdit(found.bundle, found.pipe, new Set(names));
    if (edits.length > 0) fixes.push({ title: `Remove unused inputs ${names.map((n) => `\`${n}\``).join(', ')}`, edits, safe: false });
  }
  return fixes;
}
