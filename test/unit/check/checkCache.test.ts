// The per-bundle check cache (what the language server uses between keystrokes) must give exactly
// the findings of a check from scratch: random edit sequences over multi-bundle trees, comparing
// both after every edit.

import { describe, expect, it } from 'vitest';
import { checkTree, createCheckCache } from '../../../server/src/check/index.js';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import type { Bundle } from '../../../server/src/language/model.js';
import { createTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';
import { FIXTURE_BUNDLES } from '../../helpers/files.js';
import { bundleFolders, runSequence } from './cacheSequence.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { generateTree } from '../../../bench/generate.mjs';

describe('the per-bundle check cache', () => {
  it('gives the findings of a fresh check after every edit, on generated trees', () => {
    const files = generateTree(120, 8) as Record<string, string>;
    for (let seed = 1; seed <= 4; seed++) runSequence(files, seed, 60);
  });

  it('gives the findings of a fresh check after every edit, on the fixture folders', () => {
    const trees = bundleFolders(FIXTURE_BUNDLES);
    expect(trees.length).toBeGreaterThanOrEqual(2);
    trees.forEach((files, i) => runSequence(files, 100 + i, 60));
  });

  it('re-checks a bundle when a declaration it reads changes inside, its code unchanged', () => {
    const root = '/virtual/reads';
    const callee = (output: string): Bundle => buildBundle(`${root}/a.mthds`, parseToml(`domain = "d"\n[concept.Summary]\ndescription = "s"\n[pipe.summarize]\ntype = "PipeLLM"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "${output}"\nprompt = "@text"\n`));
    const caller = buildBundle(`${root}/b.mthds`, parseToml('domain = "d"\n[pipe.run]\ntype = "PipeSequence"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "Summary"\nsteps = [{ pipe = "summarize", result = "s" }]\n'));
    const cache = createCheckCache();
    // The findings of the caller's file: it only reads `summarize` through resolution.
    const codes = (a: Bundle): string[] => checkTree(createTree(root, [a, caller]), cache).filter((f) => f.file === caller.file).map((f) => f.code);
    expect(codes(callee('Summary'))).toEqual([]);
    // Same codes everywhere (same shape); only what `run` reads of `summarize` changed.
    expect(codes(callee('Image'))).toContain('method.output_concept_mismatch');
    expect(codes(callee('Summary'))).toEqual([]);
  });
});
