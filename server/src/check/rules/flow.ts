// Data flow through controllers (language reference §7.3-7.7): the typed slots of a sequence,
// binding steps and their paths, batches, parallel branches and condition outcomes, against what
// each controller declares. Raises method.input_undeclared, method.input_unused,
// method.input_concept_mismatch, method.output_concept_mismatch, method.output_multiplicity_mismatch,
// method.wiring_invalid, method.field_path_unresolved, method.binding_step_invalid and
// method.optional_unhandled (sequence_step, condition, condition_output, parallel_branch).

import { contentFields, displayConcept, isCompatible, lookupConcept, nativeConcept, runtimeFields, type Concept, type ContentField } from '../../language/concepts.js';
import { stringSliceRange } from '../../language/buildBundle.js';
import type { Bundle, InputDecl, PipeDecl, PipeRefSite, StepDecl } from '../../language/model.js';
import type { Multiplicity } from '../../language/references.js';
import { PATH, SNAKE } from '../../language/spec/lexical.js';
import { analyzeTemplate } from '../../language/templates/analyze.js';
import { templateTooLongFinding } from './templateInputs.js';
import { resolvePipe } from '../../language/tree.js';
import { getEntry } from '../../syntax/lookup.js';
import type { Range } from '../../syntax/types.js';
import type { CheckContext } from '../context.js';
import { makeFinding, type Fix, type RelatedLocation } from '../finding.js';
import { removeInputEdit } from '../modelEdits.js';

/** What a name holds in working memory at some point of a flow. */
interface Slot {
  /** Undefined when the concept is unknown (unresolved, or not worth checking). */
  concept?: Concept;
  multiplicity: Multiplicity;
  maybeAbsent: boolean;
  /** Who stored it, for messages: `input`, or the step's result. */
  origin: string;
  /**
   * Where the value was stored and by what (a step, or the sequence's declaration), for the
   * related location of a mismatch. Absent for values whose store has no place of its own.
   */
  storedBy?: { label: string; file: string; range: Range };
  /** Stored by a pipe that does not resolve: nothing types it, so every read of it is assumed to fit. */
  untyped?: boolean;
  /**
   * Stored by a pipe step: an `Anything` or `Dynamic` concept is then known only when the run
   * produces it and satisfies any read, while the caller's declared input or a binding's value is
   * held to its concept (the multiplicity is checked whatever stored it).
   */
  fromPipe?: boolean;
  /** The outcomes of a condition store it under different specs: its concept is known only at run time. */
  disagreeing?: boolean;
}

const SINGLE: Multiplicity = { kind: 'single' };
const LIST: Multiplicity = { kind: 'list' };

/**
 * Whether a value of multiplicity `source` fits a slot declared `target` (§7.8): a single value
 * only a single slot, a fixed count a variable list or the same count, a variable list only a
 * variable list (`[1]` is single when parsed).
 */
function multiplicityFits(source: Multiplicity, target: Multiplicity): boolean {
  if (target.kind === 'single') return source.kind === 'single';
  if (target.kind === 'list') return source.kind !== 'single';
  return source.kind === 'fixed' && source.count === target.count;
}

function multiplicityName(m: Multiplicity): 'single' | 'list' | 'fixed' {
  return m.kind;
}

export function checkFlows(ctx: CheckContext, bundle: Bundle): void {
  for (const pipe of bundle.pipes) {
    if (pipe.steps.length > 0) checkStepShapes(ctx, bundle, pipe);
    switch (pipe.spec?.name) {
      case 'PipeSequence':
        checkSequence(ctx, bundle, pipe);
        break;
      case 'PipeParallel':
        checkParallel(ctx, bundle, pipe);
        break;
      case 'PipeCondition':
        checkCondition(ctx, bundle, pipe);
        break;
      case 'PipeBatch':
        checkBatch(ctx, bundle, pipe);
        break;
      default:
        break;
    }
  }
}

function outputOf(ctx: CheckContext, pipe: PipeDecl): Slot | undefined {
  const io = pipe.output?.io;
  if (!io) return undefined;
  const slot: Slot = { multiplicity: io.multiplicity, maybeAbsent: io.marker === '?', origin: pipe.code };
  const concept = lookupConcept(ctx.tree, pipe.bundle, io);
  if (concept) slot.concept = concept;
  return slot;
}

function inputSlot(ctx: CheckContext, bundle: Bundle, input: InputDecl): Slot {
  const io = input.ref?.io;
  const slot: Slot = { multiplicity: io?.multiplicity ?? SINGLE, maybeAbsent: io?.marker === '?', origin: 'input' };
  const concept = io ? lookupConcept(ctx.tree, bundle, io) : undefined;
  if (concept) slot.concept = concept;
  return slot;
}

function isOpen(c: Concept | undefined): boolean {
  return c === undefined || (c.kind === 'native' && (c.native.code === 'Anything' || c.native.code === 'Dynamic'));
}

// ---------------------------------------------------------------------------------------------
// Step shapes: binding steps and batching keys.

