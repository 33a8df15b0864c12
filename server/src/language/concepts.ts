// Concepts as values flow through pipes: identity, refinement chains, content fields, and the
// compatibility test used by every wiring check (language reference §3.4).

import type { Bundle, ConceptDecl, StructureField } from './model.js';
import type { ParsedRef } from './references.js';
import { hostStructureOf } from './hostStructures.js';
import { getNative, type NativeConcept, type NativeField } from './spec/natives.js';
import { resolveConcept, type MethodTree } from './tree.js';
import { ObjectCache } from '../util/objectCache.js';

/** A resolved concept: a native, or a declaration of the tree. */
export type Concept = { kind: 'native'; key: string; native: NativeConcept } | { kind: 'declared'; key: string; decl: ConceptDecl };

/** One field of a concept's content, native or declared, in the same terms. */
export interface ContentField {
  name: string;
  type: string;
  required: boolean;
  hasDefault: boolean;
  /** The concept held (type concept) or the item concept (lists of concepts). */
  concept?: Concept;
  itemType?: string;
}

export function conceptKey(c: Concept): string {
  return c.key;
}

export function lookupConcept(tree: MethodTree, from: Bundle, ref: Pick<ParsedRef, 'prefix' | 'domain' | 'code'>): Concept | undefined {
  const r = resolveConcept(tree, from, ref);
  if (r.kind === 'native') return nativeOf(r.native);
  if (r.kind === 'concept') return declaredOf(r.decl);
  return undefined;
}

// Concepts are plain immutable values: one object per native and per declaration.
const natives = new Map<string, Concept>();
const declared = new ObjectCache<ConceptDecl, Concept>('declared');

function nativeOf(native: NativeConcept): Concept {
  let c = natives.get(native.code);
  if (c === undefined) {
    c = { kind: 'native', key: `native.${native.code}`, native };
    natives.set(native.code, c);
  }
  return c;
}

function declaredOf(decl: ConceptDecl): Concept {
  let c = declared.get(decl);
  if (c === undefined) {
    c = { kind: 'declared', key: `${decl.bundle.domain?.value ?? ''}.${decl.code}`, decl };
    declared.set(decl, c);
  }
  return c;
}

export function nativeConcept(code: string): Concept {
  const native = getNative(code);
  return native ? nativeOf(native) : { kind: 'native', key: `native.${code}`, native: native! };
}

/** The concept a concept refines, when it refines one that resolves. */
export function parentOf(tree: MethodTree, c: Concept): Concept | undefined {
  if (c.kind === 'native') return c.native.refines !== undefined ? nativeConcept(c.native.refines) : undefined;
  if (!c.decl.refines?.ref) return undefined;
  return lookupConcept(tree, c.decl.bundle, c.decl.refines.ref);
}

/** The concept and its ancestors, nearest first (cycles cut). */
export function refinementChain(tree: MethodTree, c: Concept): Concept[] {
  const first = parentOf(tree, c);
  // Most concepts refine nothing.
  if (!first || first.key === c.key) return [c];
  const chain: Concept[] = [c];
  const seen = new Set([c.key]);
  for (let p: Concept | undefined = first; p && !seen.has(p.key); p = parentOf(tree, p)) {
    chain.push(p);
    seen.add(p.key);
  }
  return chain;
}

/** The native at the root of a refinement chain, if any. */
export function nativeRoot(tree: MethodTree, c: Concept): NativeConcept | undefined {
  const last = refinementChain(tree, c).at(-1)!;
  return last.kind === 'native' ? last.native : undefined;
}

/** Declared with neither structure nor refines: content `{ text }` at run time (unless the host binds a structure). */
export function isSimpleConcept(c: Concept): boolean {
  return c.kind === 'declared' && !c.decl.structure && !c.decl.refines && !c.decl.structureString;
}

/** Text, a refinement of Text, or a simple concept. */
export function isTextBased(tree: MethodTree, c: Concept): boolean {
  return refinementChain(tree, c).some((x) => (x.kind === 'native' && x.native.code === 'Text') || isSimpleConcept(x));
}

export function isRefinementOf(tree: MethodTree, c: Concept, nativeCode: string): boolean {
  return refinementChain(tree, c).some((x) => x.kind === 'native' && x.native.code === nativeCode);
}

/** Whether a path can walk into the concept's fields. */
export function contentFields(tree: MethodTree, c: Concept): ContentField[] | undefined {
  return chainFields(tree, c, false);
}

