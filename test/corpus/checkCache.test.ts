// The per-bundle check cache over folders of the shared corpus: the findings after every random
// edit equal those of a check from scratch.

import { describe, expect, it } from 'vitest';
import { bundleFolders, runSequence } from '../unit/check/cacheSequence.js';
import { sharedPath } from './shared.js';

describe('the per-bundle check cache over the shared corpus', () => {
  it('gives the findings of a fresh check after every edit, on corpus folders', () => {
    const trees = bundleFolders(sharedPath('corpus'));
    expect(trees.length).toBeGreaterThan(0);
    trees.slice(0, 12).forEach((files, i) => runSequence(files, 100 + i, 40));
  });
});