function checkStepShapes(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl): void {
  const inParallel = pipe.spec?.name === 'PipeParallel';
  for (const step of pipe.steps) {
    const hasFrom = getEntry(step.node, 'from') !== undefined;
    if (!hasFrom && getEntry(step.node, 'pipe') === undefined) {
      ctx.out.push(makeFinding('method.schema_violation', { field_path: stepPath(pipe, step, inParallel), finding: 'a step needs `pipe` (a pipe step) or `from` (a binding step)' }, bundle.file, step.node.range));
      continue;
    }
    if (hasFrom) {
      let bad: Range | undefined;
      if (inParallel) bad = step.node.range;
      else if (getEntry(step.node, 'pipe') !== undefined) bad = getEntry(step.node, 'from')!.keyRange;
      else if (!step.result) bad = step.node.range;
      else if (BINDING_EXCLUDED.some((key) => getEntry(step.node, key) !== undefined)) bad = step.node.range;
      else if (!SNAKE.test(step.result.value)) bad = step.result.range;
      else if (step.from && !PATH.test(step.from.value)) bad = step.from.range;
      else if (step.from?.value.split('.').some((seg) => seg.startsWith('_'))) bad = step.from.range;
      if (bad) bindingStepInvalid(ctx, bundle, pipe, step, inParallel, bad);
      continue;
    }
    if (step.batchOver?.value.includes('.')) {
      if (inParallel || !PATH.test(step.batchOver.value)) bindingStepInvalid(ctx, bundle, pipe, step, inParallel, step.batchOver.range);
    }
  }
}

/** Keys a binding step cannot have. */
const BINDING_EXCLUDED = ['nb_output', 'multiple_output', 'batch_over', 'batch_as'];

function stepPath(pipe: PipeDecl, step: StepDecl, inParallel: boolean): string {
  return `pipe.${pipe.code}.${inParallel ? 'branches' : 'steps'}[${step.index}]`;
}

function bindingStepInvalid(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, step: StepDecl, inParallel: boolean, range: Range): void {
  ctx.out.push(makeFinding('method.binding_step_invalid', { pipe: pipe.code, field_path: stepPath(pipe, step, inParallel) }, bundle.file, range));
}

// ---------------------------------------------------------------------------------------------
// Sequences.

function checkSequence(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, depth = 0): Slot | undefined {
  const slots = new Map<string, Slot>();
  const declared = new Map(pipe.inputs.map((i) => [i.name, i]));
  for (const input of pipe.inputs) slots.set(input.name, { ...inputSlot(ctx, bundle, input), storedBy: { label: `the sequence \`${pipe.code}\` declares it`, file: bundle.file, range: input.range } });
  const needed = new Map<string, Range>();
  const used = new Set<string>();
  const domain = bundle.domain?.value;
  let last: Slot | undefined;
  let lastRange: Range = pipe.codeRange;
  let incomplete = false;
  // After a step whose pipe does not resolve, any missing name may be one that step stores: the
  // unresolved reference is the finding, not the names it would have produced.
  let unknownStores = false;

  /** Reads a name at a step; records needs and returns the slot. */
  const read = (name: string, range: Range): Slot | undefined => {
    const slot = slots.get(name);
    if (slot?.origin === 'input' || (!slot && declared.has(name))) used.add(name);
    if (!slot && !needed.has(name) && !(unknownStores && !declared.has(name))) needed.set(name, range);
    return slot;
  };

  for (const step of pipe.steps) {
    if (step.from) {
      const root = step.from.value.split('.')[0]!;
      const slot = read(root, step.from.range);
      const derived = slot ? walkPath(ctx, bundle, pipe, step.from.value, slot, step.from.range) : undefined;
      // A root nothing types (stored by a pipe that does not resolve) types nothing it binds.
      const stored: Slot = derived ?? { multiplicity: SINGLE, maybeAbsent: false, origin: step.result?.value ?? '', untyped: slot === undefined || slot.untyped === true || slot.concept === undefined };
      const by = { label: `step ${step.index + 1} (binding \`${step.from.value}\`) binds it`, file: bundle.file, range: step.from.range };
      if (step.result) slots.set(step.result.value, { ...stored, origin: step.result.value, storedBy: by });
      last = stored;
      lastRange = step.node.range;
      continue;
    }
    if (!step.pipe?.ref) continue;
    const target = resolvePipe(ctx.tree, bundle, step.pipe.ref);
    if (target.kind !== 'pipe') {
      // A pipe of another package (or unresolved): its needs are unknown, its result is stored.
      incomplete = true;
      unknownStores = true;
      if (step.result) slots.set(step.result.value, { multiplicity: SINGLE, maybeAbsent: false, origin: step.result.value, untyped: true });
      last = undefined;
      continue;
    }
    const callee = target.decl;
    checkAskedCount(ctx, bundle, pipe, step, callee, depth);
    let liftable = false;
    // Inline batching: the step runs once per item of `batch_over`, the item named `batch_as`.
    let itemSlot: Slot | undefined;
    if (step.batchOver && step.batchAs) {
      const over = step.batchOver.value;
      const root = over.split('.')[0]!;
      const list = read(root, step.batchOver.range);
      const listSlot = list && over.includes('.') ? walkPath(ctx, bundle, pipe, over, list, step.batchOver.range) : list;
      // The runtime refuses a batch over a single value as it refuses any read of the wrong
      // multiplicity (input_stuff_spec_mismatch): the list is read as a list of the item input.
      if (listSlot && !listSlot.untyped && listSlot.multiplicity.kind === 'single') {
        const item = callee.inputs.find((i) => i.name === step.batchAs!.value);
        const itemWant = item ? inputSlot(ctx, callee.bundle, item) : undefined;
        const wanted = itemWant?.concept ? `${displayConcept(itemWant.concept, domain)}[]` : `${over}[]`;
        ctx.out.push(
          makeFinding('method.input_concept_mismatch', { pipe: callee.code, input: step.batchAs.value, declared: wanted, expected: [shownSlot(listSlot, over, domain)] }, bundle.file, step.batchOver.range, {
            related: storedByRelated(listSlot, over),
          }),
        );
      }
      itemSlot = listSlot ? { ...listSlot, multiplicity: SINGLE, maybeAbsent: false } : undefined;
      if (!callee.inputs.some((i) => i.name === step.batchAs!.value)) {
        ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: step.batchAs.value, finding: `the step pipe \`${callee.code}\` has no input named \`${step.batchAs.value}\` to receive each item` }, bundle.file, step.batchAs.range));
      }
    }
    for (const input of callee.inputs) {
      const want = inputSlot(ctx, callee.bundle, input);
      const isItem = itemSlot !== undefined && input.name === step.batchAs?.value;
      const have = isItem ? itemSlot : read(input.name, siteRange(step.pipe));
      if (!have) continue;
      // A plain input reading a maybe-absent value lifts the step; `!` fails the run instead.
      if (have.maybeAbsent && input.ref?.io?.marker === undefined) liftable = true;
      // Each item is read by its concept alone: the runtime compares the list's concept with the
      // item input's, whatever multiplicity the item input declares.
      if (!readFits(ctx, have, isItem ? { ...want, multiplicity: have.multiplicity } : want)) {
        ctx.out.push(
          makeFinding('method.input_concept_mismatch', { pipe: callee.code, input: input.name, declared: shownSlot(want, input.name, domain), expected: [shownSlot(have, input.name, domain)] }, bundle.file, siteRange(step.pipe), {
            related: storedByRelated(have, input.name),
          }),
        );
      }
    }
    let stored: Slot = storedSlot(outputOf(ctx, callee), step, step.batchOver !== undefined) ?? { multiplicity: SINGLE, maybeAbsent: false, origin: callee.code };
    if (liftable && stored.multiplicity.kind === 'single') stored = { ...stored, maybeAbsent: true };
    if (stored.multiplicity.kind !== 'single') stored = { ...stored, maybeAbsent: false };
    // A batched step runs its pipe on copies of the memory: what the pipe stores stays there.
    if (!step.batchOver) for (const [name, slot] of alwaysStored(ctx, callee)) slots.set(name, slot);
    const by = { label: `step ${step.index + 1} (pipe \`${callee.code}\`) stores it`, file: bundle.file, range: siteRange(step.pipe) };
    if (step.result) slots.set(step.result.value, { ...stored, origin: step.result.value, storedBy: by, fromPipe: true });
    last = stored;
    lastRange = siteRange(step.pipe);
  }

  reportNeeds(ctx, bundle, pipe, needed, used, !incomplete);
  const declaredOut = outputOf(ctx, pipe);
  if (last && declaredOut && pipe.output) compareOutput(ctx, bundle, pipe, last, declaredOut, lastRange, 'sequence_step');
  return pipe.steps.at(-1)?.from ? last : undefined;
}

