// Navigation helpers over the located tree: entries by key, values by path, and what lies at an
// offset (for completion and hover).

import type { HeaderStatement, KeySegment, LArray, LEntry, LTable, LValue, Statement, TomlDocument } from './types.js';
import { ObjectCache } from '../util/objectCache.js';

const INDEX_FROM = 12;
const indexes = new ObjectCache<LTable, { size: number; map: Map<string, LEntry> }>('indexes');

/** The entry `key` of a table (undefined when `table` is not a table or has no such key). */
export function getEntry(table: LTable | LValue | undefined, key: string): LEntry | undefined {
  if (table === undefined || table.type !== 'table') return undefined;
  const entries = table.entries;
  if (entries.length < INDEX_FROM) {
    for (let i = 0; i < entries.length; i++) if (entries[i]!.key === key) return entries[i];
    return undefined;
  }
  // Big tables (e.g. `[pipe]` with hundreds of pipes): a lazily built index.
  let index = indexes.get(table);
  if (index === undefined || index.size !== entries.length) {
    const map = new Map<string, LEntry>();
    for (const e of entries) if (!map.has(e.key)) map.set(e.key, e);
    index = { size: entries.length, map };
    indexes.set(table, index);
  }
  return index.map.get(key);
}

/**
 * The value at `path` below `node`: strings select table entries, numbers array items (an array
 * of tables is an array). `getPath(root, ['pipe', 'x', 'steps', 0, 'pipe'])`.
 */
export function getPath(node: LTable | LValue | undefined, path: readonly (string | number)[]): LValue | undefined {
  let cur: LValue | undefined = node;
  for (const step of path) {
    if (cur === undefined) return undefined;
    if (typeof step === 'number') {
      cur = cur.type === 'array' ? cur.items[step] : undefined;
    } else {
      cur = getEntry(cur, step)?.value;
    }
  }
  return cur;
}

/** One step from the root towards the offset. */
export type PathStep =
  /** Into `entry` of `table`. */
  | { kind: 'entry'; table: LTable; entry: LEntry }
  /** Into item `index` of `array` (an array of tables too). */
  | { kind: 'item'; array: LArray; index: number; value: LValue };

export interface KeyAtOffset {
  segment: KeySegment;
  /** Index of `segment` in `key`. */
  index: number;
  /** The whole (dotted) key the segment belongs to. */
  key: readonly KeySegment[];
  inHeader: boolean;
}

export interface NodeAtOffset {
  offset: number;
  /** The statement whose range contains the offset (ends inclusive), if any. */
  statement: Statement | undefined;
  /** The header the offset is under (undefined before the first header). */
  header: HeaderStatement | undefined;
  /** The table of the section the offset is in: the header's table, or the root. */
  section: LTable;
  /**
   * The innermost table a key typed at the offset would belong to: the section, or the inline
   * table (or table defined by dotted keys inside one) around the offset.
   */
  table: LTable;
  /** From the root to the innermost entry or item containing the offset. */
  steps: PathStep[];
  /** The keys and indices of `steps`: `['pipe', 'summarize', 'steps', 0, 'pipe']`. */
  path: (string | number)[];
  /** The key segment under the offset, if any. */
  key: KeyAtOffset | undefined;
  /** The innermost value containing the offset (scalar, array, inline table or invalid), if any. */
  value: LValue | undefined;
}

function contains(r: { start: number; end: number }, offset: number): boolean {
  return r.start <= offset && offset <= r.end;
}

