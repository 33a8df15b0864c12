import { describe, expect, it } from 'vitest';
import { HEADER, check, codes, only, textAt } from '../../helpers/tree.js';

describe('method.identifier_invalid', () => {
  it('refuses pipe codes, main pipes, input names and stored names that are not snake_case', () => {
    const text = `domain = "demo"\nmain_pipe = "Run"\n[pipe.Run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { "page.view" = "Image", Text = "Text" }\noutput = "Text"\nsteps = [{ pipe = "Run", result = "Out" }]\n`;
    const found = only(check(text), 'method.identifier_invalid').map((f) => [f.params['identifier_kind'], f.params['name']]);
    expect(found).toEqual([
      ['main_pipe', 'Run'],
      ['pipe_code', 'Run'],
      ['input_name', 'page.view'],
      ['input_name', 'Text'],
      ['input_name', 'Out'],
    ]);
  });
  it('refuses batch_over naming the reserved prefix', () => {
    const text = `${HEADER}[pipe.f]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { x = "Text" }\noutput = "Text"\nfunction_name = "f"\n[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { _bound_x = "Text[]" }\noutput = "Text[]"\nsteps = [{ pipe = "f", batch_over = "_bound_x", batch_as = "x", result = "r" }]\n`;
    expect(only(check(text), 'method.identifier_invalid').map((f) => f.params['name'])).toContain('_bound_x');
  });
});

describe('method.name_conflict', () => {
  it('reports the four conflicts', () => {
    expect(only(check(`domain = "pipelex.tools"\n`), 'method.name_conflict')[0]!.params).toEqual({ name: 'pipelex.tools', conflict: 'reserved_domain' });
    expect(only(check(`${HEADER}[concept]\nText = "mine"\n`), 'method.name_conflict')[0]!.params).toEqual({ name: 'Text', conflict: 'native_concept' });
    const batch = `${HEADER}[pipe.f]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { item = "Text" }\noutput = "Text"\nfunction_name = "f"\n[pipe.b]\ntype = "PipeBatch"\ndescription = "d"\ninputs = { items = "Text[]" }\noutput = "Text[]"\nbranch_pipe_code = "f"\ninput_list_name = "items"\ninput_item_name = "items"\n`;
    expect(only(check(batch), 'method.name_conflict')[0]!.params).toEqual({ name: 'items', conflict: 'batch_item' });
    const a = `domain = "d"\n[concept]\nThing = "a"\n`;
    const dup = check({ 'a.mthds': a, 'b.mthds': a });
    expect(dup.map((f) => f.params)).toEqual([{ name: 'Thing', conflict: 'duplicate_declaration' }]);
    expect(dup[0]!.related?.[0]?.file.endsWith('a.mthds')).toBe(true);
  });
  it('lets a signature and its implementation share a code', () => {
    const sig = `domain = "d"\n[pipe.p]\ndescription = "d"\noutput = "Text"\n`;
    const impl = `domain = "d"\n[pipe.p]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"\n`;
    expect(check({ 'sig.mthds': sig, 'impl.mthds': impl })).toEqual([]);
    expect(codes(check({ 'a.mthds': impl, 'b.mthds': impl }))).toEqual(['method.name_conflict']);
  });
});

describe('method.concept_invalid', () => {
  const concept = (fields: string): string => `${HEADER}[concept.C]\ndescription = "c"\n[concept.C.structure]\n${fields}\n`;
  it.each([
    ['total = { type = "number", description = "t", required = true, default_value = 0 }', 'required field cannot have a `default_value`'],
    ['x = { type = "text" }', 'has no description'],
    ['x = { description = "x" }', 'needs a `type`'],
    ['x = { type = "dict", value_type = "text", description = "x" }', 'needs `key_type`'],
    ['x = { type = "concept", description = "x" }', 'needs `concept_ref`'],
    ['x = { type = "list", item_type = "concept", description = "x" }', 'needs `item_concept_ref`'],
    ['x = { type = "text", concept_ref = "Text", description = "x" }', 'needs `type = "concept"`'],
    ['x = { description = "x", choices = ["red"], default_value = "blue" }', 'not one of the choices'],
    ['x = { type = "integer", description = "x", default_value = "two" }', 'not of type integer'],
  ])('%s', (fields, message) => {
    const found = only(check(concept(fields)), 'method.concept_invalid');
    expect(found).toHaveLength(1);
    expect(String(found[0]!.params['finding'])).toContain(message);
  });
  it('accepts well-formed fields', () => {
    expect(check(concept('a = "shorthand"\nb = { type = "dict", key_type = "text", value_type = "number", description = "b" }\nc = { description = "c", choices = ["x", "y"], default_value = "x" }\nd = { type = "list", item_type = "text", description = "d" }'))).toEqual([]);
  });
  it('refuses refines with structure', () => {
    const text = `${HEADER}[concept.C]\ndescription = "c"\nrefines = "Text"\n[concept.C.structure]\nx = "x"\n`;
    const [f] = only(check(text), 'method.concept_invalid');
    expect(textAt(text, f!)).toBe('refines');
  });
});

