import { describe, expect, it } from 'vitest';
import { HEADER, check, only, textAt } from '../../helpers/tree.js';

const CONCEPTS = `[concept.Invoice]
description = "An invoice"
[concept.Invoice.structure]
total = { type = "number", description = "Total", required = true }
note = { type = "text", description = "A note" }
lines = { type = "list", item_type = "concept", item_concept_ref = "Line", description = "Lines" }
[concept.Line]
description = "A line"
[concept.Line.structure]
label = "The label"
[concept.Summary]
description = "A summary"
refines = "Text"
`;
const func = (code: string, inputs: string, output: string): string => `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "${output}"\nfunction_name = "f"\n`;
const seq = (inputs: string, output: string, steps: string): string => `[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "${output}"\nsteps = [${steps}]\n`;
const bundle = (...parts: string[]): string => `${HEADER}${CONCEPTS}${parts.join('\n')}`;

describe('sequences', () => {
  const a = func('read', 'doc = "Document"', 'Invoice');
  const b = func('summarize', 'invoice = "Invoice"', 'Summary');
  it('accepts steps that connect', () => {
    expect(check(bundle(a, b, seq('doc = "Document"', 'Summary', '{ pipe = "read", result = "invoice" }, { pipe = "summarize", result = "s" }')))).toEqual([]);
  });
  it('reports a need the sequence does not declare, and a declared input nothing needs', () => {
    const text = bundle(a, b, seq('doc = "Document", extra = "Text"', 'Summary', '{ pipe = "summarize", result = "s" }'));
    const found = check(text);
    expect(only(found, 'method.input_undeclared').map((f) => [f.params['variables'], textAt(text, f)])).toEqual([[['invoice'], 'summarize']]);
    expect(only(found, 'method.input_unused').map((f) => f.params['variables'])).toEqual([['doc'], ['extra']]);
  });
  it('reports a step reading a value of another concept', () => {
    const c = func('count', 'invoice = "Line"', 'Text');
    const [f] = only(check(bundle(a, c, seq('doc = "Document"', 'Text', '{ pipe = "read", result = "invoice" }, { pipe = "count", result = "n" }'))), 'method.input_concept_mismatch');
    expect(f!.params).toEqual({ pipe: 'count', input: 'invoice', declared: 'Invoice', expected: ['Line'] });
  });
  it('checks the output against the last step, refinement-aware', () => {
    const found = check(bundle(a, seq('doc = "Document"', 'Line', '{ pipe = "read", result = "invoice" }')));
    expect(only(found, 'method.output_concept_mismatch')[0]!.params).toMatchObject({ pipe: 's', declared: 'Line', expected: ['Invoice'] });
    expect(check(bundle(b, func('read', 'doc = "Document"', 'Invoice'), seq('doc = "Document"', 'Text', '{ pipe = "read", result = "invoice" }, { pipe = "summarize", result = "s" }')))).toEqual([]);
    const list = check(bundle(a, seq('docs = "Document[]"', 'Invoice', '{ pipe = "read", batch_over = "docs", batch_as = "doc", result = "invoices" }')));
    expect(only(list, 'method.output_multiplicity_mismatch')[0]!.params).toMatchObject({ pipe: 's', declared: 'Invoice', expected: 'list' });
  });
  it('walks binding paths and names the failing segment', () => {
    const ok = check(bundle(a, func('show', 'total = "Number"', 'Text'), seq('doc = "Document"', 'Text', '{ pipe = "read", result = "invoice" }, { from = "invoice.total", result = "total" }, { pipe = "show", result = "t" }')));
    expect(ok).toEqual([]);
    const text = bundle(a, seq('doc = "Document"', 'Number', '{ pipe = "read", result = "invoice" }, { from = "invoice.totl", result = "total" }'));
    const [f] = only(check(text), 'method.field_path_unresolved');
    expect(f!.params).toEqual({ pipe: 's', path: 'invoice.totl', segment: 'totl', available_fields: ['total', 'note', 'lines'] });
    const leaf = only(check(bundle(a, seq('doc = "Document"', 'Number', '{ pipe = "read", result = "invoice" }, { from = "invoice.total.number", result = "total" }'))), 'method.field_path_unresolved');
    expect(leaf[0]!.params['available_fields']).toEqual([]);
  });
  it('refuses malformed binding steps', () => {
    const text = bundle(func('x', 'a = "Text"', 'Text'), seq('a = "Text"', 'Text', '{ from = "a", pipe = "x", result = "r" }, { from = "a" }, { from = "a..b", result = "c" }'));
    expect(only(check(text), 'method.binding_step_invalid')).toHaveLength(3);
  });
  it('requires batch_over to name a list and the step pipe to take the item', () => {
    const text = bundle(func('each', 'line = "Line"', 'Text'), seq('line = "Line"', 'Text[]', '{ pipe = "each", batch_over = "line", batch_as = "item", result = "r" }'));
    const found = only(check(text), 'method.wiring_invalid').map((f) => f.params['variable_path']);
    expect(found).toEqual(['line', 'item']);
  });
  it('reports a maybe-absent last step escaping a non-optional output', () => {
    const text = bundle(func('use', 'note = "Text"', 'Text'), seq('note = "Text?"', 'Text', '{ pipe = "use", result = "r" }'));
    expect(only(check(text), 'method.optional_unhandled')[0]!.params).toEqual({ pipe: 's', input: 'use', site: 'sequence_step' });
    expect(only(check(bundle(func('use', 'note = "Text"', 'Text'), seq('note = "Text?"', 'Text?', '{ pipe = "use", result = "r" }'))), 'method.optional_unhandled')).toEqual([]);
  });
});

