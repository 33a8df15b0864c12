// Mapping between indices into a decoded string value and offsets into the source text, through
// the LString's `offsetMap` (see types.ts for its layout).

import type { LString } from './types.js';

/**
 * The source offset of the value character at `valueIndex`. `valueIndex === value.length` maps to
 * `contentEnd`; indices out of range are clamped. An escape maps to its backslash (a `\U`
 * escape decoding to a surrogate pair maps its second unit to the offset after the backslash).
 */
export function valueOffsetToSource(s: LString, valueIndex: number): number {
  const len = s.value.length;
  if (!(valueIndex > 0)) valueIndex = 0;
  else if (valueIndex > len) valueIndex = len;
  const m = s.offsetMap;
  const pairs = m.length >> 1;
  // Largest k with m[2k] <= valueIndex.
  let lo = 0;
  let hi = pairs - 1;
  let k = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (m[2 * mid]! <= valueIndex) {
      k = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (k < 0) return s.contentStart + valueIndex;
  return m[2 * k + 1]! + (valueIndex - m[2 * k]!);
}

/**
 * The index of the value character whose source text contains `offset`: the largest `v` with
 * `valueOffsetToSource(s, v) <= offset`. An offset inside an escape maps to the character the
 * escape decodes to; `contentEnd` maps to `value.length`. Undefined outside
 * [contentStart, contentEnd].
 */
export function sourceOffsetToValue(s: LString, offset: number): number | undefined {
  if (offset < s.contentStart || offset > s.contentEnd) return undefined;
  const len = s.value.length;
  if (offset === s.contentEnd) return len;
  const m = s.offsetMap;
  const pairs = m.length >> 1;
  // Largest k with sourceOffset_k <= offset (source offsets increase with k).
  let lo = 0;
  let hi = pairs - 1;
  let k = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (m[2 * mid + 1]! <= offset) {
      k = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const v0 = k < 0 ? 0 : m[2 * k]!;
  const s0 = k < 0 ? s.contentStart : m[2 * k + 1]!;
  const next = k + 1 < pairs ? m[2 * (k + 1)]! : len;
  let v = v0 + (offset - s0);
  // Inside the gap after this segment (an escape, or skipped line-ending whitespace): the last
  // character of the segment.
  if (v >= next) v = next - 1;
  if (v < 0) v = 0;
  if (v > len) v = len;
  return v;
}
