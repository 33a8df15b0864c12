// The formatter's safety over documents written for it (test/fixtures/bundles, test/fixtures/toml)
// and the examples; the same sweep runs over the shared corpus and toml-test in
// test/corpus/formatSafety.test.ts.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatText } from '../../../server/src/format/index.js';
import { EXAMPLES, FIXTURE_BUNDLES, FIXTURE_TOML, filesUnder } from '../../helpers/files.js';
import { sweep } from './formatSweep.js';

describe('formatter safety', () => {
  it('keeps every fixture bundle’s value and comments, idempotently', () => {
    const files = filesUnder(FIXTURE_BUNDLES, '.mthds');
    expect(files.length).toBeGreaterThanOrEqual(8);
    const outcome = sweep(files);
    expect(outcome.faults).toEqual([]);
    expect(outcome.refused).toEqual([]);
    expect(outcome.formatted).toBe(files.length);
  });

  it('keeps every fixture TOML document’s value and comments, idempotently', () => {
    const files = [...filesUnder(FIXTURE_TOML, '.toml'), ...filesUnder(FIXTURE_BUNDLES, '.toml')];
    expect(files.length).toBeGreaterThanOrEqual(3);
    const outcome = sweep(files);
    expect(outcome.faults).toEqual([]);
    expect(outcome.refused).toEqual([]);
    expect(outcome.formatted).toBe(files.length);
  });

  it('formats the examples of this repository to themselves', () => {
    for (const file of filesUnder(EXAMPLES, '.mthds').filter((f) => !f.includes('broken'))) {
      const text = readFileSync(file, 'utf8');
      const result = formatText(text);
      expect(result.ok && result.text, file).toBe(text);
    }
  });
});
