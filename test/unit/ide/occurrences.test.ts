import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { occurrenceAt, occurrencesOf, type Occurrence } from '../../../server/src/ide/occurrences.js';
import type { Bundle } from '../../../server/src/language/model.js';
import type { MethodTree } from '../../../server/src/language/tree.js';
import { ROOT, treeOf } from '../../helpers/tree.js';

const CONCEPTS = `domain = "legal"
description = "Contracts"

[concept.Contract]
description = "A contract"
refines = "Text"

[concept.Clause.structure]
body = { type = "text", description = "The text" }
parent = { type = "concept", concept_ref = "legal.Contract", description = "Where it sits" }
items = { type = "list", item_type = "concept", item_concept_ref = "Contract", description = "Sub" }
`;

const PIPES = `domain = "legal"
description = "Pipes"
main_pipe = "review"

[pipe.review]
type = "PipeSequence"
description = "Review a contract"
inputs = { contract = "Contract", "notes" = "Text?" }
output = "legal.Clause[]"
steps = [
  { pipe = "split_clauses", result = "clauses" },
  { from = "contract.title", result = "title" },
  { pipe = "summarize", batch_over = "clauses", batch_as = "clause", result = "summaries" },
  { from = "clauses", result = "copy" },
]

[pipe.split_clauses]
type = "PipeLLM"
description = "Split"
inputs = { contract = "Contract[]", notes = "Text?" }
output = "Clause[]"
model = "$writing-factual"
prompt = """
Split {{ contract.body | upper }} into clauses.
{% if notes %}{{ notes }}{% endif %}
$contract and $undeclared
@?notes
"""

[pipe.summarize]
description = "A signature"
inputs = { clause = "Clause" }
output = "Text"

[pipe.summarize_impl]
type = "PipeCompose"
description = "Compose"
inputs = { clause = "Clause" }
output = "Text"
construct = { title = { from = "clause.body" } }

[pipe.batch]
type = "PipeBatch"
description = "Batch"
inputs = { clauses = "Clause[]" }
output = "Text[]"
branch_pipe_code = "legal.summarize"
input_list_name = "clauses"
input_item_name = "clause"
`;

function setup(files: Record<string, string> = { 'concepts.mthds': CONCEPTS, 'pipes.mthds': PIPES }): { tree: MethodTree; bundle(name: string): Bundle } {
  const tree = treeOf(files);
  return { tree, bundle: (name) => tree.bundles.find((b) => b.file === path.join(ROOT, name))! };
}

function texts(bundle: Bundle, list: readonly Occurrence[]): string[] {
  return list.map((o) => bundle.doc.text.slice(o.range.start, o.range.end));
}