/**
 * What a sequence ending with a binding step binds, undefined when its last step runs a pipe (or
 * the binding is untyped). Its own findings are its own check's: they are not reported here.
 */
function finalBinding(ctx: CheckContext, sequence: PipeDecl, depth: number): Slot | undefined {
  if (depth > 8 || !sequence.steps.at(-1)?.from) return undefined;
  const bound = checkSequence({ tree: ctx.tree, out: [] }, sequence.bundle, sequence, depth + 1);
  return bound?.untyped || bound?.concept === undefined ? undefined : bound;
}

/**
 * A step asking a sequence that ends with a binding for a count (`nb_output`, `multiple_output`):
 * a binding binds what its path derives, whatever its caller asks, so the count must fit it.
 */
function checkAskedCount(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, step: StepDecl, callee: PipeDecl, depth: number): void {
  const asked = step.nbOutput ?? (step.multipleOutput?.value ? step.multipleOutput : undefined);
  if (!asked || step.batchOver || callee.spec?.name !== 'PipeSequence') return;
  const bound = finalBinding(ctx, callee, depth);
  if (!bound) return;
  const requested: Multiplicity = step.nbOutput ? (step.nbOutput.value === 1 ? SINGLE : { kind: 'fixed', count: step.nbOutput.value }) : LIST;
  if (multiplicityFits(bound.multiplicity, requested)) return;
  ctx.out.push(
    makeFinding('method.output_multiplicity_mismatch', { pipe: callee.code, declared: callee.output?.raw ?? callee.code, expected: multiplicityName(requested) }, bundle.file, getEntry(step.node, step.nbOutput ? 'nb_output' : 'multiple_output')?.keyRange ?? siteRange(step.pipe!), {
      related: [{ file: callee.bundle.file, range: callee.steps.at(-1)!.node.range, message: `\`${callee.code}\` ends with a binding step, which binds ${shownSlot(bound, callee.code, bundle.domain?.value)} whatever count its caller asks for` }],
    }),
  );
}

/**
 * What a step stores under its result, from its pipe's output (the runtime's result spec): a
 * batched step a variable list whatever it asks, else the pipe's multiplicity as `nb_output` or
 * `multiple_output` override it. A plural result is never absent.
 */
