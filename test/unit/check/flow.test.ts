import { describe, expect, it } from 'vitest';
import { HEADER, check, only, textAt, treeOf } from '../../helpers/tree.js';
import { checkTree } from '../../../server/src/check/index.js';
import type { Finding } from '../../../server/src/check/finding.js';
import { buildHostStructures } from '../../../server/src/language/hostStructures.js';
import { parseToml } from '../../../server/src/syntax/document.js';

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
    // `declared` is what the step's pipe declares, `expected` what the flow gives it (the registry's params).
    expect(f!.params).toEqual({ pipe: 'count', input: 'invoice', declared: 'Line', expected: ['Invoice'] });
    expect(f!.related?.map((r) => r.message)).toEqual(['`invoice` holds a single value here: step 1 (pipe `read`) stores it']);
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
    const found = check(text);
    // A batch over a single value is a read of the wrong multiplicity, as the runtime refuses it.
    expect(only(found, 'method.input_concept_mismatch').map((f) => [f.params, textAt(text, f)])).toEqual([[{ pipe: 'each', input: 'item', declared: 'line[]', expected: ['Line'] }, '"line"']]);
    expect(only(found, 'method.wiring_invalid').map((f) => f.params['variable_path'])).toEqual(['item']);
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

describe('multiplicity through a sequence (runtime: input_stuff_spec_mismatch)', () => {
  const citation = `[concept.Citation]\ndescription = "A citation"\n[concept.Citation.structure]\nquote = "The quote"\n`;
  const mk = (...parts: string[]): string => bundle(citation, ...parts);
  const mismatches = (text: string): Array<[unknown, string]> => only(check(text), 'method.input_concept_mismatch').map((f) => [f.params, textAt(text, f)]);
  it('refuses a list read as one value, naming both multiplicities and who stored it', () => {
    const text = mk(func('find', 'text = "Text"', 'Citation[]'), func('summarise', 'citations = "Citation"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "find", result = "citations" }, { pipe = "summarise", result = "summary" }'));
    const found = only(check(text), 'method.input_concept_mismatch');
    expect(found.map((f) => [f.params, textAt(text, f)])).toEqual([[{ pipe: 'summarise', input: 'citations', declared: 'Citation', expected: ['Citation[]'] }, 'summarise']]);
    expect(found[0]!.message).toBe('The input citations of pipe summarise is declared as Citation, but its use accepts Citation[].');
    expect(found[0]!.related!.map((r) => [r.message, text.slice(r.range.start, r.range.end)])).toEqual([['`citations` holds a list here: step 1 (pipe `find`) stores it', 'find']]);
  });
  it('refuses one value read as a list, and a fixed count read as another count', () => {
    expect(mismatches(mk(func('one', 'text = "Text"', 'Citation'), func('all', 'c = "Citation[]"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "one", result = "c" }, { pipe = "all", result = "r" }')))).toEqual([
      [{ pipe: 'all', input: 'c', declared: 'Citation[]', expected: ['Citation'] }, 'all'],
    ]);
    expect(mismatches(mk(func('three', 'text = "Text"', 'Citation[3]'), func('two', 'c = "Citation[2]"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "three", result = "c" }, { pipe = "two", result = "r" }')))).toEqual([
      [{ pipe: 'two', input: 'c', declared: 'Citation[2]', expected: ['Citation[3]'] }, 'two'],
    ]);
  });
  it('accepts a fixed count where a variable list is read, and `[1]` as one value', () => {
    expect(mismatches(mk(func('three', 'text = "Text"', 'Citation[3]'), func('all', 'c = "Citation[]"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "three", result = "c" }, { pipe = "all", result = "r" }')))).toEqual([]);
    expect(mismatches(mk(func('one', 'text = "Text"', 'Citation[1]'), func('use', 'c = "Citation"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "one", result = "c" }, { pipe = "use", result = "r" }')))).toEqual([]);
  });
  it('types what a step stores by its batch, nb_output and multiple_output', () => {
    const use = func('use', 'c = "Citation"', 'Text');
    const one = func('one', 'text = "Text"', 'Citation');
    const batched = mk(one, use, func('split', 'text = "Text"', 'Text[]'), seq('text = "Text"', 'Text', '{ pipe = "split", result = "parts" }, { pipe = "one", batch_over = "parts", batch_as = "text", result = "c" }, { pipe = "use", result = "r" }'));
    expect(mismatches(batched).map(([p]) => p)).toEqual([{ pipe: 'use', input: 'c', declared: 'Citation', expected: ['Citation[]'] }]);
    const counted = mk(one, use, seq('text = "Text"', 'Text', '{ pipe = "one", nb_output = 3, result = "c" }, { pipe = "use", result = "r" }'));
    expect(mismatches(counted).map(([p]) => p)).toEqual([{ pipe: 'use', input: 'c', declared: 'Citation', expected: ['Citation[3]'] }]);
    const many = mk(one, use, seq('text = "Text"', 'Text', '{ pipe = "one", multiple_output = true, result = "c" }, { pipe = "use", result = "r" }'));
    expect(mismatches(many).map(([p]) => p)).toEqual([{ pipe: 'use', input: 'c', declared: 'Citation', expected: ['Citation[]'] }]);
    const countedList = mk(one, func('all', 'c = "Citation[]"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "one", nb_output = 3, result = "c" }, { pipe = "all", result = "r" }'));
    expect(mismatches(countedList)).toEqual([]);
    const overOne = mk(one, func('each', 'c = "Citation"', 'Text'), seq('text = "Text"', 'Text[]', '{ pipe = "one", result = "c" }, { pipe = "each", batch_over = "c", batch_as = "c", result = "r" }'));
    expect(mismatches(overOne)).toEqual([[{ pipe: 'each', input: 'c', declared: 'Citation[]', expected: ['Citation'] }, '"c"']]);
  });
  it('types a binding by the lists its path crosses, native list fields included', () => {
    const read = func('read', 'doc = "Document"', 'Invoice');
    const lines = mk(read, func('one_line', 'line = "Line"', 'Text'), seq('doc = "Document"', 'Text', '{ pipe = "read", result = "invoice" }, { from = "invoice.lines", result = "line" }, { pipe = "one_line", result = "r" }'));
    expect(mismatches(lines).map(([p]) => p)).toEqual([{ pipe: 'one_line', input: 'line', declared: 'Line', expected: ['Line[]'] }]);
    const search = mk(func('search', 'q = "Text"', 'SearchResult'), func('one_doc', 'source = "Document"', 'Text'), seq('q = "Text"', 'Text', '{ pipe = "search", result = "found" }, { from = "found.sources", result = "source" }, { pipe = "one_doc", result = "r" }'));
    expect(mismatches(search).map(([p]) => p)).toEqual([{ pipe: 'one_doc', input: 'source', declared: 'Document', expected: ['Document[]'] }]);
    const all = mk(func('search', 'q = "Text"', 'SearchResult'), func('all_docs', 'source = "Document[]"', 'Text'), seq('q = "Text"', 'Text', '{ pipe = "search", result = "found" }, { from = "found.sources", result = "source" }, { pipe = "all_docs", result = "r" }'));
    expect(mismatches(all)).toEqual([]);
  });
  it("holds the sequence's declared inputs to the steps that read them", () => {
    const text = mk(func('use', 'c = "Citation"', 'Text'), seq('c = "Citation[]"', 'Text', '{ pipe = "use", result = "r" }'));
    const [f] = only(check(text), 'method.input_concept_mismatch');
    expect(f!.params).toEqual({ pipe: 'use', input: 'c', declared: 'Citation', expected: ['Citation[]'] });
    expect(f!.related![0]!.message).toBe('`c` holds a list here: the sequence `s` declares it');
  });
  it('lets a flexible need take anything, and a pipe step\'s Anything satisfy a concept but not a multiplicity', () => {
    expect(mismatches(mk(func('many', 'text = "Text"', 'Citation[]'), func('any', 'c = "Anything"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "many", result = "c" }, { pipe = "any", result = "r" }')))).toEqual([]);
    expect(mismatches(mk(func('vague', 'text = "Text"', 'Anything'), func('use', 'c = "Citation"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "vague", result = "c" }, { pipe = "use", result = "r" }')))).toEqual([]);
    expect(mismatches(mk(func('vague', 'text = "Text"', 'Anything[]'), func('use', 'c = "Citation"', 'Text'), seq('text = "Text"', 'Text', '{ pipe = "vague", result = "c" }, { pipe = "use", result = "r" }'))).map(([p]) => p)).toEqual([
      { pipe: 'use', input: 'c', declared: 'Citation', expected: ['Anything[]'] },
    ]);
  });
});

