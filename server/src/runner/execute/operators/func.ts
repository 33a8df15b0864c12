// PipeFunc (language reference §5.3): calls the function the runner's function registry holds
// under the pipe's function_name, with the pipe's inputs by name, and checks what it returns
// against the output like every operator's output (multiplicity, then the concept's structure).
// Without a registry the pipe cannot run here (mthdsls.pipe.func_unsupported); the dry run never
// gets here (it mints the output).

import { Refusal } from '../../refusal.js';
import { listItems, normalizeItem } from '../contents.js';
import { failure, finishOutput, stringSetting, type PipeRunner } from '../engine.js';

function messageOf(error: unknown): string {
  const raw = error instanceof Error ? `${error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}` : String(error);
  const line = raw.split('\n').find((l) => l.trim() !== '')?.trim() ?? 'no message';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The value as JSON carries it (what the wire and the checks see), or undefined when it is not JSON. */
function asJson(value: unknown): { value: unknown } | undefined {
  if (value === undefined) return { value: undefined };
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

export const runPipeFunc: PipeRunner = async (ctx, pipe, memory, _inv, target) => {
  const name = stringSetting(pipe, 'function_name') ?? pipe.code;
  if (!ctx.functions) throw new Refusal('mthdsls.pipe.func_unsupported', { pipe: pipe.code, function: name || pipe.code });
  const fn = ctx.functions.get(name);
  if (!fn) throw new Refusal('method.dependency_missing', { kind: 'function', name, reason: 'not_found' });
  const inputs: Record<string, unknown> = {};
  for (const input of pipe.inputs) {
    const stuff = memory.get(input.name);
    // A copy: a function cannot change what other pipes read.
    if (stuff) inputs[input.name] = structuredClone(stuff.content);
  }
  const stopped = (): Refusal => (ctx.signal.reason instanceof Refusal ? ctx.signal.reason : new Refusal('mthdsls.run.cancelled', { reason: 'requested' }));
  // A function that ignores its signal still cannot hold the run past a cancellation or the time bound.
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(stopped());
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  let returned: unknown;
  try {
    returned = await Promise.race([Promise.resolve().then(() => fn.run(inputs, { pipe: pipe.code, signal: ctx.signal })), aborted]);
  } catch (error) {
    if (ctx.signal.aborted) throw stopped();
    throw failure(pipe, `the function ${name} failed: ${messageOf(error)}`);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort!);
    aborted.catch(() => {});
  }
  if (ctx.signal.aborted) throw stopped();
  const json = asJson(returned);
  if (!json) throw failure(pipe, `the function ${name} returned a value that is not JSON`);
  if (target.multiplicity.kind === 'single') return finishOutput(ctx, pipe, target, [normalizeItem(target.info, json.value)]);
  const items = listItems(json.value);
  if (!items) throw new Refusal('pipe.output_multiplicity', { pipe: pipe.code, expected: target.multiplicity.kind === 'fixed' ? 'fixed' : 'list', ...(target.multiplicity.kind === 'fixed' ? { expected_count: target.multiplicity.count } : {}), produced_count: 1 });
  return finishOutput(ctx, pipe, target, items.map((item) => normalizeItem(target.info, item)));
};