function storedSlot(out: Slot | undefined, step: StepDecl, batched: boolean): Slot | undefined {
  if (!out) return undefined;
  let stored = out;
  if (batched) stored = { ...stored, multiplicity: LIST };
  else if (step.nbOutput) stored = { ...stored, multiplicity: step.nbOutput.value === 1 ? SINGLE : { kind: 'fixed', count: step.nbOutput.value } };
  else if (step.multipleOutput?.value) stored = { ...stored, multiplicity: LIST };
  return stored.multiplicity.kind === 'single' ? stored : { ...stored, maybeAbsent: false };
}

/** The reference inside its quotes. */
function siteRange(site: PipeRefSite): Range {
  return site.ref ? stringSliceRange(site.node, site.ref.refStart, site.ref.refEnd) : site.node.range;
}

/**
 * Whether a value satisfies a read as the input `want` declares it, as the runtime judges a step's
 * read: a flexible need (`Anything`, `Dynamic`) takes anything; otherwise the multiplicity must fit,
 * then the concept be compatible, a pipe step's `Anything`/`Dynamic` store assumed to fit.
 */
function readFits(ctx: CheckContext, have: Slot, want: Slot): boolean {
  if (have.untyped || isFlexible(want.concept) || want.concept === undefined) return true;
  if (!multiplicityFits(have.multiplicity, want.multiplicity)) return false;
  if (have.concept === undefined) return true;
  if (have.fromPipe && isFlexible(have.concept)) return true;
  return valueCompatible(ctx, have.concept, want.concept);
}

/**
 * The runtime's compatibility of a value with a declaration where no flexible need applies (a
 * sequence's output against its last step): `Dynamic` on either side fits; `Anything`, which has
 * no structure to compare, fits only `Anything`.
 */
function valueCompatible(ctx: CheckContext, tested: Concept, wanted: Concept): boolean {
  if (isNative(tested, 'Dynamic') || isNative(wanted, 'Dynamic')) return true;
  if (isNative(tested, 'Anything') || isNative(wanted, 'Anything')) return tested.key === wanted.key;
  return isCompatible(ctx.tree, tested, wanted);
}

/** `Anything` or `Dynamic`: a concept known only when a run produces it. */
function isFlexible(c: Concept | undefined): boolean {
  return c !== undefined && c.kind === 'native' && (c.native.code === 'Anything' || c.native.code === 'Dynamic');
}

/** A slot as an author writes it: concept and multiplicity (the name when the concept is unknown). */
function shownSlot(slot: Slot, name: string, domain: string | undefined): string {
  return slot.concept ? `${displayConcept(slot.concept, domain)}${formatM(slot.multiplicity)}` : `${name}${formatM(slot.multiplicity)}`;
}

/** Where the value a mismatched read gets was stored, and by what. */
function storedByRelated(slot: Slot, name: string): RelatedLocation[] {
  if (!slot.storedBy) return [];
  return [{ file: slot.storedBy.file, range: slot.storedBy.range, message: `\`${name}\` holds ${slot.multiplicity.kind === 'single' ? 'a single value' : slot.multiplicity.kind === 'list' ? 'a list' : `a list of ${slot.multiplicity.count}`} here: ${slot.storedBy.label}` }];
}

function formatM(m: Multiplicity): string {
  return m.kind === 'single' ? '' : m.kind === 'list' ? '[]' : `[${m.count}]`;
}

/** Names a nested controller stores in its caller's memory on every run. */
function alwaysStored(ctx: CheckContext, pipe: PipeDecl, depth = 0): Array<[string, Slot]> {
  if (depth > 8) return [];
  const out: Array<[string, Slot]> = [];
  if (pipe.spec?.name === 'PipeSequence') {
    for (const step of pipe.steps) {
      if (!step.result) continue;
      const target = step.pipe?.ref ? resolvePipe(ctx.tree, pipe.bundle, step.pipe.ref) : undefined;
      if (target?.kind === 'pipe') out.push(...alwaysStored(ctx, target.decl, depth + 1));
      const slot = target?.kind === 'pipe' ? outputOf(ctx, target.decl) : undefined;
      out.push([step.result.value, slot ? { ...slot, origin: step.result.value, fromPipe: true } : { multiplicity: SINGLE, maybeAbsent: false, origin: step.result.value, untyped: true }]);
    }
  } else if (pipe.spec?.name === 'PipeCondition') {
    // A name is stored on every run only when every outcome that can run stores it; a reachable
    // `continue` stores nothing. Outcomes storing it differently leave it untyped.
    const alternatives: Array<Map<string, Slot>> = [];
    for (const site of pipe.pipeRefs) {
      if (site.special) {
        if (site.raw === 'continue') alternatives.push(new Map());
        continue;
      }
      const target = site.ref ? resolvePipe(ctx.tree, pipe.bundle, site.ref) : undefined;
      if (target?.kind === 'pipe') alternatives.push(new Map(alwaysStored(ctx, target.decl, depth + 1)));
    }
    const [first, ...rest] = alternatives;
    for (const [name, slot] of first ?? []) {
      const others = rest.map((alt) => alt.get(name));
      if (others.some((o) => o === undefined)) continue;
      const agree = others.every((o) => o!.concept?.key === slot.concept?.key && sameMultiplicity(o!.multiplicity, slot.multiplicity));
      out.push([name, agree ? { ...slot, maybeAbsent: slot.maybeAbsent || others.some((o) => o!.maybeAbsent) } : { multiplicity: slot.multiplicity, maybeAbsent: false, origin: name, untyped: true, disagreeing: true }]);
    }
  } else if (pipe.spec?.name === 'PipeParallel') {
    const add = getEntry(pipe.table, 'add_each_output')?.value;
    if (add?.type === 'boolean' && add.value) {
      for (const step of pipe.steps) {
        if (!step.result || !step.pipe?.ref) continue;
        const target = resolvePipe(ctx.tree, pipe.bundle, step.pipe.ref);
        const slot = target.kind === 'pipe' ? outputOf(ctx, target.decl) : undefined;
        out.push([step.result.value, slot ? { ...slot, origin: step.result.value, fromPipe: true } : { multiplicity: SINGLE, maybeAbsent: false, origin: step.result.value, untyped: true }]);
      }
    }
  }
  return out;
}

