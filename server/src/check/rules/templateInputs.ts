// What templates read, against what pipes declare: method.input_undeclared, method.input_unused,
// method.template_invalid (parse faults), method.template_private_name, method.optional_unhandled
// (unguarded optional reads) and the warning method.input_presence_vacuous (language reference
// §4.5, §6.3, §6.6, §6.7).

import { stringSliceRange } from '../../language/buildBundle.js';
import type { Bundle, InputDecl, PipeDecl } from '../../language/model.js';
import { RUNTIME_TEMPLATE_NAMES, toPascalCase } from '../../language/spec/lexical.js';
import { analyzeTemplate, type VariableRead } from '../../language/templates/analyze.js';
import { findSigilFaults } from '../../language/templates/shorthand.js';
import { templateSites, type TemplateSite } from '../../language/templates/sites.js';
import { resolveConcept, type MethodTree } from '../../language/tree.js';
import { isSimpleConcept, lookupConcept, nativeConcept, nativeRoot } from '../../language/concepts.js';
import { describedFields, walkFields } from '../../language/fieldPaths.js';
import { getEntry } from '../../syntax/lookup.js';
import type { LString } from '../../syntax/types.js';
import type { CheckContext } from '../context.js';
import { makeFinding, type Finding, type Fix } from '../finding.js';
import { declareInputEdit, removeInputEdit } from '../modelEdits.js';

/** Metadata fields a template may read with a leading underscore. */
const METADATA_FIELDS = new Set(['_stuff_name', '_content_class', '_concept_code', '_stuff_code']);

interface Read extends VariableRead {
  node: LString;
  field: string;
}

/** A read with the site it was found in (the analysis's own object, not copied). */
interface SiteRead {
  read: VariableRead;
  node: LString;
  field: string;
  /** A `{ from = "path" }` of a construct, or a template of a construct field. */
  construct: boolean;
}

const INPUT_NAME = /^[a-z][a-z0-9_]*$/;
const CONSTRUCT_FIELD = 'construct field';

/** How many pipes, or inputs of one pipe, the rule goes through between two pauses of its steps. */
const ITEMS_PER_STEP = 2000;

/**
 * The rule, in steps: it pauses every few thousand pipes or inputs, so that a pipe declaring
 * 30,000 inputs (30,000 findings, 40-70 ms) is not one step of its bundle's check.
 */
export function* checkTemplateInputsSteps(ctx: CheckContext, bundle: Bundle): Generator<void, void> {
  let n = 0;
  for (const pipe of bundle.pipes) {
    if (!pipe.spec || pipe.spec.inputRule === 'controller' || pipe.spec.inputRule === 'declared-needs') continue;
    yield* checkPipe(ctx, bundle, pipe);
    if (++n % ITEMS_PER_STEP === 0) yield;
  }
}

/**
 * The declared input of a name, as a Map built from the list in order (the last declaration of a
 * name wins); made a Map past a few inputs, since a pipe's reads each look one up.
 */
function inputLookup(inputs: readonly InputDecl[]): (name: string) => InputDecl | undefined {
  if (inputs.length <= 8) {
    return (name) => {
      for (let i = inputs.length - 1; i >= 0; i--) if (inputs[i]!.name === name) return inputs[i];
      return undefined;
    };
  }
  const byName = new Map<string, InputDecl>();
  for (const input of inputs) byName.set(input.name, input);
  return (name) => byName.get(name);
}

