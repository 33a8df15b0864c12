// Template rendering: shorthands, the Pipelex filters, tag styles, categories, escaping, budgets.

import { Interpreter } from '@huggingface/jinja';
import { describe, expect, it, vi } from 'vitest';
import { applyTag, markdownToHtml, renderExpression, renderTemplate, renderValue, TemplateError, type RenderOptions } from '../../../server/src/language/templates/render.js';

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

describe('direct rendering of text-and-insert templates', () => {
  const outcome = (source: string, context: Record<string, unknown>, options: RenderOptions): string => {
    try {
      const out = renderTemplate(source, context, options);
      return JSON.stringify(out);
    } catch (error) {
      return `${error instanceof TemplateError ? `TemplateError(${error.kind})` : 'other'}: ${(error as Error).message}`;
    }
  };

  it('renders prompts of text, $x and @x without the interpreter, and anything else with it', () => {
    const run = vi.spyOn(Interpreter.prototype, 'run');
    try {
      renderTemplate('Read this:\n\n@doc\n\nTitle: $title, raw {{ title }}', { doc: text('body'), title: text('T') }, { category: 'llm_prompt' });
      expect(run).not.toHaveBeenCalled();
      renderTemplate('{% if title %}$title{% endif %}', { title: text('T') }, { category: 'llm_prompt' });
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      run.mockRestore();
    }
  });

  it('gives what the interpreter gives: texts, images, budgets and errors', () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}, "title": "p"}') as Record<string, unknown>;
    const contexts: Array<Record<string, unknown>> = [
      {},
      { doc: text('body <b>'), title: 'T & <i>', n: 3, flag: false, none: null },
      { doc: { title: 'T', pages: [1, 2], nested: { a: text('x'), img: image('https://x/n.png') }, _concept_code: 'd.Doc', _stuff_name: 'doc' }, title: image('https://x/a.png') },
      { doc: [text('a'), text('b'), { yes_no: true, probability: 0.8, _concept_code: 'native.YesNo' }], title: { inner_html: '<p>h</p>', _concept_code: 'native.Html' } },
      { doc: proto, title: undefined, fn: () => 'f', range: 'shadowed' },
      { doc: { big: 10n }, title: '\uE002marked' },
    ];
    const templates = [
      'plain text only',
      '@doc',
      '$doc and $title',
      'Read:\n\n@doc\n\n@title\n@?missing end',
      '{{ doc }}|{{ title }}|{{ n }}|{{ flag }}|{{ none }}|{{ missing }}',
      '{{ doc|tag }}{{ doc|tag("") }}{{ doc|tag("named") }}',
      '{{ missing|tag("m") }}',
      '{{ doc|format }} {{ doc|format("json") }} {{ doc|format("html") }} {{ doc|format("markdown") }}',
      '{{ doc|format("yaml") }}',
      '{{ doc|with_images }} {{ title|with_images }}',
      '{{ fn }} {{ fn|tag("f") }} {{ range }} {{ true }}',
      '{{ constructor }} {{ toString|tag("t") }}',
      // Shorthand prompts, read without the engine's parser when they hold no Jinja of their own.
      'Read:\n\n@doc\n',
      'Read:\r\n\r\n@doc\r\n\r\nthen $title.\r\n',
      '$doc, $title and $missing; costs \\$5 }} %} #} \\n',
      '@?doc\n@title\n',
      '$doc.title and @doc.pages',
      '@not',
      'x $and y',
      '$true $none',
      '@range',
      '$namespace',
      '$__mthds_print',
      '$if @else',
      '$constructor @toString',
      'trailing @doc',
      '\n',
      '',
    ];
    const styles = [undefined, { tagStyle: 'ticks', textFormat: 'plain' }, { tagStyle: 'square_brackets', textFormat: 'html' }, { tagStyle: 'no_tag', textFormat: 'json' }] as const;
    const categories = ['llm_prompt', 'basic', 'html', 'markdown', 'img_gen_prompt', 'mermaid'] as const;
    const earlier = [{ index: 1, url: 'https://x/a.png', content: image('https://x/a.png') }];
    let compared = 0;
    for (const source of templates) {
      for (const context of contexts) {
        for (const category of categories) {
          for (const style of styles) {
            for (const extra of [{}, { images: earlier }, { budget: 12 }, { budget: 30 }, { budget: 60 }, { budget: 100 }] as Array<Partial<RenderOptions>>) {
              const options: RenderOptions = { category, ...(style ? { style: { ...style } } : {}), ...extra };
              expect(outcome(source, context, options), `${source} | ${category} | ${JSON.stringify(style)} | ${JSON.stringify(extra)}`).toBe(outcome(source, context, { ...options, interpreter: true }));
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBe(templates.length * contexts.length * categories.length * styles.length * 6);
  });
});
