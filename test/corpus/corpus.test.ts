// The shared corpus of real bundles, checked method folder by method folder: the folder of a
// METHODS.toml (its package), else each bundle's own folder (the bundles beside it load together).

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTree } from '../../server/src/check/index.js';
import type { Finding } from '../../server/src/check/finding.js';
import { findPackageRoot, isBundlePath } from '../../server/src/workspace/discover.js';
import { loadTree, planTrees, type TreePlan } from '../../server/src/workspace/load.js';
import { PackageCache, resolveDependencies } from '../../server/src/workspace/dependencies.js';
import { readStructures } from '../../server/src/workspace/structures.js';

import { SHARED, sharedPath } from './shared.js';

const CORPUS = sharedPath('corpus');
// The manifest's paths start at the folder holding the shared folder.
const WORK = path.dirname(SHARED);

interface Entry {
  path: string;
  kind: string;
  expectation: 'valid' | 'invalid' | 'legacy' | 'unknown';
  negative: boolean;
  expected_error?: string;
}

/**
 * Negative fixtures whose fault only a run reveals: the static rules must pass them (the test
 * fails if one starts being flagged statically) and the dry run must flag them (second test).
 */
const PENDING_RULES: Record<string, string> = {
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_dry_run_residual/bundle.mthds': 'method.wiring_invalid',
};

/** The registry code each negative fixture's stated error maps to (language reference §9.5). */
const EXPECTED_CODES: Record<string, string> = {
  'negative/Pipelex__pipelex/tests/integration/pipelex/pipes/pipelines/failing_pipelines.mthds': 'method.cycle',
  'negative/Pipelex__pipelex-api/postman/sample-bundles/invalid/bad_pipe_type.mthds': 'method.pipe_type_invalid',
  'negative/Pipelex__pipelex-api/postman/sample-bundles/invalid/missing_pipe_ref.mthds': 'method.pipe_unresolved',
  'negative/Pipelex__pipelex-api/postman/sample-bundles/invalid/prompt_input_mismatch.mthds': 'method.input_undeclared',
  'negative/Pipelex__pipelex-api/postman/sample-bundles/invalid/syntax_error.mthds': 'method.syntax',
  'negative/Pipelex__pipelex-api/postman/sample-bundles/invalid/unknown_concept.mthds': 'method.concept_unresolved',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_missing_input_variable/bundle.mthds': 'method.input_undeclared',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_input_stuff_spec_mismatch/bundle.mthds': 'method.input_concept_mismatch',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_llm_output_cannot_be_image/bundle.mthds': 'method.output_concept_mismatch',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_optional_output_required/bundle.mthds': 'method.optional_unhandled',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_native_concept_redeclaration/bundle.mthds': 'method.name_conflict',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_optional_input_unguarded/bundle.mthds': 'method.optional_unhandled',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_pipe_code_syntax/bundle.mthds': 'method.identifier_invalid',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_unknown_pipe_type/bundle.mthds': 'method.pipe_type_invalid',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_unresolved_concept_owned/bundle.mthds': 'method.concept_unresolved',
  'negative/Pipelex__vscode-pipelex/test-data/mthds-corpus/entries/invalid_unresolved_pipe_dependency/bundle.mthds': 'method.pipe_unresolved',
  'negative/Pipelex__vscode-pipelex/test-data/mthds/lint/invalid_schema.mthds': 'method.pipe_type_invalid',
  // Relabelled invalid after triage against the newest runtime (the manifest's expected_error).
  'Pipelex__methods/methods/doc_summarizer/bundle.mthds': 'method.output_concept_mismatch',
  'Pipelex__methods/methods/rfp_qualifier/bundle.mthds': 'method.output_multiplicity_mismatch',
  'Pipelex__mthds-ui/data/pipelines/pipeline_31/bundle.mthds': 'method.output_multiplicity_mismatch',
  'Pipelex__mthds-ui/data/pipelines/pipeline_18/bundle.mthds': 'method.output_multiplicity_mismatch',
  'Pipelex__mthds-ui/data/pipelines/pipeline_05/bundle.mthds': 'method.wiring_invalid',
};

