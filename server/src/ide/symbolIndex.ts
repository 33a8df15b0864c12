// The occurrences of a whole method tree by key, and where each symbol is declared: what
// definition, references, highlight and rename read. Built once per tree; a tree of the same files
// as the tree indexed last under its root, where the changed bundles declare the same names (an
// edit in a prompt, a description, a reference), is indexed from that one: only the keys the
// changed bundles mention are made again, over a shared base.

import type { Range } from '../syntax/types.js';
import type { Bundle, ConceptDecl, PipeDecl } from '../language/model.js';
import { occurrencesOf, type Occurrence } from './occurrences.js';
import { bundleIndex, bundleOutline, type MethodTree } from '../language/tree.js';
import { ObjectCache } from '../util/objectCache.js';

export interface TreeIndex {
  byKey: { get(key: string): readonly Occurrence[] | undefined };
  bundleOf: { get(file: string): Bundle | undefined };
}

/** The keys of a tree: a base shared by the trees indexed from one another, and the keys patched since. */
class KeyIndex {
  constructor(
    readonly base: ReadonlyMap<string, readonly Occurrence[]>,
    readonly patched: ReadonlyMap<string, readonly Occurrence[]>,
  ) {}

  get(key: string): readonly Occurrence[] | undefined {
    return this.patched.get(key) ?? this.base.get(key);
  }
}

const indexes = new ObjectCache<MethodTree, { index: TreeIndex; keys: KeyIndex }>('indexes');
/** The tree indexed last under each root. */
const lastIndexed = new Map<string, WeakRef<MethodTree>>();
/** Past this many patched keys, the base is made again. */
const MAX_PATCHED = 4096;
/** Past this many changed bundles, the index is made again. */
const MAX_CHANGED = 64;

export function treeIndex(tree: MethodTree): TreeIndex {
  let entry = indexes.get(tree);
  if (!entry) {
    entry = patchedIndex(tree) ?? builtIndex(tree);
    indexes.set(tree, entry);
    lastIndexed.set(tree.root, new WeakRef(tree));
  }
  return entry.index;
}

function builtIndex(tree: MethodTree): { index: TreeIndex; keys: KeyIndex } {
  const byKey = new Map<string, Occurrence[]>();
  for (const bundle of tree.bundles) {
    for (const o of occurrencesOf(tree, bundle)) {
      const list = byKey.get(o.key);
      if (list) list.push(o);
      else byKey.set(o.key, [o]);
    }
  }
  const keys = new KeyIndex(byKey, new Map());
  return { index: { byKey: keys, bundleOf: filesOf(tree, bundleIndex(tree)) }, keys };
}

function filesOf(tree: MethodTree, places: ReadonlyMap<string, number>): TreeIndex['bundleOf'] {
  return { get: (file) => (places.has(file) ? tree.bundles[places.get(file)!] : undefined) };
}

/** The index of `tree` made from that of the tree indexed last under its root, when it can be. */
function patchedIndex(tree: MethodTree): { index: TreeIndex; keys: KeyIndex } | undefined {
  const previous = lastIndexed.get(tree.root)?.deref();
  const before = previous && indexes.get(previous);
  if (!previous || !before || previous.bundles.length !== tree.bundles.length || previous.dependencies !== tree.dependencies || previous.manifest !== tree.manifest) return undefined;
  const changed: number[] = [];
  for (let i = 0; i < tree.bundles.length; i++) {
    const a = previous.bundles[i]!;
    const b = tree.bundles[i]!;
    if (a === b) continue;
    // Other declarations may change the keys of every bundle's references.
    if (a.file !== b.file || bundleOutline(a) !== bundleOutline(b) || changed.length >= MAX_CHANGED) return undefined;
    changed.push(i);
  }
  // The same files in the same order: the places of the previous tree hold.
  const places = bundleIndex(previous);
  const patched = new Map(before.keys.patched);
  const touched = new Map<string, Occurrence[]>();
  const files = new Set<string>();
  for (const i of changed) {
    files.add(tree.bundles[i]!.file);
    for (const o of occurrencesOf(previous, previous.bundles[i]!)) if (!touched.has(o.key)) touched.set(o.key, []);
    for (const o of occurrencesOf(tree, tree.bundles[i]!)) {
      const list = touched.get(o.key);
      if (list) list.push(o);
      else touched.set(o.key, [o]);
    }
  }
  for (const [key, added] of touched) {
    // The key's occurrences of the other bundles, with the changed bundles' new ones at their place (bundle order).
    const kept = (before.keys.get(key) ?? []).filter((o) => !files.has(o.file));
    const list: Occurrence[] = [];
    let k = 0;
    for (const o of added) {
      const at = places.get(o.file)!;
      while (k < kept.length && places.get(kept[k]!.file)! < at) list.push(kept[k++]!);
      list.push(o);
    }
    while (k < kept.length) list.push(kept[k++]!);
    patched.set(key, list);
  }
  let keys = new KeyIndex(before.keys.base, patched);
  if (patched.size > MAX_PATCHED) {
    const base = new Map(keys.base);
    for (const [key, list] of patched) base.set(key, list);
    keys = new KeyIndex(base, new Map());
  }
  return { index: { byKey: keys, bundleOf: filesOf(tree, places) }, keys };
}

/** Occurrences sharing the symbol of `o` (same key, same family: a concept is no domain). */
export function occurrencesOfSymbol(tree: MethodTree, o: Occurrence): Occurrence[] {
  const family = familyOf(o.kind);
  return (treeIndex(tree).byKey.get(o.key) ?? []).filter((x) => familyOf(x.kind) === family);
}

