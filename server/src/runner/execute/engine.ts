// The executor's core: running one pipe on a working memory. It applies the presence rule before a
// pipe runs (language reference §7.2), dispatches to the operator or controller of its type, and
// checks what an operator produced against the declared output (multiplicity, then structure).

import type { ConceptCatalog, ConceptInfo } from '../../language/jsonSchema.js';
import type { PipeDecl, PipeRefSite } from '../../language/model.js';
import { formatRef, type Multiplicity } from '../../language/references.js';
import { resolvePipe, type MethodTree } from '../../language/tree.js';
import { getEntry } from '../../syntax/lookup.js';
import { toPlainValue } from '../../syntax/values.js';
import type { ModelType } from '../deckConfig.js';
import type { ModelDeck } from '../deck.js';
import type { DeckModel, ModelSettings, Provider } from '../providers/types.js';
import type { RegisteredFunction } from '../functions.js';
import { Refusal } from '../refusal.js';
import { createRng, mintList } from '../../language/mock.js';
import { contentFault, templateView } from './contents.js';
import type { Stuff, WorkingMemory } from './memory.js';

export interface RunContext {
  /** The pipe runners by pipe type: the table of pipeRunners.ts (given, so this module imports none). */
  runners: Readonly<Record<string, PipeRunner>>;
  tree: MethodTree;
  catalog: ConceptCatalog;
  deck: ModelDeck;
  signal: AbortSignal;
  /** Seed material of the run (its inputs); each call adds its place in the method. */
  seed: string;
  batchConcurrency: number;
  /** Pipe invocations so far (bounded: recursion through conditions could otherwise run away). */
  calls: { count: number };
  maxCalls: number;
  maxDepth: number;
  /** The functions PipeFunc pipes call (runner/functions.ts); absent: no registry is configured. */
  functions?: ReadonlyMap<string, RegisteredFunction>;
  /**
   * The dry run (language reference §10.3): nothing is called that a bundle text cannot supply —
   * signatures, functions and document engines answer a mock of their declared output.
   */
  dry?: boolean;
}

export interface Invocation {
  /** The call's place in the method, e.g. `review/steps.1/batch.2`: seeds and messages. */
  path: string;
  depth: number;
  /** A caller's override of the output multiplicity (nb_output, multiple_output, the request). */
  multiplicity?: Multiplicity;
  /** The request's dynamic_output_concept_ref, for a pipe whose output is Dynamic. */
  dynamicConcept?: ConceptInfo;
}

export interface OutputTarget {
  info: ConceptInfo;
  multiplicity: Multiplicity;
  optional: boolean;
}

/** How one pipe type runs: an operator or a controller (the table is pipeRunners.ts). */
export type PipeRunner = (ctx: RunContext, pipe: PipeDecl, memory: WorkingMemory, inv: Invocation, target: OutputTarget) => Promise<Stuff | undefined>;

export function failure(pipe: PipeDecl, finding: string): Refusal {
  return new Refusal('mthdsls.pipe.execution_failed', { pipe: pipe.code, finding });
}

function checkAlive(ctx: RunContext): void {
  if (ctx.signal.aborted) {
    const reason = ctx.signal.reason;
    throw reason instanceof Refusal ? reason : new Refusal('mthdsls.run.cancelled', { reason: 'requested' });
  }
}

/** The concept and multiplicity a call of `pipe` must produce. */
export function outputTarget(ctx: RunContext, pipe: PipeDecl, inv: Invocation): OutputTarget {
  const io = pipe.output?.io;
  if (!io) throw failure(pipe, 'its output does not name a concept');
  let info = ctx.catalog.resolve(io, pipe.bundle);
  if (!info) throw failure(pipe, `its output concept ${formatRef(io)} cannot be resolved`);
  if (inv.dynamicConcept && info.ref === 'native.Dynamic') info = inv.dynamicConcept;
  return { info, multiplicity: inv.multiplicity ?? io.multiplicity, optional: io.marker === '?' };
}

/** Runs a pipe; undefined means its output is absent (lifted, or a condition that continued). */
export async function runPipe(ctx: RunContext, pipe: PipeDecl, memory: WorkingMemory, inv: Invocation): Promise<Stuff | undefined> {
  checkAlive(ctx);
  if (++ctx.calls.count > ctx.maxCalls) throw failure(pipe, `the run made more than ${ctx.maxCalls} pipe calls`);
  if (inv.depth > ctx.maxDepth) throw failure(pipe, `the run nests pipe calls deeper than ${ctx.maxDepth} levels`);
  const type = pipe.type?.value ?? '';
  if (ctx.dry && (pipe.typeless || type === 'PipeFunc' || type === 'PipeDocGen')) return mintedOutput(ctx, pipe, inv);
  if (pipe.typeless) throw new Refusal('method.not_runnable', { pipe: pipe.code });
  const runner = Object.hasOwn(ctx.runners, type) ? ctx.runners[type] : undefined;
  if (!runner) throw failure(pipe, `the pipe type ${type || '(none)'} cannot run on this runner`);
  const target = outputTarget(ctx, pipe, inv);

  for (const input of pipe.inputs) {
    const io = input.ref?.io;
    if (!io || memory.get(input.name) || io.marker === '?') continue;
    // A plain input recorded as absent lifts the pipe: it is skipped and its output is absent too.
    if (memory.isAbsent(input.name)) return target.multiplicity.kind === 'single' ? undefined : { concept: target.info, content: [], list: true };
    throw failure(pipe, `its required input ${input.name} has no value in working memory`);
  }
  return runner(ctx, pipe, memory, inv, target);
}

