// The parse of an open buffer is reused while its text is the one set, and made again when another
// text is set, even one of the same length. Past the analysed size, the texts are not compared (two
// long ropes of one length would be made flat to be compared): set again, such a text is read again,
// which costs nothing since it is not parsed.

import { describe, expect, it } from 'vitest';
import { knownSize, MAX_ANALYZED_BYTES } from '../../../server/src/workspace/documentSize.js';
import type { Finding } from '../../../server/src/check/finding.js';
import { Documents } from '../../../server/src/workspace/documents.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const FILE = '/nowhere/open.mthds';

function documents(): Documents {
  return new Documents(nodeFileSystem, () => '/nowhere', false);
}

describe('open buffers', () => {
  it('keep their parse while their text is the one set, and are parsed again for another of the same length', () => {
    const docs = documents();
    docs.setBuffer(FILE, 'domain = "a"\n');
    const first = docs.load(FILE, 'bundle', '/nowhere', []);
    expect(docs.load(FILE, 'bundle', '/nowhere', [])).toBe(first);
    // The same text again, as another string: the parse is kept.
    docs.setBuffer(FILE, ['domain = ', '"a"\n'].join(''));
    expect(docs.load(FILE, 'bundle', '/nowhere', [])).toBe(first);
    expect(docs.lineStartsOf(FILE)).toBe(first!.lineStarts);
    docs.setBuffer(FILE, 'domain = "b"\n');
    const second = docs.load(FILE, 'bundle', '/nowhere', []);
    expect(second).not.toBe(first);
    expect(second!.text).toBe('domain = "b"\n');
    expect(second!.bundle?.domain?.value).toBe('b');
  });

  it('past the analysed size, read again at each text set, with its one finding', () => {
    const docs = documents();
    const large = (c: string): string => `domain = "${c}"\n${'#'.repeat(MAX_ANALYZED_BYTES)}\n`;
    const a = large('a');
    knownSize(a, Buffer.byteLength(a));
    docs.setBuffer(FILE, a);
    const findings: Finding[] = [];
    const first = docs.load(FILE, 'bundle', '/nowhere', findings);
    expect(first!.oversize).toBe(Buffer.byteLength(a));
    expect(docs.load(FILE, 'bundle', '/nowhere', [])).toBe(first);
    const b = large('b');
    docs.setBuffer(FILE, b);
    const second = docs.load(FILE, 'bundle', '/nowhere', findings);
    expect(second).not.toBe(first);
    expect(second!.text).toBe(b);
    expect(findings.map((f) => f.code)).toEqual(['mthdsls.client.document_too_large', 'mthdsls.client.document_too_large']);
  });
});