/**
 * Structures the host programs of the corpus register for description-only concepts (the runtime
 * binds a concept to a registered class of its name): the runtime's own tests and cocode declare
 * them in Python; test/corpus/structures.toml declares the same fields for the checker.
 */
const structuresRead = readStructures(path.join(__dirname, 'structures.toml'));
if (!structuresRead.ok) throw new Error(structuresRead.message);
const HOST_STRUCTURES = structuresRead.structures;

const packages = new PackageCache();

/**
 * A method folder as the command line loads it: its repository's other packages are its
 * siblings (`address/name->...` references resolve to them), with the host's structures.
 */
function load(plan: TreePlan): ReturnType<typeof loadTree> {
  const loaded = loadTree(plan);
  loaded.tree.hostStructures = HOST_STRUCTURES;
  const repository = path.join(CORPUS, path.relative(CORPUS, plan.root).split(path.sep)[0]!);
  loaded.findings.push(...resolveDependencies(loaded.tree, { cache: packages, workspace: [repository] }));
  return loaded;
}

const GIT_DIFF_MISSING =
  'git.GitDiff is declared in cocode/pipelines/swe_diff/git.mthds, present at the manifest commit (Pipelex/cocode @ 40b5c8a0, added in 6b9b072) and loaded with the rest of cocode/pipelines, the one library folder cocode gives the runtime (cocode/common.py PIPELINE_LIBRARY_DIRS); the corpus holds no file of swe_diff/, and nothing else declares the concept';
/**
 * Why the runtime refuses a parallel whose output is a Text refinement although `add_each_output`
 * is set. The manifest's `valid` is older than the change: the runs the repository records
 * (data/pipelines/pipeline_10/live_run_graph_spec.json @ Pipelex/mthds-ui 5eef5bd, 2026-04-06) came
 * from a runtime that still had `combined_output` and combined nothing for an add_each parallel.
 */
const ALWAYS_COMBINES =
  'The newest runtime always combines the branches into the declared output, add_each_output or not, and validates that first: the class of a Text refinement inherits TextContent, whose one required field `text` no branch produces, and no branch result is a field of it (pipelex parallel/pipe_parallel.py @ 01e23ca4 validate_output_with_library, concepts/concept_factory.py @ f8b8fec6 _handle_refines; wip/required-main-stuff.md @ 1215516d: an add_each-only output "is a lie" and migrates to Composite; the runtime\'s test test_pipe_parallel_output_validation.py @ 803b1fd6 refuses a description-only output naming `text`).';

/**
 * Bundles the manifest lists as valid that this checker flags, each with the codes and the reason.
 * Keep this list empty unless the corpus itself lacks a file, or the newest runtime's source
 * contradicts the label.
 */
const VALID_BUT_FLAGGED: Record<string, { codes: string[]; reason: string }> = {
  'Pipelex__cocode/cocode/pipelines/doc_update/ai_instruction_update.mthds': { codes: ['method.concept_unresolved'], reason: GIT_DIFF_MISSING },
  'Pipelex__cocode/cocode/pipelines/doc_update/doc_update.mthds': { codes: ['method.concept_unresolved'], reason: GIT_DIFF_MISSING },
  'Pipelex__mthds-ui/data/pipelines/pipeline_10/bundle.mthds': { codes: ['method.wiring_invalid'], reason: `an add_each_output parallel outputs CleanText (refines Text), branches \`clean_text\`, \`processed_image\`. ${ALWAYS_COMBINES}` },
  'Pipelex__mthds-ui/data/pipelines/pipeline_16/bundle.mthds': { codes: ['method.wiring_invalid'], reason: `an add_each_output parallel outputs Description (refines Text), branches \`description\`, \`tags\`, \`thumbnail\`. ${ALWAYS_COMBINES}` },
  'Pipelex__mthds-ui/data/pipelines/pipeline_22/bundle.mthds': { codes: ['method.wiring_invalid'], reason: `an add_each_output parallel outputs Summary (refines Text), branches \`summary\`, \`index_entry\`, \`sentiment_log\`. ${ALWAYS_COMBINES}` },
  'Pipelex__pipelex-cookbook/tutorial/medium/3_parallel_execution.mthds': {
    codes: ['method.output_concept_mismatch'],
    reason: 'an add_each_output parallel outputs Dynamic: the newest runtime refuses every native output but Composite, Dynamic named (pipelex parallel/pipe_parallel_blueprint.py @ 1215516d validate_output; wip/required-main-stuff.md @ 1215516d §3). The tutorial predates that change.',
  },
};