/** What a child of a controller needs under a name: the slot its pipe declares, and which pipe. */
interface Need {
  slot: Slot;
  by: string;
  range: Range;
}

/**
 * A parallel's or a condition's declared inputs against what its children need, by the runtime's
 * own rule for controllers, stricter than compatibility: the same concept and the same
 * multiplicity, unless the need is flexible (`Anything`, `Dynamic`). Presence markers are not
 * compared. Reported on the declaration, naming the child that needs it otherwise.
 */
function checkDeclaredAgainstNeeds(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, needs: Map<string, Need>): void {
  const domain = bundle.domain?.value;
  for (const input of pipe.inputs) {
    const need = needs.get(input.name);
    if (!need || need.slot.concept === undefined || isFlexible(need.slot.concept)) continue;
    const declared = inputSlot(ctx, bundle, input);
    if (declared.concept === undefined) continue;
    if (declared.concept.key === need.slot.concept.key && sameMultiplicity(declared.multiplicity, need.slot.multiplicity)) continue;
    ctx.out.push(
      makeFinding('method.input_concept_mismatch', { pipe: pipe.code, input: input.name, declared: shownSlot(declared, input.name, domain), expected: [shownSlot(need.slot, input.name, domain)] }, bundle.file, input.ref?.node.range ?? input.range, {
        related: [{ file: bundle.file, range: need.range, message: `\`${need.by}\` reads \`${input.name}\` as ${shownSlot(need.slot, input.name, domain)}: a ${pipe.spec!.name} declares each input exactly as its children read it` }],
      }),
    );
  }
}

function sameMultiplicity(a: Multiplicity, b: Multiplicity): boolean {
  return a.kind === b.kind && (a.kind !== 'fixed' || a.count === (b as { count: number }).count);
}

/** Needed names against the declaration: undeclared needs, and declared inputs nothing needs. */
function reportNeeds(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, needed: Map<string, Range>, used: Set<string>, checkUnused: boolean): void {
  const declared = new Set(pipe.inputs.map((i) => i.name));
  for (const [name, range] of needed) {
    if (declared.has(name) || name.startsWith('_')) continue;
    ctx.out.push(makeFinding('method.input_undeclared', { pipe: pipe.code, variables: [name] }, bundle.file, range));
  }
  if (!checkUnused) return;
  for (const input of pipe.inputs) {
    if (used.has(input.name) || needed.has(input.name) || !SNAKE.test(input.name)) continue;
    const fix: Fix = { title: `Remove unused input \`${input.name}\``, edits: [removeInputEdit(bundle, pipe, input)], safe: true };
    ctx.out.push(makeFinding('method.input_unused', { pipe: pipe.code, variables: [input.name] }, bundle.file, input.nameRange, { fix }));
  }
}

/** The produced value against the declared output: concept, multiplicity, presence. */
function compareOutput(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, produced: Slot, declared: Slot, range: Range, site: 'sequence_step' | 'condition'): void {
  const domain = bundle.domain?.value;
  const raw = pipe.output!.raw;
  if (produced.concept && declared.concept && !valueCompatible(ctx, produced.concept, declared.concept)) {
    ctx.out.push(makeFinding('method.output_concept_mismatch', { pipe: pipe.code, declared: raw, pipe_type: pipe.spec!.name, expected: [displayConcept(produced.concept, domain)] }, bundle.file, pipe.output!.node.range));
  } else if (produced.concept && !produced.untyped && !multiplicityFits(produced.multiplicity, declared.multiplicity)) {
    ctx.out.push(makeFinding('method.output_multiplicity_mismatch', { pipe: pipe.code, declared: raw, expected: multiplicityName(produced.multiplicity) }, bundle.file, pipe.output!.node.range));
  }
  if (produced.maybeAbsent && !declared.maybeAbsent) {
    ctx.out.push(makeFinding('method.optional_unhandled', { pipe: pipe.code, input: produced.origin, site }, bundle.file, range));
  }
}

// ---------------------------------------------------------------------------------------------
// Binding paths.

