// Edits of the method model, shared by the rules' fixes and the editor's repairs: removing inputs
// of a pipe, declaring inputs, appending a declaration block to a bundle. Plain text edits
// (offsets) computed from the model, whatever the table's form (inline, header, dotted keys).

import type { Bundle, InputDecl, PipeDecl } from '../language/model.js';
import { getEntry } from '../syntax/lookup.js';
import type { LEntry, LTable, Range } from '../syntax/types.js';
import { appendBlockEdit, appendToTableEdit, insertLineAfter, lastEntryEnd, newlineOf, wholeLines } from './edits.js';
import type { TextEdit } from './finding.js';

/** Appends a block of lines at the end of a bundle's file, after one blank line. */
export function appendBlock(bundle: Bundle, lines: readonly string[]): TextEdit {
  return appendBlockEdit(bundle.file, bundle.doc.text, lines);
}

// ---------------------------------------------------------------------------------------------
// Removing inputs

/** Removes `name = "X"` from an inline `inputs = { ... }` (with its comma), or its line in a table. */
export function removeInputEdit(bundle: Bundle, pipe: PipeDecl, input: InputDecl): TextEdit {
  const text = bundle.doc.text;
  const inputs = getEntry(pipe.table, 'inputs')?.value;
  if (inputs?.type === 'table' && inputs.origin === 'inline') {
    const entries = inputs.entries;
    const i = entryPlaces(entries).get(input.name) ?? -1;
    const entry = entries[i]!;
    let range: Range;
    if (entries.length === 1) range = { start: inputs.range.start + 1, end: inputs.range.end - 1 };
    else if (i < entries.length - 1) range = { start: entry.range.start, end: entries[i + 1]!.range.start };
    else range = { start: entries[i - 1]!.range.end, end: entry.range.end };
    return { file: bundle.file, range, newText: entries.length === 1 ? ' ' : '' };
  }
  return { file: bundle.file, range: wholeLines(text, input.range), newText: '' };
}

// A pipe with thousands of unused inputs asks for thousands of these edits: the place of an entry
// is looked up in a map made once per table, not by a scan each (which made the fixes of one pipe
// quadratic in its inputs).
const places = new WeakMap<readonly { key: string }[], Map<string, number>>();

/** The place of the first entry of each key. */
function entryPlaces(entries: readonly { key: string }[]): Map<string, number> {
  let map = places.get(entries);
  if (!map) {
    map = new Map();
    entries.forEach((e, i) => {
      if (!map!.has(e.key)) map!.set(e.key, i);
    });
    places.set(entries, map);
  }
  return map;
}

function inlineEntryText(text: string, entry: LEntry): string {
  return text.slice(entry.range.start, entry.range.end);
}

/** Rewrites an inline `inputs = { ... }` table with the given entries (kept as written). */
function rewriteInline(file: string, table: LTable, entries: string[]): TextEdit {
  return { file, range: table.range, newText: entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }` };
}

/** Removes the named inputs of a pipe at once: one rewrite of an inline table, else one edit per line. */
export function removeInputsEdit(bundle: Bundle, pipe: PipeDecl, names: ReadonlySet<string>): TextEdit[] {
  const text = bundle.doc.text;
  const inputs = getEntry(pipe.table, 'inputs');
  const table = inputs?.value;
  if (!inputs || table?.type !== 'table') return [];
  const removed = table.entries.filter((e) => names.has(e.key));
  if (removed.length === 0) return [];
  if (table.origin === 'inline') return [rewriteInline(bundle.file, table, table.entries.filter((e) => !names.has(e.key)).map((e) => inlineEntryText(text, e)))];
  return removed.map((e) => ({ file: bundle.file, range: wholeLines(text, e.range), newText: '' }));
}

// ---------------------------------------------------------------------------------------------
// Declaring inputs

/**
 * Adds one `name = "Concept"` slot to a pipe's inputs, in the form the rules' fix writes: a new
 * inline table after the description's line (or the first entry's), appended inside an inline
 * table, or as the last line of an `[…inputs]` table. Undefined when there is nowhere to put it.
 */
export function declareInputEdit(bundle: Bundle, pipe: PipeDecl, slot: string): TextEdit | undefined {
  const text = bundle.doc.text;
  const inputs = getEntry(pipe.table, 'inputs');
  if (!inputs) {
    const anchor = getEntry(pipe.table, 'description') ?? pipe.table.entries[0];
    if (!anchor || !pipe.table.header) return undefined;
    const lineEnd = wholeLines(text, anchor.range).end;
    const newline = newlineOf(text);
    const edit: TextEdit = { file: bundle.file, range: { start: lineEnd, end: lineEnd }, newText: `inputs = { ${slot} }${lineEnd === text.length && !text.endsWith('\n') ? '' : newline}` };
    if (lineEnd === text.length && !text.endsWith('\n')) edit.newText = `${newline}inputs = { ${slot} }`;
    return edit;
  }
  if (inputs.value.type === 'table' && inputs.value.origin === 'inline') {
    const close = inputs.value.range.end - 1;
    const empty = inputs.value.entries.length === 0;
    let at = close;
    while (at > inputs.value.range.start + 1 && text[at - 1] === ' ') at -= 1;
    return { file: bundle.file, range: { start: at, end: close }, newText: empty ? ` ${slot} ` : `, ${slot} ` };
  }
  if (inputs.value.type === 'table') return appendToTableEdit(bundle.file, text, inputs.value, slot);
  return undefined;
}

/**
 * Declares several inputs at once, each as `name = "concept"`, in the form the editor's repair
 * writes: a new inline table after the description (else the type) of a header pipe, the slots
 * added to an inline table, lines of an `[…inputs]` table, or more dotted keys after the last.
 */
export function declareInputsEdit(bundle: Bundle, pipe: PipeDecl, names: readonly string[], concept: string): TextEdit | undefined {
  const text = bundle.doc.text;
  const lines = names.map((n) => `${n} = "${concept}"`);
  const inputs = getEntry(pipe.table, 'inputs');
  if (!inputs) {
    if (pipe.table.origin !== 'header') return undefined;
    // Where the language reference puts it: after the description (else after the type).
    const anchor = getEntry(pipe.table, 'description') ?? getEntry(pipe.table, 'type');
    return insertLineAfter(bundle.file, text, anchor ? anchor.range.end : lastEntryEnd(pipe.table), `inputs = { ${lines.join(', ')} }`);
  }
  const table = inputs.value;
  if (table.type !== 'table') return undefined;
  if (table.origin === 'inline') return rewriteInline(bundle.file, table, [...table.entries.map((e) => inlineEntryText(text, e)), ...lines]);
  if (table.origin === 'header') return insertLineAfter(bundle.file, text, lastEntryEnd(table), lines.join(newlineOf(text)));
  // Dotted keys (`inputs.text = "Text"`): add more of them after the last.
  return insertLineAfter(bundle.file, text, lastEntryEnd(table), names.map((n) => `inputs.${n} = "${concept}"`).join(newlineOf(text)));
}
