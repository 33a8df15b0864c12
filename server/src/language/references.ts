// Parsing of reference strings: concept references with multiplicity and markers (io-refs),
// plain concept references and pipe references. Pure string work, offsets relative to the string.

import { DOMAIN_CODE, PASCAL, SNAKE } from './spec/lexical.js';

export type Multiplicity = { kind: 'single' } | { kind: 'list' } | { kind: 'fixed'; count: number };

export interface ParsedRef {
  /** Package prefix before `->` (an alias, or a full package address). */
  prefix?: string;
  /** Domain path between the prefix and the last dot. */
  domain?: string;
  /** The local code (last segment). */
  code: string;
  /** Offsets inside the raw string of the local code. */
  codeStart: number;
  codeEnd: number;
  /** Offsets of the whole reference (prefix, domain and code, no suffix). */
  refStart: number;
  refEnd: number;
}

export interface IoRef extends ParsedRef {
  multiplicity: Multiplicity;
  marker?: '?' | '!';
  /** Offset of the `[` of the multiplicity, when written. */
  multiplicityStart?: number;
  /** Offset of the marker, when written. */
  markerStart?: number;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string; start: number; end: number };

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether raw[start, end) is one non-empty segment matching SEGMENT (no dot, no arrow). */
function isPlainSegment(raw: string, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let i = start; i < end; i++) {
    const c = raw.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && (i === start || c < 48 || c > 57)) return false;
  }
  return true;
}

/** Splits `prefix->domain.path.Code` into its parts; shared by concept and pipe references. */
function splitRef(raw: string, start: number, end: number): ParseResult<ParsedRef> {
  // The common case, a bare code: the general path below would give the same parts.
  if (isPlainSegment(raw, start, end)) {
    const code = start === 0 && end === raw.length ? raw : raw.slice(start, end);
    return { ok: true, value: { code, codeStart: start, codeEnd: end, refStart: start, refEnd: end } };
  }
  const text = raw.slice(start, end);
  if (text.length === 0) return { ok: false, error: 'the reference is empty', start, end };
  let prefix: string | undefined;
  let restStart = start;
  const arrow = text.indexOf('->');
  if (arrow >= 0) {
    prefix = text.slice(0, arrow);
    if (prefix.length === 0) return { ok: false, error: 'nothing stands before `->` (expected a dependency alias)', start, end: start + 2 };
    if (/\s/.test(prefix)) return { ok: false, error: 'a package prefix cannot hold spaces', start, end: start + arrow };
    restStart = start + arrow + 2;
  }
  const rest = raw.slice(restStart, end);
  if (rest.length === 0) return { ok: false, error: 'nothing follows `->`', start: restStart - 2, end };
  const segments = rest.split('.');
  let offset = restStart;
  for (const seg of segments) {
    if (seg.length === 0) return { ok: false, error: 'empty segment (leading, trailing or double dot)', start: restStart, end };
    if (!SEGMENT.test(seg)) return { ok: false, error: `\`${seg}\` is not a valid name`, start: offset, end: offset + seg.length };
    offset += seg.length + 1;
  }
  const code = segments[segments.length - 1]!;
  const domain = segments.length > 1 ? segments.slice(0, -1).join('.') : undefined;
  if (domain !== undefined && !DOMAIN_CODE.test(domain)) {
    return { ok: false, error: `\`${domain}\` is not a domain code (snake_case segments)`, start: restStart, end: restStart + domain.length };
  }
  const codeStart = end - code.length;
  const parsed: ParsedRef = { code, codeStart, codeEnd: end, refStart: start, refEnd: end };
  if (prefix !== undefined) parsed.prefix = prefix;
  if (domain !== undefined) parsed.domain = domain;
  return { ok: true, value: parsed };
}

/** `[prefix->]Ref[multiplicity][marker]` as written in `inputs` and `output`. */
export function parseIoRef(raw: string): ParseResult<IoRef> {
  let end = raw.length;
  let marker: '?' | '!' | undefined;
  let markerStart: number | undefined;
  const last = raw[end - 1];
  if (last === '?' || last === '!') {
    marker = last;
    markerStart = end - 1;
    end -= 1;
  }
  let multiplicity: Multiplicity = { kind: 'single' };
  let multiplicityStart: number | undefined;
  const open = raw.indexOf('[');
  if (open >= 0 && open < end) {
    if (raw[end - 1] !== ']') {
      if (raw.indexOf(']') < 0) return { ok: false, error: 'unclosed `[` in the multiplicity', start: open, end: raw.length };
      return { ok: false, error: 'the multiplicity must come last (before an optional `?` or `!`)', start: open, end: raw.length };
    }
    const inner = raw.slice(open + 1, end - 1);
    if (inner === '') multiplicity = { kind: 'list' };
    else if (/^\d+$/.test(inner)) {
      const count = Number(inner);
      if (count === 0) return { ok: false, error: '`[0]` is not a multiplicity (use `[]` for a list, `[N]` with N >= 1)', start: open, end };
      multiplicity = count === 1 ? { kind: 'single' } : { kind: 'fixed', count };
    } else return { ok: false, error: `\`[${inner}]\` is not a multiplicity (use \`[]\` or \`[N]\`)`, start: open, end };
    multiplicityStart = open;
    end = open;
  } else if (raw.indexOf(']') >= 0) {
    return { ok: false, error: 'unmatched `]`', start: raw.indexOf(']'), end: raw.indexOf(']') + 1 };
  }
  const ref = splitRef(raw, 0, end);
  if (!ref.ok) return ref;
  const v = ref.value;
  // The keys in the order of `{ ...ref.value, multiplicity }`, without the spread.
  let io: IoRef;
  if (v.prefix === undefined && v.domain === undefined) io = { code: v.code, codeStart: v.codeStart, codeEnd: v.codeEnd, refStart: v.refStart, refEnd: v.refEnd, multiplicity };
  else io = { ...v, multiplicity };
  if (marker !== undefined) io.marker = marker;
  if (markerStart !== undefined) io.markerStart = markerStart;
  if (multiplicityStart !== undefined) io.multiplicityStart = multiplicityStart;
  return { ok: true, value: io };
}

/** A concept reference where no multiplicity or marker is allowed (`refines`, `concept_ref`). */
export function parseConceptRef(raw: string): ParseResult<ParsedRef> {
  return splitRef(raw, 0, raw.length);
}

/** A pipe reference: `code`, `domain.code` or `alias->domain.code`. */
export function parsePipeRef(raw: string): ParseResult<ParsedRef> {
  return splitRef(raw, 0, raw.length);
}

export function isConceptCode(code: string): boolean {
  return PASCAL.test(code);
}

export function isPipeCode(code: string): boolean {
  return SNAKE.test(code);
}

export function formatMultiplicity(m: Multiplicity): string {
  return m.kind === 'single' ? '' : m.kind === 'list' ? '[]' : `[${m.count}]`;
}

/** The reference written back in canonical form (without multiplicity or marker). */
export function formatRef(ref: { prefix?: string; domain?: string; code: string }): string {
  return `${ref.prefix !== undefined ? `${ref.prefix}->` : ''}${ref.domain !== undefined ? `${ref.domain}.` : ''}${ref.code}`;
}