describe('parallel, condition, batch', () => {
  it('checks parallel outputs against branch results', () => {
    const par = (output: string): string => `[pipe.p]\ntype = "PipeParallel"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "${output}"\nbranches = [{ pipe = "read", result = "total" }, { pipe = "read", result = "extra" }]\n`;
    expect(only(check(bundle(func('read', 'doc = "Document"', 'Number'), par('Composite'))), 'method.wiring_invalid')).toEqual([]);
    const found = check(bundle(func('read', 'doc = "Document"', 'Number'), par('Invoice')));
    expect(only(found, 'method.wiring_invalid').map((f) => f.params['variable_path'])).toEqual(['extra']);
    expect(only(check(bundle(func('read', 'doc = "Document"', 'Number'), par('Text'))), 'method.output_concept_mismatch')).toHaveLength(1);
  });
  it('checks conditions: continue needs an optional output; outcomes set the output concept', () => {
    const cond = (output: string, fallback: string): string => `[pipe.c]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "${output}"\nexpression = "doc.filename"\noutcomes = { a = "read" }\ndefault_outcome = "${fallback}"\n`;
    const r = func('read', 'doc = "Document"', 'Invoice');
    expect(only(check(bundle(r, cond('Invoice', 'continue'))), 'method.optional_unhandled')[0]!.params['site']).toBe('condition_output');
    expect(check(bundle(r, cond('Invoice?', 'continue')))).toEqual([]);
    expect(only(check(bundle(r, cond('Line', 'fail'))), 'method.output_concept_mismatch')).toHaveLength(1);
    const allFail = `[pipe.c]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Text"\nexpression = "doc.filename"\noutcomes = { a = "fail" }\ndefault_outcome = "fail"\n`;
    expect(only(check(bundle(allFail)), 'method.wiring_invalid')).toHaveLength(1);
  });
  it('checks batches', () => {
    const batch = (list: string, item: string): string => `[pipe.b]\ntype = "PipeBatch"\ndescription = "d"\ninputs = { lines = "${list}" }\noutput = "Text[]"\nbranch_pipe_code = "each"\ninput_list_name = "lines"\ninput_item_name = "${item}"\n`;
    const each = func('each', 'line = "Line"', 'Text');
    expect(check(bundle(each, batch('Line[]', 'line')))).toEqual([]);
    expect(only(check(bundle(each, batch('Line', 'line'))), 'method.wiring_invalid')).toHaveLength(1);
    expect(only(check(bundle(each, batch('Line[]', 'row'))), 'method.wiring_invalid')).toHaveLength(1);
    expect(only(check(bundle(each, batch('Invoice[]', 'line'))), 'method.input_concept_mismatch')).toHaveLength(1);
  });
});

