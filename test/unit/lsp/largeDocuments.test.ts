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
    // Fewer tables than the entries listed (the scan stops once it has them): every line is read.
    const prompt = Array.from({ length: 150 }, (_, i) => `line ${i} of the prompt`).join('\n');
    const text = Array.from({ length: 4_000 }, (_, i) => `[pipe.p${i}]\ntype = "PipeLLM"\nprompt = """\n${prompt}\n"""\n`).join('\n');
    expect(text.split('\n').length).toBeGreaterThan(600_000);
    let pauses = 0;
    const pause = (): Promise<void> => {
      pauses += 1;
      return new Promise((resolve) => setImmediate(resolve));
    };
    // A text of its own (the scan of the last text is kept for the next request).
    await largeDocumentFolding(`${text}\n`, undefined, pause);
    expect(pauses).toBeGreaterThan(1);
  });

  it('read no further than the entries listed need: the same entries as a scan of the whole text', async () => {
    const whole = pipes(MAX_LARGE_ENTRIES * 20);
    const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    // Past the last table listed, a text no scan may reach: its pieces are made to throw when read.
    const cutAt = whole.indexOf(`[pipe.p${MAX_LARGE_ENTRIES + 10}]`);
    const unread = new Proxy([whole.slice(0, cutAt), whole.slice(cutAt)], {
      get: (target, key) => {
        if (key === '1') throw new Error('read past the entries listed');
        return Reflect.get(target, key) as unknown;
      },
    });
    const symbols = await largeDocumentSymbols(unread, pause);
    expect(symbols.map((s) => s.name)).toEqual(Array.from({ length: MAX_LARGE_ENTRIES }, (_, i) => `p${i}`));
    expect(symbols).toEqual(await largeDocumentSymbols(`${whole}\n`, pause));
    expect(await largeDocumentFolding(unread, undefined, pause)).toEqual(await largeDocumentFolding(`${whole}\n\n`, undefined, pause));
  });
});
