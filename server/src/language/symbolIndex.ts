// The occurrences of a whole method tree by key, and where each symbol is declared: what
// definition, references, highlight and rename read. Built once per tree (a tree object is rebuilt
// at each check, and each bundle's occurrences are cached, so this is a cheap regrouping).

import type { Range } from '../syntax/types.js';
import type { Bundle, ConceptDecl, PipeDecl } from './model.js';
import { occurrencesOf, type Occurrence } from './occurrences.js';
import type { MethodTree } from './tree.js';

export interface TreeIndex {
  byKey: ReadonlyMap<string, readonly Occurrence[]>;
  bundleOf: ReadonlyMap<string, Bundle>;
}

const indexes = new WeakMap<MethodTree, TreeIndex>();

export function treeIndex(tree: MethodTree): TreeIndex {
  let index = indexes.get(tree);
  if (index) return index;
  const byKey = new Map<string, Occurrence[]>();
  const bundleOf = new Map<string, Bundle>();
  for (const bundle of tree.bundles) {
    bundleOf.set(bundle.file, bundle);
    for (const o of occurrencesOf(tree, bundle)) {
      const list = byKey.get(o.key);
      if (list) list.push(o);
      else byKey.set(o.key, [o]);
    }
  }
  index = { byKey, bundleOf };
  indexes.set(tree, index);
  return index;
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
