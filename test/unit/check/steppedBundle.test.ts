// A large bundle's check pauses inside it (between its rules, every few thousand inputs of a pipe),
// with the findings of a check in one go; the rules' lookups by input name stay right past the
// few inputs a pipe usually has, and the fix-all's choice
// pauses too with the choice made at once.

import { describe, expect, it } from 'vitest';
import { chooseSafeFixes, chooseSafeFixesSteps } from '../../../server/src/check/applyFixes.js';
import { checkTree, checkTreeSteps, createCheckCache, PAUSED_BUNDLE_CHARS } from '../../../server/src/check/index.js';
import { runSteps } from '../../../server/src/util/steps.js';
import { HEADER, check, only, treeOf } from '../../helpers/tree.js';

const wide = (inputs: string[], prompt: string): string => `${HEADER}\n[pipe.wide]\ntype = "PipeLLM"\ndescription = "Wide"\ninputs = { ${inputs.join(', ')} }\noutput = "Text"\nprompt = "${prompt}"\n`;

/** The steps a generator is run in, and what it returned. */
function countSteps<T>(steps: Generator<void, T>): { value: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { value: step.value, pauses };
    pauses++;
  }
}

describe('the check of a large bundle', () => {
  const n = 12_000;
  const text = wide(['used = "Text"', ...Array.from({ length: n }, (_, i) => `u${i} = "Text"`)], 'Use $used');

  it('pauses inside the bundle and finds what a check in one go finds', () => {
    expect(text.length).toBeGreaterThan(PAUSED_BUNDLE_CHARS);
    const stepped = countSteps(checkTreeSteps(treeOf({ 'main.mthds': text }), createCheckCache()));
    // One bundle: without pauses inside it, its check would be a single step.
    expect(stepped.pauses).toBeGreaterThanOrEqual(n / 2000);
    const once = checkTree(treeOf({ 'main.mthds': text }));
    expect(stepped.value).toEqual(once);
    expect(only(once, 'method.input_unused')).toHaveLength(n);
  });

  it('keeps a small bundle in one step', () => {
    const small = wide(['used = "Text"', 'other = "Text"'], 'Use $used');
    expect(small.length).toBeLessThan(PAUSED_BUNDLE_CHARS);
    expect(countSteps(checkTreeSteps(treeOf({ 'main.mthds': small }), createCheckCache())).pauses).toBe(0);
  });

  it("chooses the fix-all's fixes in steps, as at once", () => {
    const findings = checkTree(treeOf({ 'main.mthds': text }));
    const stepped = countSteps(chooseSafeFixesSteps(findings, () => true, true));
    expect(stepped.pauses).toBeGreaterThan(1);
    expect(stepped.value).toEqual(chooseSafeFixes(findings, () => true, true));
    expect(stepped.value.length).toBeGreaterThan(n - 10);
  });
});

describe('input lookups of a pipe with many inputs', () => {
  const names = Array.from({ length: 20 }, (_, i) => `in${i}`);

  it('counts every read input as read, and only those', () => {
    const text = wide(
      names.map((name) => `${name} = "Text"`),
      names
        .slice(0, 15)
        .map((name) => `$${name}`)
        .join(' '),
    );
    expect(only(check(text), 'method.input_unused').map((f) => f.params.variables)).toEqual(names.slice(15).map((name) => [name]));
  });

  it('finds the declaration of each read input (an optional one read unguarded)', () => {
    const inputs = names.map((name) => (name === 'in13' ? `${name} = "Text?"` : `${name} = "Text"`));
    const findings = check(wide(inputs, names.map((name) => `$${name}`).join(' ')));
    expect(only(findings, 'method.optional_unhandled').map((f) => f.params.input)).toEqual(['in13']);
  });

  it('reads thousands of inputs in a prompt without an undeclared or unused one', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `r${i}`);
    const findings = runSteps(checkTreeSteps(treeOf({ 'main.mthds': wide(many.map((name) => `${name} = "Text"`), many.map((name) => `$${name}`).join(' ')) }), createCheckCache()));
    expect(only(findings, 'method.input_unused')).toEqual([]);
    expect(only(findings, 'method.input_undeclared')).toEqual([]);
  });
});
