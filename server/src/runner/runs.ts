// Runs: from a checked RunRequest to a RunResultExecute. The method is loaded and checked (an
// invalid method is refused with method.invalid, one item per fault), the pipe selected, the pipes
// it can reach vetted (signatures, PipeFunc), the inputs bound, then the executor runs under the
// runner's time bound. /start runs the same thing in the background and posts the outcome.

import { createHash } from 'node:crypto';
import { checkTree, type Finding } from '../check/index.js';
import { checkEnvironment } from '../check/rules/functions.js';
import { ConceptCatalog } from '../language/jsonSchema.js';
import type { PipeDecl } from '../language/model.js';
import type { Multiplicity } from '../language/references.js';
import { resolvePipe, type MethodTree } from '../language/tree.js';
import type { ProblemItemInput } from '../registry/index.js';
import type { ResolvedConfig } from './config.js';
import type { ModelDeck } from './deck.js';
import { PIPE_RUNNERS, runPipe, type Invocation, type RunContext, type Stuff, type WorkingMemory } from './execute/index.js';
import { bindInputs } from './execute/inputs.js';
import { MAIN_STUFF } from './execute/memory.js';
import type { FunctionRegistry } from './functions.js';
import { loadMethod, loadOptionsOf, methodFileText, qualifiedPipeRef, selectPipe, type LoadedMethod } from './method.js';
import { Refusal } from './refusal.js';
import type { RunRequest } from './requests.js';
import { checkUrlInputs } from './urlInputs.js';
import { FindingLocator } from './validate.js';

export interface RunResultExecute {
  pipeline_run_id: string;
  state: 'COMPLETED';
  created_at: string;
  finished_at: string;
  main_stuff_name?: string;
  pipe_output: {
    pipeline_run_id: string;
    working_memory: { root: Record<string, { concept: string; content: unknown }>; aliases: Record<string, string> };
    /** Present when the main output is absent (a condition that continued, a lifted pipe). */
    absent?: { absent: true; kind: 'declared_absent' };
  };
}

const MAX_ITEMS = 100;

/** The umbrella refusal of an invalid method: one item per fault, located in the caller's files. */
export function methodInvalid(method: LoadedMethod): Refusal | undefined {
  const findings = [...method.findings, ...checkTree(method.tree)].filter((f) => f.severity === 'error');
  if (method.tree.bundles.length === 0) return new Refusal('method.package_invalid', { reason: 'no_source' });
  if (findings.length === 0) return undefined;
  const errors = problemItems(method, findings);
  const detail = findings.length > MAX_ITEMS ? `The method is invalid: ${findings.length} faults, the first ${MAX_ITEMS} listed in errors.` : undefined;
  return new Refusal('method.invalid', {}, detail ? { errors, detail } : { errors });
}

/**
 * The environment check of a runner with a function registry (PipeFunc functions, requirements.txt):
 * its first fault is the problem, under its own code; every one is an item when there are several.
 */
export function environmentInvalid(method: LoadedMethod, functions: FunctionRegistry): Refusal | undefined {
  const findings = checkEnvironment(method.tree, functions.catalog, (rel) => methodFileText(method, rel)).filter((f) => f.severity === 'error');
  return findings.length > 0 ? inputRefusal(problemItems(method, findings)) : undefined;
}

/** Findings as problem items, located in the caller's files. */
function problemItems(method: LoadedMethod, findings: readonly Finding[]): ProblemItemInput[] {
  const locator = new FindingLocator(method);
  return findings.slice(0, MAX_ITEMS).map((f) => {
    const item = locator.item(f);
    const location: NonNullable<ProblemItemInput['location']> = { file: item.file, line: item.line, column: item.column };
    if (item.pipe) location.pipe = item.pipe;
    if (item.concept) location.concept = item.concept;
    if (item.field) location.field = item.field;
    return { code: f.code as ProblemItemInput['code'], params: f.params, location };
  });
}

/** Input (or environment) faults: the first is the problem, every one an item when there are several. */
function inputRefusal(faults: ProblemItemInput[]): Refusal {
  const first = faults[0]!;
  const options = faults.length > 1 ? { errors: faults.slice(0, MAX_ITEMS) } : {};
  return new Refusal(first.code, first.params ?? {}, first.location ? { ...options, location: first.location } : options);
}

