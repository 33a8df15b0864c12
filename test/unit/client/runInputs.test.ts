import { describe, expect, it } from 'vitest';
import { ConceptCatalog } from '../../../server/src/language/jsonSchema.js';
import { describedPipes, pipeIoArtifacts, runPrompt } from '../../../server/src/language/pipeIo.js';
import { NATIVE_CONCEPTS } from '../../../server/src/language/spec/natives.js';
import { contentFault } from '../../../server/src/runner/execute/contents.js';
import { treeOf } from '../../helpers/tree.js';
import { cancelledRunText, inputOf, promptOf, promptPipe, promptText, type PromptField } from '../../../client/src/runInputs.js';

const text: PromptField = { name: 'article', concept: 'news.Article', kind: 'prose', required: true, key: 'text', value: 'text' };
const count: PromptField = { name: 'n', concept: 'native.Number', kind: 'number', required: false, key: 'number', value: 'number' };
const verdict: PromptField = { name: 'ok', concept: 'native.YesNo', kind: 'boolean', required: true, key: 'yes_no', value: 'boolean' };
const items: PromptField = { name: 'items', concept: 'shop.Item', kind: 'list', required: false };

describe('the run prompt of the code lens', () => {
  it('reads the fields sent with a lens, and nothing once inputs are given', () => {
    expect(promptOf([{ uri: 'file:///x', pipe: 'a.b', prompt: [text, items] }])).toEqual([text, items]);
    expect(promptOf([{ uri: 'file:///x', pipe: 'a.b', prompt: [{ ...items, sample: '[{"label":"…"}]' }] }])).toEqual([{ ...items, sample: '[{"label":"…"}]' }]);
    expect(promptOf([{ uri: 'file:///x', pipe: 'a.b', prompt: [text], inputs: {} }])).toBeUndefined();
    expect(promptOf([{ uri: 'file:///x' }])).toBeUndefined();
    expect(promptOf([{ prompt: [{ name: 1 }] }])).toBeUndefined();
  });

  it('turns answers into inputs by the content member the server named', () => {
    expect(inputOf(text, 'hello')).toEqual({ ok: true, input: { concept: 'news.Article', content: { text: 'hello' } } });
    expect(inputOf(count, ' 42 ')).toEqual({ ok: true, input: { concept: 'native.Number', content: { number: 42 } } });
    expect(inputOf(count, 'forty')).toEqual({ ok: false, message: 'Not a number.' });
    expect(inputOf(verdict, 'Yes')).toEqual({ ok: true, input: { concept: 'native.YesNo', content: { yes_no: true } } });
    expect(inputOf(items, '[{"label": "x"}]')).toEqual({ ok: true, input: { concept: 'shop.Item', content: [{ label: 'x' }] } });
    expect(inputOf(items, '[oops')).toEqual({ ok: false, message: 'Not valid JSON.' });
  });

  it('leaves out an empty optional input, gives an empty list for an empty list, and refuses an empty required one', () => {
    expect(inputOf(count, '')).toEqual({ ok: true });
    expect(inputOf(items, ' ')).toEqual({ ok: true, input: { concept: 'shop.Item', content: [] } });
    expect(inputOf(text, '  ')).toEqual({ ok: false, message: 'article is required.' });
    expect(promptText(count)).toBe('n: native.Number (number), a number; empty: left out');
    expect(promptText(items)).toBe('items: shop.Item (list), as JSON; empty: no items');
  });

  it('says where a cancelled run stopped and that nothing was sent', () => {
    const args = [{ uri: 'file:///x', pipe: 'news.brief', prompt: [text, count] }];
    expect(promptPipe(args)).toBe('news.brief');
    expect(promptPipe([{ uri: 'file:///x' }])).toBeUndefined();
    expect(cancelledRunText('news.brief', [text, count], 0)).toEqual({ line: 'Run of news.brief cancelled at input 1 of 2 (article): nothing was sent to the runner.', notice: 'Run of news.brief cancelled: nothing sent' });
    expect(cancelledRunText('news.brief', [text, count], 1).line).toBe('Run of news.brief cancelled at input 2 of 2 (n): nothing was sent to the runner.');
    expect(cancelledRunText(undefined, [], 0).line).toBe('Run of the pipe cancelled: nothing was sent to the runner.');
  });
});

