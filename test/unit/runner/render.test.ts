// Template rendering: shorthands, the Pipelex filters, tag styles, categories, escaping, budgets.

import { describe, expect, it } from 'vitest';
import { applyTag, markdownToHtml, renderExpression, renderTemplate, renderValue, TemplateError } from '../../../server/src/language/templates/render.js';

const text = (t: string): Record<string, unknown> => ({ text: t, _concept_code: 'native.Text' });
const image = (url: string): Record<string, unknown> => ({ url, _concept_code: 'native.Image' });

describe('renderTemplate', () => {
  it('applies $ and @ shorthands with format and tag', () => {
    const out = renderTemplate('Hi $name.\n@doc\n@?absent\nend', { name: text('Ada'), doc: text('body') }, { category: 'llm_prompt' });
    expect(out.text).toBe('Hi Ada.\n<doc>\nbody\n</doc>\n\nend');
  });

  it.each([
    ['no_tag', 'v'],
    ['ticks', 'x: ```\nv\n```'],
    ['xml', '<x>\nv\n</x>'],
    ['square_brackets', '[x]\nv\n[/x]'],
  ] as const)('tags with the %s style', (tagStyle, expected) => {
    expect(renderTemplate('{{ x|tag("x") }}', { x: 'v' }, { category: 'basic', style: { tagStyle, textFormat: 'plain' } }).text).toBe(expected);
  });

  it('uses a default tag name and refuses to tag an undefined value', () => {
    expect(applyTag('v', 'xml')).toBe('<data>\nv\n</data>');
    expect(() => renderTemplate('{{ nothing|tag }}', {}, { category: 'basic' })).toThrow(TemplateError);
  });

  it('formats structured values as plain, markdown, json and html', () => {
    const doc = { title: 'T', pages: 3, _concept_code: 'd.Doc', _stuff_name: 'doc' };
    expect(renderTemplate('{{ doc|format("plain") }}', { doc }, { category: 'basic' }).text).toBe('title: T\npages: 3');
    expect(renderTemplate('{{ doc|format("markdown") }}', { doc }, { category: 'basic' }).text).toBe('- **title**: T\n- **pages**: 3');
    expect(JSON.parse(renderTemplate('{{ doc|format("json") }}', { doc }, { category: 'basic' }).text)).toEqual({ title: 'T', pages: 3 });
    expect(renderValue(doc, 'html', { images: [] })).toContain('<dt>title</dt><dd>T</dd>');
    expect(() => renderTemplate('{{ doc|format("yaml") }}', { doc }, { category: 'basic' })).toThrow(/unknown text format/);
  });

  it('prints a content object as its text and lists item by item', () => {
    expect(renderTemplate('{{ t }} {% for i in items %}[{{ i }}]{% endfor %} {{ items|length }}', { t: text('hello'), items: [text('a'), text('b')] }, { category: 'basic' }).text).toBe('hello [a][b] 2');
  });

  it('turns images into numbered placeholders and collects them', () => {
    const out = renderTemplate('$a and $b and $a', { a: image('https://x/a.png'), b: image('https://x/b.png') }, { category: 'llm_prompt' });
    expect(out.text).toBe('[Image 1] and [Image 2] and [Image 1]');
    expect(out.images.map((i) => i.url)).toEqual(['https://x/a.png', 'https://x/b.png']);
    const nested = { title: 'p', view: image('https://x/v.png'), _concept_code: 'native.Page' };
    expect(renderTemplate('{{ page|format }}', { page: nested }, { category: 'llm_prompt' }).text).toContain('**view**: https://x/v.png');
    const withImages = renderTemplate('{{ page|with_images }}', { page: nested }, { category: 'llm_prompt' });
    expect(withImages.text).toContain('[Image 1]');
    expect(withImages.images).toHaveLength(1);
  });

  it('continues image numbering across templates of one call', () => {
    const first = renderTemplate('$a', { a: image('https://x/a.png') }, { category: 'llm_prompt' });
    const second = renderTemplate('$b', { b: image('https://x/b.png') }, { category: 'llm_prompt', images: first.images });
    expect(second.text).toBe('[Image 2]');
  });

  it('escapes HTML templates unless the value is HTML already', () => {
    const out = renderTemplate('<p>{{ t.text }}</p>{{ h }}{{ md|markdown }}{{ raw|safe }}', { t: text('<b>'), h: { inner_html: '<i>x</i>', _concept_code: 'native.Html' }, md: '# Title', raw: '<hr>' }, { category: 'html' });
    expect(out.text).toBe('<p>&lt;b&gt;</p><i>x</i><h1>Title</h1><hr>');
  });

  it('offers each category its filters only', () => {
    expect(() => renderTemplate('{{ x|with_images }}', { x: 'v' }, { category: 'basic' })).toThrow(/not available in basic/);
    expect(renderTemplate('{{ x|escape_script_tag }}', { x: '</script>' }, { category: 'markdown' }).text).toBe('\\u003c/script>');
    expect(() => renderTemplate('{{ x|format }}', { x: 'v' }, { category: 'expression', shorthands: false })).toThrow(TemplateError);
  });

  it('keeps Jinja built-ins working', () => {
    expect(renderTemplate('{{ name|upper }} {{ missing|default("none") }} {{ items|join(", ") }}', { name: 'ada', items: ['a', 'b'] }, { category: 'basic' }).text).toBe('ADA none a, b');
  });

  it('reports a template that does not parse, and a render budget overrun, as TemplateErrors', () => {
    expect(() => renderTemplate('{% if x %}open', {}, { category: 'basic' })).toThrow(/does not parse/);
    expect(() => renderTemplate('{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}', {}, { category: 'basic', budget: 50_000 })).toThrow(/budget/);
  });

  it('renders condition expressions without shorthands', () => {
    expect(renderExpression('ticket.severity', { ticket: { severity: 'high' } })).toBe('high');
    expect(renderExpression('"$x"', {})).toBe('$x');
  });
});