function* checkPipe(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl): Generator<void, void> {
  const file = bundle.file;
  const found = templateSites(pipe);
  const sites = found.sites;
  const constructReads = found.constructReads;
  const inputs = pipe.inputs;
  const declaredInput = inputLookup(inputs);
  let reads: SiteRead[] = [];
  // `@x` where the runtime refuses it (inline, padded): not a read at run time, but the author meant
  // `x`. It is method.template_invalid when `x` is an input (templates.ts), method.input_undeclared
  // like `$x` when not, and it keeps `x` from being reported unused (removing it would leave the
  // template naming an undeclared variable).
  let misplaced: Array<{ root: string; node: LString; start: number; end: number }> | undefined;
  let complete = true;
  // A PipeLLM without a system prompt of its own takes the bundle's.
  const bundleSystem = pipe.spec?.name === 'PipeLLM' && bundle.systemPrompt && !getEntry(pipe.table, 'system_prompt') ? bundle.systemPrompt : undefined;
  const siteCount = sites.length + (bundleSystem ? 1 : 0);
  for (let s = 0; s < siteCount; s++) {
    const site: TemplateSite = s < sites.length ? sites[s]! : { field: 'system_prompt', node: bundleSystem!, shorthands: true, expression: false };
    if (site.shorthands && site.node.value.includes('@')) {
      for (const f of findSigilFaults(site.node.value, ANY_NAME)) (misplaced ??= []).push({ root: f.root, node: site.node, start: f.start, end: f.end });
    }
    const analysis = analyzeTemplate(site.node.value, site);
    if (analysis.tooLong) {
      // Its reads unknown: no input of the pipe is told unused, none of its reads undeclared.
      complete = false;
      ctx.out.push(templateTooLongFinding(pipe, site.field, site.node, analysis.tooLong, file));
      continue;
    }
    if (analysis.fault) {
      complete = false;
      const range = stringSliceRange(site.node, analysis.fault.start, analysis.fault.end);
      ctx.out.push(makeFinding('method.template_invalid', { pipe: pipe.code, template: site.field, finding: analysis.fault.message }, file, range));
      continue;
    }
    const construct = site.field.startsWith(CONSTRUCT_FIELD);
    for (const r of analysis.reads) reads = append(reads, { read: r, node: site.node, field: site.field, construct });
    for (const check of analysis.presenceChecks) {
      const input = declaredInput(check.root);
      if (input?.ref?.io && input.ref.io.marker !== '?' && input.ref.io.multiplicity.kind === 'single') {
        const range = stringSliceRange(site.node, check.start, check.end);
        ctx.out.push(makeFinding('method.input_presence_vacuous', { pipe: pipe.code, input: check.root }, file, range));
      }
    }
  }
  for (const c of constructReads) {
    const path = c.node.value.split('.');
    reads = append(reads, { read: { path, start: 0, end: c.node.value.length, guarded: false }, node: c.node, field: c.field, construct: c.field.startsWith(CONSTRUCT_FIELD) });
    if (path.some((seg) => seg.startsWith('_'))) {
      ctx.out.push(makeFinding('method.template_private_name', { pipe: pipe.code, variables: [c.node.value] }, file, c.node.range));
    }
  }

  // Private names: a dotted read of an underscore-led attribute other than the metadata fields.
  for (const { read: r, node, construct } of reads) {
    if (construct) continue;
    const path = r.path;
    for (let i = 1; i < path.length; i++) {
      const seg = path[i]!;
      if (seg.startsWith('_') && !METADATA_FIELDS.has(seg)) {
        ctx.out.push(makeFinding('method.template_private_name', { pipe: pipe.code, variables: [path.join('.')] }, file, stringSliceRange(node, r.start, r.end)));
        break;
      }
    }
  }

  // Rule 1: every root read is a declared input.
  let extraContext: Set<string> | undefined;
  let reported: Set<string> | undefined;
  const undeclared = (root: string, node: LString, start: number, end: number): void => {
    if (declaredInput(root) || root.startsWith('_') || RUNTIME_TEMPLATE_NAMES.includes(root)) return;
    extraContext ??= composeExtraContext(pipe);
    reported ??= new Set();
    if (extraContext.has(root) || reported.has(root)) return;
    reported.add(root);
    const fix = declareInputFix(ctx.tree, bundle, pipe, root);
    ctx.out.push(makeFinding('method.input_undeclared', { pipe: pipe.code, variables: [root] }, file, stringSliceRange(node, start, end), fix ? { fix } : {}));
  };
  for (const { read: r, node } of reads) undeclared(r.path[0]!, node, r.start, r.end);
  for (const m of misplaced ?? []) undeclared(m.root, m.node, m.start, m.end);

  // Field reads walk the input's concept where the runtime does: construct `from` paths, and the
  // templates of a PipeDocGen. Elsewhere a missing field renders empty at run time (accepted).
  const docGen = pipe.spec?.name === 'PipeDocGen';
  for (const { read: r, node, field, construct } of reads) {
    if (construct || docGen) checkFieldRead(ctx, bundle, pipe, declaredInput(r.path[0]!), { ...r, node, field });
  }

  // Optional inputs must be read under a guard.
  for (const { read: r, node, construct } of reads) {
    if (r.guarded || construct) continue;
    const input = declaredInput(r.path[0]!);
    if (input?.ref?.io?.marker === '?') {
      ctx.out.push(makeFinding('method.optional_unhandled', { pipe: pipe.code, input: input.name, site: 'template' }, file, stringSliceRange(node, r.start, r.end)));
    }
  }

  // Rule 2: every declared input is read (only where the type reads inputs through templates).
  if (pipe.spec?.inputRule !== 'templates-both-ways' || !complete) return;
  const read = new Set<string>();
  for (const r of reads) read.add(r.read.path[0]!);
  for (const m of misplaced ?? []) read.add(m.root);
  let n = 0;
  for (const input of inputs) {
    if (++n % ITEMS_PER_STEP === 0) yield;
    if (read.has(input.name) || !INPUT_NAME.test(input.name)) continue;
    const fix: Fix = { title: `Remove unused input \`${input.name}\``, edits: [removeInputEdit(bundle, pipe, input)], safe: true };
    ctx.out.push(makeFinding('method.input_unused', { pipe: pipe.code, variables: [input.name] }, file, input.nameRange, { fix }));
  }
}