describe('the run prompt against the runner', () => {
  // Every native a pipe may take: the lens's field for it, an answer typed as a user would, and the
  // runner's own content check of the input that answer makes.
  const natives = NATIVE_CONCEPTS.map((n) => n.code);
  const tree = treeOf({
    'n.mthds': `domain = "n"\ndescription = "natives"\n\n[pipe.all]\ntype = "PipeLLM"\ndescription = "All"\ninputs = { ${natives.map((c) => `in_${c.toLowerCase()} = "${c}"`).join(', ')} }\noutput = "Text"\nprompt = "${natives.map((c) => `$in_${c.toLowerCase()}`).join(' ')}"\n`,
  });
  const catalog = new ConceptCatalog(tree);
  const fields = runPrompt(pipeIoArtifacts(catalog, describedPipes(tree)).input_form['n.all']!);
  /** What a user types for a member, by its native's field type. */
  const typed = (field: PromptField): string => {
    const member = NATIVE_CONCEPTS.find((n) => `native.${n.code}` === field.concept)?.fields.find((f) => f.name === field.key);
    return field.value === 'number' ? '3' : field.value === 'boolean' ? 'no' : member?.type === 'date' ? '2024-05-06' : member?.type === 'time' ? '12:30' : 'https://example.com/a';
  };

  it('asks for one member of each native that has a single required scalar one, and JSON otherwise', () => {
    expect(fields.filter((f) => f.key !== undefined).map((f) => `${f.concept}.${f.key}`)).toEqual([
      'native.Text.text',
      'native.Markdown.text',
      'native.Image.url',
      'native.Document.url',
      'native.Html.inner_html',
      'native.Number.number',
      'native.YesNo.yes_no',
      'native.Date.date',
      'native.Time.time',
    ]);
  });

  it('gives every answer typed as JSON a sample of the shape the runner accepts', () => {
    const shaped = treeOf({
      's.mthds': `domain = "s"
description = "shapes"

[concept.Part]
description = "A part"
[concept.Part.structure]
name = { type = "text", description = "Name", required = true }
note = { type = "concept", concept_ref = "Text", description = "A note", required = true }

[concept.Order]
description = "An order"
[concept.Order.structure]
ref = { type = "text", description = "Reference", required = true }
count = { type = "integer", description = "Count", required = true }
price = { type = "number", description = "Price", required = true }
paid = { type = "boolean", description = "Paid", required = true }
day = { type = "date", description = "Day", required = true }
at = { type = "datetime", description = "At", required = true }
hour = { type = "time", description = "Hour", required = true }
kind = { description = "Kind", choices = ["new", "repeat"], required = true }
tags = { type = "list", item_type = "text", description = "Tags", required = true }
parts = { type = "list", item_type = "concept", item_concept_ref = "Part", description = "Parts", required = true }
main = { type = "concept", concept_ref = "Part", description = "Main part", required = true }
extra = { type = "dict", description = "Extra", required = true }
when = { type = "concept", concept_ref = "Date", description = "When", required = true }

[pipe.take]
type = "PipeLLM"
description = "Takes shapes"
inputs = { order = "Order", orders = "Order[]", pair = "Part[2]", page = "Page", choice = "Choice", notes = "Text[]" }
output = "Text"
prompt = "$order $orders $pair $page $choice $notes"
`,
    });
    const shapedCatalog = new ConceptCatalog(shaped);
    const asked = runPrompt(pipeIoArtifacts(shapedCatalog, describedPipes(shaped)).input_form['s.take']!);
    expect(asked.map((f) => f.name)).toEqual(['order', 'orders', 'pair', 'page', 'choice', 'notes']);
    for (const field of asked) {
      expect(field.key, field.name).toBeUndefined();
      expect(field.sample, field.name).toBeDefined();
      const answer = inputOf(field as PromptField, field.sample!);
      expect(answer.ok, field.name).toBe(true);
      const { concept, content } = (answer as { input: { concept: string; content: unknown } }).input;
      const info = shapedCatalog.byRef(concept)!;
      for (const item of field.kind === 'list' ? (content as unknown[]) : [content]) expect(contentFault(shapedCatalog, info, item), `${field.name}: ${field.sample}`).toBeUndefined();
    }
    expect(JSON.parse(asked[0]!.sample!)).toMatchObject({ count: 0, paid: false, day: '2024-01-31', hour: '09:00', kind: 'new', tags: ['…'], main: { name: '…', note: { text: '…' } }, when: { date: '2024-01-31' } });
    expect(JSON.parse(asked[1]!.sample!)).toHaveLength(1);
    expect(JSON.parse(asked[2]!.sample!)).toHaveLength(2);
  });

  it.each(fields.filter((f) => f.key !== undefined).map((f) => [f.concept, f] as const))('an answer for %s makes a content the runner accepts', (concept, field) => {
    const answer = inputOf(field as PromptField, typed(field as PromptField));
    expect(answer.ok).toBe(true);
    const info = catalog.byRef(concept)!;
    expect(contentFault(catalog, info, (answer as { input: { content: unknown } }).input.content)).toBeUndefined();
  });
});