/**
 * Every field of the content the reference runtime builds for a concept: its class inherits the
 * class of what it refines, so a refinement of a leaf native holds that native's field (`number`
 * for Number) and a simple concept holds `text`. Undefined when nothing is known: a structureless
 * native (Composite, Anything, Dynamic), a `structure = "..."` class name, an unresolved parent.
 */
export function runtimeFields(tree: MethodTree, c: Concept): ContentField[] | undefined {
  return chainFields(tree, c, true);
}

function chainFields(tree: MethodTree, c: Concept, leaves: boolean): ContentField[] | undefined {
  for (const x of refinementChain(tree, c)) {
    if (x.kind === 'native') return x.native.structureless || (x.native.leaf && !leaves) ? undefined : x.native.fields.map(nativeField);
    if (x.decl.structure) return x.decl.structure.map((f) => declaredField(tree, x.decl.bundle, f));
    const host = hostStructureOf(tree.hostStructures, x.decl);
    if (host) return host.fields.map((f) => declaredField(tree, x.decl.bundle, f));
    if (!x.decl.refines) return leaves && isSimpleConcept(x) ? getNative('Text')!.fields.map(nativeField) : undefined;
  }
  return undefined;
}

function nativeField(f: NativeField): ContentField {
  const field: ContentField = { name: f.name, type: f.type, required: f.required, hasDefault: false };
  if (f.concept) field.concept = nativeConcept(f.concept);
  if (f.itemType) field.itemType = f.itemType;
  return field;
}

function declaredField(tree: MethodTree, bundle: Bundle, f: StructureField): ContentField {
  const type = f.type?.value ?? (f.choices ? 'text' : 'text');
  const field: ContentField = { name: f.name, type, required: f.required, hasDefault: f.defaultValue !== undefined };
  const ref = type === 'concept' ? f.conceptRef?.ref : type === 'list' ? f.itemConceptRef?.ref : undefined;
  if (ref) {
    const concept = lookupConcept(tree, bundle, ref);
    if (concept) field.concept = concept;
  }
  if (f.itemType) field.itemType = f.itemConceptRef?.context === 'item_type' ? 'concept' : f.itemType.value;
  return field;
}

/**
 * Whether a value of concept `tested` is accepted where `wanted` is expected. The refinement chain
 * of the standard, plus what the reference runtime accepts: Dynamic both ways, Anything wanted,
 * Text-based concepts among themselves, siblings refining the same concept, and concepts whose
 * contents have the same shape.
 */
export function isCompatible(tree: MethodTree, tested: Concept, wanted: Concept): boolean {
  if (tested.key === wanted.key) return true;
  if (wanted.kind === 'native' && (wanted.native.code === 'Anything' || wanted.native.code === 'Dynamic')) return true;
  if (tested.kind === 'native' && tested.native.code === 'Dynamic') return true;
  const chain = refinementChain(tree, tested);
  if (chain.some((c) => c.key === wanted.key)) return true;
  if (isTextBased(tree, tested) && isTextBased(tree, wanted)) return true;
  const testedParent = parentOf(tree, tested);
  const wantedParent = parentOf(tree, wanted);
  if (testedParent !== undefined && wantedParent !== undefined && testedParent.key === wantedParent.key) return true;
  return sameStructure(tree, tested, wanted);
}

/**
 * Whether two concepts' contents have the same shape, as the runtime compares their classes'
 * schemas (descriptions aside): the same field names, each with the same type, item type, concept
 * and requiredness, and a default on both or neither. So a parent's value fits where a refinement
 * adding no field is declared, and two concepts declaring identical structures fit each other.
 */
function sameStructure(tree: MethodTree, a: Concept, b: Concept): boolean {
  const fa = runtimeFields(tree, a);
  const fb = runtimeFields(tree, b);
  if (fa === undefined || fb === undefined || fa.length !== fb.length || fa.length === 0) return false;
  const byName = new Map(fb.map((f) => [f.name, f]));
  return fa.every((f) => {
    const g = byName.get(f.name);
    return g !== undefined && g.type === f.type && g.itemType === f.itemType && g.required === f.required && g.hasDefault === f.hasDefault && g.concept?.key === f.concept?.key;
  });
}

/** The name written in messages: bare for natives and for the domain of `from`. */
export function displayConcept(c: Concept, fromDomain?: string): string {
  if (c.kind === 'native') return c.native.code;
  const domain = c.decl.bundle.domain?.value;
  return domain === fromDomain ? c.decl.code : `${domain}.${c.decl.code}`;
}
