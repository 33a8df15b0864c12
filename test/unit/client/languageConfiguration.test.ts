// The language configuration VS Code uses for .mthds files: comments, pairs (triple quotes too),
// words that are whole pipe and concept references, and indentation that never touches the inside
// of a multi-line string (prompts are text).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const config = JSON.parse(readFileSync(path.resolve(__dirname, '../../../client/language-configuration.json'), 'utf8')) as {
  comments: { lineComment: string };
  autoClosingPairs: { open: string; close: string }[];
  wordPattern: string;
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
  onEnterRules: { beforeText: string; afterText?: string }[];
};

describe('client/language-configuration.json', () => {
  it('comments with # and closes brackets, quotes and triple quotes', () => {
    expect(config.comments.lineComment).toBe('#');
    expect(config.autoClosingPairs.map((p) => p.open)).toEqual(expect.arrayContaining(['[', '{', '"', "'", '"""', "'''"]));
  });

  it('takes a qualified reference with its multiplicity as one word, and a variable without its sigil', () => {
    const words = 'output = "recipes.Recipe[]" inputs = { a = "Text[3]" } prompt = "$text @?maybe 2.5"'.match(new RegExp(config.wordPattern, 'g'));
    expect(words).toEqual(['output', 'recipes.Recipe[]', 'inputs', 'a', 'Text[3]', 'prompt', 'text', 'maybe', '2.5']);
  });

  it('indents after an opening bracket, never inside a string', () => {
    const increase = new RegExp(config.indentationRules.increaseIndentPattern);
    expect(['steps = [', 'inputs = {', 'steps = [  # the steps'].every((l) => increase.test(l))).toBe(true);
    expect(['prompt = """', 'x = "["', '[pipe.x]', '# a ['].some((l) => increase.test(l))).toBe(false);
    expect(new RegExp(config.indentationRules.decreaseIndentPattern).test('  ]')).toBe(true);
    for (const rule of config.onEnterRules) {
      expect(() => new RegExp(rule.beforeText)).not.toThrow();
      if (rule.afterText) expect(() => new RegExp(rule.afterText!)).not.toThrow();
    }
  });
});