const entries = JSON.parse(readFileSync(path.join(CORPUS, 'MANIFEST.shared.json'), 'utf8')) as Entry[];
const bundles = entries.filter((e) => e.kind === 'bundle');

/** One plan per method folder. */
function methodFolders(): TreePlan[] {
  const plans = new Map<string, TreePlan>();
  for (const e of bundles) {
    const file = path.join(WORK, e.path);
    const pkg = findPackageRoot(path.dirname(file));
    const inCorpus = pkg !== undefined && pkg.startsWith(CORPUS);
    if (inCorpus) {
      if (!plans.has(pkg)) plans.set(pkg, planTrees([pkg]).plans[0]!);
      continue;
    }
    const dir = path.dirname(file);
    if (!plans.has(dir)) {
      const siblings = readdirSync(dir).map((n) => path.join(dir, n));
      plans.set(dir, { root: dir, bundleFiles: siblings.filter(isBundlePath), allFiles: siblings });
    }
  }
  return [...plans.values()];
}

describe('the shared corpus', () => {
  it('checks every valid bundle clean and flags the negative and legacy ones', () => {
    const byFile = new Map<string, Finding[]>();
    for (const plan of methodFolders()) {
      const { tree, findings } = load(plan);
      for (const f of [...findings, ...checkTree(tree)]) {
        if (!byFile.has(f.file)) byFile.set(f.file, []);
        byFile.get(f.file)!.push(f);
      }
    }
    const errorsOf = (e: Entry): Finding[] => (byFile.get(path.join(WORK, e.path)) ?? []).filter((f) => f.severity === 'error');
    const rel = (e: Entry): string => path.relative(CORPUS, path.join(WORK, e.path));
    const counts: Record<string, { total: number; flagged: number }> = {};
    const validWithErrors: string[] = [];
    const unflagged: string[] = [];
    const pendingFlagged: string[] = [];
    const wrongCode: string[] = [];
    const byRule = new Map<string, number>();
    for (const e of bundles) {
      const errors = errorsOf(e);
      const bucket = (counts[e.expectation] ??= { total: 0, flagged: 0 });
      bucket.total += 1;
      if (errors.length > 0) bucket.flagged += 1;
      const known = VALID_BUT_FLAGGED[rel(e)];
      if (known) {
        const found = [...new Set(errors.map((f) => f.code))];
        if (found.join() !== known.codes.join()) validWithErrors.push(`${rel(e)}: expected only ${known.codes.join(', ')}: ${errors.map((f) => `${f.code} ${f.message}`).join(' | ')}`);
        continue;
      }
      if (e.expectation === 'valid' && errors.length > 0) validWithErrors.push(`${rel(e)}: ${errors.map((f) => `${f.code} ${f.message}`).join(' | ')}`);
      if (e.expectation === 'invalid' || e.expectation === 'legacy') {
        const pending = PENDING_RULES[rel(e)];
        if (pending !== undefined && errors.length > 0) pendingFlagged.push(rel(e));
        if (pending === undefined && errors.length === 0) unflagged.push(rel(e));
        const expected = EXPECTED_CODES[rel(e)];
        if (expected && !errors.some((f) => f.code === expected)) wrongCode.push(`${rel(e)}: expected ${expected}, got ${errors.map((f) => f.code).join(', ')}`);
      }
      if (e.expectation === 'unknown') for (const code of new Set(errors.map((f) => f.code))) byRule.set(code, (byRule.get(code) ?? 0) + 1);
    }
    console.log(`corpus: ${Object.entries(counts).map(([k, v]) => `${k} ${v.flagged}/${v.total} flagged`).join(', ')}`);
    console.log(`corpus unknown, by rule: ${[...byRule].map(([c, n]) => `${c} ${n}`).join(', ')}`);
    expect(validWithErrors).toEqual([]);
    expect(unflagged).toEqual([]);
    expect(pendingFlagged).toEqual([]);
    expect(wrongCode).toEqual([]);
  });
});

