import { describe, expect, it } from 'vitest';
import { HEADER, check, only, textAt } from '../../helpers/tree.js';

describe('method.concept_unresolved', () => {
  it('places the finding on the reference and suggests the likeliest concept', () => {
    const text = `${HEADER}[concept]\nSummary = "A summary"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { text = "Text" }\noutput = "Sumary[]"\nprompt = "$text"\n`;
    const [f] = only(check(text), 'method.concept_unresolved');
    expect(textAt(text, f!)).toBe('Sumary');
    expect(f!.params).toEqual({ concept: 'Sumary', suggestions: ['Summary'] });
    expect(f!.fix?.edits[0]?.newText).toBe('Summary');
  });

  it('resolves natives bare and qualified, and refuses unknown natives', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "native.Text", b = "Image" }\noutput = "native.Texte"\nprompt = "$a @b"\n`;
    const found = only(check(text), 'method.concept_unresolved');
    expect(found.map((f) => f.params['concept'])).toEqual(['native.Texte']);
  });

  it('points retired natives to their replacement', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeImgGen"\ndescription = "d"\ninputs = { p = "ImgGenPrompt" }\noutput = "Image"\nprompt = "$p"\n`;
    const [f] = only(check(text), 'method.concept_unresolved');
    expect((f!.params['suggestions'] as string[])[0]).toBe('Text');
  });

  it('resolves a concept declared in another bundle of the same domain, and fails on the use once renamed', () => {
    const decl = (name: string): string => `domain = "legal"\n[concept.${name}]\ndescription = "A contract"\n`;
    const use = `domain = "legal"\n[pipe.read]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Contract"\nprompt = "$doc"\n`;
    expect(check({ 'concepts.mthds': decl('Contract'), 'pipes.mthds': use })).toEqual([]);
    const broken = check({ 'concepts.mthds': decl('Agreement'), 'pipes.mthds': use });
    expect(broken).toHaveLength(1);
    expect(broken[0]!.code).toBe('method.concept_unresolved');
    expect(broken[0]!.file.endsWith('pipes.mthds')).toBe(true);
    expect(textAt(use, broken[0]!)).toBe('Contract');
  });

  it('does not resolve a bare concept of another domain, but does resolve it qualified', () => {
    const other = `domain = "legal"\n[concept]\nContract = "A contract"\n`;
    const use = (ref: string): string => `domain = "sales"\n[pipe.read]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "${ref}"\nprompt = "$doc"\n`;
    expect(only(check({ 'a.mthds': other, 'b.mthds': use('Contract') }), 'method.concept_unresolved')).toHaveLength(1);
    expect(check({ 'a.mthds': other, 'b.mthds': use('legal.Contract') })).toEqual([]);
  });

  it('checks refines, concept_ref and item_concept_ref', () => {
    const text = `${HEADER}[concept.A]\ndescription = "a"\nrefines = "Txt"\n\n[concept.B]\ndescription = "b"\n[concept.B.structure]\nx = { type = "concept", concept_ref = "Nope", description = "x" }\ny = { type = "list", item_type = "concept", item_concept_ref = "A", description = "y" }\n`;
    expect(only(check(text), 'method.concept_unresolved').map((f) => f.params['concept'])).toEqual(['Txt', 'Nope']);
  });

  it('leaves dependency references to the package layer', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "lib->legal.Contract" }\noutput = "Text"\nprompt = "$a"\n`;
    expect(only(check(text), 'method.concept_unresolved')).toEqual([]);
  });
});

describe('method.syntax on references', () => {
  it.each([['Text['], ['Text[x]'], ['Text[0]'], ['a..B'], ['->X'], ['']])('refuses the io-ref %j', (ref) => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeFunc"\ndescription = "d"\noutput = "${ref}"\nfunction_name = "f"\n`;
    expect(only(check(text), 'method.syntax')).toHaveLength(1);
  });
  it('accepts [1], [N], ? and ! where allowed', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { a = "Text[1]?", b = "Text[3]", c = "Text!" }\noutput = "Text[]"\nfunction_name = "f"\n`;
    // Only the advisory warning that nothing hands `c` an absent value.
    expect(check(text).map((f) => f.code)).toEqual(['method.optional_force_redundant']);
  });
});

describe('method.optional_marker_invalid', () => {
  it('refuses markers on plural references and ! on outputs', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { a = "Text[]?", b = "Text[2]!" }\noutput = "Text!"\nfunction_name = "f"\n`;
    const found = only(check(text), 'method.optional_marker_invalid');
    expect(found.map((f) => f.params['field_path'])).toEqual(['pipe.p.inputs.a', 'pipe.p.inputs.b', 'pipe.p.output']);
    expect(found.every((f) => textAt(text, f) === '?' || textAt(text, f) === '!')).toBe(true);
  });
});

describe('method.pipe_unresolved', () => {
  const seq = (step: string, extra = ''): string => `${HEADER}${extra}[pipe.summarize]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"\n\n[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = [{ pipe = "${step}", result = "r" }]\n`;
  it('names the missing pipe with candidates', () => {
    const text = seq('sumarize');
    const [f] = only(check(text), 'method.pipe_unresolved');
    expect(f!.params).toEqual({ pipe: 's', missing: 'sumarize', candidates: ['summarize'] });
    expect(textAt(text, f!)).toBe('sumarize');
  });
  it('accepts existing pipes and special outcomes', () => {
    expect(check(seq('summarize'))).toEqual([]);
    const cond = `${HEADER}[pipe.c]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { x = "Text" }\noutput = "Text?"\nexpression = "x.text"\noutcomes = { a = "fail" }\ndefault_outcome = "continue"\n`;
    expect(only(check(cond), 'method.pipe_unresolved')).toEqual([]);
  });
  it('requires main_pipe to name a pipe of the bundle', () => {
    const text = seq('summarize', 'main_pipe = "sumarize"\n');
    const [f] = only(check(text), 'method.pipe_unresolved');
    expect(f!.params['missing']).toBe('sumarize');
    expect(f!.params['candidates']).toEqual(['summarize']);
  });
});