describe("controllers' declared inputs against their children's needs (the runtime's equality rule)", () => {
  const par = (inputs: string, branches: string): string => `[pipe.p]\ntype = "PipeParallel"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "Composite"\nbranches = [${branches}]\n`;
  const cond = (inputs: string, output: string, outcomes: string, fallback: string): string =>
    `[pipe.c]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "${output}"\nexpression = "doc.filename"\noutcomes = { ${outcomes} }\ndefault_outcome = "${fallback}"\n`;
  it('a parallel declares each input as its branches read it: concept and multiplicity', () => {
    const use = func('use', 'note = "Text"', 'Text');
    expect(check(bundle(use, par('note = "Text"', '{ pipe = "use", result = "a" }')))).toEqual([]);
    const text = bundle(use, par('note = "Summary"', '{ pipe = "use", result = "a" }'));
    const [f] = only(check(text), 'method.input_concept_mismatch');
    expect([f!.params, textAt(text, f!)]).toEqual([{ pipe: 'p', input: 'note', declared: 'Summary', expected: ['Text'] }, '"Summary"']);
    expect(f!.related![0]!.message).toContain('`use` reads `note` as Text');
    expect(only(check(bundle(use, par('note = "Text[]"', '{ pipe = "use", result = "a" }'))), 'method.input_concept_mismatch').map((x) => x.params['expected'])).toEqual([['Text']]);
    // A flexible need takes any declaration.
    expect(only(check(bundle(func('any', 'note = "Anything"', 'Text'), par('note = "Summary[]"', '{ pipe = "any", result = "a" }'))), 'method.input_concept_mismatch')).toEqual([]);
  });
  it('a parallel branch may batch: it needs the list in place of the item', () => {
    const each = func('each', 'line = "Line"', 'Text');
    expect(check(bundle(each, par('lines = "Line[]"', '{ pipe = "each", batch_over = "lines", batch_as = "line", result = "texts" }')))).toEqual([]);
    const wrong = check(bundle(each, par('lines = "Line"', '{ pipe = "each", batch_over = "lines", batch_as = "line", result = "texts" }')));
    expect(only(wrong, 'method.input_concept_mismatch').map((f) => f.params)).toEqual([{ pipe: 'p', input: 'lines', declared: 'Line', expected: ['Line[]'] }]);
    expect(only(check(bundle(each, par('lines = "Line[]"', '{ pipe = "each", batch_over = "lines", batch_as = "row", result = "texts" }'))), 'method.wiring_invalid').map((f) => f.params['variable_path'])).toEqual(['row']);
  });
  it("a condition declares each input as its outcomes read it", () => {
    const r = func('read', 'doc = "Document"', 'Invoice');
    expect(check(bundle(r, cond('doc = "Document"', 'Invoice', 'a = "read"', 'read')))).toEqual([]);
    expect(only(check(bundle(r, cond('doc = "Document[]"', 'Invoice', 'a = "read"', 'read'))), 'method.input_concept_mismatch').map((f) => f.params)).toEqual([
      { pipe: 'c', input: 'doc', declared: 'Document[]', expected: ['Document'] },
    ]);
  });
  it("a condition's output is its outcomes' concept exactly, or Anything; never Dynamic", () => {
    const r = func('read', 'doc = "Document"', 'Invoice');
    const found = (output: string, outcomes = 'a = "read"', fallback = 'read'): string[] => only(check(bundle(r, func('other', 'doc = "Document"', 'Line'), cond('doc = "Document"', output, outcomes, fallback))), 'method.output_concept_mismatch').map((f) => String(f.params['expected']));
    expect(found('Invoice')).toEqual([]);
    expect(found('Anything')).toEqual([]);
    expect(found('Dynamic')).toEqual(['Invoice,Anything']);
    // Mixed outcomes: only Anything.
    expect(found('Invoice', 'a = "read"', 'other')).toEqual(['Anything']);
    expect(found('Dynamic', 'a = "read"', 'other')).toEqual(['Anything']);
    expect(found('Anything', 'a = "read"', 'other')).toEqual([]);
    // The multiplicities are not compared.
    expect(found('Invoice[]')).toEqual([]);
  });
  it("a `?` input an outcome reads plainly makes the condition's output maybe absent", () => {
    const r = func('read', 'doc = "Document"', 'Invoice');
    const text = bundle(r, cond('doc = "Document?"', 'Invoice', 'a = "read"', 'read'));
    expect(only(check(text), 'method.optional_unhandled').map((f) => f.params)).toEqual([{ pipe: 'c', input: 'read', site: 'condition' }]);
    expect(only(check(bundle(r, cond('doc = "Document?"', 'Invoice?', 'a = "read"', 'read'))), 'method.optional_unhandled')).toEqual([]);
    // A list output is never absent (an empty list instead).
    expect(only(check(bundle(func('read', 'doc = "Document"', 'Invoice[]'), cond('doc = "Document?"', 'Invoice[]', 'a = "read"', 'read'))), 'method.optional_unhandled')).toEqual([]);
  });
  it('names every outcome stores are visible after the condition; names one stores, or a batched step stores, are not', () => {
    const inner = (code: string, result: string): string => `[pipe.${code}]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Invoice"\nsteps = [{ pipe = "read", result = "${result}" }]\n`;
    const r = func('read', 'doc = "Document"', 'Invoice');
    const sum = func('summarize', 'invoice = "Invoice"', 'Summary');
    const outer = (fallback: string): string => seq('doc = "Document"', 'Summary', `{ pipe = "c", result = "chosen" }, { pipe = "summarize", result = "s" }`) + cond('doc = "Document"', 'Invoice', 'a = "one"', fallback);
    expect(check(bundle(r, sum, inner('one', 'invoice'), inner('two', 'invoice'), outer('two')))).toEqual([]);
    const some = check(bundle(r, sum, inner('one', 'invoice'), inner('two', 'other'), outer('two')));
    expect(only(some, 'method.input_undeclared').map((f) => [f.params['pipe'], f.params['variables']])).toEqual([['s', ['invoice']]]);
    const batched = bundle(r, sum, inner('one', 'invoice'), seq('docs = "Document[]"', 'Summary', '{ pipe = "one", batch_over = "docs", batch_as = "doc", result = "all" }, { pipe = "summarize", result = "s" }'));
    expect(only(check(batched), 'method.input_undeclared').map((f) => [f.params['pipe'], f.params['variables']])).toEqual([['s', ['invoice']]]);
  });
});