/** A mock of the pipe's declared output, as a dry run stands in for what cannot run. */
function mintedOutput(ctx: RunContext, pipe: PipeDecl, inv: Invocation): Stuff {
  const target = outputTarget(ctx, pipe, inv);
  const rng = createRng(callSeed(ctx, inv, 'dry'));
  const m = target.multiplicity;
  const count = m.kind === 'single' ? 1 : m.kind === 'fixed' ? m.count : 2;
  return finishOutput(ctx, pipe, target, mintList(ctx.catalog, target.info, count, rng, { label: pipe.code }));
}

/** The pipe a step, branch or outcome names, seen from the pipe that names it. */
export function childPipe(ctx: RunContext, parent: PipeDecl, site: PipeRefSite | undefined): PipeDecl {
  if (!site?.ref) throw failure(parent, 'a step names no pipe');
  const resolution = resolvePipe(ctx.tree, parent.bundle, site.ref);
  if (resolution.kind === 'pipe') return resolution.decl;
  if (resolution.kind === 'external') {
    throw new Refusal('method.dependency_missing', { kind: 'package', name: resolution.prefix, reason: 'not_found' }, { detail: `The pipe ${site.raw} lives in the dependency ${resolution.prefix}, which runners of bundle texts cannot load.` });
  }
  throw new Refusal('method.pipe_unresolved', { pipe: parent.code, missing: site.raw, candidates: [] });
}

/**
 * Finishes an operator's output: the count a fixed multiplicity demands (pipe.output_multiplicity
 * otherwise), and every item checked against the output concept (mthdsls.pipe.output_invalid).
 */
export function finishOutput(ctx: RunContext, pipe: PipeDecl, target: OutputTarget, items: unknown[]): Stuff {
  const m = target.multiplicity;
  if (m.kind === 'fixed' && items.length !== m.count) {
    throw new Refusal('pipe.output_multiplicity', { pipe: pipe.code, expected: 'fixed', expected_count: m.count, produced_count: items.length });
  }
  if (m.kind === 'single' && items.length !== 1) {
    throw new Refusal('pipe.output_multiplicity', { pipe: pipe.code, expected: 'single', produced_count: items.length });
  }
  items.forEach((item, i) => {
    const fault = contentFault(ctx.catalog, target.info, item);
    if (fault !== undefined) {
      throw new Refusal('mthdsls.pipe.output_invalid', { pipe: pipe.code, concept: target.info.ref, field: m.kind === 'single' ? fault : `${i}.${fault}` });
    }
  });
  return m.kind === 'single' ? { concept: target.info, content: items[0], list: false } : { concept: target.info, content: items, list: true };
}

/** The value of a key of the pipe's table, as plain JSON (undefined when absent). */
export function setting(pipe: PipeDecl, key: string): unknown {
  const node = getEntry(pipe.table, key)?.value;
  if (!node) return undefined;
  // Strings and booleans (prompts, styles, model names: most settings) come through JSON unchanged.
  if (node.type === 'string' || node.type === 'boolean') return node.value;
  return JSON.parse(JSON.stringify(toPlainValue(node), (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) ?? 'null');
}

export function stringSetting(pipe: PipeDecl, key: string): string | undefined {
  const v = setting(pipe, key);
  return typeof v === 'string' ? v : undefined;
}

/** The model a pipe names (a reference or a settings table) and its provider. */
export function modelFor(ctx: RunContext, pipe: PipeDecl, type: ModelType, key = 'model'): { model: DeckModel; provider: Provider; settings: ModelSettings } {
  const raw = setting(pipe, key);
  const settings: ModelSettings = {};
  let reference: string | undefined;
  if (typeof raw === 'string') reference = raw;
  else if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const table = raw as Record<string, unknown>;
    if (typeof table['model'] === 'string') reference = table['model'];
    if (typeof table['temperature'] === 'number') settings.temperature = table['temperature'];
    if (typeof table['max_tokens'] === 'number') settings.maxTokens = table['max_tokens'];
    for (const [k, v] of Object.entries(table)) if (k !== 'model' && k !== 'description' && !(k in settings)) settings[k] = v;
  }
  const model = ctx.deck.resolve(reference, type);
  return { model, provider: ctx.deck.provider(model), settings };
}

/** The declared inputs present in memory, as templates see them. */
export function templateContext(ctx: RunContext, pipe: PipeDecl, memory: WorkingMemory, inv: Invocation): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  for (const input of pipe.inputs) {
    const stuff = memory.get(input.name);
    if (stuff) context[input.name] = templateView(ctx.catalog, stuff, input.name);
  }
  const m = inv.multiplicity;
  if (m?.kind === 'fixed') context['_nb_output'] = m.count;
  return context;
}

export function callSeed(ctx: RunContext, inv: Invocation, extra = ''): string {
  return `${ctx.seed}|${inv.path}${extra ? `|${extra}` : ''}`;
}

/** Runs `fn` over `items` with at most `limit` at once, keeping the order of results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
