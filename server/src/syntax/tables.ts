// TOML's table-definition rules: which key/value pairs and headers may define what, given what is
// already defined. The rules (and the bookkeeping) follow smol-toml's, so that both agree on which
// documents redefine something:
//
// - a key/value pair defines its last key segment, which must be new; its other segments walk
//   through (or create) tables "defined by dotted keys", never into a table declared by a header
//   (or created as a parent by one), an array of tables, an inline table or any other value;
// - `[a.b]` walks through (or creates) parent tables, descending into the last element of arrays of
//   tables, and declares `b`, which must not exist yet, or exist only as a parent created by a
//   header and not yet declared;
// - `[[a.b]]` appends an element to the array of tables `b` (creating it if new);
// - inline tables and arrays are closed: nothing can add to them afterwards.
//
// A rejected definition changes nothing: the first definition is kept.

import type { KeySegment, LArray, LEntry, LTable, LValue, Range, TableOrigin } from './types.js';

/** How a table-valued key came to be defined (smol-toml's categories). Values have no slot. */
export const DOTTED = 0; // a table created by dotted keys
export const EXPLICIT = 1; // a table declared by a header, or created as the parent of one; `d` once declared
export const ARRAY = 2; // an array of tables
export const ARRAY_DOTTED = 3; // a table created as the parent of an array-of-tables header; `d` once declared

/** The definition state of a table-valued key. */
export class Slot {
  constructor(
    public t: number,
    public d: boolean,
    readonly entry: LEntry,
    /** The child table (not for arrays of tables). */
    readonly meta: TableMeta | null,
    /** The elements of an array of tables. */
    readonly elems: TableMeta[] | null,
  ) {}
}

/** Tables with more entries than this get a Map from key to entry. */
const INDEX_FROM = 8;

/** The definition state of one table: its node, and the slots of its table-valued keys. */
export class TableMeta {
  readonly node: LTable;
  private index: Map<string, LEntry> | null = null;
  private slots: Map<string, Slot> | null = null;

  constructor(node: LTable) {
    this.node = node;
  }

  find(name: string): LEntry | undefined {
    if (this.index !== null) return this.index.get(name);
    const entries = this.node.entries;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.key === name) return e;
    }
    return undefined;
  }

  /** The slot of an existing entry, or undefined when the entry is a value. */
  slot(name: string): Slot | undefined {
    return this.slots === null ? undefined : this.slots.get(name);
  }

  add(entry: LEntry, slot: Slot | null): void {
    const entries = this.node.entries;
    entries.push(entry);
    if (this.index !== null) this.index.set(entry.key, entry);
    else if (entries.length > INDEX_FROM) {
      this.index = new Map();
      for (let i = 0; i < entries.length; i++) this.index.set(entries[i]!.key, entries[i]!);
    }
    if (slot !== null) (this.slots ??= new Map()).set(entry.key, slot);
  }
}

export class DefineError {
  constructor(
    readonly message: string,
    /** Index of the key segment at fault. */
    readonly index: number,
  ) {}
}

export function newTable(origin: TableOrigin, start: number, end: number): LTable {
  return { type: 'table', origin, entries: [], range: { start, end }, header: undefined };
}

const BARE = /^[A-Za-z0-9_-]+$/;

/** `a.b."c d"` for the first `upTo + 1` segments. */
export function formatKey(key: readonly KeySegment[], upTo = key.length - 1): string {
  let out = '';
  for (let i = 0; i <= upTo; i++) {
    const name = key[i]!.name;
    if (i) out += '.';
    out += BARE.test(name) ? name : JSON.stringify(name);
  }
  return out;
}

function describe(slot: Slot | undefined, entry: LEntry): string {
  if (slot === undefined) {
    const v = entry.value;
    return v.type === 'table' ? 'an inline table' : v.type === 'array' ? 'an array' : 'a value';
  }
  if (slot.t === ARRAY) return 'an array of tables';
  if (slot.t === DOTTED) return 'a table defined by dotted keys';
  return 'a table';
}

/** Define a one-segment key `name = value` in `meta` (the common case, without a KeySegment). */
export function defineSingle(meta: TableMeta, name: string, keyRange: Range, value: LValue, range: Range): string | null {
  const existing = meta.find(name);
  if (existing !== undefined) {
    const slot = meta.slot(name);
    const shown = BARE.test(name) ? name : JSON.stringify(name);
    if (slot === undefined) return `duplicate key '${shown}': it is already defined`;
    return `cannot define '${shown}' as a value: it is already ${describe(slot, existing)}`;
  }
  meta.add({ key: name, keyRange, value, range }, null);
  return null;
}

/**
 * Define `key = value` in the table `meta` (a section table or an inline table). `stmtRange` is the
 * range of the whole pair; it becomes the `range` of every entry the pair creates.
 */
export function defineKeyValue(meta: TableMeta, key: readonly KeySegment[], value: LValue, stmtRange: Range): DefineError | null {
  let m = meta;
  const last = key.length - 1;
  for (let i = 0; i <= last; i++) {
    const seg = key[i]!;
    const entry = m.find(seg.name);
    if (entry === undefined) {
      createDotted(m, key, i, value, stmtRange);
      return null;
    }
    const slot = m.slot(seg.name);
    if (i === last) {
      if (slot === undefined) return new DefineError(`duplicate key '${formatKey(key, i)}': it is already defined`, i);
      return new DefineError(`cannot define '${formatKey(key, i)}' as a value: it is already ${describe(slot, entry)}`, i);
    }
    if (slot === undefined) return new DefineError(`cannot add keys to '${formatKey(key, i)}': it is ${describe(slot, entry)}`, i);
    if (slot.t === EXPLICIT) {
      return new DefineError(`cannot add keys to table '${formatKey(key, i)}' with dotted keys: it belongs to a [table] header`, i);
    }
    if (slot.t === ARRAY) {
      return new DefineError(`cannot add keys to '${formatKey(key, i)}' with dotted keys: it is an array of tables`, i);
    }
    m = slot.meta!;
    const node = m.node;
    if ((node.origin === 'dotted' || node.origin === 'implicit') && node.range.end < stmtRange.end) node.range.end = stmtRange.end;
  }
  return null;
}