/** Template reads and direct reads of an input are one symbol. */
export function familyOf(kind: Occurrence['kind']): string {
  return kind === 'template-variable' ? 'input' : kind;
}

/** A declaration to jump to: its name, and the whole declaration (for peek views). */
export interface Target {
  file: string;
  nameRange: Range;
  range: Range;
}

/** Splits `domain.code` (domains may be dotted: the code is the last segment). */
export function splitKey(key: string): { domain?: string; code: string } {
  const dot = key.lastIndexOf('.');
  return dot < 0 ? { code: key } : { domain: key.slice(0, dot), code: key.slice(dot + 1) };
}

export function conceptsOfKey(tree: MethodTree, key: string): ConceptDecl[] {
  const { domain, code } = splitKey(key);
  if (domain !== undefined) return tree.symbols.get(domain)?.concepts.get(code) ?? [];
  return tree.bundles.filter((b) => b.domain === undefined).flatMap((b) => b.concepts.filter((c) => c.code === code));
}

export function pipesOfKey(tree: MethodTree, key: string): PipeDecl[] {
  const { domain, code } = splitKey(key);
  if (domain !== undefined) return tree.symbols.get(domain)?.pipes.get(code) ?? [];
  return tree.bundles.filter((b) => b.domain === undefined).flatMap((b) => b.pipes.filter((p) => p.code === code));
}

/** The pipe and the name of an input or result key (`dom.pipe#name`, `dom.pipe#result:name`). */
export function splitMemberKey(key: string): { pipeKey: string; name: string; result: boolean } | undefined {
  const hash = key.indexOf('#');
  if (hash < 0) return undefined;
  const rest = key.slice(hash + 1);
  const result = rest.startsWith('result:');
  return { pipeKey: key.slice(0, hash), name: result ? rest.slice('result:'.length) : rest, result };
}

/** A key's range without the quotes around a quoted key. */
function nameOf(text: string, range: Range): Range {
  const c = text[range.start];
  return (c === '"' || c === "'") && range.end - range.start >= 2 ? { start: range.start + 1, end: range.end - 1 } : range;
}

function conceptTarget(c: ConceptDecl): Target {
  let range = c.range;
  for (const f of c.structure ?? []) range = { start: Math.min(range.start, f.range.start), end: Math.max(range.end, f.range.end) };
  return { file: c.bundle.file, nameRange: nameOf(c.bundle.doc.text, c.codeRange), range };
}

function pipeTarget(p: PipeDecl): Target {
  return { file: p.bundle.file, nameRange: nameOf(p.bundle.doc.text, p.codeRange), range: p.range };
}

/**
 * Where the symbol under `o` is declared. `definition` prefers a pipe's implementation over its
 * signature, `declaration` the signature; a result goes to the step that stored the value read
 * (the latest storing step before the read).
 */
export function targetsOf(tree: MethodTree, o: Occurrence, mode: 'definition' | 'declaration'): Target[] {
  switch (o.kind) {
    case 'concept':
      return conceptsOfKey(tree, o.key).map(conceptTarget);
    case 'pipe': {
      const pipes = pipesOfKey(tree, o.key);
      const concrete = pipes.filter((p) => !p.typeless);
      const signatures = pipes.filter((p) => p.typeless);
      const preferred = mode === 'definition' ? (concrete.length > 0 ? concrete : signatures) : signatures.length > 0 ? signatures : concrete;
      return preferred.map(pipeTarget);
    }
    case 'input':
    case 'template-variable': {
      const member = splitMemberKey(o.key);
      if (!member) return [];
      const pipes = pipesOfKey(tree, member.pipeKey);
      // The input of the pipe holding the read first (a signature and its implementation share names).
      const own = pipes.filter((p) => p.bundle.file === o.file && p.range.start <= o.range.start && o.range.end <= p.range.end);
      const ordered = [...own, ...pipes.filter((p) => !own.includes(p))];
      const found: Target[] = [];
      for (const p of ordered) {
        for (const input of p.inputs) if (input.name === member.name) found.push({ file: p.bundle.file, nameRange: nameOf(p.bundle.doc.text, input.nameRange), range: input.range });
      }
      return mode === 'definition' ? found.slice(0, 1) : found;
    }
    case 'result': {
      const decls = (treeIndex(tree).byKey.get(o.key) ?? []).filter((x) => x.kind === 'result' && x.role === 'declaration');
      if (o.role === 'declaration') return [{ file: o.file, nameRange: o.range, range: stepAround(tree, o) ?? o.range }];
      const before = decls.filter((d) => d.file === o.file && d.range.start < o.range.start);
      const chosen = before.length > 0 ? [before[before.length - 1]!] : decls.slice(0, 1);
      return chosen.map((d) => ({ file: d.file, nameRange: d.range, range: stepAround(tree, d) ?? d.range }));
    }
    case 'domain': {
      const decls = (treeIndex(tree).byKey.get(o.key) ?? []).filter((x) => x.kind === 'domain' && x.role === 'declaration');
      return decls.map((d) => ({ file: d.file, nameRange: d.range, range: d.range }));
    }
    default:
      return [];
  }
}

/** The range of the step (its inline table) holding an occurrence. */
function stepAround(tree: MethodTree, o: Occurrence): Range | undefined {
  const bundle = treeIndex(tree).bundleOf.get(o.file);
  for (const pipe of bundle?.pipes ?? []) {
    if (o.range.start < pipe.range.start || o.range.end > pipe.range.end) continue;
    const step = pipe.steps.find((s) => s.node.range.start <= o.range.start && o.range.end <= s.node.range.end);
    if (step) return step.node.range;
  }
  return undefined;
}
