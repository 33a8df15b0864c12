// The warning method.optional_force_redundant: a `!` input asserts presence, which only matters
// where a caller may hand it a maybe-absent value. When no flow of the tree can (every caller
// passes a value that is always there, or nothing calls the pipe), the marker asserts nothing.

import type { Bundle, PipeDecl } from '../../language/model.js';
import { resolvePipe, type MethodTree } from '../../language/tree.js';
import { makeFinding, type Finding } from '../finding.js';
import { stringSliceRange } from '../../language/buildBundle.js';

/**
 * What the controllers of one bundle may hand their callees absent: for each call, the callee and
 * the names (the controller's own `?` inputs and the results of steps whose pipe may produce
 * nothing), in order.
 */
export function absentHandOffs(tree: MethodTree, bundle: Bundle): Array<{ target: PipeDecl; names: Set<string> }> {
  const out: Array<{ target: PipeDecl; names: Set<string> }> = [];
  const targets: PipeDecl[] = [];
  for (const caller of bundle.pipes) {
    if (caller.spec?.kind !== 'controller') continue;
    const names = new Set<string>();
    for (const i of caller.inputs) if (i.ref?.io?.marker === '?') names.add(i.name);
    targets.length = 0;
    for (const site of caller.pipeRefs) {
      if (!site.ref) continue;
      const target = resolvePipe(tree, caller.bundle, site.ref);
      if (target.kind !== 'pipe') continue;
      targets.push(target.decl);
      if (target.decl.output?.io?.marker !== '?') continue;
      const step = caller.steps.find((s) => s.pipe === site);
      if (step?.result) names.add(step.result.value);
    }
    if (caller.spec.name === 'PipeCondition' && caller.pipeRefs.some((s) => s.special && s.raw === 'continue')) names.add(caller.code);
    // An empty set and no set read alike.
    if (names.size === 0) continue;
    for (const target of targets) out.push({ target, names });
  }
  return out;
}

/** The redundant markers of one bundle, given what may be absent for each of its pipes. */
export function redundantForceMarkers(bundle: Bundle, mayBeAbsent: (pipe: PipeDecl, index: number) => { has(name: string): boolean } | undefined, out: Finding[]): void {
  bundle.pipes.forEach((pipe, index) => {
    for (const input of pipe.inputs) {
      const io = input.ref?.io;
      if (io?.marker !== '!' || io.markerStart === undefined) continue;
      if (mayBeAbsent(pipe, index)?.has(input.name)) continue;
      const range = stringSliceRange(input.ref!.node, io.markerStart, io.markerStart + 1);
      out.push(makeFinding('method.optional_force_redundant', { pipe: pipe.code, input: input.name }, pipe.bundle.file, range, { fix: { title: 'Remove the redundant `!`', edits: [{ file: pipe.bundle.file, range, newText: '' }], safe: true } }));
    }
  });
}

export function pipeKey(pipe: PipeDecl, index: number): string {
  return `${pipe.bundle.file}#${index}`;
}
