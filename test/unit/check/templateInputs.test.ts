import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../server/src/check/finding.js';
import { HEADER, check, only, textAt } from '../../helpers/tree.js';

const llm = (inputs: string, prompt: string, extra = ''): string =>
  `${HEADER}[concept]\nSummary = "A summary"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\n${inputs}output = "Text"\nprompt = """\n${prompt}\n"""\n${extra}`;

function applyFix(text: string, f: Finding): string {
  const edits = [...f.fix!.edits].sort((a, b) => b.range.start - a.range.start);
  return edits.reduce((t, e) => t.slice(0, e.range.start) + e.newText + t.slice(e.range.end), text);
}

describe('method.input_undeclared', () => {
  it('is placed on the read and offers to declare the input with its likely concept', () => {
    const text = llm('inputs = { doc = "Text" }\n', 'Summarize $doc with {{ summary.text }}');
    const [f] = only(check(text), 'method.input_undeclared');
    expect(f!.params).toEqual({ pipe: 'p', variables: ['summary'] });
    expect(textAt(text, f!)).toBe('summary.text');
    const fixed = applyFix(text, f!);
    expect(fixed).toContain('inputs = { doc = "Text", summary = "Summary" }');
    expect(check(fixed)).toEqual([]);
  });
  it('declares inputs on a pipe that has none', () => {
    const text = llm('', 'Summarize $doc');
    const [f] = only(check(text), 'method.input_undeclared');
    const fixed = applyFix(text, f!);
    expect(check(fixed)).toEqual([]);
  });
  it('does not count runtime names, private roots and loop variables', () => {
    expect(check(llm('inputs = { items = "Text[]" }\n', '{% for i in items %}{{ i.text }}{% endfor %} {{ _nb_output }} {{ preliminary_text }}'))).toEqual([]);
  });
  it('applies to a PipeCondition expression', () => {
    const text = `${HEADER}[pipe.c]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { x = "Text" }\noutput = "Text?"\nexpression = "y.text"\noutcomes = { a = "fail" }\ndefault_outcome = "continue"\n`;
    // A condition is a controller: its expression roots count among its needs.
    const found = check(text);
    expect(only(found, 'method.input_undeclared').map((f) => [f.params['variables'], textAt(text, f)])).toEqual([[['y'], 'y.text']]);
    expect(only(found, 'method.input_unused').map((f) => f.params['variables'])).toEqual([['x']]);
  });
});

describe('method.input_unused', () => {
  it('reports an input no template reads, with a fix that removes it', () => {
    const text = llm('inputs = { doc = "Text", tone = "Text" }\n', 'Summarize $doc');
    const [f] = only(check(text), 'method.input_unused');
    expect(f!.params).toEqual({ pipe: 'p', variables: ['tone'] });
    expect(textAt(text, f!)).toBe('tone');
    const fixed = applyFix(text, f!);
    expect(fixed).toContain('inputs = { doc = "Text" }');
    expect(check(fixed)).toEqual([]);
  });
  it('counts reads through guards and the bundle system prompt, and skips unparsable templates', () => {
    expect(check(llm('inputs = { doc = "Text", note = "Text?" }\n', '$doc\n@?note'))).toEqual([]);
    const sys = `${HEADER}system_prompt = "You write for $audience."\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text", audience = "Text" }\noutput = "Text"\nprompt = "$doc"\n`;
    expect(check(sys)).toEqual([]);
    const broken = llm('inputs = { doc = "Text", tone = "Text" }\n', '{{ doc ');
    expect(only(check(broken), 'method.input_unused')).toEqual([]);
    expect(only(check(broken), 'method.template_invalid')).toHaveLength(1);
  });
  it('is not raised for pipes that read inputs without templates', () => {
    const text = `${HEADER}[pipe.e]\ntype = "PipeExtract"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Page[]"\n`;
    expect(check(text)).toEqual([]);
  });
});

describe('method.template_invalid (parse)', () => {
  it('is placed on the construct that does not parse', () => {
    const text = llm('inputs = { doc = "Text" }\n', 'Read $doc then {{ doc + }} end');
    const [f] = only(check(text), 'method.template_invalid');
    expect(textAt(text, f!)).toBe('{{ doc + }}');
    expect(f!.params).toMatchObject({ pipe: 'p', template: 'prompt' });
  });
});

