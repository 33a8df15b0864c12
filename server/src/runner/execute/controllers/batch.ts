// Batching (language reference §7.5): a branch pipe run once per item of a list, each on its own
// copy of the working memory with the item stored under the item name; outputs collected in order,
// absent ones compacted out. PipeBatch and a sequence step's inline batch_over/batch_as share it.

import type { ConceptInfo } from '../../../language/jsonSchema.js';
import type { PipeDecl } from '../../../language/model.js';
import { childPipe, failure, mapLimit, outputTarget, runPipe, stringSetting, type Invocation, type RunContext, type PipeRunner } from '../engine.js';
import type { Stuff, WorkingMemory } from '../memory.js';
import { PathError, walkPath } from '../paths.js';

export async function runBatch(
  ctx: RunContext,
  owner: PipeDecl,
  branch: PipeDecl,
  memory: WorkingMemory,
  listPath: string,
  itemName: string,
  inv: Invocation,
  outputConcept?: ConceptInfo,
): Promise<Stuff> {
  let list: Stuff | undefined;
  try {
    list = listPath.includes('.') ? walkPath(ctx.catalog, memory, listPath) : memory.get(listPath);
  } catch (error) {
    if (error instanceof PathError) throw failure(owner, `batch_over ${listPath} cannot be walked: ${error.message}`);
    throw error;
  }
  const concept = outputConcept ?? outputTarget(ctx, branch, inv).info;
  if (!list) return { concept, content: [], list: true };
  if (!list.list) throw failure(owner, `it batches over ${listPath}, which holds one item, not a list`);
  const items = list.content as unknown[];
  const outputs = await mapLimit(items, ctx.batchConcurrency, (item, i) => {
    const branchMemory = memory.clone();
    branchMemory.set(itemName, { concept: list.concept, content: structuredClone(item), list: false });
    return runPipe(ctx, branch, branchMemory, Object.assign({}, inv, { path: `${inv.path}/batch.${i}` }));
  });
  const contents: unknown[] = [];
  for (const out of outputs) {
    if (!out) continue;
    if (out.list) contents.push(...(out.content as unknown[]));
    else contents.push(out.content);
  }
  return { concept, content: contents, list: true };
}

export const runPipeBatch: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  const listName = stringSetting(pipe, 'input_list_name');
  const itemName = stringSetting(pipe, 'input_item_name');
  if (!listName || !itemName) throw failure(pipe, 'it needs input_list_name and input_item_name');
  const site = pipe.pipeRefs.find((s) => s.context === 'branch_pipe_code');
  const branch = childPipe(ctx, pipe, site);
  return runBatch(ctx, pipe, branch, memory, listName, itemName, { path: inv.path, depth: inv.depth + 1 }, target.info);
};