describe('markdownToHtml', () => {
  it('escapes raw HTML and links only scheme URLs', () => {
    expect(markdownToHtml('# T\n\n- a\n- **b**\n\n<script>x</script> [ok](https://e.com) [no](javascript-free)')).toBe(
      '<h1>T</h1>\n<ul><li>a</li><li><strong>b</strong></li></ul>\n<p>&lt;script&gt;x&lt;/script&gt; <a href="https://e.com">ok</a> [no](javascript-free)</p>',
    );
  });
});

describe('render limits', () => {
  it('charges loop iterations so that nested loops cannot run for seconds', () => {
    const nested = '{% for i in range(1000) %}{% for j in range(1000) %}{{ "" }}{% endfor %}{% endfor %}';
    // 1,000 x 1,000 iterations are 16 million units: refused when the inner loops add up, not after.
    expect(() => renderTemplate(nested, {}, { category: 'basic', timeLimitMs: 3_600_000 })).toThrow(/too many loop iterations/);
    // A list of a few thousand items renders.
    const items = Array.from({ length: 5_000 }, (_, i) => i);
    expect(renderTemplate('{% for x in items %}{{ x }},{% endfor %}', { items }, { category: 'basic' }).text.split(',')).toHaveLength(5_001);
  });
  it('stops a render past its time limit', () => {
    const slow = '{% for i in range(20000) %}{% set x = [1,2,3,4,5,6,7,8,9] | join(",") %}{{ "" }}{% endfor %}';
    expect(() => renderTemplate(slow, {}, { category: 'basic', timeLimitMs: 0 })).toThrow(/too long/);
    expect(() => renderTemplate('{% for i in range(3) %}{{ i }}{% endfor %}', {}, { category: 'basic', timeLimitMs: 10_000 })).not.toThrow();
  });
});
