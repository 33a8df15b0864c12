import { describe, expect, it } from 'vitest';
import { HEADER, check, codes, only, textAt } from '../../helpers/tree.js';

const llm = (extra: string): string => `${HEADER}
[pipe.summarize]
type = "PipeLLM"
description = "Summarize"
inputs = { text = "Text" }
output = "Text"
${extra}
`;

describe('method.schema_violation', () => {
  it('names an unknown key and offers the near key', () => {
    const text = llm('promt = "Summarize $text"');
    const [f] = only(check(text), 'method.schema_violation');
    expect(f).toBeDefined();
    expect(textAt(text, f!)).toBe('promt');
    expect(f!.params).toEqual({ field_path: 'pipe.summarize.promt', finding: expect.stringContaining('did you mean `prompt`') });
    expect(f!.alternatives?.[0]?.edits[0]?.newText).toBe('prompt');
  });

  it('accepts a correct PipeLLM', () => {
    expect(check(llm('prompt = "Summarize $text"'))).toEqual([]);
  });

  it('reports a missing required key on the pipe header', () => {
    const text = `${HEADER}\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\nprompt = "x"\n`;
    const [f] = only(check(text), 'method.schema_violation');
    expect(f!.params['field_path']).toBe('pipe.p.output');
    expect(textAt(text, f!)).toBe('[pipe.p]');
  });

  it('reports wrong value types and values outside an enum', () => {
    const text = llm('prompt = "x $text"\nstructuring_method = "fast"\nsystem_prompt = 3');
    const found = only(check(text), 'method.schema_violation');
    expect(found.map((f) => f.params['field_path']).sort()).toEqual(['pipe.summarize.structuring_method', 'pipe.summarize.system_prompt']);
    expect(found.find((f) => f.params['field_path'] === 'pipe.summarize.structuring_method')!.params['finding']).toContain('"direct"');
  });

  it('enforces exclusive and paired keys', () => {
    const compose = `${HEADER}
[pipe.c]
type = "PipeCompose"
description = "d"
inputs = { a = "Text" }
output = "Text"
template = "$a"
construct = { x = "y" }

[pipe.s]
type = "PipeSequence"
description = "d"
output = "Text"
steps = [{ pipe = "c", result = "r", batch_over = "items" }]
`;
    const found = only(check(compose), 'method.schema_violation').map((f) => f.params['finding']);
    expect(found).toContain('`template` and `construct` cannot be used together');
    expect(found).toContain('`batch_over` needs `batch_as`');
  });

  it('gives a retired key its migration, with a rename fix', () => {
    const text = llm('prompt = "x $text"\nllm = "gpt"');
    const [f] = only(check(text), 'method.schema_violation');
    expect(f!.params['finding']).toContain('renamed `model`');
    expect(f!.fix?.edits[0]?.newText).toBe('model');
  });

  it('reports faults inside a model settings table as model_setting_invalid', () => {
    const text = llm('prompt = "x $text"\nmodel = { model = "m", temperature = 1.5, reasoning_effort = "low", reasoning_budget = 10 }');
    const found = only(check(text), 'method.model_setting_invalid');
    expect(found.map((f) => f.params['finding'])).toEqual(['must be at most 1', '`reasoning_effort` and `reasoning_budget` cannot be used together']);
    expect(only(check(llm('prompt = "x $text"\nmodel = { model = "m", temperature = 0.5 }')), 'method.model_setting_invalid')).toEqual([]);
  });

  it('refuses empty steps and unknown top-level keys', () => {
    const text = `${HEADER}version = 2\n[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = []\n`;
    const paths = only(check(text), 'method.schema_violation').map((f) => f.params['field_path']);
    expect(paths).toEqual(['version', 'pipe.s.steps']);
  });

  it('requires the domain', () => {
    const [f] = check('description = "no domain"\n');
    expect(f!.code).toBe('method.schema_violation');
    expect(f!.params['field_path']).toBe('domain');
  });
});

describe('method.pipe_type_invalid', () => {
  it('reports an unknown type with the likeliest types', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeLLMM"\ndescription = "d"\noutput = "Text"\n`;
    const [f] = check(text);
    expect(f!.code).toBe('method.pipe_type_invalid');
    expect(f!.params).toEqual({ pipe: 'p', reason: 'unknown', pipe_type: 'PipeLLMM' });
    expect(f!.alternatives?.[0]?.edits[0]?.newText).toBe('"PipeLLM"');
  });

  it('reports a typeless section with implementation keys as missing its type', () => {
    const text = `${HEADER}[pipe.p]\ndescription = "d"\noutput = "Text"\nprompt = "hello"\n`;
    expect(check(text).map((f) => [f.code, f.params['reason']])).toEqual([['method.pipe_type_invalid', 'missing']]);
  });

  it('accepts a typeless signature', () => {
    const text = `${HEADER}[pipe.p]\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nsignature_for = "PipeLLM"\n`;
    expect(check(text)).toEqual([]);
  });

  it('reports the retired PipeSignature tag with a fix deleting the type line', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeSignature"\ndescription = "d"\noutput = "Text"\n`;
    const [f] = check(text);
    expect(f!.params).toEqual({ pipe: 'p', reason: 'retired', pipe_type: 'PipeSignature' });
    const edit = f!.fix!.edits[0]!;
    const fixed = text.slice(0, edit.range.start) + edit.newText + text.slice(edit.range.end);
    expect(fixed).toBe(`${HEADER}[pipe.p]\ndescription = "d"\noutput = "Text"\n`);
    expect(check(fixed)).toEqual([]);
  });

  it('reports retired types of older generations', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeJinja2"\ndescription = "d"\noutput = "Text"\njinja2 = "x"\n`;
    expect(codes(check(text))).toEqual(['method.pipe_type_invalid']);
  });
});

describe('a syntax error in one table', () => {
  it('does not hide the findings of the others', () => {
    const text = `${HEADER}
[pipe.a]
type = "PipeLLM"
description = "d"
output = "Text"
prompt = "unterminated

[pipe.b]
type = "PipeLLMM"
description = "d"
output = "Sumary"
`;
    const found = codes(check(text));
    expect(found).toContain('method.syntax');
    expect(found).toContain('method.pipe_type_invalid');
  });
});
