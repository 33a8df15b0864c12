// Repairs the editor offers beyond a finding's own fix and alternatives, written from the finding's
// code and params against the checked tree: creating a missing concept or pipe (a stub), declaring
// an input a template reads, removing an input nothing reads. Plain model edits (offsets); the code
// action feature turns them into workspace edits.

import type { Finding, Fix } from '../check/finding.js';
import { appendBlock, declareInputsEdit, removeInputsEdit } from '../check/modelEdits.js';
import type { Bundle, PipeDecl } from '../language/model.js';
import { isConceptCode, isPipeCode, parseConceptRef, parsePipeRef } from '../language/references.js';
import type { MethodTree } from '../language/tree.js';

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

function declareInputs(finding: Finding, tree: MethodTree): Fix[] {
  const found = findPipe(finding, tree);
  if (!found) return [];
  const declared = new Set(found.pipe.inputs.map((i) => i.name));
  const names = [...new Set(stringsParam(finding, 'variables').map(inputName).filter((n): n is string => n !== undefined && !declared.has(n)))];
  const fixes: Fix[] = [];
  // The finding's own fix declares a lone variable already.
  if (names.length === 1 && finding.fix) return fixes;
  for (const name of names) {
    const edit = declareInputsEdit(found.bundle, found.pipe, [name], DEFAULT_INPUT_CONCEPT);
    if (edit) fixes.push({ title: `Declare input \`${name}\``, edits: [edit], safe: false });
  }
  if (names.length > 1) {
    const edit = declareInputsEdit(found.bundle, found.pipe, names, DEFAULT_INPUT_CONCEPT);
    if (edit) fixes.push({ title: `Declare inputs ${names.map((n) => `\`${n}\``).join(', ')}`, edits: [edit], safe: false });
  }
  return fixes;
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