describe('method.template_private_name', () => {
  it('refuses dotted underscore attributes but allows the metadata fields', () => {
    const text = llm('inputs = { doc = "Text" }\n', '{{ doc._content }} {{ doc._stuff_name }}');
    const found = only(check(text), 'method.template_private_name');
    expect(found.map((f) => f.params['variables'])).toEqual([['doc._content']]);
  });
});

describe('method.optional_unhandled (template)', () => {
  it('requires a guard around optional inputs', () => {
    const text = llm('inputs = { doc = "Text", hint = "Text?" }\n', '$doc\nUse $hint');
    const [f] = only(check(text), 'method.optional_unhandled');
    expect(f!.params).toEqual({ pipe: 'p', input: 'hint', site: 'template' });
    expect(textAt(text, f!)).toBe('$hint');
    expect(check(llm('inputs = { doc = "Text", hint = "Text?" }\n', '$doc\n{% if hint %}Use $hint{% endif %}'))).toEqual([]);
  });
});

describe('method.input_presence_vacuous (warning)', () => {
  it('flags a presence check on an input that is always present', () => {
    const text = llm('inputs = { doc = "Text" }\n', '@?doc');
    const [f] = check(text);
    expect(f!.code).toBe('method.input_presence_vacuous');
    expect(f!.severity).toBe('warning');
    expect(check(llm('inputs = { doc = "Text?" }\n', '@?doc'))).toEqual([]);
  });
});

describe('method.field_path_unresolved (construct and document templates)', () => {
  const compose = (from: string): string => `${HEADER}[concept.Invoice]\ndescription = "i"\n[concept.Invoice.structure]\ntotal = { type = "number", description = "t", required = true }\n[concept.Summary]\ndescription = "s"\n[concept.Summary.structure]\namount = { type = "number", description = "a" }\n[pipe.c]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { invoice = "Invoice" }\noutput = "Summary"\n[pipe.c.construct]\namount = { from = "${from}" }\n`;
  it('walks a construct `from` through the input concept', () => {
    const text = compose('invoice.totl');
    const [f] = only(check(text), 'method.field_path_unresolved');
    expect(f!.params).toEqual({ pipe: 'c', path: 'invoice.totl', segment: 'totl', available_fields: ['total'] });
    expect(only(check(compose('invoice.total')), 'method.field_path_unresolved')).toEqual([]);
  });
  it('accepts a missing field in a prompt: it renders empty at run time', () => {
    expect(only(check(llm('inputs = { doc = "Text" }\n', '$doc.missing')), 'method.field_path_unresolved')).toEqual([]);
  });
});

describe('names a template mentions in a form the runtime refuses', () => {
  it('an inline `@triage` of an input: method.template_invalid, and the input is not unused', () => {
    const text = llm('inputs = { ticket = "Text", triage = "Text" }\n', 'Ticket: $ticket, triaged as @triage.');
    const found = check(text);
    expect(only(found, 'method.template_invalid').map((f) => textAt(text, f))).toEqual(['@triage']);
    expect(only(found, 'method.input_unused')).toEqual([]);
  });
  it('an inline `@ticket` not declared: method.input_undeclared, as `$ticket` is', () => {
    const inline = llm('inputs = { doc = "Text" }\n', 'Summarize $doc for @ticket.');
    const dollar = llm('inputs = { doc = "Text" }\n', 'Summarize $doc for $ticket.');
    const a = only(check(inline), 'method.input_undeclared');
    const b = only(check(dollar), 'method.input_undeclared');
    expect(a.map((f) => [f.params, textAt(inline, f)])).toEqual([[{ pipe: 'p', variables: ['ticket'] }, '@ticket']]);
    expect(b.map((f) => f.params)).toEqual(a.map((f) => f.params));
  });
  it('an e-mail address is no mention', () => {
    expect(only(check(llm('inputs = { doc = "Text" }\n', 'Summarize $doc, write to help@example.com.')), 'method.input_undeclared')).toEqual([]);
  });
});
