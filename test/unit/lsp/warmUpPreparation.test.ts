// The language server's warm-up also runs the preparation a document just opened gets
// (idleWork.ts) and the suggestion lookup, before the first real document: the natives'
// documentation is rendered in the client's format and the lookup's code is past its cold start,
// so that the first keystrokes after start-up do not pay for either. Its own file: the state
// checked here is per process.

import { describe, expect, it } from 'vitest';
import { NATIVE_DOCUMENTATION } from '../../../server/src/ide/completion/index.js';
import { renderedAlready } from '../../../server/src/lsp/markup.js';
import { warmUp } from '../../../server/src/lsp/warmUp.js';
import { NameIndex, suggestionsCold, warmSuggestionsSteps } from '../../../server/src/util/suggest.js';
import { runSteps } from '../../../server/src/util/steps.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('warm-up preparation', () => {
  it('renders the natives\' documentation in the client\'s format and warms the suggestion lookup before any keystroke', { timeout: 120_000 }, async () => {
    expect(NATIVE_DOCUMENTATION.length).toBeGreaterThan(0);
    expect(NATIVE_DOCUMENTATION.some((d) => renderedAlready(d))).toBe(false);
    expect(suggestionsCold()).toBe(true);
    // No keystroke at all: what is checked here comes before them.
    const report = await warmUp(600_000, turn, 0, 'plaintext');
    expect(report.keystrokes).toBe(0);
    expect(NATIVE_DOCUMENTATION.every((d) => renderedAlready(d))).toBe(true);
    expect(suggestionsCold()).toBe(false);
  });

  it('keeps no answer of the queries that warm the lookup: a real index answers as a fresh one', () => {
    const names = ['a.Invoice', 'a.Receipt', 'b.Invoices', 'b.Summary', 'c.Report'];
    const before = new NameIndex(names).within('Invoce', Infinity);
    runSteps(warmSuggestionsSteps(names));
    expect(new NameIndex(names).within('Invoce', Infinity)).toEqual(before);
    expect(before.map((s) => s.candidate)).toContain('a.Invoice');
  });
});
