// Fuzzing the parser and the checker (and the dry run of what checks clean) on mutations of every
// corpus bundle and every toml-test file in ../shared, or of the project's own fixtures and examples
// when the shared folder is absent (a fresh clone): no exception escapes, every finding lies inside
// its document, and each document is done within a second. Seeded and bounded for CI; a long run is
// `FUZZ_RUNS=100000 npm run fuzz`.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTree } from '../../server/src/check/index.js';
import { buildBundle } from '../../server/src/language/buildBundle.js';
import { ConceptCatalog } from '../../server/src/language/jsonSchema.js';
import { createTree } from '../../server/src/language/tree.js';
import { dryRunTree } from '../../server/src/runner/dryRun.js';
import { parseToml } from '../../server/src/syntax/document.js';
import { SHARED } from '../corpus/shared.js';
import { EXAMPLES, FIXTURE_BUNDLES, FIXTURE_TOML, REPO, filesUnder } from '../helpers/files.js';
import { mutate, mutation } from './mutations.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 5000);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261121);

const sharedSeeds = [...filesUnder(path.join(SHARED, 'corpus'), '.mthds'), ...filesUnder(path.join(SHARED, 'toml-test/tests'), '.toml')];
const ownSeeds = [...filesUnder(FIXTURE_BUNDLES, '.mthds'), ...filesUnder(FIXTURE_BUNDLES, '.toml'), ...filesUnder(FIXTURE_TOML, '.toml'), ...filesUnder(EXAMPLES, '.mthds'), ...filesUnder(EXAMPLES, '.toml')];
const seedFiles = sharedSeeds.length > 0 ? sharedSeeds : ownSeeds;
const seeds = seedFiles.map((f) => readFileSync(f, 'utf8'));
const seedOrigin = sharedSeeds.length > 0 ? `the shared corpus and toml-test in ${SHARED}` : `the project's own fixtures and examples (no shared corpus at ${SHARED})`;

describe('fuzzing the language core', () => {
  it(`survives ${RUNS} mutated documents (seed ${SEED})`, async () => {
    const listed = sharedSeeds.length > 0 ? '' : `:\n${seedFiles.map((f) => `  ${path.relative(REPO, f)}`).join('\n')}`;
    console.log(`fuzz: ${seeds.length} seed documents from ${seedOrigin}${listed}`);
    expect(seeds.length).toBeGreaterThan(10);
    let documents = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (index, mutations) => {
        const text = mutate(seeds[index]!, mutations);
        const started = performance.now();
        const bundle = buildBundle('/fuzz/main.mthds', parseToml(text));
        const tree = createTree('/fuzz', [bundle]);
        const findings = checkTree(tree);
        for (const f of findings) {
          expect(f.range.start, f.code).toBeGreaterThanOrEqual(0);
          expect(f.range.end, f.code).toBeLessThanOrEqual(text.length);
          expect(f.range.start, f.code).toBeLessThanOrEqual(f.range.end);
          expect(f.message.length).toBeGreaterThan(0);
        }
        if (!findings.some((f) => f.severity === 'error') && documents % 10 === 0) await dryRunTree(tree, new ConceptCatalog(tree));
        documents += 1;
        expect(performance.now() - started).toBeLessThan(1_000);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`fuzz: ${documents} documents, seed ${SEED}, no exception, every finding inside its document`);
  }, 600_000);
});