function createDotted(m: TableMeta, key: readonly KeySegment[], from: number, value: LValue, stmtRange: Range): void {
  const last = key.length - 1;
  for (let j = from; j < last; j++) {
    const seg = key[j]!;
    const node = newTable('dotted', stmtRange.start, stmtRange.end);
    const entry: LEntry = { key: seg.name, keyRange: seg.range, value: node, range: stmtRange };
    const child = new TableMeta(node);
    m.add(entry, new Slot(DOTTED, false, entry, child, null));
    m = child;
  }
  const seg = key[last]!;
  m.add({ key: seg.name, keyRange: seg.range, value, range: stmtRange }, null);
}

/**
 * Declare the table `[key]` (or add an element to the array of tables `[[key]]`) from `root`.
 * Returns the table that the following key/value pairs go to. `extend` receives the ranges of the
 * parents (implicit tables, arrays of tables) that should grow to the end of the new section.
 */
export function defineHeader(
  root: TableMeta,
  key: KeySegment[],
  arrayOfTables: boolean,
  headerRange: Range,
  extend: Range[],
): TableMeta | DefineError {
  let m = root;
  const last = key.length - 1;
  for (let i = 0; i <= last; i++) {
    const seg = key[i]!;
    const entry = m.find(seg.name);
    if (entry === undefined) return createHeaderChain(m, key, i, arrayOfTables, headerRange, extend);
    const slot = m.slot(seg.name);
    if (slot === undefined) {
      return new DefineError(`cannot define ${what(key, arrayOfTables)}: '${formatKey(key, i)}' is already ${describe(slot, entry)}`, i);
    }
    if (i < last) {
      if (slot.t === ARRAY) {
        extend.push(slot.entry.range);
        m = slot.elems![slot.elems!.length - 1]!;
      } else {
        m = slot.meta!;
        if (m.node.origin === 'implicit' || m.node.origin === 'dotted') extend.push(m.node.range);
      }
      continue;
    }
    if (arrayOfTables) {
      if (slot.t !== ARRAY) return new DefineError(`cannot define ${what(key, arrayOfTables)}: '${formatKey(key)}' is already ${describe(slot, entry)}`, i);
      const node = newTable('array-element', headerRange.start, headerRange.end);
      node.header = { range: headerRange, key };
      (slot.entry.value as LArray).items.push(node);
      const em = new TableMeta(node);
      slot.elems!.push(em);
      extend.push(slot.entry.range);
      return em;
    }
    if (slot.t === ARRAY) return new DefineError(`cannot define ${what(key, arrayOfTables)}: it is already an array of tables`, i);
    if (slot.t === DOTTED) return new DefineError(`cannot define ${what(key, arrayOfTables)}: it is already ${describe(slot, entry)}`, i);
    if (slot.d) return new DefineError(`${what(key, arrayOfTables)} is already defined`, i);
    // A parent created by an earlier header, declared now.
    slot.d = true;
    const meta = slot.meta!;
    const node = meta.node;
    node.origin = 'header';
    node.header = { range: headerRange, key };
    node.range = { start: headerRange.start, end: headerRange.end };
    slot.entry.range = node.range;
    slot.entry.keyRange = seg.range;
    return meta;
  }
  return new DefineError('empty table header', 0);
}

function what(key: readonly KeySegment[], arrayOfTables: boolean): string {
  return arrayOfTables ? `array of tables [[${formatKey(key)}]]` : `table [${formatKey(key)}]`;
}

function createHeaderChain(m: TableMeta, key: KeySegment[], from: number, arrayOfTables: boolean, headerRange: Range, extend: Range[]): TableMeta {
  const last = key.length - 1;
  for (let j = from; j < last; j++) {
    const seg = key[j]!;
    const node = newTable('implicit', headerRange.start, headerRange.end);
    const entry: LEntry = { key: seg.name, keyRange: seg.range, value: node, range: node.range };
    const child = new TableMeta(node);
    m.add(entry, new Slot(arrayOfTables ? ARRAY_DOTTED : EXPLICIT, false, entry, child, null));
    extend.push(node.range);
    m = child;
  }
  const seg = key[last]!;
  if (arrayOfTables) {
    const elem = newTable('array-element', headerRange.start, headerRange.end);
    elem.header = { range: headerRange, key };
    const arr: LArray = { type: 'array', items: [elem], range: { start: headerRange.start, end: headerRange.end }, ofTables: true };
    const entry: LEntry = { key: seg.name, keyRange: seg.range, value: arr, range: { start: headerRange.start, end: headerRange.end } };
    const em = new TableMeta(elem);
    m.add(entry, new Slot(ARRAY, true, entry, null, [em]));
    extend.push(entry.range);
    return em;
  }
  const node = newTable('header', headerRange.start, headerRange.end);
  node.header = { range: headerRange, key };
  const entry: LEntry = { key: seg.name, keyRange: seg.range, value: node, range: node.range };
  const meta = new TableMeta(node);
  m.add(entry, new Slot(EXPLICIT, true, entry, meta, null));
  return meta;
}