/** Index of the last statement starting at or before `offset`, or -1. */
function statementIndexAt(statements: readonly Statement[], offset: number): number {
  let lo = 0;
  let hi = statements.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (statements[mid]!.range.start <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Walk `count` header segments from the root, into the elements that `header` belongs to. */
function walkHeader(root: LTable, header: HeaderStatement, count: number, out: NodeAtOffset): void {
  let cur: LTable | undefined = root;
  const key = header.key;
  for (let i = 0; i < count; i++) {
    const name = key[i]!.name;
    out.path.push(name);
    if (cur === undefined) continue;
    const entry = getEntry(cur, name);
    if (entry === undefined) {
      cur = undefined;
      continue;
    }
    out.steps.push({ kind: 'entry', table: cur, entry });
    const v = entry.value;
    if (v.type === 'table') cur = v;
    else if (v.type === 'array' && v.ofTables) {
      // The element this header was written under: its own table, or the last one before it.
      let index = i === key.length - 1 ? v.items.indexOf(header.table) : -1;
      if (index < 0) {
        index = 0;
        for (let k = 0; k < v.items.length; k++) if (v.items[k]!.range.start <= header.range.start) index = k;
      }
      const item = v.items[index];
      if (item === undefined || item.type !== 'table') {
        cur = undefined;
        continue;
      }
      out.path.push(index);
      out.steps.push({ kind: 'item', array: v, index, value: item });
      cur = item;
    } else cur = undefined;
  }
}

/** Descend into `v` (the value of the last step) towards the offset. */
function descend(v: LValue, offset: number, out: NodeAtOffset): void {
  for (;;) {
    out.value = v;
    if (v.type === 'array') {
      let next: LValue | undefined;
      for (let i = 0; i < v.items.length; i++) {
        const item = v.items[i]!;
        if (contains(item.range, offset)) {
          out.steps.push({ kind: 'item', array: v, index: i, value: item });
          out.path.push(i);
          next = item;
          break;
        }
      }
      if (next === undefined) return;
      v = next;
    } else if (v.type === 'table') {
      out.table = v;
      // Entries of an inline table, through tables defined by dotted keys inside it.
      let table: LTable = v;
      const chain: KeySegment[] = [];
      let next: LValue | undefined;
      for (;;) {
        const entry = table.entries.find((e) => contains(e.range, offset));
        if (entry === undefined) return;
        out.steps.push({ kind: 'entry', table, entry });
        out.path.push(entry.key);
        chain.push({ name: entry.key, range: entry.keyRange });
        if (contains(entry.keyRange, offset)) {
          out.key = { segment: chain[chain.length - 1]!, index: chain.length - 1, key: chain, inHeader: false };
          out.value = undefined;
          return;
        }
        const ev = entry.value;
        if (ev.type === 'table' && ev.origin === 'dotted') {
          table = ev;
          out.table = ev;
          continue;
        }
        if (!contains(ev.range, offset)) {
          out.value = undefined;
          return;
        }
        next = ev;
        break;
      }
      v = next;
    } else return;
  }
}

/**
 * What lies at `offset`: the statement, section, key segment and innermost value around it, and
 * the path to it from the root. Ranges count as containing their end offset (a cursor right after
 * a token is on it).
 */
export function nodeAtOffset(doc: TomlDocument, offset: number): NodeAtOffset {
  const out: NodeAtOffset = {
    offset,
    statement: undefined,
    header: undefined,
    section: doc.root,
    table: doc.root,
    steps: [],
    path: [],
    key: undefined,
    value: undefined,
  };
  const statements = doc.statements;
  const idx = statementIndexAt(statements, offset);
  if (idx >= 0 && contains(statements[idx]!.range, offset)) out.statement = statements[idx];
  for (let i = idx; i >= 0; i--) {
    const st = statements[i]!;
    if (st.kind === 'header') {
      out.header = st;
      break;
    }
  }
  const header = out.header;
  const st = out.statement;

  if (header !== undefined && st === header) {
    // On a header: the path up to the segment under the offset (or the whole key).
    let count = header.key.length;
    for (let i = 0; i < header.key.length; i++) {
      const seg = header.key[i]!;
      if (contains(seg.range, offset)) {
        out.key = { segment: seg, index: i, key: header.key, inHeader: true };
        count = i + 1;
        break;
      }
    }
    walkHeader(doc.root, header, count, out);
    out.section = header.table;
    out.table = header.table;
    return out;
  }

  if (header !== undefined) {
    walkHeader(doc.root, header, header.key.length, out);
    out.section = header.table;
  }
  out.table = out.section;
  if (st === undefined || st.kind !== 'keyvalue') return out;

  // A key/value pair: walk its key from the section.
  let cur: LTable | undefined = out.section;
  const key = st.key;
  for (let i = 0; i < key.length; i++) {
    const seg = key[i]!;
    out.path.push(seg.name);
    const entry: LEntry | undefined = cur === undefined ? undefined : getEntry(cur, seg.name);
    if (entry !== undefined && cur !== undefined) out.steps.push({ kind: 'entry', table: cur, entry });
    if (contains(seg.range, offset)) {
      out.key = { segment: seg, index: i, key, inHeader: false };
      return out;
    }
    if (i < key.length - 1) {
      cur = entry !== undefined && entry.value.type === 'table' ? entry.value : undefined;
      if (cur !== undefined) out.table = cur;
    }
  }
  if (contains(st.value.range, offset)) descend(st.value, offset, out);
  return out;
}
