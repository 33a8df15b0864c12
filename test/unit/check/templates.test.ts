import { describe, expect, it } from 'vitest';
import { HEADER, check, only, textAt } from '../../helpers/tree.js';

const llm = (prompt: string): string => `${HEADER}[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\nprompt = """\n${prompt}\n"""\n`;

describe('method.template_invalid: @ placement', () => {
  it('refuses inline @var whose root is an input, with a fix to $var', () => {
    const text = llm('Analyze this: @doc.text please');
    const [f] = only(check(text), 'method.template_invalid');
    expect(textAt(text, f!)).toBe('@doc.text');
    expect(f!.params).toMatchObject({ pipe: 'p', template: 'prompt' });
    expect(f!.fix?.edits[0]?.newText).toBe('$doc.text');
  });
  it('accepts @var alone on its line, $var inline, escapes and e-mail addresses', () => {
    expect(check(llm('Analyze this:\n  @doc  \nThanks $doc.\nMail me@doc.com or @@doc, @@media print'))).toEqual([]);
  });
  it('reads an inline @word that is no input as `$word` is read: undeclared (`@@word` writes it literally)', () => {
    expect(check(llm('Analyze $doc for @media print')).map((f) => [f.code, f.params['variables']])).toEqual([['method.input_undeclared', ['media']]]);
  });
  it('refuses a lone sigil padded with non-ASCII white space', () => {
    const text = llm('\u00a0@?doc');
    const [f] = only(check(text), 'method.template_invalid');
    expect(textAt(text, f!)).toBe('@?doc');
  });
  it('maps ranges through escapes in basic strings', () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\nprompt = "Say \\"hi\\" to @doc"\n`;
    const [f] = only(check(text), 'method.template_invalid');
    expect(textAt(text, f!)).toBe('@doc');
  });
});
