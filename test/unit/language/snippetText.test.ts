// The text of a snippet with its defaults filled in: what a client without snippet support inserts.

import { describe, expect, it } from 'vitest';
import { expandSnippet, snippetText } from '../../../server/src/language/snippetText.js';
import { PIPE_TYPES } from '../../../server/src/language/spec/pipeTypes.js';

describe('snippetText', () => {
  it('drops tab stops, keeps placeholder defaults (nested too), takes the first choice', () => {
    expect(snippetText('{ pipe = "$1", result = "$2" }$0')).toBe('{ pipe = "", result = "" }');
    expect(snippetText('${1:Name} = "${2:What it is}"')).toBe('Name = "What it is"');
    expect(snippetText('prompt = "${3:A watercolor of \\$${2:subject}}"')).toBe('prompt = "A watercolor of $subject"');
    expect(snippetText('required = ${6|true,false|}')).toBe('required = true');
    expect(snippetText('x = ${1|a\\,b,c|}')).toBe('x = a,b');
    expect(snippetText('${1:outer ${2:inner} end}')).toBe('outer inner end');
    expect(snippetText('a \\} b \\\\ c \\n d ${1}')).toBe('a } b \\ c \\n d ');
    expect(snippetText('$TM_FILENAME ${TM_LINE:fallback}')).toBe(' fallback');
  });

  it('leaves no snippet syntax in any pipe type snippet of the description', () => {
    for (const spec of PIPE_TYPES) expect(snippetText(spec.snippet), spec.name).not.toMatch(/\$\{|\$\d/);
  });

  it('fills a placeholder at every occurrence of its number, nested ones too, and says where each value lies', () => {
    const snippet = 'inputs = { ${2:text} = "${3:Text}" }\nprompt = "${5:Summarize \\$${2:text}.}"';
    const filled = expandSnippet(snippet, (i) => (i === 2 ? 'item' : undefined));
    expect(filled.text).toBe('inputs = { item = "Text" }\nprompt = "Summarize $item."');
    const where = filled.placeholders.map((p) => [p.index, filled.text.slice(p.start, p.end)]);
    expect(where).toEqual([
      [2, 'item'],
      [3, 'Text'],
      [2, 'item'],
      [5, 'Summarize $item.'],
    ]);
    // A filled placeholder's own placeholders are gone with its default.
    const outer = expandSnippet(snippet, (i) => (i === 5 ? 'Go' : undefined));
    expect(outer.text).toBe('inputs = { text = "Text" }\nprompt = "Go"');
    expect(outer.placeholders.map((p) => p.index)).toEqual([2, 3, 5]);
  });
});
