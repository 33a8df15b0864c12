import { describe, expect, it } from 'vitest';
import { ConceptCatalog } from '../../../server/src/language/jsonSchema.js';
import { describedPipes, pipeIoArtifacts, pipeIoLines, runPrompt, type FormField } from '../../../server/src/language/pipeIo.js';
import { treeOf } from '../../helpers/tree.js';

const LEGAL = `domain = "legal"
description = "Contracts"
main_pipe = "summarize_contract"

[concept.Contract]
description = "A contract"
refines = "Document"

[concept.Clause]
description = "One clause of a contract"
[concept.Clause.structure]
heading = { type = "text", description = "The clause heading", required = true }
body = "The clause body"
weight = { type = "number", description = "How much it weighs", default_value = 1 }
kind = { description = "Kind", choices = ["duty", "right"] }
tags = { type = "list", description = "Tags" }
refs = { type = "list", item_type = "concept", item_concept_ref = "Clause", description = "Related clauses" }

[concept.Summary]
description = "A summary"

[concept.Headline]
description = "A short title"
refines = "Summary"
[concept.Headline.hints]
intent = "label"

[pipe.summarize_contract]
type = "PipeLLM"
description = "Summarize"
inputs = { contract = "Contract", instructions = "Text?", clauses = "Clause[]", pair = "Clause[2]", one = "Clause[1]", sure = "Text!" }
output = "Summary"
prompt = """
Summarize @contract, $clauses, $pair, $one and $sure.
@?instructions
"""

[pipe.extract_clauses]
type = "PipeLLM"
description = "Extract"
inputs = { contract = "Contract" }
output = "Clause[]"
prompt = "Extract the clauses of @contract."

[pipe.headline]
type = "PipeLLM"
description = "Headline"
output = "Headline?"
prompt = "A headline."
`;

function artifacts() {
  const tree = treeOf({ 'legal.mthds': LEGAL });
  return pipeIoArtifacts(new ConceptCatalog(tree), describedPipes(tree));
}

