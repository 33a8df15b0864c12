// Decoding a JSON body: strict UTF-8 (a byte sequence that is not UTF-8 is refused, not replaced),
// JSON, an object at the top, a bounded nesting depth, and no lone surrogate in any string (a code
// point UTF-8 cannot encode) — request.malformed or request.invalid, never a crash further on.

import { isUtf8 } from 'node:buffer';
import { Refusal } from '../refusal.js';

// A lone surrogate: a code point UTF-8 cannot encode (JSON escapes like "\ud800" can produce one).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Node's own test (String.prototype.isWellFormed, from Node 20) where present: a request's bundle
// texts are checked once each, and the regular expression costs microseconds per kilobyte.
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

export function isWellFormed(s: string): boolean {
  return nativeIsWellFormed !== undefined ? nativeIsWellFormed.call(s) : !LONE_SURROGATE.test(s);
}

/**
 * The body as text: strict UTF-8 (Node's native check, then its decoder: a fatal TextDecoder costs
 * several times more on the bundles of every request), a leading byte order mark dropped as a
 * TextDecoder drops it.
 */
function utf8Text(body: Buffer): string {
  if (!isUtf8(body)) throw new Refusal('request.malformed', { reason: 'not_utf8' }, { detail: notUtf8Detail(body) });
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return body.toString('utf8', bom ? 3 : 0);
}

const UTF16_DETAIL = 'The request body could not be decoded: it is UTF-16 text; the runner reads UTF-8 only.';

/** A UTF-16 byte order mark, or the zero bytes of ASCII text in UTF-16. */
function looksUtf16(body: Buffer): boolean {
  const bom16 = body.length >= 2 && ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff));
  return bom16 || (body.length >= 2 && (body[0] === 0 || body[1] === 0));
}

/** What the bytes are instead of UTF-8. */
function notUtf8Detail(body: Buffer): string {
  return looksUtf16(body) ? UTF16_DETAIL : 'The request body could not be decoded: its bytes are not valid UTF-8 (the runner reads UTF-8 only).';
}

export function decodeJsonObject(body: Buffer, maxDepth: number): Record<string, unknown> {
  const text = utf8Text(body);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // UTF-16 of ASCII text is valid UTF-8 (with zero bytes): it fails here, as JSON.
    throw new Refusal('request.malformed', { reason: 'not_json' }, looksUtf16(body) ? { detail: UTF16_DETAIL } : {});
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Refusal('request.malformed', { reason: 'not_json' }, { detail: 'The request body could not be decoded: it must be a JSON object.' });
  }
  checkValue(value as Record<string, unknown>, maxDepth);
  return value as Record<string, unknown>;
}

/** Depth and well-formed strings, walked without recursion (the nesting is what is being bounded). */
function checkValue(root: Record<string, unknown>, maxDepth: number): void {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value: root, depth: 1, path: '' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isWellFormed(value)) throw new Refusal('request.malformed', { reason: 'not_utf8' });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth) {
      throw new Refusal('request.invalid', { field: path.split('.').slice(0, 8).join('.') || 'body' }, { detail: `The request nests JSON deeper than ${maxDepth} levels.` });
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], depth: depth + 1, path: path === '' ? String(i) : `${path}.${i}` });
    } else {
      for (const [k, v] of Object.entries(value)) {
        if (!isWellFormed(k)) throw new Refusal('request.malformed', { reason: 'not_utf8' });
        stack.push({ value: v, depth: depth + 1, path: path === '' ? k : `${path}.${k}` });
      }
    }
  }
}