/** Walks `root.a.b` through the structures; reports the first segment that does not resolve. */
function walkPath(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, path: string, root: Slot, range: Range): Slot | undefined {
  const segments = path.split('.');
  let concept = root.concept;
  let crossedList = root.multiplicity.kind !== 'single';
  let maybeAbsent = root.maybeAbsent;
  const unresolved = (segment: string, available: string[], why?: string): undefined => {
    const related = why ? [{ file: bundle.file, range, message: why }] : [];
    ctx.out.push(makeFinding('method.field_path_unresolved', { pipe: pipe.code, path, segment, available_fields: available }, bundle.file, range, { related }));
    return undefined;
  };
  if (root.disagreeing && segments.length > 1) return unresolved(segments[1]!, [], `the outcomes of a condition store \`${segments[0]}\` under different concepts: its fields are known only when it runs`);
  for (let i = 1; i < segments.length; i++) {
    if (!concept) return undefined;
    const segment = segments[i]!;
    // Anything, Dynamic and Composite hold no structure a path can walk (a parallel's result included).
    if (concept.kind === 'native' && concept.native.structureless) return unresolved(segment, [], `${concept.native.code} has no structure to walk`);
    const fields = contentFields(ctx.tree, concept);
    const field = fields?.find((f) => f.name === segment);
    if (!field) return unresolved(segment, (fields ?? []).map((f) => f.name));
    if (!field.required && !field.hasDefault) maybeAbsent = true;
    if (field.type === 'list') crossedList = true;
    if (field.type === 'list' && !field.itemType && !field.concept) {
      // A list that declares no item type derives nothing: ending on it or walking through it.
      return unresolved(segments[i + 1] ?? segment, [], `the list \`${segment}\` declares no item_type`);
    }
    if (field.type === 'dict') concept = nativeConcept('JSON');
    else if (field.concept) concept = field.concept;
    else concept = nativeConcept(scalarNative(field.itemType ?? field.type));
  }
  const slot: Slot = { multiplicity: crossedList ? LIST : SINGLE, maybeAbsent: crossedList ? false : maybeAbsent, origin: path };
  if (concept) slot.concept = concept;
  return slot;
}

function scalarNative(type: string): string {
  switch (type) {
    case 'integer':
    case 'number':
      return 'Number';
    case 'boolean':
      return 'YesNo';
    case 'date':
    case 'datetime':
      return 'Date';
    case 'time':
      return 'Time';
    case 'dict':
      return 'JSON';
    default:
      return 'Text';
  }
}

// ---------------------------------------------------------------------------------------------
// Parallel, condition, batch.

/**
 * The fields a parallel's output must be filled with: those of the class the runtime combines the
 * branches into, whether or not `add_each_output` also exposes them (the combine always runs). A
 * structure's fields (declared, inherited, or registered by the host); for a description-only or
 * Text-refining concept the one required field `text`; for a refinement of another native, that
 * native's fields. Undefined when the output is not checked field by field (a refinement of
 * Composite holds any names; a native or a list is reported before fields, and alone).
 */
function parallelOutputFields(ctx: CheckContext, declared: Slot | undefined): ContentField[] | undefined {
  if (!declared?.concept || declared.concept.kind !== 'declared' || declared.multiplicity.kind !== 'single') return undefined;
  return runtimeFields(ctx.tree, declared.concept);
}

/**
 * Whether a branch may produce nothing: its pipe's output is `?`, or a plain input of its pipe is
 * fed by a `?` single input of the parallel itself. A plural result is never absent.
 */
function branchMaybeAbsent(ctx: CheckContext, bundle: Bundle, parallel: PipeDecl, callee: PipeDecl, out: Slot | undefined): boolean {
  if (out && out.multiplicity.kind !== 'single') return false;
  if (out?.maybeAbsent) return true;
  return liftedByOptionalInput(ctx, bundle, parallel, callee);
}

