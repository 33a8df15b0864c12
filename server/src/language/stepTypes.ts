// What each step of a controller stores under its `result`: the called pipe's output with the
// step's own multiplicity (a batched step stores a list, `nb_output = N` exactly N), or, for a
// binding step, the value its path reaches (language reference §7.3, §7.4). Read by inlay hints
// and hover; the checks of the data flow live in check/rules/flow.ts and report the faults.

import type { Concept } from './concepts.js';
import { lookupConcept } from './concepts.js';
import { walkFields, type TypedValue } from './fieldPaths.js';
import type { Bundle, PipeDecl, StepDecl } from './model.js';
import type { IoRef } from './references.js';
import { resolvePipe, type MethodTree } from './tree.js';
import { ObjectCache } from '../util/objectCache.js';

function typed(tree: MethodTree, bundle: Bundle, io: IoRef | undefined): TypedValue | undefined {
  if (!io) return undefined;
  const concept = lookupConcept(tree, bundle, io);
  return concept ? { concept, multiplicity: io.multiplicity, optional: io.marker === '?' } : undefined;
}

/** The declared inputs of a pipe, typed (those whose concept resolves). */
export function inputTypes(tree: MethodTree, pipe: PipeDecl): Map<string, TypedValue> {
  const out = new Map<string, TypedValue>();
  for (const input of pipe.inputs) {
    const t = typed(tree, pipe.bundle, input.ref?.io);
    if (t) out.set(input.name, t);
  }
  return out;
}

/** The output a pipe declares, typed. */
export function outputType(tree: MethodTree, pipe: PipeDecl): TypedValue | undefined {
  return typed(tree, pipe.bundle, pipe.output?.io);
}

/** The value a step stores, given the names stored before it. */
function stepValue(tree: MethodTree, pipe: PipeDecl, step: StepDecl, slots: ReadonlyMap<string, TypedValue>): TypedValue | undefined {
  if (step.pipe?.ref) {
    const target = resolvePipe(tree, pipe.bundle, step.pipe.ref);
    if (target.kind !== 'pipe') return undefined;
    const out = outputType(tree, target.decl);
    if (!out) return undefined;
    if (step.batchOver) return { concept: out.concept, multiplicity: { kind: 'list' }, optional: false };
    if (step.nbOutput) return { concept: out.concept, multiplicity: step.nbOutput.value > 1 ? { kind: 'fixed', count: step.nbOutput.value } : { kind: 'single' }, optional: false };
    if (step.multipleOutput?.value) return { concept: out.concept, multiplicity: { kind: 'list' }, optional: false };
    return out;
  }
  if (step.from) {
    const [root, ...rest] = step.from.value.split('.');
    const slot = root !== undefined ? slots.get(root) : undefined;
    if (!slot) return undefined;
    if (rest.length === 0) return slot;
    const walked = walkFields(tree, slot.concept, rest);
    if (walked.failedAt !== undefined || !walked.concept) return undefined;
    const concept: Concept = walked.concept;
    return { concept, multiplicity: walked.list ? { kind: 'list' } : { kind: 'single' }, optional: !walked.list && walked.field !== undefined && !walked.field.required && !walked.field.hasDefault };
  }
  return undefined;
}

const cache = new ObjectCache<MethodTree, WeakMap<PipeDecl, Map<StepDecl, TypedValue>>>('cache');

/**
 * What each step (or branch) of a controller stores, in step order. Steps of a sequence see what
 * earlier steps stored; branches of a parallel see only the controller's inputs.
 */
export function stepResults(tree: MethodTree, pipe: PipeDecl): ReadonlyMap<StepDecl, TypedValue> {
  let perTree = cache.get(tree);
  if (!perTree) cache.set(tree, (perTree = new WeakMap()));
  let found = perTree.get(pipe);
  if (found) return found;
  found = new Map();
  const slots = inputTypes(tree, pipe);
  const sequential = pipe.spec?.name !== 'PipeParallel';
  for (const step of pipe.steps) {
    const value = stepValue(tree, pipe, step, slots);
    if (!value) {
      // Whatever it stores cannot be typed: later reads of the name are unknown, not stale.
      if (sequential && step.result) slots.delete(step.result.value);
      continue;
    }
    found.set(step, value);
    if (sequential && step.result) slots.set(step.result.value, value);
  }
  perTree.set(pipe, found);
  return found;
}