/**
 * Pipes the selected one can reach that this runner can never run: refused before anything runs
 * (no model is called for a run that would fail at its third step).
 */
function vetReachable(tree: MethodTree, start: PipeDecl, functions?: FunctionRegistry): void {
  const seen = new Set<PipeDecl>();
  const stack = [start];
  while (stack.length > 0) {
    const pipe = stack.pop()!;
    if (seen.has(pipe)) continue;
    seen.add(pipe);
    if (pipe.typeless) throw new Refusal('method.not_runnable', { pipe: pipe.code });
    const type = pipe.type?.value;
    // With a registry, the environment check has vetted every PipeFunc's function already.
    if (type === 'PipeFunc' && !functions) {
      const fn = pipe.table.entries.find((e) => e.key === 'function_name')?.value;
      throw new Refusal('mthdsls.pipe.func_unsupported', { pipe: pipe.code, function: fn?.type === 'string' && fn.value !== '' ? fn.value : pipe.code });
    }
    if (type === 'PipeDocGen') throw new Refusal('request.unsupported', { field: `pipe.${pipe.code}.type`, reason: 'pipe_doc_gen' });
    for (const site of pipe.pipeRefs) {
      if (site.special || !site.ref) continue;
      const r = resolvePipe(tree, pipe.bundle, site.ref);
      if (r.kind === 'pipe') stack.push(r.decl);
    }
  }
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The digest of a request body (key order does not matter): idempotency and mock seeds. */
export function bodyDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function multiplicityOf(m: boolean | number | undefined): Multiplicity | undefined {
  if (m === undefined) return undefined;
  if (m === true) return { kind: 'list' };
  if (m === false || m === 1) return { kind: 'single' };
  return { kind: 'fixed', count: m };
}

export interface RunDeps {
  config: ResolvedConfig;
  deck: ModelDeck;
  /** The function registry of PipeFunc, when function modules are configured. */
  functions?: FunctionRegistry;
}

/** A run checked and ready: everything a refusal of the request can come from is behind it. */
export interface PreparedRun {
  tree: MethodTree;
  pipe: PipeDecl;
  catalog: ConceptCatalog;
  memory: WorkingMemory;
  invocation: Invocation;
  outputName?: string;
  seed: string;
}

/**
 * Loads and checks the method, selects the pipe, vets what it reaches and binds the inputs. Throws
 * the refusal of the request: /start answers it instead of a 202, like /execute.
 */
export function prepareRun(request: RunRequest, deps: RunDeps): PreparedRun {
  if (!request.method) {
    throw new Refusal('request.pipe_not_found', { pipe: request.pipeCode ?? '', suggestions: [] }, { detail: `This runner keeps no library of registered pipes, so ${request.pipeCode ?? 'the pipe'} is not one; send the method in mthds_contents or files.` });
  }
  // A method_ref URL is downloaded by the route before the run is prepared (materializeMethod).
  if (request.method.kind === 'remote') throw new Refusal('method.fetch_failed', { method_ref: request.method.ref });
  const method = loadMethod(request.method, loadOptionsOf(deps.config));
  const invalid = methodInvalid(method);
  if (invalid) throw invalid;
  const environment = deps.functions ? environmentInvalid(method, deps.functions) : undefined;
  if (environment) throw environment;
  const pipe = selectPipe(method.tree, request.pipeCode);
  vetReachable(method.tree, pipe, deps.functions);
  const catalog = new ConceptCatalog(method.tree);
  const { memory, faults } = bindInputs(catalog, pipe, request.inputs);
  if (faults.length > 0) throw inputRefusal(faults);
  const invocation: Invocation = { path: qualifiedPipeRef(pipe), depth: 0 };
  const multiplicity = multiplicityOf(request.outputMultiplicity);
  if (multiplicity) invocation.multiplicity = multiplicity;
  if (request.dynamicOutputConceptRef !== undefined) {
    const info = catalog.resolve(request.dynamicOutputConceptRef, pipe.bundle);
    if (!info) throw new Refusal('request.invalid', { field: 'dynamic_output_concept_ref' }, { detail: 'dynamic_output_concept_ref names no concept of the method or the natives.' });
    invocation.dynamicConcept = info;
  }
  const prepared: PreparedRun = { tree: method.tree, pipe, catalog, memory, invocation, seed: `${deps.config.mockSeed}|${bodyDigest(request.inputs)}` };
  if (request.outputName !== undefined) prepared.outputName = request.outputName;
  return prepared;
}

/**
 * prepareRun, then the addresses the inputs name (URL inputs must not point into the runner's own
 * network): everything that refuses a run request, checked before it runs or is answered 202.
 */
export async function admitRun(request: RunRequest, deps: RunDeps): Promise<PreparedRun> {
  const prepared = prepareRun(request, deps);
  await checkUrlInputs(prepared.catalog, prepared.memory, deps.config.network);
  return prepared;
}

/** Executes a prepared run under the runner's time bound; `signal` cancels it. */
export async function executePrepared(prepared: PreparedRun, deps: RunDeps, runId: string, signal: AbortSignal): Promise<RunResultExecute> {
  const createdAt = new Date().toISOString();
  const timeout = AbortSignal.timeout(deps.config.limits.run_timeout_seconds * 1000);
  const combined = AbortSignal.any([signal, timeout]);
  const { memory } = prepared;
  const ctx: RunContext = {
    runners: PIPE_RUNNERS,
    tree: prepared.tree,
    catalog: prepared.catalog,
    deck: deps.deck,
    signal: combined,
    seed: prepared.seed,
    batchConcurrency: deps.config.limits.batch_concurrency,
    calls: { count: 0 },
    maxCalls: 10_000,
    maxDepth: 64,
  };
  if (deps.functions) ctx.functions = deps.functions.functions;
  let out: Stuff | undefined;
  try {
    out = await runPipe(ctx, prepared.pipe, memory, prepared.invocation);
  } catch (error) {
    if (timeout.aborted) throw new Refusal('mthdsls.run.timeout', { seconds: deps.config.limits.run_timeout_seconds });
    if (signal.aborted) throw signal.reason instanceof Refusal ? signal.reason : new Refusal('mthdsls.run.cancelled', { reason: 'requested' });
    throw error;
  }
  const result: RunResultExecute = {
    pipeline_run_id: runId,
    state: 'COMPLETED',
    created_at: createdAt,
    finished_at: new Date().toISOString(),
    pipe_output: { pipeline_run_id: runId, working_memory: { root: {}, aliases: {} } },
  };
  if (out) {
    let name = prepared.outputName;
    if (name === undefined) {
      const main = memory.aliases.get(MAIN_STUFF);
      name = main !== undefined && memory.root.get(main) === out ? main : [...memory.root].find(([, s]) => s === out)?.[0] ?? MAIN_STUFF;
    }
    memory.setMain(name, out);
    result.main_stuff_name = name;
  } else result.pipe_output.absent = { absent: true, kind: 'declared_absent' };
  result.pipe_output.working_memory = memory.toWire();
  return result;
}

export async function executeRun(request: RunRequest, deps: RunDeps, runId: string, signal: AbortSignal): Promise<RunResultExecute> {
  return executePrepared(await admitRun(request, deps), deps, runId, signal);
}

/** Runs in flight, so that a shutdown (or a bound on concurrency) can see and cancel them. */
export class RunRegistry {
  private readonly controllers = new Map<string, { controller: AbortController; background: boolean }>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.controllers.size;
  }

  /** Reserves a slot for a run; mthdsls.runtime.unavailable when the runner is at capacity. */
  open(runId: string, background: boolean): AbortController {
    if (this.controllers.size >= this.max) throw new Refusal('mthdsls.runtime.unavailable', {}, { retryAfter: 1, detail: `The runner is executing its maximum of ${this.max} runs; retry shortly.` });
    const controller = new AbortController();
    this.controllers.set(runId, { controller, background });
    return controller;
  }

  close(runId: string): void {
    this.controllers.delete(runId);
  }

  /** Cancels the runs in flight (only the background ones when `backgroundOnly`). */
  abortAll(reason: Refusal, backgroundOnly = false): void {
    for (const { controller, background } of this.controllers.values()) if (background || !backgroundOnly) controller.abort(reason);
  }
}
