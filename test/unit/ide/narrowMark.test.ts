// A list made narrowed where it is made carries its mark to `narrow` (which then sends it as it
// is, incomplete), and only that list: a copy is narrowed again, and the mark never reaches what
// is sent to a client.

import { describe, expect, it } from 'vitest';
import { isNarrowed, markNarrowed, MAX_ITEMS, narrow } from '../../../server/src/ide/completion/narrow.js';
import type { Completion } from '../../../server/src/ide/completion/types.js';

const range = { start: 0, end: 0 };
const item = (label: string): Completion => ({ label, kind: 'concept', insertText: label, range, sortText: `2${label}` });

describe('narrowed lists', () => {
  it('are sent as they are, incomplete, while a copy of them is narrowed again', () => {
    const long = Array.from({ length: MAX_ITEMS + 5 }, (_, i) => item(`Thing${String(i).padStart(4, '0')}`));
    const marked = markNarrowed(long.slice(0, 3));
    expect(isNarrowed(marked)).toBe(true);
    expect(narrow(marked, '', 0)).toEqual({ items: marked, incomplete: true });
    const copy = [...marked];
    expect(isNarrowed(copy)).toBe(false);
    expect(narrow(copy, '', 0)).toEqual({ items: copy, incomplete: false });
    expect(isNarrowed(long)).toBe(false);
    expect(narrow(long, '', 0).items).toHaveLength(MAX_ITEMS);
  });

  it('do not carry their mark into what is serialised', () => {
    const plain = [item('A'), item('B')];
    expect(JSON.stringify(markNarrowed([item('A'), item('B')]))).toBe(JSON.stringify(plain));
    expect(Object.keys(markNarrowed([item('A')]))).toEqual(['0']);
    expect(markNarrowed([item('A'), item('B')])).toEqual(plain);
  });
});
