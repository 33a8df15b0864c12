// A finding whose message offers one unambiguous suggestion has it as its safe fix; several
// suggestions stay alternatives for the author.

import { describe, expect, it } from 'vitest';
import { HEADER, check, only } from '../../helpers/tree.js';

const pipe = (body: string): string => `${HEADER}[pipe.p]\n${body}`;

describe('suggestions as fixes', () => {
  it('an unknown pipe type with one close type: the replacement is the safe fix', () => {
    const [f] = only(check(pipe('type = "PipeConditional"\ndescription = "d"\n')), 'method.pipe_type_invalid');
    expect(f!.fix).toMatchObject({ title: 'Replace with "PipeCondition"', safe: true, edits: [{ newText: '"PipeCondition"' }] });
  });
  it('an unknown key with one close key: the rename is the safe fix', () => {
    const [f] = only(check(pipe('type = "PipeLLM"\ndescription = "d"\noutput = "Text"\npromt = "Hi"\n')), 'method.schema_violation');
    expect(f!.message).toContain('did you mean `prompt`');
    expect(f!.fix).toMatchObject({ title: 'Rename to `prompt`', safe: true });
  });
  it('a concept with one close concept: Did you mean, and the safe fix', () => {
    const text = `${HEADER}[concept.Triage]\ndescription = "t"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { t = "Triag" }\noutput = "Text"\nprompt = "$t"\n`;
    const [f] = only(check(text), 'method.concept_unresolved');
    expect(f!.message).toContain('Did you mean: Triage?');
    expect(f!.fix).toMatchObject({ title: 'Replace with `Triage`', safe: true });
  });
  it('several close candidates: alternatives, no fix', () => {
    const text = `${HEADER}[concept.Triage]\ndescription = "t"\n\n[concept.Triager]\ndescription = "t"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { t = "Triag" }\noutput = "Text"\nprompt = "$t"\n`;
    const [f] = only(check(text), 'method.concept_unresolved');
    expect(f!.fix).toBeUndefined();
    expect(f!.alternatives!.length).toBeGreaterThan(1);
  });
});
