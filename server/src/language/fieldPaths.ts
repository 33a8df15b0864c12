// The fields of a concept's content with their documentation, and walks along dotted paths
// (`invoice.lines.amount`): what completion offers after a `.`, what hover and inlay hints show
// for a template read or a binding step. Built on concepts.ts (`contentFields`), so that natives,
// declared structures and refinement follow one rule.

import type { Concept, ContentField } from './concepts.js';
import { contentFields, displayConcept, nativeConcept, refinementChain } from './concepts.js';
import type { Multiplicity } from './references.js';
import type { MethodTree } from './tree.js';

export interface DescribedField extends ContentField {
  description?: string;
  /** The concept whose structure declares the field (differs from the walked one when inherited). */
  owner: Concept;
  /** `choices` of a declared enumeration field. */
  choices?: readonly string[];
}

/** The concept holding the structure a concept's content follows (itself, or the ancestor it inherits from). */
function structureSource(tree: MethodTree, c: Concept): Concept | undefined {
  for (const x of refinementChain(tree, c)) {
    if (x.kind === 'native') return x.native.structureless || x.native.leaf ? undefined : x;
    if (x.decl.structure) return x;
    if (!x.decl.refines) return undefined;
  }
  return undefined;
}

/** The fields of a concept's content, with their descriptions; undefined when a path cannot enter it. */
export function describedFields(tree: MethodTree, c: Concept): DescribedField[] | undefined {
  const fields = contentFields(tree, c);
  const owner = structureSource(tree, c);
  if (!fields || !owner) return undefined;
  return fields.map((f, i) => {
    const out: DescribedField = { ...f, owner };
    if (owner.kind === 'native') {
      const description = owner.native.fields[i]?.description;
      if (description !== undefined) out.description = description;
    } else {
      const source = owner.decl.structure?.[i];
      if (source?.description !== undefined) out.description = source.description;
      if (source?.choices) out.choices = source.choices;
    }
    return out;
  });
}

/** How a field's type reads in hovers and completion details: `text`, `LineItem[]`, `Image`. */
export function fieldTypeLabel(f: DescribedField | ContentField, fromDomain?: string): string {
  if (f.type === 'concept' && f.concept) return displayConcept(f.concept, fromDomain);
  if (f.type === 'list') {
    if (f.concept) return `${displayConcept(f.concept, fromDomain)}[]`;
    return f.itemType ? `${f.itemType}[]` : 'list';
  }
  if ('choices' in f && f.choices) return f.choices.map((c) => JSON.stringify(c)).join(' | ');
  return f.type;
}

/** The native concept a scalar field reads as when bound (language reference §7.4). */
const SCALAR_NATIVES: Readonly<Record<string, string>> = {
  text: 'Text',
  integer: 'Number',
  number: 'Number',
  boolean: 'YesNo',
  date: 'Date',
  datetime: 'Date',
  time: 'Time',
  dict: 'JSON',
};

export interface WalkResult {
  /** The concept reached (a field's concept, or the native a scalar binds as). */
  concept?: Concept;
  /** The last field walked, when the path has more than its root. */
  field?: DescribedField;
  /** A list was crossed (or the last field is a list). */
  list: boolean;
  /** Where the walk stopped, when a segment names no field: its index in `segments`. */
  failedAt?: number;
}

/** Walks `segments` through the fields of `root` (a binding path or a template read, root excluded). */
export function walkFields(tree: MethodTree, root: Concept, segments: readonly string[]): WalkResult {
  let concept: Concept | undefined = root;
  let field: DescribedField | undefined;
  let list = false;
  for (let i = 0; i < segments.length; i++) {
    const fields: DescribedField[] | undefined = concept ? describedFields(tree, concept) : undefined;
    const next: DescribedField | undefined = fields?.find((f) => f.name === segments[i]);
    if (!next) return field ? { field, list, failedAt: i } : { list, failedAt: i };
    field = next;
    if (next.type === 'list') list = true;
    if (next.concept) concept = next.concept;
    else {
      const scalar: string | undefined = next.type === 'list' ? next.itemType : next.type;
      const native: string | undefined = scalar !== undefined ? SCALAR_NATIVES[scalar] : undefined;
      concept = native ? nativeConcept(native) : undefined;
      // A scalar is a leaf: a further segment cannot enter it.
      if (i < segments.length - 1) return { field, list, failedAt: i + 1 };
    }
  }
  const out: WalkResult = { list };
  if (concept) out.concept = concept;
  if (field) out.field = field;
  return out;
}

/** A concept with its multiplicity, as written in io-refs: `Page[]`, `Idea[3]`, `Text?`. */
export interface TypedValue {
  concept: Concept;
  multiplicity: Multiplicity;
  optional: boolean;
}

export function typedLabel(v: TypedValue, fromDomain?: string): string {
  const m = v.multiplicity;
  const suffix = m.kind === 'single' ? '' : m.kind === 'list' ? '[]' : `[${m.count}]`;
  return `${displayConcept(v.concept, fromDomain)}${suffix}${v.optional && m.kind === 'single' ? '?' : ''}`;
}