describe('occurrencesOf', () => {
  it('gives concept declarations and references one key across bundles', () => {
    const { tree, bundle } = setup();
    const all = [...occurrencesOf(tree, bundle('concepts.mthds')), ...occurrencesOf(tree, bundle('pipes.mthds'))];
    const contract = all.filter((o) => o.key === 'legal.Contract');
    expect(contract.filter((o) => o.role === 'declaration')).toHaveLength(1);
    // concept_ref, item_concept_ref, the two inputs of review and split_clauses
    expect(contract.filter((o) => o.role === 'reference')).toHaveLength(4);
    for (const o of contract) {
      const b = o.file.endsWith('concepts.mthds') ? bundle('concepts.mthds') : bundle('pipes.mthds');
      expect(b.doc.text.slice(o.range.start, o.range.end)).toBe('Contract');
    }
  });

  it('keys natives as native.Code and ranges the code only', () => {
    const { tree, bundle } = setup();
    const b = bundle('pipes.mthds');
    const text = occurrencesOf(tree, b).filter((o) => o.key === 'native.Text');
    expect(text.length).toBeGreaterThanOrEqual(3);
    expect(new Set(texts(b, text))).toEqual(new Set(['Text']));
    // `legal.Clause[]`: the code, not the domain nor the multiplicity
    const clause = occurrencesOf(tree, b).filter((o) => o.key === 'legal.Clause');
    expect(new Set(texts(b, clause))).toEqual(new Set(['Clause']));
    const domainPart = occurrencesOf(tree, b).filter((o) => o.kind === 'domain' && o.role === 'reference');
    expect(texts(b, domainPart)).toEqual(['legal', 'legal']);
  });

  it('resolves pipe references (main_pipe, steps, branch_pipe_code) to domain.code', () => {
    const { tree, bundle } = setup();
    const b = bundle('pipes.mthds');
    const summarize = occurrencesOf(tree, b).filter((o) => o.key === 'legal.summarize');
    expect(summarize.map((o) => o.role)).toEqual(['reference', 'declaration', 'reference']);
    expect(summarize).toHaveLength(3);
    expect(new Set(texts(b, summarize))).toEqual(new Set(['summarize']));
    const review = occurrencesOf(tree, b).filter((o) => o.key === 'legal.review');
    expect(review.map((o) => o.role)).toEqual(['reference', 'declaration']);
  });

  it('keeps unresolved references under their written text', () => {
    const { tree, bundle } = setup({ 'a.mthds': 'domain = "a"\n[pipe.p]\ntype = "PipeSequence"\noutput = "b.Missing"\nsteps = [{ pipe = "nowhere" }, { pipe = "dep->x.y" }]\n' });
    const list = occurrencesOf(tree, bundle('a.mthds'));
    expect(list.find((o) => o.kind === 'concept')?.key).toBe('b.Missing');
    expect(list.filter((o) => o.kind === 'pipe' && o.role === 'reference').map((o) => o.key)).toEqual(['nowhere', 'dep->x.y']);
  });

  it('ties template reads to the input of their own pipe only', () => {
    const { tree, bundle } = setup();
    const b = bundle('pipes.mthds');
    const list = occurrencesOf(tree, b);
    const own = list.filter((o) => o.key === 'legal.split_clauses#contract');
    expect(own.map((o) => o.kind)).toEqual(['input', 'template-variable', 'template-variable']);
    expect(new Set(texts(b, own))).toEqual(new Set(['contract']));
    const notes = list.filter((o) => o.key === 'legal.split_clauses#notes');
    // declaration, `{% if notes %}`, `{{ notes }}`, `@?notes`
    expect(notes).toHaveLength(4);
    expect(new Set(texts(b, notes))).toEqual(new Set(['notes']));
    const undeclared = list.filter((o) => o.key === 'legal.split_clauses#undeclared');
    expect(undeclared.map((o) => o.kind)).toEqual(['template-variable']);
  });

  it('reads sequence inputs and results through from / batch_over roots', () => {
    const { tree, bundle } = setup();
    const b = bundle('pipes.mthds');
    const list = occurrencesOf(tree, b);
    const input = list.filter((o) => o.key === 'legal.review#contract');
    expect(input.map((o) => [o.kind, o.role])).toEqual([['input', 'declaration'], ['input', 'reference']]);
    expect(texts(b, input)).toEqual(['contract', 'contract']);
    const quoted = list.find((o) => o.key === 'legal.review#notes')!;
    expect(b.doc.text.slice(quoted.range.start, quoted.range.end)).toBe('notes');
    const clauses = list.filter((o) => o.key === 'legal.review#result:clauses');
    expect(clauses.map((o) => o.role)).toEqual(['declaration', 'reference', 'reference']);
    expect(new Set(texts(b, clauses))).toEqual(new Set(['clauses']));
    expect(list.filter((o) => o.kind === 'result' && o.role === 'declaration').map((o) => o.key.split(':')[1])).toEqual(['clauses', 'title', 'summaries', 'copy']);
  });

  it('covers construct from roots, input_list_name, models and pipe types', () => {
    const { tree, bundle } = setup();
    const b = bundle('pipes.mthds');
    const list = occurrencesOf(tree, b);
    expect(list.filter((o) => o.key === 'legal.summarize_impl#clause').map((o) => o.kind)).toEqual(['input', 'input']);
    expect(list.filter((o) => o.key === 'legal.batch#clauses')).toHaveLength(2);
    const model = list.find((o) => o.kind === 'model')!;
    expect(model.key).toBe('$writing-factual');
    expect(b.doc.text.slice(model.range.start, model.range.end)).toBe('$writing-factual');
    expect(list.filter((o) => o.kind === 'pipe-type').map((o) => o.key)).toEqual(['PipeSequence', 'PipeLLM', 'PipeCompose', 'PipeBatch']);
  });

  it('finds the occurrence under a cursor, ends included', () => {
    const { tree, bundle } = setup();
    const b = bundle('pipes.mthds');
    const at = b.doc.text.indexOf('"split_clauses"') + 1;
    expect(occurrenceAt(tree, b, at)?.key).toBe('legal.split_clauses');
    expect(occurrenceAt(tree, b, at + 'split_clauses'.length)?.key).toBe('legal.split_clauses');
    expect(occurrenceAt(tree, b, at - 1)).toBeUndefined();
    const dollar = b.doc.text.indexOf('$contract');
    expect(occurrenceAt(tree, b, dollar + 3)?.key).toBe('legal.split_clauses#contract');
  });

  it('works on half-typed documents', () => {
    const text = 'domain = "x"\n[concept.Foo]\ndescription = "f"\n[pipe.p]\ntype = "PipeLLM"\ninputs = { a = "Fo\noutput = "Foo"\nprompt = "$a $b\n[pipe.q\n';
    const { tree, bundle } = setup({ 'x.mthds': text });
    const list = occurrencesOf(tree, bundle('x.mthds'));
    expect(list.some((o) => o.key === 'x.Foo' && o.role === 'declaration')).toBe(true);
    expect(list.some((o) => o.key === 'x.p' && o.role === 'declaration')).toBe(true);
  });

  it('maps ranges through string escapes', () => {
    const text = 'domain = "x"\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nprompt = "\\u00e9 $a"\n';
    const { tree, bundle } = setup({ 'x.mthds': text });
    const b = bundle('x.mthds');
    const read = occurrencesOf(tree, b).find((o) => o.kind === 'template-variable')!;
    expect(text.slice(read.range.start, read.range.end)).toBe('a');
  });

  it('counts a concept named again by a later header as part of its declaration', () => {
    const text = 'domain = "x"\n[concept.Foo]\ndescription = "f"\n\n[concept.Foo.structure]\na = "A"\n\n[pipe.p.inputs."in"]\nconcept = "Foo"\n\n[pipe.p.inputs.in.hints]\nintent = "x"\n';
    const { tree, bundle } = setup({ 'x.mthds': text });
    const list = occurrencesOf(tree, bundle('x.mthds'));
    const foo = list.filter((o) => o.key === 'x.Foo');
    expect(foo.map((o) => o.role)).toEqual(['declaration', 'declaration', 'reference']);
    expect(new Set(foo.map((o) => text.slice(o.range.start, o.range.end)))).toEqual(new Set(['Foo']));
    const input = list.filter((o) => o.key === 'x.p#in');
    expect(input.map((o) => text.slice(o.range.start, o.range.end))).toEqual(['in', 'in']);
  });

  it('caches per bundle and tree', () => {
    const { tree, bundle } = setup();
    const b = bundle('pipes.mthds');
    expect(occurrencesOf(tree, b)).toBe(occurrencesOf(tree, b));
  });
});
