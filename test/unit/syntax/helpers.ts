// Shared helpers for the syntax tests.

import type { LString, LTable, LValue, TomlDocument } from '../../../server/src/syntax/types.js';
import { getPath } from '../../../server/src/syntax/lookup.js';

/** Offset of the `nth` occurrence (0-based) of `needle` in `text`; throws when missing. */
export function at(text: string, needle: string, nth = 0): number {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`'${needle}' (#${nth}) not found`);
  }
  return i;
}

/** The source text of a range. */
export function src(text: string, r: { start: number; end: number }): string {
  return text.slice(r.start, r.end);
}

export function value(doc: TomlDocument | LTable, path: (string | number)[]): LValue {
  const root = 'root' in doc ? doc.root : doc;
  const v = getPath(root, path);
  if (v === undefined) throw new Error(`no value at ${path.join('.')}`);
  return v;
}

export function str(doc: TomlDocument | LTable, path: (string | number)[]): LString {
  const v = value(doc, path);
  if (v.type !== 'string') throw new Error(`${path.join('.')} is a ${v.type}, not a string`);
  return v;
}

export function table(doc: TomlDocument | LTable, path: (string | number)[]): LTable {
  const v = path.length === 0 && 'root' in doc ? doc.root : value(doc, path);
  if (v.type !== 'table') throw new Error(`${path.join('.')} is a ${v.type}, not a table`);
  return v;
}

export function keys(t: LTable): string[] {
  return t.entries.map((e) => e.key);
}
