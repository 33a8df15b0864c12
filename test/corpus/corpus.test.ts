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
import { nodeFileSystem } from '../../server/src/workspace/nodeFileSystem.js';

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
 * The registry code of each error the manifest states (`expected_error`): the reference runtime's
 * error types as the language reference maps them (§9.5), and the plain-words faults of the
 * fixtures' READMEs. `dry_run` marks a fault only a run reveals: the static rules must pass the
 * bundle and the dry run must flag it.
 */
const STATED_ERRORS: Array<[RegExp, string]> = [
  [/^input_stuff_spec_mismatch\b/, 'method.input_concept_mismatch'],
  [/^(inadequate_output_concept|llm_output_cannot_be_image)\b/, 'method.output_concept_mismatch'],
  [/^inadequate_output_multiplicity\b/, 'method.output_multiplicity_mismatch'],
  [/^parallel_required_field\b/, 'method.wiring_invalid'],
  [/^missing_input_variable\b/, 'method.input_undeclared'],
  [/^native_concept_redeclaration\b/, 'method.name_conflict'],
  [/^(optional_input_unguarded|optional_output_required|optional_not_handled)\b/, 'method.optional_unhandled'],
  [/^invalid_pipe_code_syntax\b/, 'method.identifier_invalid'],
  [/^(unknown_pipe_type|union_tag_invalid|schema error: unknown pipe type)\b/, 'method.pipe_type_invalid'],
  [/^(unresolved_concept|concept reference unresolved)\b/, 'method.concept_unresolved'],
  [/^(unresolved_pipe_dependency|dependency pipe not found)\b/, 'method.pipe_unresolved'],
  [/^TOML parse error\b/, 'method.syntax'],
  [/calls itself \(infinite recursion\)/, 'method.cycle'],
  [/^DryRunError\b/, 'dry_run'],
];

function statedCode(e: Entry): string | undefined {
  if (e.expected_error === undefined) return undefined;
  const hit = STATED_ERRORS.find(([pattern]) => pattern.test(e.expected_error!));
  if (!hit) throw new Error(`no registry code for the stated error of ${e.path}: ${e.expected_error}`);
  return hit[1];
}

/**
 * Structures the host programs of the corpus register for description-only concepts (the runtime
 * binds a concept to a registered class of its name): the runtime's own tests and cocode declare
 * them in Python; test/corpus/structures.toml declares the same fields for the checker.
 */
const structuresRead = readStructures(nodeFileSystem, path.join(__dirname, 'structures.toml'));
if (!structuresRead.ok) throw new Error(structuresRead.message);
const HOST_STRUCTURES = structuresRead.structures;

const packages = new PackageCache();

/**
 * A method folder as the command line loads it: its repository's other packages are its
 * siblings (`address/name->...` references resolve to them), with the host's structures.
 */
function load(plan: TreePlan): ReturnType<typeof loadTree> {
  const loaded = loadTree(nodeFileSystem, plan);
  loaded.tree.hostStructures = HOST_STRUCTURES;
  const repository = path.join(CORPUS, path.relative(CORPUS, plan.root).split(path.sep)[0]!);
  loaded.findings.push(...resolveDependencies(loaded.tree, { fs: nodeFileSystem, cache: packages, workspace: [repository] }));
  return loaded;
}

/**
 * The library folders the host programs of the corpus give the runtime, loaded together as one
 * method folder (the runtime loads every bundle below them): cocode's `PIPELINE_LIBRARY_DIRS`.
 */
const HOST_LIBRARY_FOLDERS = ['Pipelex__cocode/cocode/pipelines'];

/**
 * Bundles the manifest labels valid that the newest runtime's source refuses, each with the proof.
 * The manifest is third-party data this repository does not edit; each entry here is reported so
 * that the label is corrected upstream, and the test fails when the checker stops flagging it.
 */
const LABEL_CONTRADICTED: Record<string, { code: string; reason: string }> = {
  'Pipelex__pipelex-api/postman/sample-bundles/batch_candidate_screening.mthds': {
    code: 'method.input_concept_mismatch',
    reason:
      'the same fault as cocode doc_update.mthds, which the manifest relabelled invalid: extract_one_job_offer and extract_one_cv output `Page[]`, and the next steps read them as one `Page` (pipelex pipe_controllers/sequence/pipe_sequence.py @ 07de484f `_is_readable_as`: multiplicity first, is_multiplicity_compatible refuses a list where a single value is read). Its "valid" was confirmed against a live /v1/validate of an older runtime.',
  },
};

