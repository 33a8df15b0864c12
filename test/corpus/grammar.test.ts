// The TextMate grammar over the whole shared corpus: every .mthds file tokenized as VS Code does,
// with the checks of tokenizeSweep (test/grammar/textmate.ts) and a time bound for the lot.

import { beforeAll, describe, expect, it } from 'vitest';
import { GRAMMAR, listMthds, loadGrammar, tokenizeSweep, type Grammar } from '../grammar/textmate.js';
import { sharedPath } from './shared.js';

const CORPUS_TIME_LIMIT_MS = 20_000;

describe('the shared corpus, tokenized', () => {
  let grammar: Grammar;
  beforeAll(async () => {
    grammar = await loadGrammar('source.mthds', { 'source.mthds': GRAMMAR });
  });

  it('tokenizes every .mthds file: no error, tokens within their line, bounded time, every pipe header scoped', () => {
    const corpus = sharedPath('corpus');
    const files = listMthds(corpus);
    expect(files.length).toBeGreaterThan(100);
    const sweep = tokenizeSweep(grammar, corpus, files);
    console.info(
      `grammar corpus: ${sweep.files} files, ${sweep.lines} lines, ${sweep.pipeHeaders} pipe and ${sweep.conceptHeaders} concept headers, ` +
        `${sweep.totalMs.toFixed(0)} ms in all, slowest ${sweep.slowest.ms.toFixed(1)} ms (${sweep.slowest.file})`,
    );
    expect(sweep.problems).toEqual([]);
    expect(sweep.complaints).toEqual([]);
    expect(sweep.pipeHeaders).toBeGreaterThan(500);
    expect(sweep.totalMs).toBeLessThan(CORPUS_TIME_LIMIT_MS);
  });
});
