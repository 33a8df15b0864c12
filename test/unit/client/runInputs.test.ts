import { describe, expect, it } from 'vitest';
import { cancelledRunText, inputOf, promptOf, promptPipe, promptText, type PromptField } from '../../../client/src/runInputs.js';

const text: PromptField = { name: 'article', concept: 'news.Article', kind: 'prose', required: true, key: 'text', value: 'text' };
const count: PromptField = { name: 'n', concept: 'native.Number', kind: 'number', required: false, key: 'number', value: 'number' };
const verdict: PromptField = { name: 'ok', concept: 'native.YesNo', kind: 'boolean', required: true, key: 'yes_no', value: 'boolean' };
const items: PromptField = { name: 'items', concept: 'shop.Item', kind: 'list', required: false };

describe('the run prompt of the code lens', () => {
  it('reads the fields sent with a lens, and nothing once inputs are given', () => {
    expect(promptOf([{ uri: 'file:///x', pipe: 'a.b', prompt: [text, items] }])).toEqual([text, items]);
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