describe('binding walks and asked counts', () => {
  it('refuses a walk into Anything, Composite and a list without item_type', () => {
    const concepts = `[concept.Bag]\ndescription = "d"\n[concept.Bag.structure]\nthing = { type = "concept", concept_ref = "Anything", description = "t" }\nitems = { type = "list", description = "untyped" }\n`;
    const get = func('get', 'doc = "Document"', 'Bag');
    const walk = (from: string, out = 'Text'): string[] => only(check(bundle(concepts, get, seq('doc = "Document"', out, `{ pipe = "get", result = "bag" }, { from = "${from}", result = "x" }`))), 'method.field_path_unresolved').map((f) => String(f.params['segment']));
    expect(walk('bag.thing', 'Anything')).toEqual([]);
    expect(walk('bag.thing.name')).toEqual(['name']);
    expect(walk('bag.items', 'Anything[]')).toEqual(['items']);
    expect(walk('bag.items.name')).toEqual(['name']);
    const par = `[pipe.p]\ntype = "PipeParallel"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Composite"\nbranches = [{ pipe = "get", result = "bag" }]\n`;
    const composite = only(check(bundle(concepts, get, par, seq('doc = "Document"', 'Text', '{ pipe = "p", result = "both" }, { from = "both.bag", result = "x" }'))), 'method.field_path_unresolved');
    expect(composite.map((f) => [f.params['segment'], f.related?.[0]?.message])).toEqual([['bag', 'Composite has no structure to walk']]);
  });
  it('refuses a count asked of a sequence that ends with a binding it does not bind', () => {
    const r = func('read', 'doc = "Document"', 'Invoice');
    const inner = `[pipe.total_of]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Number"\nsteps = [{ pipe = "read", result = "invoice" }, { from = "invoice.total", result = "total" }]\n`;
    const asked = (extra: string): Array<[unknown, string]> => {
      const text = bundle(r, inner, seq('doc = "Document"', 'Number[]', `{ pipe = "total_of", ${extra}result = "totals" }`));
      return only(check(text), 'method.output_multiplicity_mismatch').filter((f) => f.params['pipe'] === 'total_of').map((f) => [f.params, textAt(text, f)]);
    };
    expect(asked('nb_output = 3, ')).toEqual([[{ pipe: 'total_of', declared: 'Number', expected: 'fixed' }, 'nb_output']]);
    expect(asked('multiple_output = true, ')).toEqual([[{ pipe: 'total_of', declared: 'Number', expected: 'list' }, 'multiple_output']]);
    expect(asked('')).toEqual([]);
  });
});