function checkParallel(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl): void {
  const needed = new Map<string, Range>();
  const used = new Set<string>();
  const results = new Map<string, { slot: Slot | undefined; maybeAbsent: boolean; range: Range }>();
  const declared = outputOf(ctx, pipe);
  const domain = bundle.domain?.value;
  const needs = new Map<string, Need>();
  for (const step of pipe.steps) {
    if (!step.pipe?.ref) continue;
    const target = resolvePipe(ctx.tree, bundle, step.pipe.ref);
    if (target.kind !== 'pipe') continue;
    // A batched branch needs the list its item comes from (as a list of the item input's concept)
    // in place of the item; a dotted `batch_over` is refused in a branch (binding_step_invalid).
    const batch = step.batchOver && step.batchAs && !step.batchOver.value.includes('.') ? { list: step.batchOver.value, item: step.batchAs.value } : undefined;
    if (batch && !target.decl.inputs.some((i) => i.name === batch.item)) {
      ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: batch.item, finding: `the branch pipe \`${target.decl.code}\` has no input named \`${batch.item}\` to receive each item` }, bundle.file, step.batchAs!.range));
    }
    for (const input of target.decl.inputs) {
      const name = batch && input.name === batch.item ? batch.list : input.name;
      const range = batch && name === batch.list ? step.batchOver!.range : siteRange(step.pipe);
      used.add(name);
      if (!needed.has(name)) needed.set(name, range);
      const need = inputSlot(ctx, target.decl.bundle, input);
      // The runtime keeps one need per name, the last branch's.
      needs.set(name, { slot: name === input.name ? need : { ...need, multiplicity: LIST }, by: target.decl.code, range });
    }
    if (step.result) {
      if (results.has(step.result.value)) {
        ctx.out.push(makeFinding('method.name_conflict', { name: step.result.value, conflict: 'duplicate_declaration' }, bundle.file, step.result.range));
      }
      const slot = storedSlot(outputOf(ctx, target.decl), step, batch !== undefined);
      results.set(step.result.value, { slot, maybeAbsent: branchMaybeAbsent(ctx, bundle, pipe, target.decl, slot), range: step.result.range });
    }
  }
  reportNeeds(ctx, bundle, pipe, needed, used, true);
  checkDeclaredAgainstNeeds(ctx, bundle, pipe, needs);
  const fields = parallelOutputFields(ctx, declared);
  if (!fields) return;
  const fieldsStart = ctx.out.length;
  for (const f of fields) {
    if (f.required && !f.hasDefault && !results.has(f.name)) {
      ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: f.name, finding: `the required field \`${f.name}\` of the output is produced by no branch` }, bundle.file, pipe.output!.node.range));
    }
  }
  const matched: Array<{ name: string; slot: Slot | undefined; maybeAbsent: boolean; range: Range; field: ContentField }> = [];
  for (const [name, { slot, maybeAbsent, range }] of results) {
    const field = fields.find((f) => f.name === name);
    if (!field) {
      ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: name, finding: `the branch result \`${name}\` is not a field of the output ${pipe.output!.raw} (fields: ${fields.map((f) => f.name).join(', ')})` }, bundle.file, range));
      continue;
    }
    matched.push({ name, slot, maybeAbsent, range, field });
  }
  // The runtime's order, each stage reached only when the one before passed: fields, then branch
  // types, then branch absence.
  const before = ctx.out.length;
  if (ctx.out.slice(fieldsStart).some((f) => f.code === 'method.wiring_invalid')) return;
  for (const { slot, range, field } of matched) {
    if (slot?.concept && field.concept && !isOpen(field.concept) && !isCompatible(ctx.tree, slot.concept, field.concept)) {
      ctx.out.push(makeFinding('method.output_concept_mismatch', { pipe: pipe.code, declared: pipe.output!.raw, pipe_type: 'PipeParallel', expected: [displayConcept(slot.concept, domain)] }, bundle.file, range));
    }
  }
  if (ctx.out.length > before) return;
  for (const { name, maybeAbsent, range, field } of matched) {
    if (maybeAbsent && field.required && !field.hasDefault) {
      ctx.out.push(makeFinding('method.optional_unhandled', { pipe: pipe.code, input: name, site: 'parallel_branch' }, bundle.file, range));
    }
  }
}

function checkCondition(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl): void {
  const needed = new Map<string, Range>();
  const used = new Set<string>();
  for (const key of ['expression', 'expression_template'] as const) {
    const node = getEntry(pipe.table, key)?.value;
    if (node?.type !== 'string') continue;
    const analysis = analyzeTemplate(node.value, { shorthands: false, expression: key === 'expression' });
    if (analysis.tooLong) {
      // What it reads is unknown: nothing of the condition's flow is told.
      ctx.out.push(templateTooLongFinding(pipe, key, node, analysis.tooLong, bundle.file));
      return;
    }
    if (analysis.fault) {
      ctx.out.push(makeFinding('method.template_invalid', { pipe: pipe.code, template: key, finding: analysis.fault.message }, bundle.file, stringSliceRange(node, analysis.fault.start, analysis.fault.end)));
      continue;
    }
    for (const r of analysis.reads) {
      used.add(r.path[0]!);
      if (!needed.has(r.path[0]!)) needed.set(r.path[0]!, stringSliceRange(node, r.start, r.end));
    }
  }
  const outcomes: PipeDecl[] = [];
  const needs = new Map<string, Need>();
  let reachesContinue = false;
  let allFail = true;
  for (const site of pipe.pipeRefs) {
    if (site.special) {
      if (site.raw === 'continue') reachesContinue = true;
      if (site.raw !== 'fail') allFail = false;
      continue;
    }
    allFail = false;
    if (!site.ref) continue;
    const target = resolvePipe(ctx.tree, bundle, site.ref);
    if (target.kind !== 'pipe') continue;
    outcomes.push(target.decl);
    for (const input of target.decl.inputs) {
      used.add(input.name);
      if (!needed.has(input.name)) needed.set(input.name, siteRange(site));
      needs.set(input.name, { slot: inputSlot(ctx, target.decl.bundle, input), by: target.decl.code, range: siteRange(site) });
    }
  }
  reportNeeds(ctx, bundle, pipe, needed, used, true);
  checkDeclaredAgainstNeeds(ctx, bundle, pipe, needs);
  const declared = outputOf(ctx, pipe);
  if (!pipe.output || !declared) return;
  const range = pipe.output.node.range;
  if (allFail && pipe.pipeRefs.length > 0) {
    ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: 'outcomes', finding: 'every outcome and the default are `fail`: the condition can never produce its output' }, bundle.file, getEntry(pipe.table, 'outcomes')?.keyRange ?? pipe.codeRange));
  }
  if (reachesContinue && !declared.maybeAbsent) {
    ctx.out.push(makeFinding('method.optional_unhandled', { pipe: pipe.code, input: pipe.code, site: 'condition_output' }, bundle.file, range));
  }
  const outs = outcomes.map((o) => ({ pipe: o, slot: outputOf(ctx, o) }));
  if (!declared.maybeAbsent) {
    // An outcome that may give nothing: its output is `?`, or it reads plainly a `?` single input
    // of the condition (it is lifted when chosen with that input absent) and gives one value.
    const culprit = outs.find((o) => o.slot?.maybeAbsent) ?? outs.find((o) => o.slot?.multiplicity.kind === 'single' && liftedByOptionalInput(ctx, bundle, pipe, o.pipe));
    if (culprit) ctx.out.push(makeFinding('method.optional_unhandled', { pipe: pipe.code, input: culprit.pipe.code, site: 'condition' }, bundle.file, range));
  }
  // The runtime's rule is equality, not compatibility: one concept across the outcomes is declared
  // as that very concept or `Anything`; several need `Anything`. `Dynamic` is no way out, and the
  // multiplicities are not compared.
  const concepts = outs.map((o) => o.slot?.concept).filter((c): c is Concept => c !== undefined);
  if (concepts.length === 0 || concepts.length < outs.length || !declared.concept || isNative(declared.concept, 'Anything')) return;
  const keys = new Set(concepts.map((c) => c.key));
  const domain = bundle.domain?.value;
  if (keys.size === 1) {
    if (concepts[0]!.key !== declared.concept.key) {
      ctx.out.push(makeFinding('method.output_concept_mismatch', { pipe: pipe.code, declared: pipe.output.raw, pipe_type: 'PipeCondition', expected: [displayConcept(concepts[0]!, domain), 'Anything'] }, bundle.file, range));
    }
  } else {
    ctx.out.push(makeFinding('method.output_concept_mismatch', { pipe: pipe.code, declared: pipe.output.raw, pipe_type: 'PipeCondition', expected: ['Anything'] }, bundle.file, range));
  }
}

