// The LSP side of completion and semantic tokens: compact items and list defaults, long lists
// narrowed to what is typed, token encoding and deltas, and the model deck's time budget and cache.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Completion } from '../../../server/src/ide/completion/index.js';
import type { Occurrence } from '../../../server/src/ide/occurrences.js';
import { MAX_ITEMS, narrow, toCompletionItem } from '../../../server/src/lsp/completion.js';
import { ModelDecks } from '../../../server/src/lsp/runner/modelDecks.js';
import { builtInCatalog } from '../../../server/src/lsp/runner/builtInDeck.js';
import { diffTokens, encodeTokens } from '../../../server/src/lsp/semanticTokens.js';
import type { RunnerSettings } from '../../../server/src/lsp/settings.js';

const item = (label: string, start = 10, end = 12, extra: Partial<Completion> = {}): Completion => ({ label, kind: 'pipe', insertText: label, range: { start, end }, ...extra });

describe('completion items', () => {
  it('leaves the edit to the list default when the range is shared, and keeps data small', () => {
    const lineStarts = [0, 20];
    const shared = toCompletionItem(item('read_invoice', 22, 24, { resolve: { kind: 'pipe', key: 'invoices.read_invoice' }, sortText: '0read_invoice' }), lineStarts, { start: 22, end: 24 });
    expect(shared).toEqual({ label: 'read_invoice', kind: 3, sortText: '0read_invoice', data: ['p', 'invoices.read_invoice'] });
    const own = toCompletionItem(item('Text', 21, 21, { insertText: 'Text"', kind: 'native' }), lineStarts, { start: 22, end: 24 });
    expect(own.textEdit).toEqual({ range: { start: { line: 1, character: 1 }, end: { line: 1, character: 1 } }, newText: 'Text"' });
    const closed = toCompletionItem(item('Text', 22, 24, { insertText: 'Text"', kind: 'native' }), lineStarts, { start: 22, end: 24 });
    expect(closed.textEditText).toBe('Text"');
    const snippet = toCompletionItem(item('output', 0, 2, { kind: 'key', insertText: 'output = "$1"', snippet: true }), lineStarts);
    expect(snippet.insertTextFormat).toBe(2);
  });

  it('narrows a long list to what matches the typed text, best ranked first, marked incomplete', () => {
    const text = 'pipe = "b1"';
    const many = Array.from({ length: MAX_ITEMS * 2 }, (_, i) => item(`a${i}_step`, 8, 10, { sortText: `${i % 2}a${i}` }));
    const none = narrow(many, text, 8);
    expect(none.incomplete).toBe(true);
    expect(none.items).toHaveLength(MAX_ITEMS);
    expect(none.items.every((c) => c.sortText!.startsWith('0'))).toBe(true);
    const typed = narrow([...many, item('b1_step'), item('other_b_1')], text, 10);
    expect(typed.items.map((c) => c.label)).toEqual(['b1_step', 'other_b_1']);
    expect(narrow([item('x')], text, 10)).toEqual({ items: [item('x')], incomplete: false });
  });
});

