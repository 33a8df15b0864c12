// Admission to the template caches: a text is kept from the second time it is asked for.

import { describe, expect, it } from 'vitest';
import { SecondSight } from '../../../server/src/language/templates/admission.js';
import { renderTemplate } from '../../../server/src/language/templates/render.js';

describe('SecondSight', () => {
  it('admits a text the second time it is asked for, per dialect', () => {
    const seen = new SecondSight(100);
    expect(seen.admit('llm\u00001\u0000', 'Summarize $text')).toBe(false);
    expect(seen.admit('llm\u00001\u0000', 'Summarize $text')).toBe(true);
    expect(seen.admit('html\u00001\u0000', 'Summarize $text')).toBe(false);
    expect(seen.admit('llm\u00001\u0000', 'Summarize $other')).toBe(false);
  });

  it('forgets everything once its bound is reached, so that it stays bounded', () => {
    const seen = new SecondSight(3);
    for (const t of ['a', 'b', 'c']) seen.admit('', t);
    expect(seen.admit('', 'a')).toBe(true);
    // A fourth text: the set was full, it starts again.
    expect(seen.admit('', 'd')).toBe(false);
    expect(seen.admit('', 'a')).toBe(false);
    expect(seen.admit('', 'd')).toBe(true);
  });
});

describe('renderTemplate through the admission', () => {
  it('renders a template the same on its first sight (not kept), its second (kept) and later (from the cache)', () => {
    const templates = ['Summarize @text for $reader.', 'Hello {{ name | upper }}{% if late %}, late{% endif %}.'];
    const context = { text: 'the report', reader: 'a child', name: 'ada', late: true };
    for (const template of templates) {
      const renders = [1, 2, 3].map(() => renderTemplate(template, context, { category: 'llm_prompt' }).text);
      expect(renders[0]!.length).toBeGreaterThan(0);
      expect(renders[1]).toBe(renders[0]);
      expect(renders[2]).toBe(renders[0]);
    }
  });
});