describe('pipe I/O contracts', () => {
  it('keys every pipe by its namespaced ref, the three artifacts over one key set', () => {
    const a = artifacts();
    const keys = ['legal.summarize_contract', 'legal.extract_clauses', 'legal.headline'];
    expect(Object.keys(a.pipe_io_contracts)).toEqual(keys);
    expect(Object.keys(a.input_form)).toEqual(keys);
    expect(Object.keys(a.output_form)).toEqual(keys);
    expect(a.pipe_io_contracts['legal.headline']!.inputs).toEqual({});
    expect(a.input_form['legal.headline']).toEqual({ fields: [] });
  });

  it('states presence three-valued, multiplicity with its item count, [1] as single', () => {
    const inputs = artifacts().pipe_io_contracts['legal.summarize_contract']!.inputs;
    expect(inputs['contract']).toMatchObject({ concept_ref: 'legal.Contract', presence: 'plain', multiplicity: 'single', item_count: null });
    expect(inputs['instructions']).toMatchObject({ concept_ref: 'native.Text', presence: 'optional', multiplicity: 'single', item_count: null });
    expect(inputs['sure']).toMatchObject({ presence: 'force' });
    expect(inputs['clauses']).toMatchObject({ concept_ref: 'legal.Clause', presence: 'plain', multiplicity: 'variable', item_count: null });
    expect(inputs['pair']).toMatchObject({ multiplicity: 'fixed', item_count: 2 });
    expect(inputs['one']).toMatchObject({ multiplicity: 'single', item_count: null });
    // Closed shapes: exactly the members the standard defines.
    for (const c of Object.values(inputs)) expect(Object.keys(c).sort()).toEqual(['concept_ref', 'item_count', 'json_schema', 'multiplicity', 'presence']);
  });

  it('wraps a plural slot schema in an array, with the count as bounds on the fixed arm only', () => {
    const inputs = artifacts().pipe_io_contracts['legal.summarize_contract']!.inputs;
    const element = inputs['one']!.json_schema;
    expect(element).toMatchObject({ type: 'object', required: expect.arrayContaining(['heading', 'body']) });
    expect(inputs['clauses']!.json_schema).toEqual({ type: 'array', items: element });
    expect(inputs['pair']!.json_schema).toEqual({ type: 'array', items: element, minItems: 2, maxItems: 2 });
    expect(inputs['instructions']!.json_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
  });

  it('states the output with a two-valued optional', () => {
    const c = artifacts().pipe_io_contracts;
    expect(c['legal.summarize_contract']!.output).toEqual({ concept_ref: 'legal.Summary', multiplicity: 'single', item_count: null, optional: false });
    expect(c['legal.extract_clauses']!.output).toEqual({ concept_ref: 'legal.Clause', multiplicity: 'variable', item_count: null, optional: false });
    expect(c['legal.headline']!.output).toMatchObject({ optional: true });
  });
});

describe('input-form descriptor', () => {
  const fields = (): FormField[] => artifacts().input_form['legal.summarize_contract']!.fields;

  it('lists the inputs in authored order with kinds from stated facts', () => {
    const f = fields();
    expect(f.map((x) => `${x.name}:${x.kind}`)).toEqual(['contract:document', 'instructions:prose', 'clauses:list', 'pair:list', 'one:object', 'sure:prose']);
    expect(f[0]).toEqual({ kind: 'document', name: 'contract', concept_ref: 'legal.Contract', refines: ['native.Document'], description: 'A contract', required: true, presence: 'plain', gating: true });
    expect(f[1]).toMatchObject({ required: false, presence: 'optional', gating: false });
    expect(f[1]!.refines).toBeUndefined();
  });

  it('gates on presence, a variable list never, a fixed list always', () => {
    const f = fields();
    expect(f[2]).toMatchObject({ kind: 'list', required: true, gating: false, concept_ref: 'legal.Clause', description: 'One clause of a contract' });
    expect(f[2]!.item_count).toBeUndefined();
    expect(f[2]!.item!.name).toBeUndefined();
    expect(f[2]!.item).toMatchObject({ kind: 'object', concept_ref: 'legal.Clause' });
    expect(f[3]).toMatchObject({ kind: 'list', item_count: 2, gating: true });
    expect(f[5]).toMatchObject({ presence: 'force', required: true, gating: true });
  });

  it('describes structure fields: shorthand text, defaults never required, enums, lists of unknown and of concepts', () => {
    const nested = fields()[4]!.fields!;
    expect(nested.map((x) => `${x.name}:${x.kind}`)).toEqual(['heading:text', 'body:text', 'weight:number', 'kind:enum', 'tags:list', 'refs:list']);
    expect(nested[1]).toEqual({ kind: 'text', name: 'body', description: 'The clause body', required: true });
    expect(nested[2]).toEqual({ kind: 'number', name: 'weight', description: 'How much it weighs', required: false, integer: false, default_value: 1 });
    expect(nested[3]).toEqual({ kind: 'enum', name: 'kind', description: 'Kind', required: false, choices: ['duty', 'right'] });
    expect(nested[4]!.item).toEqual({ kind: 'unknown', required: true });
    // A recursive structure stays finite: the item is an object node of the same concept.
    expect(nested[5]!.item).toMatchObject({ kind: 'object', concept_ref: 'legal.Clause' });
    // Nested nodes carry no slot facts.
    for (const n of nested) expect(n.presence === undefined && n.gating === undefined).toBe(true);
  });
});

describe('output-form descriptor', () => {
  it('is one node named output, required, without presence or gating; plural outputs a list', () => {
    const o = artifacts().output_form;
    expect(o['legal.summarize_contract']).toEqual({ field: { kind: 'prose', name: 'output', concept_ref: 'legal.Summary', description: 'A summary', required: true } });
    const list = o['legal.extract_clauses']!.field;
    expect(list).toMatchObject({ kind: 'list', name: 'output', concept_ref: 'legal.Clause', required: true, item: { kind: 'object', concept_ref: 'legal.Clause' } });
    expect(list.item!.name).toBeUndefined();
    expect('presence' in list || 'gating' in list).toBe(false);
  });

  it('lets an intent hint on the concept chain choose between text and prose', () => {
    const field = artifacts().output_form['legal.headline']!.field;
    expect(field).toMatchObject({ kind: 'text', concept_ref: 'legal.Headline', refines: ['legal.Summary'], hints: { intent: 'label' } });
  });
});

describe('natives', () => {
  it('maps the pinned natives by identity and others by structure', () => {
    const tree = treeOf({
      'n.mthds': `domain = "n"
description = "natives"

[pipe.all]
type = "PipeCompose"
description = "All"
inputs = { a = "Number", b = "YesNo", c = "Date", d = "Time", e = "Image", f = "Html", g = "JSON", h = "Page", i = "Markdown", j = "Dynamic" }
output = "Text"
template = "$a $b $c $d $e $f $g $h $i $j"
`,
    });
    const f = pipeIoArtifacts(new ConceptCatalog(tree), describedPipes(tree)).input_form['n.all']!.fields;
    expect(f.map((x) => x.kind)).toEqual(['number', 'boolean', 'date', 'text', 'image', 'prose', 'unknown', 'object', 'prose', 'unknown']);
    expect(f[0]!.integer).toBe(false);
    expect(f[2]!.datetime).toBe(false);
    expect(f[3]!.format).toBe('time');
    expect(f[8]!.refines).toEqual(['native.Text']);
  });

  it('writes one line per input for people', () => {
    const a = artifacts();
    const lines = pipeIoLines(a.input_form['legal.summarize_contract']!);
    expect(lines[0]).toBe('contract: legal.Contract — document');
    expect(lines[1]).toBe('instructions: native.Text (optional) — prose');
    expect(lines[2]).toBe('clauses: legal.Clause[] — list of object');
    expect(lines[3]).toBe('pair: legal.Clause[2] — list of object');
  });
});

describe('the run prompt', () => {
  it('names the content member each typed answer goes into, JSON for the rest', () => {
    const tree = treeOf({
      'n.mthds': `domain = "n"
description = "natives"

[pipe.all]
type = "PipeCompose"
description = "All"
inputs = { a = "Number", b = "YesNo", c = "Date", d = "Time", e = "Image", f = "Html", g = "Text?", h = "Page", i = "Text[]" }
output = "Text"
template = "$a $b $c $d $e $f $h $i @?g"
`,
    });
    const prompt = runPrompt(pipeIoArtifacts(new ConceptCatalog(tree), describedPipes(tree)).input_form['n.all']!);
    expect(prompt.map((p) => `${p.name}:${p.key ?? 'json'}:${p.value ?? ''}:${p.required}`)).toEqual([
      'a:number:number:true',
      'b:yes_no:boolean:true',
      'c:date:text:true',
      'd:time:text:true',
      'e:url:text:true',
      // Html's one required member, as for Text.
      'f:inner_html:text:true',
      'g:text:text:false',
      'h:json::true',
      // A variable list never gates a run: it may be left empty.
      'i:json::false',
    ]);
    expect(prompt[0]).toMatchObject({ concept: 'native.Number', kind: 'number' });
  });
});
