// The formatter's safety over real documents: every corpus bundle and every valid toml-test file
// (the sweep of test/unit/format/formatSweep.ts).

import { describe, expect, it } from 'vitest';
import { filesUnder } from '../helpers/files.js';
import { sweep } from '../unit/format/formatSweep.js';
import { sharedPath } from './shared.js';

describe('formatter safety over the shared corpus and toml-test', () => {
  it('keeps every corpus bundle’s value and comments, idempotently', () => {
    const files = filesUnder(sharedPath('corpus'), '.mthds');
    expect(files.length).toBeGreaterThan(100);
    const outcome = sweep(files);
    expect(outcome.faults).toEqual([]);
    expect(outcome.refused).toEqual([]);
    expect(outcome.formatted).toBeGreaterThan(100);
  });

  it('keeps every valid toml-test document’s value and comments, idempotently', () => {
    const files = filesUnder(sharedPath('toml-test/tests/valid'), '.toml');
    expect(files.length).toBeGreaterThan(200);
    const outcome = sweep(files);
    expect(outcome.faults).toEqual([]);
    // Every valid document is formatted: none is refused as unsafe.
    expect(outcome.refused).toEqual([]);
  });
});
