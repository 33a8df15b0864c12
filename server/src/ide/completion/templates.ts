// Template variables: after `$`, `@` / `@?` (alone on their line), inside `{{ }}` / `{% %}`, and
// anywhere in a condition's expression, the pipe's declared inputs; after a `.`, the fields of the
// concept reached so far. Binding paths (`from` of a step) walk the same way from the names the
// controller holds at that step.

import type { LString } from '../../syntax/types.js';
import { stringSliceRange } from '../../language/buildBundle.js';
import type { Concept } from '../../language/concepts.js';
import { conceptMarkdown } from '../describe.js';
import { describedFields, fieldTypeLabel, typedLabel, walkFields, type TypedValue } from '../../language/fieldPaths.js';
import type { PipeDecl } from '../../language/model.js';
import { inputTypes, stepResults } from '../../language/stepTypes.js';
import type { MethodTree } from '../../language/tree.js';
import type { Completion } from './types.js';

const IDENT_PATH_AT_END = /((?:[A-Za-z_][A-Za-z0-9_]*\.)*)([A-Za-z_][A-Za-z0-9_]*)?$/;

/** What the cursor is completing in a template: a root name or a field, and the typed part. */
export interface VariableSlot {
  /** Segments typed before the one being completed (`invoice.lines.` → ['invoice', 'lines']). */
  prefix: string[];
  /** Decoded offsets of the segment being completed. */
  start: number;
  end: number;
  /** After `@?`: optional inputs come first. */
  presence: boolean;
}

function tokenAtEnd(before: string): { prefix: string[]; start: number } | undefined {
  const m = IDENT_PATH_AT_END.exec(before)!;
  const prefix = m[1] ? m[1].slice(0, -1).split('.') : [];
  const start = before.length - (m[2]?.length ?? 0);
  const head = before.length - m[0].length;
  // A name right after a word character, a `.` or a closing bracket is not the start of a read.
  if (head > 0 && /[A-Za-z0-9_.)\]'"]/.test(before[head - 1]!)) return undefined;
  return { prefix, start };
}

/** The variable slot at decoded index `index` of a template, or undefined when the cursor is not on one. */
export function variableSlot(value: string, index: number, how: { shorthands: boolean; expression: boolean }): VariableSlot | undefined {
  const before = value.slice(0, index);
  let end = index;
  while (end < value.length && /[A-Za-z0-9_]/.test(value[end]!)) end++;
  if (how.expression) {
    const t = tokenAtEnd(before);
    return t ? { prefix: t.prefix, start: t.start, end, presence: false } : undefined;
  }
  if (how.shorthands) {
    const m = /(\$|@\??)((?:[A-Za-z_][A-Za-z0-9_]*\.)*)([A-Za-z_][A-Za-z0-9_]*)?$/.exec(before);
    if (m) {
      const sigilAt = before.length - m[0].length;
      const prev = sigilAt > 0 ? before[sigilAt - 1]! : '';
      const lineStart = before.lastIndexOf('\n', sigilAt - 1) + 1;
      const ok = m[1] === '$' ? !/[A-Za-z0-9_$]/.test(prev) : /^[ \t]*$/.test(before.slice(lineStart, sigilAt));
      if (ok) {
        const prefix = m[2] ? m[2].slice(0, -1).split('.') : [];
        return { prefix, start: before.length - (m[3]?.length ?? 0), end, presence: m[1] === '@?' };
      }
    }
  }
  // Inside a Jinja tag that is still open at the cursor.
  const open = Math.max(before.lastIndexOf('{{'), before.lastIndexOf('{%'));
  if (open < 0 || Math.max(before.lastIndexOf('}}'), before.lastIndexOf('%}')) > open) return undefined;
  const t = tokenAtEnd(before);
  if (!t) return undefined;
  const pathStart = t.start - (t.prefix.length > 0 ? t.prefix.join('.').length + 1 : 0);
  if (pathStart < open + 2) return undefined;
  const lead = before.slice(open + 2, pathStart);
  // After a filter bar come filter names; the first word of a statement is its keyword.
  if (/\|\s*$/.test(lead)) return undefined;
  if (before[open + 1] === '%' && /^[-+]?\s*$/.test(lead)) return undefined;
  return { prefix: t.prefix, start: t.start, end, presence: false };
}

