// Cookbook bundles validated, and every pipe of every bundle of the shared corpus the checker accepts, run on the mock provider
// with inputs minted from their concepts: a sweep of the executor over real bundles. Failures are
// allowed only where the runner refuses by design (PipeFunc, dependencies, signatures, a condition
// routing to fail, a template tagging an undefined value).

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTree } from '../../server/src/check/index.js';
import { ConceptCatalog } from '../../server/src/language/jsonSchema.js';
import { createRng, mintContent, mintList } from '../../server/src/language/mock.js';
import { loadMethod } from '../../server/src/runner/method.js';
import { post, withRunner, type Runner } from '../e2e/runner/helpers.js';

import { SHARED, sharedPath } from './shared.js';

const MANIFEST = sharedPath('corpus/MANIFEST.shared.json');
const BY_DESIGN = new Set([
  'mthdsls.pipe.func_unsupported',
  'method.dependency_missing',
  'method.not_runnable',
  'mthdsls.pipe.condition_failed',
  'mthdsls.pipe.condition_no_result',
  'mthdsls.pipe.template_render_failed',
]);

// The corpus's `documents` package, installed where the Pipelex methods' address-qualified
// references (`github.com/Pipelex/methods/documents->documents.x`) look for it: those pipes then
// run across packages.
const store = mkdtempSync(path.join(tmpdir(), 'mthds-corpus-store-'));
const DOCUMENTS = sharedPath('corpus/Pipelex__methods/methods/documents');

let runner: Runner;
beforeAll(async () => {
  cpSync(DOCUMENTS, path.join(store, 'github.com/Pipelex/methods/documents/0.1.4'), { recursive: true });
  runner = await withRunner({ limits: { run_timeout_seconds: 30 }, packages_dir: store });
});
afterAll(async () => {
  await runner.close();
  rmSync(store, { recursive: true, force: true });
});

describe('corpus sweep', () => {
  it('runs the pipes of every valid corpus bundle', async () => {
    const entries = (JSON.parse(readFileSync(MANIFEST, 'utf8')) as Array<{ kind: string; path: string }>).filter((e) => e.kind === 'bundle');
    const tally = new Map<string, number>();
    const unexpected: string[] = [];
    let ran = 0;
    for (const entry of entries) {
      const text = readFileSync(path.resolve(SHARED, '..', entry.path), 'utf8');
      const method = loadMethod({ kind: 'contents', contents: [text] });
      if (checkTree(method.tree).some((f) => f.severity === 'error')) continue;
      const catalog = new ConceptCatalog(method.tree);
      for (const pipe of method.tree.bundles[0]!.pipes) {
        if (pipe.typeless) continue;
        const inputs: Record<string, unknown> = {};
        for (const input of pipe.inputs) {
          const io = input.ref?.io;
          const info = io ? catalog.resolve(io, pipe.bundle) : undefined;
          if (!io || !info) continue;
          const rng = createRng(`${pipe.code}.${input.name}`);
          inputs[input.name] = { concept: info.ref, content: io.multiplicity.kind === 'single' ? mintContent(catalog, info, rng) : mintList(catalog, info, io.multiplicity.kind === 'fixed' ? io.multiplicity.count : 2, rng) };
        }
        const r = await post(`${runner.url}/execute`, { mthds_contents: [text], pipe_code: `${pipe.bundle.domain?.value}.${pipe.code}`, inputs });
        ran++;
        const key = r.status === 200 ? 'ok' : String(r.json?.code);
        tally.set(key, (tally.get(key) ?? 0) + 1);
        if (r.status !== 200 && (r.status >= 500 || !BY_DESIGN.has(key))) unexpected.push(`${entry.path} ${pipe.code}: ${r.status} ${r.text.slice(0, 300)}`);
      }
    }
    expect(unexpected).toEqual([]);
    expect(ran).toBeGreaterThan(300);
    expect((tally.get('ok') ?? 0) / ran).toBeGreaterThan(0.9);
  }, 300_000);
});

describe('cookbook bundles on /validate', () => {
  it.each(['tutorial/medium/2_batch_processing.mthds', 'tutorial/easy/llm_basics/4_using_templates.mthds', 'methods/review_nda/bundle.mthds'])('validates the corpus bundle %s', async (rel) => {
    const text = readFileSync(sharedPath(`corpus/Pipelex__pipelex-cookbook/${rel}`), 'utf8');
    const r = await post(`${runner.url}/validate`, { mthds_contents: [text] });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ is_valid: true, is_runnable: true, pending_signatures: [] });
  });
  it('refuses the parallel of tutorial/medium/3_parallel_execution.mthds, whose output is Dynamic (the newest runtime refuses it too)', async () => {
    const text = readFileSync(sharedPath('corpus/Pipelex__pipelex-cookbook/tutorial/medium/3_parallel_execution.mthds'), 'utf8');
    const r = await post(`${runner.url}/validate`, { mthds_contents: [text] });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ is_valid: false, validation_errors: [{ code: 'method.output_concept_mismatch', pipe: 'generate_poems_parallel' }] });
  });
});