/** Narrowing as first defined: lower-cased copies, a keyed sort. */
function referenceNarrow(items: readonly Completion[], text: string, offset: number): { items: readonly Completion[]; incomplete: boolean } {
  if (items.length <= MAX_ITEMS) return { items, incomplete: false };
  const fuzzy = (typed: string, candidate: string): boolean => {
    const t = typed.toLowerCase();
    const c = candidate.toLowerCase();
    let j = 0;
    for (let i = 0; i < c.length && j < t.length; i++) if (c[i] === t[j]) j++;
    return j === t.length;
  };
  const matching = items.filter((c) => fuzzy(text.slice(c.range.start, Math.max(c.range.start, offset)), c.filterText ?? c.label));
  if (matching.length <= MAX_ITEMS) return { items: matching, incomplete: true };
  const keyed = matching.map((c, i) => ({ c, key: c.sortText ?? c.label, i }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
  return { items: keyed.slice(0, MAX_ITEMS).map((k) => k.c), incomplete: true };
}

describe('narrowing long lists', () => {
  it('keeps the items and the order of the keyed sort, sorted input or not, for any text', () => {
    // Few letters (many matches and equal keys), capitals, and text beyond ASCII (İ lower-cases to two units).
    const word = fc.stringMatching(/^[abAB_İıß]{0,5}$/);
    const candidate = fc.record({ label: word, sortText: fc.option(word, { nil: undefined }), filterText: fc.option(word, { nil: undefined }), start: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(fc.array(candidate, { minLength: MAX_ITEMS - 5, maxLength: MAX_ITEMS * 3 }), word, fc.integer({ min: 0, max: 5 }), fc.boolean(), (cs, typedText, offset, presorted) => {
        let items = cs.map((c, i) => item(c.label, c.start, c.start + 1, { insertText: String(i), ...(c.sortText !== undefined ? { sortText: c.sortText } : {}), ...(c.filterText !== undefined ? { filterText: c.filterText } : {}) }));
        const key = (c: Completion): string => c.sortText ?? c.label;
        if (presorted) items = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
        const text = `x${typedText}yy`;
        expect(narrow(items, text, offset)).toEqual(referenceNarrow(items, text, offset));
      }),
      { seed: 3, numRuns: 300 },
    );
  });

  it('sorts every match when the list turns out unsorted past the first MAX_ITEMS matches', () => {
    const sorted = Array.from({ length: MAX_ITEMS * 2 }, (_, i) => item(`b${String(i).padStart(4, '0')}`, 0, 0));
    for (const late of [item('a_late', 0, 0), item('b0499x', 0, 0), item('zz', 0, 0)]) {
      const items = [...sorted.slice(0, MAX_ITEMS + 7), late, ...sorted.slice(MAX_ITEMS + 7)];
      expect(narrow(items, 'x', 0)).toEqual(referenceNarrow(items, 'x', 0));
    }
    expect(narrow([...sorted, item('a_late', 0, 0)], 'x', 0).items[0]!.label).toBe('a_late');
  });
});

describe('semantic token encoding', () => {
  const occ = (start: number, end: number, kind: Occurrence['kind'], role: Occurrence['role'] = 'reference', key = 'k'): Occurrence => ({ kind, key, file: 'f', range: { start, end }, role });

  it('encodes relative positions, types and modifiers; skips overlaps and multi-line names', () => {
    // Lines start at 0, 10, 20.
    const data = encodeTokens([occ(2, 5, 'pipe', 'declaration'), occ(3, 4, 'concept'), occ(12, 16, 'concept', 'reference', 'native.Text'), occ(14, 22, 'model'), occ(25, 27, 'model')], [0, 10, 20]);
    expect(data).toEqual([0, 2, 3, 1, 1, 1, 2, 4, 0, 2, 1, 5, 2, 3, 4]);
    expect(encodeTokens([occ(2, 5, 'pipe'), occ(12, 16, 'concept')], [0, 10, 20], { start: 10, end: 20 })).toEqual([1, 2, 4, 0, 0]);
  });

  it('diffs token arrays into one edit that rebuilds the new array', () => {
    const cases: Array<[number[], number[]]> = [
      [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]],
      [[1, 2, 3, 4, 5], [1, 2, 9, 4, 5]],
      [[1, 2, 3], [1, 2, 3, 4, 5]],
      [[0, 1, 2, 3, 4, 5, 6], [0, 1, 5, 6]],
      [[], [1, 2]],
      [[1, 1, 1], [1, 1]],
    ];
    for (const [before, after] of cases) {
      const edit = diffTokens(before, after);
      const out = [...before];
      if (edit) out.splice(edit.start, edit.deleteCount, ...edit.data);
      expect(out).toEqual(after);
      if (JSON.stringify(before) === JSON.stringify(after)) expect(edit).toBeUndefined();
    }
  });
});

describe('model decks', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function fakeRunner(delayMs: number, calls: { n: number }): Promise<string> {
    server = http.createServer((_req, res) => {
      calls.n += 1;
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ models: [{ name: 'llama-3', type: 'llm' }], aliases: { llm: { fast: 'llama-3' } } }));
      }, delayMs);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  it('uses the built-in deck without a runner', async () => {
    const decks = new ModelDecks({ builtIn: builtInCatalog, settings: () => ({}), token: () => undefined });
    expect(await decks.catalog()).toBe(builtInCatalog());
    expect(builtInCatalog().choices.map((c) => c.reference)).toContain('mock-llm');
  });

  it('waits for a quick runner, then answers from the cache', async () => {
    const calls = { n: 0 };
    const url = await fakeRunner(0, calls);
    const settings: RunnerSettings = { url };
    const decks = new ModelDecks({ builtIn: builtInCatalog, settings: () => settings, token: () => undefined });
    const first = await decks.catalog();
    expect(first.choices.map((c) => c.reference)).toEqual(['llama-3', '@fast']);
    expect(first.source).toBe(`the runner at ${url}`);
    await decks.catalog();
    expect(calls.n).toBe(1);
  });

  it('answers within its budget from the built-in deck when the runner is slow, and uses its deck once it arrives', async () => {
    const calls = { n: 0 };
    const url = await fakeRunner(400, calls);
    const decks = new ModelDecks({ builtIn: builtInCatalog, settings: () => ({ url }), token: () => undefined }, Date.now, 50);
    const t0 = performance.now();
    expect(await decks.catalog()).toBe(builtInCatalog());
    expect(performance.now() - t0).toBeLessThan(300);
    await new Promise((r) => setTimeout(r, 500));
    expect((await decks.catalog()).choices.map((c) => c.reference)).toContain('@fast');
    expect(calls.n).toBe(1);
  });

  it('leaves an unreachable runner alone for a while', async () => {
    let now = 0;
    const logs: string[] = [];
    const decks = new ModelDecks({ builtIn: builtInCatalog, settings: () => ({ url: 'http://127.0.0.1:9/v1' }), token: () => undefined, log: (l) => logs.push(l) }, () => now);
    expect(await decks.catalog()).toBe(builtInCatalog());
    await new Promise((r) => setTimeout(r, 50));
    expect(logs).toHaveLength(1);
    now += 1_000;
    await decks.catalog();
    await new Promise((r) => setTimeout(r, 50));
    expect(logs).toHaveLength(1);
    now += 60_000;
    await decks.catalog();
    await new Promise((r) => setTimeout(r, 50));
    expect(logs).toHaveLength(2);
  });
});