function fieldItems(tree: MethodTree, concept: Concept, fromDomain: string | undefined, range: { start: number; end: number }): Completion[] {
  const fields = describedFields(tree, concept) ?? [];
  return fields.map((f, i) => ({
    label: f.name,
    kind: 'field',
    detail: `${fieldTypeLabel(f, fromDomain)}${f.required ? '' : ' (optional)'}`,
    documentation: `**${f.name}**: ${fieldTypeLabel(f, fromDomain)}${f.required ? ' (required)' : ''}${f.description ? `\n\n${f.description}` : ''}`,
    insertText: f.name,
    range,
    sortText: String(i).padStart(3, '0'),
  }));
}

function nameItems(tree: MethodTree, names: ReadonlyMap<string, TypedValue>, fromDomain: string | undefined, range: { start: number; end: number }, presence: boolean, what: string): Completion[] {
  const out: Completion[] = [];
  for (const [name, t] of names) {
    const optionalFirst = presence && t.optional ? '0' : '1';
    out.push({
      label: name,
      kind: 'variable',
      detail: typedLabel(t, fromDomain),
      documentation: `**${name}** — ${what}: \`${typedLabel(t, fromDomain)}\`\n\n${conceptMarkdown(tree, t.concept, fromDomain)}`,
      insertText: name,
      range,
      sortText: `${optionalFirst}${name}`,
    });
  }
  return out;
}

/** Completes `slot` from the names in `names` (a template's inputs, or a step's stored names). */
function complete(tree: MethodTree, pipe: PipeDecl, node: LString, slot: VariableSlot, names: ReadonlyMap<string, TypedValue>, untyped: readonly string[], what: string): Completion[] {
  const range = stringSliceRange(node, slot.start, slot.end);
  const domain = pipe.bundle.domain?.value;
  if (slot.prefix.length === 0) {
    const items = nameItems(tree, names, domain, range, slot.presence, what);
    // Inputs whose concept does not resolve are still names to read.
    for (const name of untyped) if (!names.has(name)) items.push({ label: name, kind: 'variable', detail: what, insertText: name, range, sortText: `2${name}` });
    return items;
  }
  const root = names.get(slot.prefix[0]!);
  if (!root || root.multiplicity.kind !== 'single') return [];
  const walked = walkFields(tree, root.concept, slot.prefix.slice(1));
  if (walked.failedAt !== undefined || !walked.concept || walked.list) return [];
  return fieldItems(tree, walked.concept, domain, range);
}

/** Variables of a template of `pipe`: its declared inputs, or the fields after a `.`. */
export function templateCompletions(tree: MethodTree, pipe: PipeDecl, node: LString, index: number, how: { shorthands: boolean; expression: boolean }): Completion[] {
  const slot = variableSlot(node.value, index, how);
  if (!slot) return [];
  return complete(tree, pipe, node, slot, inputTypes(tree, pipe), pipe.inputs.map((i) => i.name), 'input');
}

/** A binding path (`from`) or `batch_over` of step `stepIndex`: the names held before it, then fields. */
export function pathCompletions(tree: MethodTree, pipe: PipeDecl, stepIndex: number, node: LString, index: number): Completion[] {
  const slot = variableSlot(node.value, index, { shorthands: false, expression: true });
  if (!slot) return [];
  const names = new Map(inputTypes(tree, pipe));
  const results = stepResults(tree, pipe);
  if (pipe.spec?.name !== 'PipeParallel') {
    for (const step of pipe.steps) {
      if (step.index >= stepIndex) break;
      const v = results.get(step);
      if (step.result && v) names.set(step.result.value, v);
    }
  }
  return complete(tree, pipe, node, slot, names, pipe.inputs.map((i) => i.name), 'stored value');
}
