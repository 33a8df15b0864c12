// The dry run (language reference §10): every pipe of a method run once on minted inputs, with
// the deterministic mock provider and the dry executor (signatures, functions and document engines
// answer mocks), to catch the faults only a run reveals. It is the executor itself, so a dry run
// and a real run can never disagree about what a pipe does.

import type { Finding } from '../check/finding.js';
import { makeFinding } from '../check/finding.js';
import { hasErrors } from '../check/index.js';
import { ConceptCatalog, type ConceptInfo } from '../language/jsonSchema.js';
import { createRng, mintContent, mintList } from '../language/mock.js';
import type { PipeDecl } from '../language/model.js';
import type { MethodTree } from '../language/tree.js';
import { ModelDeck } from './deck.js';
import { contentFault } from './execute/contents.js';
import { PIPE_RUNNERS, runPipe, WorkingMemory, type RunContext } from './execute/index.js';
import { qualifiedPipeRef } from './method.js';
import { isRefusal, type Refusal } from './refusal.js';
import type { DryRunHook } from './validate.js';

export type DryStatus = 'SUCCESS' | 'FAILURE' | 'SKIPPED';

export interface DryRunReport {
  findings: Finding[];
  validatedPipes: Array<{ pipe_ref: string; status: DryStatus }>;
}

// Built on first use: config.ts imports this module, and the deck module imports config.ts.
let mockDeck: ModelDeck | undefined;
/** A dry run without a signal is never cancelled: this one never aborts. */
const NEVER_ABORTED = new AbortController().signal;
/** Refusals that say the dry run could not go on, not that the method is wrong. */
const SKIPPING = new Set(['method.dependency_missing', 'mthdsls.pipe.condition_failed', 'mthdsls.run.cancelled']);

export interface DryRunOptions {
  allowSignatures?: boolean;
  seed?: string;
  /**
   * Cancels the run (it rejects with the signal's reason). With a signal, the run yields to the
   * event loop between pipes, so that a background run never holds up the process's other work.
   */
  signal?: AbortSignal;
}

/** Whether a tree is dry-run after its static checks: only when they found no error (a method that fails them is not run) and it has bundles. */
export function dryRunDue(tree: MethodTree, staticFindings: readonly Finding[]): boolean {
  return !hasErrors(staticFindings) && tree.bundles.length > 0;
}

/** The dry run of `mthds check` and of the language server, after a tree's static checks (none when not `dryRunDue`). */
export async function dryRunAfterChecks(tree: MethodTree, staticFindings: readonly Finding[], options: { signal?: AbortSignal } = {}): Promise<Finding[]> {
  if (!dryRunDue(tree, staticFindings)) return [];
  const catalog = new ConceptCatalog(tree);
  return (await dryRunTree(tree, catalog, options)).findings;
}