/** Valid bundles whose dry run fails, with the reason: each a real fault the run would meet. */
const DRY_RUN_FLAGGED: Record<string, string> = {
  'Pipelex__cocode/cocode/pipelines/doc_proofread/doc_proofread.mthds':
    '`@doc_file.doc_content` tags a field that DocumentationFile (a text concept) does not have: the runtime refuses to tag an undefined value',
};

describe('the dry run over the shared corpus', () => {
  it('finds no fault in the bundles that check clean and are valid', async () => {
    const { dryRunTree } = await import('../../server/src/runner/dryRun.js');
    const { ConceptCatalog } = await import('../../server/src/language/jsonSchema.js');
    const valid = new Set(bundles.filter((e) => e.expectation === 'valid').map((e) => path.join(WORK, e.path)));
    const faults: string[] = [];
    const dryFlagged = new Map<string, string[]>();
    let pipes = 0;
    let succeeded = 0;
    for (const plan of methodFolders()) {
      const { tree, findings } = load(plan);
      if ([...findings, ...checkTree(tree)].some((f) => f.severity === 'error')) continue;
      const report = await dryRunTree(tree, new ConceptCatalog(tree));
      pipes += report.validatedPipes.length;
      succeeded += report.validatedPipes.filter((p) => p.status === 'SUCCESS').length;
      for (const f of report.findings) {
        const rel = path.relative(CORPUS, f.file);
        if (f.severity === 'error') dryFlagged.set(rel, [...(dryFlagged.get(rel) ?? []), f.code]);
        if (valid.has(f.file) && f.severity === 'error' && DRY_RUN_FLAGGED[rel] === undefined) faults.push(`${rel}: ${f.code} ${f.message}`);
      }
    }
    console.log(`dry run: ${succeeded}/${pipes} pipes of clean method folders ran`);
    expect(faults).toEqual([]);
    for (const [rel, code] of Object.entries(PENDING_RULES)) expect(dryFlagged.get(rel), rel).toContain(code);
  });
});

/** The fault each negative manifest states (its name and description), as package_invalid reason and path. */
const MANIFEST_FAULTS: Record<string, string[]> = {
  'bad_address.toml': ['manifest_invalid_field package.address'],
  'bad_exports_domain.toml': ['export_invalid exports.InvalidDomain'],
  'bad_exports_pipe.toml': ['export_invalid exports.valid_domain.pipes'],
  'bad_version.toml': ['manifest_invalid_field package.version'],
  'missing_required_fields.toml': ['manifest_missing_field package.address', 'manifest_missing_field package.version'],
};

describe('the negative manifests of the shared corpus', () => {
  it('are each refused with method.package_invalid', async () => {
    const { buildManifest } = await import('../../server/src/language/manifest.js');
    const { createTree } = await import('../../server/src/language/tree.js');
    const { parseToml } = await import('../../server/src/syntax/document.js');
    const manifests = entries.filter((e) => e.kind === 'manifest' && e.expectation === 'invalid');
    expect(manifests.length).toBeGreaterThan(0);
    for (const e of manifests) {
      const file = path.join(WORK, e.path);
      const tree = createTree(path.dirname(file), [], buildManifest(file, parseToml(readFileSync(file, 'utf8'))));
      const found = checkTree(tree).filter((f) => f.code === 'method.package_invalid').map((f) => `${String(f.params['reason'])} ${String(f.params['path'])}`);
      const stated = MANIFEST_FAULTS[path.basename(file)];
      expect(stated, `no stated fault for ${e.path}`).toBeDefined();
      for (const fault of stated!) expect(found, e.path).toContain(fault);
    }
  });
});
