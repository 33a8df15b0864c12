// The light features of a document past the analysed size (lsp/largeDocuments.ts): made in slices
// between which other messages go, and at most MAX_LARGE_ENTRIES entries (the client's folding
// `rangeLimit` when lower), the first ones of the document.

import { describe, expect, it } from 'vitest';
import { largeDocumentFolding, largeDocumentSymbols, MAX_LARGE_ENTRIES } from '../../../server/src/lsp/largeDocuments.js';

function pipes(count: number): string {
  const out = ['domain = "big"', 'description = "A large bundle"', ''];
  for (let i = 0; i < count; i++) out.push(`[pipe.p${i}]`, 'type = "PipeLLM"', `description = "Pipe ${i}"`, 'output = "Text"', `prompt = "Say ${i}"`, '');
  return out.join('\n');
}

describe('the light features of a document past the analysed size', () => {
  it('are the first entries, MAX_LARGE_ENTRIES at most, the folding within the client’s rangeLimit', async () => {
    const text = pipes(MAX_LARGE_ENTRIES * 2);
    let pauses = 0;
    const pause = (): Promise<void> => {
      pauses += 1;
      return new Promise((resolve) => setImmediate(resolve));
    };
    const symbols = await largeDocumentSymbols(text, pause);
    expect(symbols).toHaveLength(MAX_LARGE_ENTRIES);
    expect(symbols.map((s) => s.name)).toEqual(Array.from({ length: MAX_LARGE_ENTRIES }, (_, i) => `p${i}`));
    const folding = await largeDocumentFolding(text, undefined, pause);
    expect(folding).toHaveLength(MAX_LARGE_ENTRIES);
    expect(folding[1]).toMatchObject({ startLine: 9, endLine: 13 });
    expect(await largeDocumentFolding(text, 100, pause)).toHaveLength(100);
    // A small document: every entry.
    expect(await largeDocumentSymbols(pipes(3), pause)).toHaveLength(3);
  });

  it('are made in slices: a scan of 600,000 lines lets other messages through', async () => {
    const text = pipes(100_000);
    let pauses = 0;
    const pause = (): Promise<void> => {
      pauses += 1;
      return new Promise((resolve) => setImmediate(resolve));
    };
    // A text of its own (the scan of the last text is kept for the next request).
    await largeDocumentFolding(`${text}\n`, undefined, pause);
    expect(pauses).toBeGreaterThan(1);
  });
});