/** Dry-runs every concrete pipe of the tree; findings are located at the innermost failing pipe. */
export async function dryRunTree(tree: MethodTree, catalog: ConceptCatalog, options: DryRunOptions = {}): Promise<DryRunReport> {
  const signal = options.signal;
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const report = (f: Finding): void => {
    const key = `${f.code}|${f.file}|${f.range.start}|${f.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push(f);
  };
  const validatedPipes: DryRunReport['validatedPipes'] = [];
  const pipes: PipeDecl[] = [];
  for (const b of tree.bundles) for (const p of b.pipes) if (p.spec || (p.typeless && options.allowSignatures)) pipes.push(p);
  const mockFaults = new Map<ConceptInfo, boolean>();
  for (const pipe of pipes) {
    if (signal) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
    }
    const ref = qualifiedPipeRef(pipe);
    if (!mocksSatisfiable(catalog, pipe, report, mockFaults)) {
      validatedPipes.push({ pipe_ref: ref, status: 'FAILURE' });
      continue;
    }
    const memory = new WorkingMemory();
    const rng = createRng(`${options.seed ?? 'dry'}|${ref}`);
    let mintable = true;
    for (const input of pipe.inputs) {
      const io = input.ref?.io;
      const info = io ? catalog.resolve(io, pipe.bundle) : undefined;
      if (!io || !info) {
        mintable = false;
        break;
      }
      const list = io.multiplicity.kind !== 'single';
      const count = io.multiplicity.kind === 'fixed' ? io.multiplicity.count : 2;
      const content = list ? mintList(catalog, info, count, rng.fork(input.name), { label: input.name }) : mintContent(catalog, info, rng.fork(input.name), { label: input.name });
      memory.set(input.name, { concept: info, content, list });
    }
    if (!mintable) {
      validatedPipes.push({ pipe_ref: ref, status: 'SKIPPED' });
      continue;
    }
    const ctx: RunContext = {
      runners: PIPE_RUNNERS,
      tree,
      catalog,
      deck: (mockDeck ??= new ModelDeck({}, {})),
      signal: signal ?? NEVER_ABORTED,
      seed: `${options.seed ?? 'dry'}|${ref}`,
      batchConcurrency: 4,
      calls: { count: 0 },
      maxCalls: 2_000,
      maxDepth: 32,
      dry: true,
    };
    try {
      await runPipe(ctx, pipe, memory, { path: pipe.code, depth: 0 });
      validatedPipes.push({ pipe_ref: ref, status: 'SUCCESS' });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      if (SKIPPING.has(error.code)) {
        validatedPipes.push({ pipe_ref: ref, status: 'SKIPPED' });
        continue;
      }
      validatedPipes.push({ pipe_ref: ref, status: 'FAILURE' });
      report(findingOf(tree, pipe, error));
    }
  }
  signal?.throwIfAborted();
  return { findings, validatedPipes };
}

/** The hook `/validate` plugs in: the dry run's faults become `dry_run` items of the verdict. */
export const dryRun: DryRunHook = async (input) => {
  const { findings, validatedPipes } = await dryRunTree(input.tree, input.catalog, { allowSignatures: input.allowSignatures });
  return {
    errors: findings.filter((f) => f.severity === 'error').map((f) => input.toItem(f, 'dry_run')),
    warnings: findings.filter((f) => f.severity !== 'error').map((f) => input.toItem(f, 'dry_run')),
    extensions: { validated_pipes: validatedPipes },
  };
};

/**
 * method.mock_unsatisfiable: the mock of a concept the dry run needs breaks the concept's own
 * constraints (a default outside its choices, contradictory fields), so no value can satisfy it.
 */
function mocksSatisfiable(catalog: ConceptCatalog, pipe: PipeDecl, report: (f: Finding) => void, faults: Map<ConceptInfo, boolean>): boolean {
  const sites = [...pipe.inputs.map((i) => i.ref), pipe.output];
  for (const site of sites) {
    const io = site?.io;
    const info = io ? catalog.resolve(io, pipe.bundle) : undefined;
    if (!site || !info) continue;
    // The mock of a concept depends on the concept alone (its rng is seeded by its ref): minted and
    // checked once per concept of the catalog, however many pipes read or produce it.
    let faulty = faults.get(info);
    if (faulty === undefined) {
      faulty = contentFault(catalog, info, mintContent(catalog, info, createRng(info.ref), { label: info.code })) !== undefined;
      faults.set(info, faulty);
    }
    if (faulty) {
      report(makeFinding('method.mock_unsatisfiable', { concept: info.ref }, pipe.bundle.file, site.node.range));
      return false;
    }
  }
  return true;
}

/** Where the refusal happened (the pipe it names, innermost), under the sharper method code. */
function findingOf(tree: MethodTree, started: PipeDecl, refusal: Refusal): Finding {
  const code = typeof refusal.params['pipe'] === 'string' ? refusal.params['pipe'] : started.code;
  const pipe = findPipe(tree, code, started) ?? started;
  const file = pipe.bundle.file;
  const at = pipe.codeRange;
  const p = refusal.params;
  switch (refusal.code) {
    case 'mthdsls.pipe.template_render_failed':
      return makeFinding('method.template_invalid', { pipe: pipe.code, template: String(p['template'] ?? 'template'), finding: String(p['finding'] ?? 'the template failed to render') }, file, at);
    case 'mthdsls.pipe.output_invalid':
      return makeFinding('method.output_concept_mismatch', { pipe: pipe.code, declared: pipe.output?.raw ?? '', pipe_type: pipe.type?.value ?? 'signature', expected: [String(p['concept'] ?? '')] }, file, pipe.output?.node.range ?? at);
    case 'pipe.output_multiplicity': {
      const expected = p['expected'] === 'fixed' ? 'fixed' : p['expected'] === 'list' ? 'list' : 'single';
      return makeFinding('method.output_multiplicity_mismatch', { pipe: pipe.code, declared: pipe.output?.raw ?? '', expected }, file, pipe.output?.node.range ?? at);
    }
    case 'mthdsls.pipe.condition_no_result':
      return makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: 'expression', finding: 'the expression renders nothing, so no outcome can be chosen' }, file, at);
    default:
      if (refusal.code.startsWith('method.')) {
        try {
          return makeFinding(refusal.code, p, file, at);
        } catch {
          // a method code whose params do not render: fall through to the generic code
        }
      }
      return makeFinding('method.schema_violation', { field_path: `pipe.${pipe.code}`, finding: `the dry run fails: ${refusal.options.detail ?? String(p['finding'] ?? refusal.code)}` }, file, at);
  }
}

function findPipe(tree: MethodTree, code: string, near: PipeDecl): PipeDecl | undefined {
  const same = near.bundle.pipes.find((p) => p.code === code && !p.typeless);
  if (same) return same;
  for (const b of tree.bundles) {
    const found = b.pipes.find((p) => p.code === code && !p.typeless);
    if (found) return found;
  }
  return undefined;
}
