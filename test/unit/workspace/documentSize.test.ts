// The size of a text as the analysed size counts it: UTF-8 bytes, counted without Buffer where
// there is none (the browser's worker), and remembered for a large text whose rope counting again
// would make flat.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countUtf8, knownSize, MAX_ANALYZED_BYTES, sizePastLimit } from '../../../server/src/workspace/documentSize.js';

describe('the size of a document', () => {
  it('is counted without Buffer as Buffer counts it, lone surrogates and pairs included', () => {
    const unit = fc.constantFrom('a', 'é', '€', '😀', '\ud83d', '\ude00', '\u07ff', '\u0800', '\uffff', '\n');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), (units) => {
        const text = units.join('');
        expect(countUtf8(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the size of a large text counted when a smaller one is measured meanwhile', () => {
    const large = `${'x'.repeat(MAX_ANALYZED_BYTES)}é`;
    knownSize(large, 42 + MAX_ANALYZED_BYTES);
    // A text long enough to be counted, under the size: counted, not remembered in place of the large one.
    expect(sizePastLimit('y'.repeat(MAX_ANALYZED_BYTES / 2))).toBeUndefined();
    expect(sizePastLimit(large)).toBe(42 + MAX_ANALYZED_BYTES);
  });
});