describe('method.cycle', () => {
  it('finds refinement and structure loops', () => {
    const refines = `${HEADER}[concept.A]\ndescription = "a"\nrefines = "B"\n[concept.B]\ndescription = "b"\nrefines = "A"\n`;
    expect(only(check(refines), 'method.cycle').map((f) => f.params)).toEqual([{ kind: 'refines', cycle: ['demo.A', 'demo.B', 'demo.A'] }]);
    const structure = `${HEADER}[concept.A]\ndescription = "a"\n[concept.A.structure]\nme = { type = "concept", concept_ref = "A", description = "self" }\n`;
    expect(only(check(structure), 'method.cycle').map((f) => f.params['kind'])).toEqual(['structure']);
  });
  it('finds pipe call loops, but allows recursion through a condition', () => {
    const loop = `${HEADER}[pipe.a]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = [{ pipe = "b", result = "x" }]\n[pipe.b]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = [{ pipe = "a", result = "y" }]\n`;
    const [f] = only(check(loop), 'method.cycle');
    expect(f!.params).toEqual({ kind: 'pipe', cycle: ['a', 'b', 'a'] });
    expect(f!.related).toHaveLength(1);
    const guarded = `${HEADER}[pipe.a]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { t = "Text" }\noutput = "Text"\nsteps = [{ pipe = "c", result = "x" }]\n[pipe.c]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { t = "Text" }\noutput = "Text"\nexpression = "t.text"\noutcomes = { again = "a" }\ndefault_outcome = "fail"\n`;
    expect(only(check(guarded), 'method.cycle')).toEqual([]);
  });
});

describe('the manifest', () => {
  const bundle = `domain = "legal"\n[pipe.review]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"\n`;
  const manifest = (extra: string): string => `[package]\nname = "tree"\naddress = "github.com/acme/tree"\nversion = "1.0.0"\ndescription = "d"\n${extra}`;
  it('accepts a correct manifest', () => {
    expect(check({ 'METHODS.toml': manifest('main_pipe = "review"\n[exports.legal]\npipes = ["review"]\n'), 'a.mthds': bundle })).toEqual([]);
  });
  it('reports its faults', () => {
    const found = check({
      'METHODS.toml': `[package]\nname = "tree"\naddress = "nodots"\nversion = "one"\ndescription = "d"\nmain_pipe = "review"\nhomepage = "x"\n[exports.mthds]\npipes = ["x"]\n[exports.legal]\npipes = ["Review", "missing"]\n`,
      'a.mthds': bundle,
    });
    expect(found.map((f) => [f.code, f.params['reason'] ?? f.params['conflict']])).toEqual([
      ['method.package_invalid', 'manifest_invalid_field'],
      ['method.package_invalid', 'manifest_invalid_field'],
      ['method.package_invalid', 'main_pipe_not_exported'],
      ['method.package_invalid', 'manifest_unknown_key'],
      ['method.name_conflict', 'reserved_domain'],
      ['method.package_invalid', 'export_invalid'],
      ['method.package_invalid', 'exported_pipe_missing'],
    ]);
  });
  it('reports a main_pipe naming no pipe of the tree', () => {
    const found = check({ 'METHODS.toml': manifest('main_pipe = "reveiw"\n'), 'a.mthds': bundle });
    expect(found.map((f) => [f.code, f.params['candidates']])).toEqual([['method.pipe_unresolved', ['review']]]);
  });
});
