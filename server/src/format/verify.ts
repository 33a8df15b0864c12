// The formatter's safety net: the formatted text must parse to the same value as the original
// (smol-toml, the authority on TOML, decides) and keep every comment, in order.

import { parse } from 'smol-toml';
import { parseTomlSyntax } from '../syntax/parser.js';

/** A canonical text of a parsed TOML value; `ordered` keeps the key order in it. */
export function canonicalValue(value: unknown, ordered = true): string {
  if (typeof value === 'bigint') return `big:${value.toString()}`;
  if (typeof value === 'number') return Object.is(value, -0) ? 'num:-0' : `num:${String(value)}`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return `date:${Object.prototype.toString.call(value)}:${safeIso(value)}`;
  if (Array.isArray(value)) return `[${value.map((v) => canonicalValue(v, ordered)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (!ordered) keys.sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalValue((value as Record<string, unknown>)[k], ordered)}`).join(',')}}`;
  }
  return String(value);
}

function safeIso(date: Date): string {
  try {
    return date.toISOString();
  } catch {
    return String(date.getTime());
  }
}

/** The value of a TOML text, canonical; undefined when smol-toml refuses it. */
export function parsedCanonical(text: string, ordered = true): string | undefined {
  try {
    return canonicalValue(parse(text, { integersAsBigInt: 'asNeeded' }), ordered);
  } catch {
    return undefined;
  }
}

/** Every comment of a TOML text, in order, without trailing blanks. */
export function commentsOf(text: string): string[] {
  return parseTomlSyntax(text)
    .statements.filter((s) => s.kind === 'comment')
    .map((s) => text.slice(s.range.start, s.range.end).trimEnd());
}

/** Why `formatted` is not a faithful rewrite of `original`, or undefined when it is. */
export function unfaithful(original: string, formatted: string, ordered: boolean): string | undefined {
  const before = parsedCanonical(original, ordered);
  const after = parsedCanonical(formatted, ordered);
  if (after === undefined) return 'the result does not parse';
  if (before !== after) return 'the result parses to another value';
  const a = commentsOf(original);
  const b = commentsOf(formatted);
  if (a.length !== b.length || a.some((c, i) => c !== b[i])) return 'the result lost or changed a comment';
  return undefined;
}