/** A template the editor does not analyse (analyze.ts `limitTemplateAnalysis`), said once, on its string. */
export function templateTooLongFinding(pipe: PipeDecl, template: string, node: LString, tooLong: { length: number; limit: number }, file: string): Finding {
  return makeFinding('mthdsls.client.template_too_long', { pipe: pipe.code, template, length: tooLong.length, limit: tooLong.limit }, file, node.range, { severity: 'warning' });
}

/** Every name: `findSigilFaults` then reports each misplaced sigil, input or not. */
const ANY_NAME = { has: (): boolean => true };

/** Appends to a list, starting with an array of one (most pipes read one variable). */
function append<T>(list: T[], item: T): T[] {
  if (list.length === 0) return [item];
  list.push(item);
  return list;
}

/**
 * method.field_path_unresolved for `$input.a.b` and `{ from = "input.a" }`: walked through the
 * input's concept. The walk stops (accepting the rest) at structureless concepts, dicts and JSON,
 * list-valued inputs (their reads are the wiring's business) and the runtime's metadata fields.
 */
function checkFieldRead(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, input: InputDecl | undefined, r: Read): void {
  const io = input?.ref?.io;
  if (!io || r.path.length < 2 || io.multiplicity.kind !== 'single') return;
  const segments = r.path.slice(1);
  if (segments.some((s) => s.startsWith('_'))) return;
  const root = lookupConcept(ctx.tree, bundle, io);
  if (!root) return;
  // A concept with neither structure nor refines holds `{ text }`, as Text does.
  const start = isSimpleConcept(root) ? nativeConcept('Text') : root;
  // Single-field natives (Text, Number, Time, JSON) are read through their one field in templates.
  const leaf = nativeRoot(ctx.tree, start);
  if (leaf?.leaf) {
    if (segments.length === 1 && leaf.fields.some((f) => f.name === segments[0])) return;
    if (leaf.code === 'JSON') return;
  }
  const walk = walkFields(ctx.tree, start, segments);
  if (walk.failedAt === undefined) return;
  const before = segments.slice(0, walk.failedAt);
  const at = before.length === 0 ? start : walkFields(ctx.tree, start, before).concept;
  if (at && (at.kind === 'native' ? at.native.structureless || at.native.code === 'JSON' : false)) return;
  if (walk.field?.type === 'dict') return;
  if (at && at.kind === 'declared' && !describedFields(ctx.tree, at) && !isSimpleConcept(at) && at.decl.refines) return;
  const atNative = at ? nativeRoot(ctx.tree, isSimpleConcept(at) ? nativeConcept('Text') : at) : undefined;
  const available = atNative?.leaf && walk.failedAt === 0 ? atNative.fields.map((f) => f.name) : at ? (describedFields(ctx.tree, isSimpleConcept(at) ? nativeConcept('Text') : at) ?? []).map((f) => f.name) : [];
  const range = r.field.startsWith('construct field') ? r.node.range : stringSliceRange(r.node, r.start, r.end);
  ctx.out.push(makeFinding('method.field_path_unresolved', { pipe: pipe.code, path: r.path.join('.'), segment: segments[walk.failedAt]!, available_fields: available }, bundle.file, range));
}

/** Names given by a PipeCompose template table's `extra_context`. */
function composeExtraContext(pipe: PipeDecl): Set<string> {
  const template = getEntry(pipe.table, 'template')?.value;
  const extra = template?.type === 'table' ? getEntry(template, 'extra_context')?.value : undefined;
  return new Set(extra?.type === 'table' ? extra.entries.map((e) => e.key) : []);
}

/** Adds `name = "Concept"` to the pipe's inputs, guessing the concept from the name. */
function declareInputFix(tree: MethodTree, bundle: Bundle, pipe: PipeDecl, name: string): Fix | undefined {
  const guess = toPascalCase(name);
  const concept = resolveConcept(tree, bundle, { code: guess }).kind !== 'unresolved' ? guess : 'Text';
  const edit = declareInputEdit(bundle, pipe, `${name} = "${concept}"`);
  return edit ? { title: `Declare input \`${name}\` as ${concept}`, edits: [edit], safe: false } : undefined;
}
