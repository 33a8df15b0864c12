// A template past the process's limit (the language server's: analyze.ts EDITOR_TEMPLATE_LIMIT) is
// not read: one warning on it, and no input of its pipe told unused or undeclared; without a limit
// (a command line) it is read whole.

import { afterEach, describe, expect, it } from 'vitest';
import { limitTemplateAnalysis } from '../../../server/src/language/templates/analyze.js';
import { HEADER, check, codes, only } from '../../helpers/tree.js';

const llm = (prompt: string): string => `${HEADER}\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text", b = "Text" }\noutput = "Text"\nprompt = """\n${prompt}\n"""\n`;
const condition = (expression: string): string =>
  `${HEADER}\n[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nexpression = "${expression}"\noutcomes = { yes = "p" }\ndefault_outcome = "fail"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nprompt = "$a"\n`;

afterEach(() => limitTemplateAnalysis(Infinity));

describe('the template limit', () => {
  const long = `Read $a and {{ c }} ${'x'.repeat(300)}`;

  it('reads a long template whole when no limit is set', () => {
    const findings = check(llm(long));
    expect(codes(findings)).not.toContain('mthdsls.client.template_too_long');
    expect(only(findings, 'method.input_unused').map((f) => f.params.variables)).toEqual([['b']]);
    expect(only(findings, 'method.input_undeclared').map((f) => f.params.variables)).toEqual([['c']]);
  });

  it('past the limit, says so once on the template and tells nothing of its inputs', () => {
    limitTemplateAnalysis(100);
    const text = llm(long);
    const findings = check(text);
    const [warning, ...others] = only(findings, 'mthdsls.client.template_too_long');
    expect(others).toEqual([]);
    expect(warning!.severity).toBe('warning');
    // The value as TOML reads it: the first newline of a multi-line string trimmed, the last kept.
    expect(warning!.params).toEqual({ pipe: 'p', template: 'prompt', length: long.length + 1, limit: 100 });
    expect(text.slice(warning!.range.start, warning!.range.end)).toContain('Read $a');
    expect(only(findings, 'method.input_unused')).toEqual([]);
    expect(only(findings, 'method.input_undeclared')).toEqual([]);
  });

  it("past the limit, a condition's expression is said too long and its flow left alone", () => {
    const expression = `a.text == '${'y'.repeat(200)}'`;
    expect(codes(check(condition(expression)))).not.toContain('mthdsls.client.template_too_long');
    limitTemplateAnalysis(100);
    const findings = check(condition(expression));
    expect(only(findings, 'mthdsls.client.template_too_long').map((f) => f.params.template)).toEqual(['expression']);
  });
});