describe('outputs holding an image, date defaults, and what the runtime finds compatible', () => {
  const llm = (output: string): string => `[pipe.o]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "${output}"\nprompt = "$a"\n`;
  const photo = (required: boolean): string => `[concept.Photo]\ndescription = "d"\n[concept.Photo.structure]\ncaption = "The caption"\npicture = { type = "concept", concept_ref = "Image", description = "p", required = ${required} }\n`;
  it('a PipeLLM output that holds an Image, required or not, or Page, is refused; a list of images is not seen', () => {
    const codes = (text: string): unknown[] => only(check(text), 'method.output_concept_mismatch').map((f) => f.params['declared']);
    expect(codes(bundle(photo(true), llm('Photo')))).toEqual(['Photo']);
    expect(codes(bundle(photo(false), llm('Photo')))).toEqual(['Photo']);
    expect(codes(bundle(llm('Page')))).toEqual(['Page']);
    expect(codes(bundle(llm('TextAndImages')))).toEqual([]);
    expect(codes(bundle(llm('Invoice')))).toEqual([]);
  });
  it('date and time defaults are TOML dates and times, never strings', () => {
    const field = (type: string, value: string): string => `[concept.Event]\ndescription = "d"\n[concept.Event.structure]\nwhen = { type = "${type}", description = "w", default_value = ${value} }\n`;
    const bad = (type: string, value: string): number => only(check(bundle(field(type, value))), 'method.concept_invalid').length;
    expect(bad('date', '2024-01-31')).toBe(0);
    expect(bad('date', '"2024-01-31"')).toBe(1);
    expect(bad('date', '"2024-02-30"')).toBe(1);
    expect(bad('date', '2024-01-31T10:00:00')).toBe(1);
    expect(bad('datetime', '2024-01-31T10:00:00Z')).toBe(0);
    expect(bad('datetime', '2024-01-31')).toBe(1);
    expect(bad('time', '10:30:00')).toBe(0);
    expect(bad('time', '"25:99"')).toBe(1);
  });
  it('accepts a parent value where a refinement adding no field is read, and concepts of identical structures', () => {
    const more = `[concept.Bill]\ndescription = "A bill"\nrefines = "Invoice"\n[concept.Twin]\ndescription = "Same fields"\n[concept.Twin.structure]\ntotal = { type = "number", description = "Total", required = true }\nnote = { type = "text", description = "A note" }\nlines = { type = "list", item_type = "concept", item_concept_ref = "Line", description = "Lines" }\n`;
    const read = func('read', 'doc = "Document"', 'Invoice');
    const mismatches = (want: string): number => only(check(bundle(more, read, func('use', `x = "${want}"`, 'Text'), seq('doc = "Document"', 'Text', '{ pipe = "read", result = "x" }, { pipe = "use", result = "r" }'))), 'method.input_concept_mismatch').length;
    expect(mismatches('Bill')).toBe(0);
    expect(mismatches('Twin')).toBe(0);
    expect(mismatches('Line')).toBe(1);
  });
});

describe('a structure named as a host class', () => {
  const text = `${HEADER}[concept.Expense]\ndescription = "An expense"\nstructure = "Expense"\n[pipe.o]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Expense"\nprompt = "$a"\n`;
  const withHost = (structures: string): Finding[] => {
    const tree = treeOf({ 'main.mthds': text });
    tree.hostStructures = buildHostStructures('/virtual/structures.toml', parseToml(structures));
    return checkTree(tree);
  };
  it('is a warning without a structures file, the checker knowing nothing of the host', () => {
    const found = only(check(text), 'method.concept_invalid');
    expect(found.map((f) => [f.severity, f.message])).toEqual([['warning', expect.stringContaining('names a class the host program must register')]]);
  });
  it('binds the structures file\'s class of that name, and is an error when the file lacks it', () => {
    expect(withHost('[Expense]\namount = { type = "number", description = "Amount", required = true }\n').filter((f) => f.severity === 'error')).toEqual([]);
    expect(only(withHost('[Other]\nx = "X"\n'), 'method.concept_invalid').map((f) => f.severity)).toEqual(['error']);
  });
});
