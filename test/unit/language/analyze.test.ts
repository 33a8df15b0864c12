import { describe, expect, it } from 'vitest';
import { analyzeTemplate } from '../../../server/src/language/templates/analyze.js';

const reads = (t: string, shorthands = true): Array<[string, string, boolean]> =>
  analyzeTemplate(t, { shorthands }).reads.map((r) => [r.path.join('.'), t.slice(r.start, r.end), r.guarded]);

describe('analyzeTemplate', () => {
  it('keeps the analysis of a prompt without Jinja from the second time its text is analysed, frozen and shared', () => {
    const text = `Read $doc and answer:\n@question\nNote ${Math.random()}`;
    const first = analyzeTemplate(text, { shorthands: true });
    const second = analyzeTemplate(text, { shorthands: true });
    // The same text cut from another document (an edited bundle's next parse).
    const third = analyzeTemplate(` ${text}`.slice(1), { shorthands: true });
    expect(first).not.toBe(second);
    expect(third).toBe(second);
    expect(Object.isFrozen(third) && Object.isFrozen(third.reads) && Object.isFrozen(third.reads[0]!.path)).toBe(true);
    expect(third).toEqual(first);
    expect(third.reads.map((r) => [r.path.join('.'), text.slice(r.start, r.end)])).toEqual([
      ['doc', '$doc'],
      ['question', '@question'],
    ]);
    // Another dialect of the same text is not that analysis.
    expect(analyzeTemplate(text, { shorthands: false })).not.toBe(third);
    // An empty template too.
    for (let i = 0; i < 3; i++) expect(analyzeTemplate('', { shorthands: true })).toEqual({ reads: [], presenceChecks: [] });
  });
  it('lists free variable paths with their exact place', () => {
    expect(reads('Hi {{ user.name | upper }} from $company.city.')).toEqual([
      ['user.name', 'user.name', false],
      ['company.city', '$company.city', false],
    ]);
  });
  it('skips names bound by for, set and macros, and globals', () => {
    expect(reads('{% for item in items %}{{ item.a }}{{ loop.index }}{% endfor %}{% set n = total %}{{ n }}{% macro m(p) %}{{ p }}{{ q }}{% endmacro %}')).toEqual([
      ['items', 'items', false],
      ['total', 'total', false],
      ['q', 'q', false],
    ]);
  });
  it('marks reads guarded by if blocks, inline conditionals and @?', () => {
    const t = '{% if note %}{{ note.text }}{% endif %}{{ hint.text if hint else "" }}\n@?extra\n{{ other }}';
    expect(reads(t)).toEqual([
      ['note', 'note', true],
      ['note.text', 'note.text', true],
      ['hint.text', 'hint.text', true],
      ['hint', 'hint', true],
      ['extra', '@?extra', true],
      ['other', 'other', false],
    ]);
    expect(analyzeTemplate(t, { shorthands: true }).presenceChecks.map((c) => c.root)).toEqual(['note', 'hint', 'extra']);
  });
  it('stops paths at subscripts and method calls', () => {
    expect(reads('{{ a.b["c"].d }}{{ s.items() }}{{ f(x.y) }}')).toEqual([
      ['a.b', 'a.b', false],
      ['s', 's', false],
      ['f', 'f', false],
      ['x.y', 'x.y', false],
    ]);
  });
  it('locates parse faults at the construct that breaks', () => {
    const t = 'ok {{ a }} then {{ b + }} end';
    const fault = analyzeTemplate(t, { shorthands: true }).fault!;
    expect(t.slice(fault.start, fault.end)).toBe('{{ b + }}');
    const unclosed = 'x {% if a %} y';
    const f2 = analyzeTemplate(unclosed, { shorthands: true }).fault!;
    expect(unclosed.slice(f2.start, f2.end)).toBe('{% if a %}');
    const lex = 'start {{ name ';
    expect(analyzeTemplate(lex, { shorthands: true }).fault).toBeDefined();
  });
  it('reads bare expressions', () => {
    expect(analyzeTemplate('category.label == "urgent"', { shorthands: false, expression: true }).reads.map((r) => r.path.join('.'))).toEqual(['category.label']);
  });
});
