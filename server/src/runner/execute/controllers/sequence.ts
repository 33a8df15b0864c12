// PipeSequence (language reference §7.3, §7.4): steps in order on one working memory. A pipe step
// stores its output under `result` and as the main stuff; a binding step stores a deep copy of the
// value at a path; a batched step runs its pipe per item. The output is the last step's.

import type { Multiplicity } from '../../../language/references.js';
import type { StepDecl } from '../../../language/model.js';
import { childPipe, failure, runPipe, type Invocation, type PipeRunner } from '../engine.js';
import type { Stuff } from '../memory.js';
import { PathError, walkPath } from '../paths.js';
import { runBatch } from './batch.js';

function stepMultiplicity(step: StepDecl): Multiplicity | undefined {
  if (step.nbOutput) return step.nbOutput.value === 1 ? { kind: 'single' } : { kind: 'fixed', count: step.nbOutput.value };
  if (step.multipleOutput?.value === true) return { kind: 'list' };
  return undefined;
}

export const runPipeSequence: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  let last: Stuff | undefined;
  const lastPipeStep = [...pipe.steps].reverse().find((s) => s.pipe);
  for (const step of pipe.steps) {
    const name = step.result?.value;
    if (!step.pipe) {
      if (!step.from || !name) throw failure(pipe, `step ${step.index + 1} is neither a pipe step nor a binding step`);
      let value: Stuff | undefined;
      try {
        value = walkPath(ctx.catalog, memory, step.from.value);
      } catch (error) {
        if (error instanceof PathError) throw failure(pipe, `the binding from ${step.from.value} cannot be walked: ${error.message}`);
        throw error;
      }
      if (value) memory.set(name, value);
      else memory.markAbsent(name);
      last = value;
      continue;
    }
    const child = childPipe(ctx, pipe, step.pipe);
    const childInv: Invocation = { path: `${inv.path}/steps.${step.index}`, depth: inv.depth + 1 };
    // A caller's count for the whole sequence is the count of its last step (language reference §7.8).
    const multiplicity = stepMultiplicity(step) ?? (step === lastPipeStep ? inv.multiplicity : undefined);
    if (multiplicity) childInv.multiplicity = multiplicity;
    const out = step.batchOver && step.batchAs
      ? await runBatch(ctx, pipe, child, memory, step.batchOver.value, step.batchAs.value, childInv)
      : await runPipe(ctx, child, memory, childInv);
    if (out) memory.setMain(name, out);
    else if (name) memory.markAbsent(name);
    last = out;
  }
  if (!last && target.multiplicity.kind !== 'single') return { concept: target.info, content: [], list: true };
  return last;
};
