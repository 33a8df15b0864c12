// The one renderer of the documentation the server sends: markdown for clients that declare it,
// readable plain text (no markdown syntax, aligned tables) for the others.

import { describe, expect, it } from 'vitest';
import { chooseFormat, clientFormats, markup, plainText } from '../../../server/src/lsp/markup.js';

/** Markdown syntax a plain-text reader would see as noise. */
const MARKDOWN_SYNTAX = /\*\*|`|^#{1,6} |\]\(|^\|.*\|$|^\s*\|?\s*-{3,}\s*\|/m;

describe('the client format', () => {
  it('takes the first format the client lists that the server writes; plain text when none is declared', () => {
    expect(chooseFormat(['markdown', 'plaintext'])).toBe('markdown');
    expect(chooseFormat(['plaintext', 'markdown'])).toBe('plaintext');
    expect(chooseFormat(['plaintext'])).toBe('plaintext');
    expect(chooseFormat(['asciidoc', 'markdown'])).toBe('markdown');
    expect(chooseFormat([])).toBe('plaintext');
    expect(chooseFormat(undefined)).toBe('plaintext');
  });

  it('reads hover and completion formats from their own capabilities; tooltips follow hover', () => {
    const formats = clientFormats({ textDocument: { hover: { contentFormat: ['plaintext'] }, completion: { completionItem: { documentationFormat: ['markdown'] } } } });
    expect(formats).toEqual({ hover: 'plaintext', completion: 'markdown', tooltip: 'plaintext' });
    expect(clientFormats({})).toEqual({ hover: 'plaintext', completion: 'plaintext', tooltip: 'plaintext' });
  });

  it('sends markdown untouched to a markdown client', () => {
    expect(markup('**x** — `y`', 'markdown')).toEqual({ kind: 'markdown', value: '**x** — `y`' });
    expect(markup('**x** — `y`', 'plaintext')).toEqual({ kind: 'plaintext', value: 'x — y' });
  });
});

describe('plain text', () => {
  it('drops emphasis and code markers, keeps paragraphs, indents code blocks', () => {
    const md = '**Recipe** — concept of domain `recipes`\n\n_A text concept (no structure): its content is `{ text }`._\n\n```\nplan(x: Text) -> Recipe\n```\n\n---\n\nDefined in `broken.mthds:5`';
    expect(plainText(md)).toBe('Recipe — concept of domain recipes\n\nA text concept (no structure): its content is { text }.\n\n  plan(x: Text) -> Recipe\n\nDefined in broken.mthds:5');
  });

  it('renders a table as aligned columns, escapes resolved', () => {
    const md = '| field | type | required | description |\n| --- | --- | --- | --- |\n| `title` | text | yes | The name of the dish |\n| `servings` | integer | yes | How many it feeds |\n| `mood` | "a" \\| "b" | no | Pipes \\| inside |';
    const text = plainText(md);
    expect(text).toBe(
      [
        'field     type       required  description',
        'title     text       yes       The name of the dish',
        'servings  integer    yes       How many it feeds',
        'mood      "a" | "b"  no        Pipes | inside',
      ].join('\n'),
    );
    expect(text).not.toMatch(MARKDOWN_SYNTAX);
  });

  it('renders headings, links, lists and quotes without their syntax', () => {
    const md = '# Title\n\nSee [the registry](https://example.com/errors) or <https://example.com>.\n\n- one\n- two `x`\n\n1. first\n2. second\n\n> quoted **text**';
    const text = plainText(md);
    expect(text).toBe('Title\n\nSee the registry (https://example.com/errors) or https://example.com.\n\n• one\n• two x\n\n1. first\n2. second\n\n  quoted text');
    expect(text).not.toMatch(MARKDOWN_SYNTAX);
  });
});