const entries = JSON.parse(readFileSync(path.join(CORPUS, 'MANIFEST.shared.json'), 'utf8')) as Entry[];
const bundles = entries.filter((e) => e.kind === 'bundle');

/** One plan per method folder. */
function methodFolders(): TreePlan[] {
  const plans = new Map<string, TreePlan>();
  const libraries = HOST_LIBRARY_FOLDERS.map((rel) => path.join(CORPUS, rel));
  for (const e of bundles) {
    const file = path.join(WORK, e.path);
    const library = libraries.find((dir) => file.startsWith(dir + path.sep));
    if (library !== undefined) {
      if (!plans.has(library)) plans.set(library, planTrees(nodeFileSystem, [library]).plans[0]!);
      continue;
    }
    const pkg = findPackageRoot(nodeFileSystem, path.dirname(file));
    const inCorpus = pkg !== undefined && pkg.startsWith(CORPUS);
    if (inCorpus) {
      if (!plans.has(pkg)) plans.set(pkg, planTrees(nodeFileSystem, [pkg]).plans[0]!);
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
    const dryRunFlagged: string[] = [];
    const wrongCode: string[] = [];
    const byRule = new Map<string, number>();
    for (const e of bundles) {
      const errors = errorsOf(e);
      const bucket = (counts[e.expectation] ??= { total: 0, flagged: 0 });
      bucket.total += 1;
      if (errors.length > 0) bucket.flagged += 1;
      const contradicted = LABEL_CONTRADICTED[rel(e)];
      if (contradicted) {
        if (!errors.some((f) => f.code === contradicted.code)) wrongCode.push(`${rel(e)}: the runtime refuses it with ${contradicted.code}, got ${errors.map((f) => f.code).join(', ') || 'nothing'}`);
        continue;
      }
      if (e.expectation === 'valid' && errors.length > 0) validWithErrors.push(`${rel(e)}: ${errors.map((f) => `${f.code} ${f.message}`).join(' | ')}`);
      if (e.expectation === 'invalid' || e.expectation === 'legacy') {
        const expected = statedCode(e);
        if (expected === 'dry_run') {
          if (errors.length > 0) dryRunFlagged.push(rel(e));
          continue;
        }
        if (errors.length === 0) unflagged.push(rel(e));
        if (expected && !errors.some((f) => f.code === expected)) wrongCode.push(`${rel(e)}: expected ${expected}, got ${errors.map((f) => f.code).join(', ')}`);
      }
      if (e.expectation === 'unknown') for (const code of new Set(errors.map((f) => f.code))) byRule.set(code, (byRule.get(code) ?? 0) + 1);
    }
    console.log(`corpus: ${Object.entries(counts).map(([k, v]) => `${k} ${v.flagged}/${v.total} flagged`).join(', ')}`);
    console.log(`corpus unknown, by rule: ${[...byRule].map(([c, n]) => `${c} ${n}`).join(', ')}`);
    expect(validWithErrors).toEqual([]);
    expect(unflagged).toEqual([]);
    expect(dryRunFlagged).toEqual([]);
    expect(wrongCode).toEqual([]);
  });
});

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
        if (valid.has(f.file) && f.severity === 'error') faults.push(`${rel}: ${f.code} ${f.message}`);
      }
    }
    console.log(`dry run: ${succeeded}/${pipes} pipes of clean method folders ran`);
    expect(faults).toEqual([]);
    // A fault the manifest says only a run reveals: the dry run flags it (the static rules pass it, above).
    const runOnly = bundles.filter((e) => statedCode(e) === 'dry_run').map((e) => path.relative(CORPUS, path.join(WORK, e.path)));
    expect(runOnly.length).toBeGreaterThan(0);
    for (const rel of runOnly) expect(dryFlagged.get(rel)?.length ?? 0, rel).toBeGreaterThan(0);
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
