// Who calls whom among pipes, and which pipes implement a signature: the language side of the call
// hierarchy and of go-to-implementation. A controller calls the pipes its steps, branches,
// outcomes and batch name; a call may cross bundles, domains and packages (a dependency's pipes
// are resolved in the dependency, by the same resolution the checks use).
//
// A pipe is known by its package and namespaced ref, so that a signature and its implementation
// are one pipe to the hierarchy (the implementation is shown, as definition does).

import type { Range } from '../syntax/types.js';
import type { PipeDecl, PipeRefSite } from '../language/model.js';
import { occurrenceAt } from './occurrences.js';
import { pipesOfKey } from './symbolIndex.js';
import { resolvePipe, treeOfBundle, type MethodTree } from '../language/tree.js';
import type { Bundle } from '../language/model.js';

/** One call: the callee (or caller) and where in the caller's file the calls are written. */
export interface PipeCall {
  pipe: PipeDecl;
  /** Ranges in the caller's file. */
  ranges: Range[];
}

function treeOf(tree: MethodTree, pipe: PipeDecl): MethodTree {
  return treeOfBundle(pipe.bundle) ?? tree;
}

/** The identity of a pipe for the hierarchy: its package's root and its namespaced ref. */
export function pipeIdentity(tree: MethodTree, pipe: PipeDecl): string {
  const domain = pipe.bundle.domain?.value;
  return `${treeOf(tree, pipe).root}\u0000${domain === undefined ? pipe.code : `${domain}.${pipe.code}`}`;
}

/** The implementation of a pipe, when it is a signature that has one; else the pipe itself. */
function preferred(tree: MethodTree, pipe: PipeDecl): PipeDecl {
  if (!pipe.typeless) return pipe;
  const domain = pipe.bundle.domain?.value;
  const same = domain === undefined ? [] : (treeOf(tree, pipe).symbols.get(domain)?.pipes.get(pipe.code) ?? []);
  return same.find((p) => !p.typeless) ?? pipe;
}

/** The pipe whose declaration or reference is at `offset` (the implementation for a signature). */
export function pipeAt(tree: MethodTree, bundle: Bundle, offset: number): PipeDecl | undefined {
  const o = occurrenceAt(tree, bundle, offset);
  if (!o || o.kind !== 'pipe') return undefined;
  if (o.role === 'declaration') {
    const own = bundle.pipes.find((p) => p.codeRange.start <= offset && offset <= p.codeRange.end);
    if (own) return preferred(tree, own);
  }
  // A reference: resolved as the checks resolve it (into a dependency too).
  const site = siteAt(bundle, offset);
  if (site?.ref) {
    const r = resolvePipe(tree, bundle, site.ref);
    if (r.kind === 'pipe') return preferred(tree, r.decl);
  }
  const decls = pipesOfKey(tree, o.key);
  return decls.length > 0 ? preferred(tree, decls.find((p) => !p.typeless) ?? decls[0]!) : undefined;
}

function siteAt(bundle: Bundle, offset: number): PipeRefSite | undefined {
  for (const p of bundle.pipes) for (const s of p.pipeRefs) if (s.node.range.start <= offset && offset <= s.node.range.end) return s;
  return undefined;
}

/** The pipes a call site names, resolved from the caller's own package. */
function callee(tree: MethodTree, caller: PipeDecl, site: PipeRefSite): PipeDecl | undefined {
  if (site.special || site.context === 'main_pipe' || !site.ref) return undefined;
  const r = resolvePipe(treeOf(tree, caller), caller.bundle, site.ref);
  return r.kind === 'pipe' ? preferred(tree, r.decl) : undefined;
}

/** What a pipe calls, grouped by callee in the order first called. */
export function outgoingCalls(tree: MethodTree, pipe: PipeDecl): PipeCall[] {
  const byCallee = new Map<string, PipeCall>();
  for (const site of pipe.pipeRefs) {
    const target = callee(tree, pipe, site);
    if (!target) continue;
    const id = pipeIdentity(tree, target);
    const call = byCallee.get(id);
    if (call) call.ranges.push(site.node.range);
    else byCallee.set(id, { pipe: target, ranges: [site.node.range] });
  }
  return [...byCallee.values()];
}

/** The bundles whose pipes may call into the tree: its own, and its dependencies' (each in its package). */
function searchedBundles(tree: MethodTree): Bundle[] {
  const out: Bundle[] = [...tree.bundles];
  const seen = new Set<MethodTree>([tree]);
  for (const dep of tree.dependencies?.values() ?? []) {
    if (seen.has(dep.tree)) continue;
    seen.add(dep.tree);
    out.push(...dep.tree.bundles);
  }
  return out;
}

/** Who calls a pipe, over the tree and its dependencies, grouped by caller. */
export function incomingCalls(tree: MethodTree, pipe: PipeDecl): PipeCall[] {
  const wanted = pipeIdentity(tree, pipe);
  const out: PipeCall[] = [];
  for (const bundle of searchedBundles(tree)) {
    for (const caller of bundle.pipes) {
      const ranges = caller.pipeRefs.filter((site) => {
        const target = callee(tree, caller, site);
        return target !== undefined && pipeIdentity(tree, target) === wanted;
      });
      if (ranges.length > 0) out.push({ pipe: caller, ranges: ranges.map((s) => s.node.range) });
    }
  }
  return out;
}

/**
 * Go to implementation: from a signature (its declaration, or a reference to a pipe that has one)
 * to the pipes that implement it; from an implementation's declaration back to its signatures.
 */
export function implementationsAt(tree: MethodTree, bundle: Bundle, offset: number): PipeDecl[] {
  const o = occurrenceAt(tree, bundle, offset);
  if (!o || o.kind !== 'pipe') return [];
  const own = o.role === 'declaration' ? bundle.pipes.find((p) => p.codeRange.start <= offset && offset <= p.codeRange.end) : undefined;
  let decls: readonly PipeDecl[];
  if (own) {
    const domain = own.bundle.domain?.value;
    decls = domain === undefined ? [own] : (treeOf(tree, own).symbols.get(domain)?.pipes.get(own.code) ?? [own]);
    if (!own.typeless) return decls.filter((p) => p.typeless);
  } else {
    const site = siteAt(bundle, offset);
    const r = site?.ref ? resolvePipe(tree, bundle, site.ref) : undefined;
    const target = r?.kind === 'pipe' ? r.decl : pipesOfKey(tree, o.key)[0];
    const domain = target?.bundle.domain?.value;
    decls = target && domain !== undefined ? (treeOf(tree, target).symbols.get(domain)?.pipes.get(target.code) ?? [target]) : [];
  }
  return decls.filter((p) => !p.typeless);
}