function isNative(c: Concept, code: string): boolean {
  return c.kind === 'native' && c.native.code === code;
}

/** Whether a pipe reads plainly (no `?`, no `!`) an input its controller declares `?` and single. */
function liftedByOptionalInput(ctx: CheckContext, bundle: Bundle, controller: PipeDecl, callee: PipeDecl): boolean {
  return callee.inputs.some((input) => {
    if (input.ref?.io?.marker !== undefined) return false;
    const fed = controller.inputs.find((i) => i.name === input.name);
    if (!fed) return false;
    const slot = inputSlot(ctx, bundle, fed);
    return slot.maybeAbsent && slot.multiplicity.kind === 'single';
  });
}

function checkBatch(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl): void {
  const listName = getEntry(pipe.table, 'input_list_name')?.value;
  const itemName = getEntry(pipe.table, 'input_item_name')?.value;
  const branch = pipe.pipeRefs.find((s) => s.context === 'branch_pipe_code');
  if (listName?.type !== 'string' || itemName?.type !== 'string') return;
  const domain = bundle.domain?.value;
  const listInput = pipe.inputs.find((i) => i.name === listName.value);
  if (!listInput) {
    ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: listName.value, finding: `\`input_list_name\` must name one of the inputs (${pipe.inputs.map((i) => i.name).join(', ') || 'none declared'})` }, bundle.file, listName.range));
  }
  const list = listInput ? inputSlot(ctx, bundle, listInput) : undefined;
  if (list && list.multiplicity.kind === 'single') {
    ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: listName.value, finding: `the input \`${listName.value}\` must be a list (write \`${listInput!.ref?.raw ?? ''}[]\`)` }, bundle.file, listInput!.ref?.node.range ?? listName.range));
  }
  const target = branch?.ref ? resolvePipe(ctx.tree, bundle, branch.ref) : undefined;
  if (target?.kind !== 'pipe') return;
  const callee = target.decl;
  const itemInput = callee.inputs.find((i) => i.name === itemName.value);
  if (!itemInput) {
    ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: itemName.value, finding: `the branch pipe \`${callee.code}\` has no input named \`${itemName.value}\`` }, bundle.file, itemName.range));
  } else if (list?.concept) {
    const want = inputSlot(ctx, callee.bundle, itemInput);
    if (want.concept && !isOpen(want.concept) && !isCompatible(ctx.tree, list.concept, want.concept)) {
      ctx.out.push(makeFinding('method.input_concept_mismatch', { pipe: callee.code, input: itemInput.name, declared: displayConcept(want.concept, domain), expected: [displayConcept(list.concept, domain)] }, bundle.file, siteRange(branch!)));
    }
  }
  // The branch's other inputs come from the batch's own inputs.
  const needed = new Map<string, Range>();
  const used = new Set<string>([listName.value]);
  for (const input of callee.inputs) {
    if (input.name === itemName.value) continue;
    used.add(input.name);
    needed.set(input.name, siteRange(branch!));
  }
  reportNeeds(ctx, bundle, pipe, needed, used, true);
  const declared = outputOf(ctx, pipe);
  const produced = outputOf(ctx, callee);
  if (declared?.concept && produced?.concept && !isOpen(declared.concept) && !isCompatible(ctx.tree, produced.concept, declared.concept)) {
    ctx.out.push(makeFinding('method.output_concept_mismatch', { pipe: pipe.code, declared: pipe.output!.raw, pipe_type: 'PipeBatch', expected: [`${displayConcept(produced.concept, domain)}[]`] }, bundle.file, pipe.output!.node.range));
  }
}
