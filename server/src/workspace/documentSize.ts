// The largest bundle the language server analyses. Parsing a bundle, building it, a rule over all
// its pipes and a feature over the whole document (highlights, tokens, the outline) are single
// steps of the server, so a bundle's size is how long every other request may wait for it.
// Measured (bench/README.md, "large documents"): a 5 MB bundle of 45,000 pipes took 1.3 s to parse
// and 2 s in all; at 1 MB (9,700 pipes) the steps of a change and of what an editor asks after it
// were still 100-200 ms each, at 0.5 MB under 100 ms. The largest document the project's own
// scenarios analyse is the fix-all of 30,000 unused inputs (0.49 MB); the largest bundle of the
// shared corpus is 26 KB. `mthds check` is not bound by it (only by the 16 MB of readText.ts): a
// command line has no other request to answer meanwhile.

import { makeFinding, type Finding } from '../check/finding.js';

export const MAX_ANALYZED_BYTES = 512 * 1024;

/**
 * The UTF-8 size of a text, as Node's `Buffer.byteLength` counts it (a lone surrogate is the three
 * bytes of its replacement); counted here where there is no `Buffer` (the browser's worker).
 */
export function utf8Size(text: string): number {
  if (typeof Buffer !== 'undefined') return Buffer.byteLength(text, 'utf8');
  return countUtf8(text);
}

/** utf8Size without `Buffer`, a code unit at a time. */
export function countUtf8(text: string): number {
  let size = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) size += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: 4 bytes for its two units.
      size += 2;
      i++;
    } else size += 2;
  }
  return size;
}

/**
 * The UTF-8 size of `text` when it is past `limit`, else undefined; counted only when the length
 * alone does not tell (a UTF-16 unit is at least one byte and at most three).
 */
export function sizePastLimit(text: string, limit: number = MAX_ANALYZED_BYTES): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  // Every request on a large document asks again for the same text: its size is counted once, and
  // kept until another text past the limit is counted (one under it, counted on a flat text, never
  // displaces it: counted again, the large one's rope would be made flat).
  if (last.text === text) return last.size > limit ? last.size : undefined;
  const size = utf8Size(text);
  if (size <= limit) return undefined;
  last = { text, size };
  return size;
}
let last = { text: '', size: 0 };

/**
 * Tells the UTF-8 size of a text that arrived in pieces (lsp/packedStrings.ts): counting it again
 * would join its pieces into one string, a copy of the whole text at once.
 */
export function knownSize(text: string, size: number): void {
  last = { text, size };
}

/** The one finding of a bundle past the limit, at its start. */
export function tooLargeFinding(file: string, size: number, limit: number = MAX_ANALYZED_BYTES): Finding {
  return makeFinding('mthdsls.client.document_too_large', { size, limit }, file, { start: 0, end: 0 }, { severity: 'warning' });
}
