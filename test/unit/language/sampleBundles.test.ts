import { describe, expect, it } from 'vitest';
import { sampleBundle } from '../../../server/src/language/sampleBundles.js';
import { check } from '../../helpers/tree.js';

describe('scratch', () => {
  it('prints', () => {
    const text = sampleBundle({ domain: 'sample', copies: 1, variant: 1, mainPipe: true, models: new Map([['llm', ['gpt-4o']]]) });
    console.log(text);
    console.log(JSON.stringify(check(text).map((f) => [f.code, f.message]), null, 1));
  });
});