describe('operator kinds', () => {
  const op = (type: string, inputs: string, output: string, extra = ''): string => `[pipe.o]\ntype = "${type}"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "${output}"\n${extra}`;
  it.each([
    ['PipeLLM', 'a = "Text"', 'Image', 'prompt = "$a"\n', 'method.output_concept_mismatch'],
    ['PipeImgGen', 'a = "Text"', 'Text', 'prompt = "$a"\n', 'method.output_concept_mismatch'],
    ['PipeExtract', 'a = "Text"', 'Page[]', '', 'method.input_concept_mismatch'],
    ['PipeExtract', 'a = "Document", b = "Image"', 'Page[]', '', 'method.wiring_invalid'],
    ['PipeExtract', 'a = "Document"', 'Page', '', 'method.output_multiplicity_mismatch'],
    ['PipeStructure', 'a = "Text"', 'Summary', '', 'method.output_concept_mismatch'],
    ['PipeCompose', 'a = "Text"', 'Text[]', 'template = "$a"\n', 'method.output_multiplicity_mismatch'],
    ['PipeCompose', 'a = "Text"', 'Invoice', 'template = "$a"\n', 'method.output_concept_mismatch'],
    ['PipeJudge', 'a = "Text"', 'Choice', 'prompt = "$a"\nquestion = "Is it?"\n', 'method.output_concept_mismatch'],
  ])('%s with inputs { %s } and output %s', (type, inputs, output, extra, code) => {
    expect(only(check(bundle(op(type, inputs, output, extra))), code)).toHaveLength(1);
  });
  it.each([
    ['PipeLLM', 'a = "Text"', 'Invoice', 'prompt = "$a"\n'],
    ['PipeImgGen', 'a = "Text"', 'Image[3]', 'prompt = "$a"\n'],
    ['PipeExtract', 'a = "Image"', 'Page[]', ''],
    ['PipeStructure', 'a = "Summary"', 'Invoice', ''],
    ['PipeCompose', 'a = "Text"', 'Html', 'template = "$a"\n'],
    ['PipeJudge', 'a = "Text"', 'YesNo', 'prompt = "$a"\nquestion = "Is it?"\n'],
  ])('accepts %s with inputs { %s } and output %s', (type, inputs, output, extra) => {
    expect(check(bundle(op(type, inputs, output, extra)))).toEqual([]);
  });
});

describe('method.optional_unhandled at controller sites', () => {
  it('condition: an outcome pipe with an optional output needs an optional condition output', () => {
    const maybe = func('maybe', 'doc = "Document"', 'Invoice?');
    const cond = (output: string): string => `[pipe.c]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "${output}"\nexpression = "doc.filename"\noutcomes = { a = "maybe" }\ndefault_outcome = "maybe"\n`;
    expect(only(check(bundle(maybe, cond('Invoice'))), 'method.optional_unhandled')[0]!.params).toEqual({ pipe: 'c', input: 'maybe', site: 'condition' });
    expect(only(check(bundle(maybe, cond('Invoice?'))), 'method.optional_unhandled')).toEqual([]);
  });
  it('parallel_branch: a maybe-absent branch cannot fill a required field', () => {
    const par = (output: string): string => `[pipe.p]\ntype = "PipeParallel"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Invoice"\nbranches = [{ pipe = "total", result = "total" }]\n`.replace('PLACEHOLDER', output);
    const text = bundle(func('total', 'doc = "Document"', 'Number?'), par(''));
    expect(only(check(text), 'method.optional_unhandled')[0]!.params).toEqual({ pipe: 'p', input: 'total', site: 'parallel_branch' });
    expect(only(check(bundle(func('total', 'doc = "Document"', 'Number'), par(''))), 'method.optional_unhandled')).toEqual([]);
  });
});
