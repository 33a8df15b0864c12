// PipeParallel (language reference §7.6): branches run concurrently, each on a copy of the working
// memory; their outputs are combined into the declared output — a Composite with one member per
// branch result, or a structured concept whose fields are filled by the branches of the same name.

import { failure, childPipe, finishOutput, runPipe, setting, type PipeRunner } from '../engine.js';
import { coerceToField } from '../contents.js';
import { runBatch } from './batch.js';

export const runPipeParallel: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  const results = await Promise.all(
    pipe.steps.map(async (step) => {
      const child = childPipe(ctx, pipe, step.pipe);
      const branchInv = { path: `${inv.path}/branches.${step.index}`, depth: inv.depth + 1 };
      // A branch may batch over a list of the parallel's inputs, as a sequence step does.
      const out = step.batchOver && step.batchAs ? await runBatch(ctx, pipe, child, memory.clone(), step.batchOver.value, step.batchAs.value, branchInv) : await runPipe(ctx, child, memory.clone(), branchInv);
      return { name: step.result?.value ?? child.code, out };
    }),
  );
  if (setting(pipe, 'add_each_output') === true) {
    for (const r of results) if (r.out) memory.set(r.name, r.out);
  }
  if (target.info.shape === 'structured') {
    if (target.multiplicity.kind !== 'single') throw failure(pipe, 'a PipeParallel combines its branches into one output, not a list');
    const content: Record<string, unknown> = {};
    for (const r of results) {
      const field = target.info.fields.find((f) => f.name === r.name);
      if (!r.out) {
        if (field?.defaultValue !== undefined) content[r.name] = field.defaultValue;
        continue;
      }
      content[r.name] = coerceToField(ctx.catalog, r.out.content, field);
    }
    return finishOutput(ctx, pipe, target, [content]);
  }
  const composite: Record<string, unknown> = {};
  for (const r of results) if (r.out) composite[r.name] = r.out.content;
  const concept = target.info.shape === 'open' ? target.info : ctx.catalog.byRef('native.Composite')!;
  return { concept, content: composite, list: false };
};
