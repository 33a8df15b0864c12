// The warning method.optional_force_redundant: a `!` input asserts presence, which only matters
// where a caller may hand it a maybe-absent value. When no flow of the tree can (every caller
// passes a value that is always there, or nothing calls the pipe), the marker asserts nothing.

import type { PipeDecl } from '../../language/model.js';
import { resolvePipe } from '../../language/tree.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';
import { stringSliceRange } from '../../language/buildBundle.js';

export function checkForceMarkers(ctx: CheckContext): void {
  // Names that may be absent where a controller calls a pipe: its own `?` inputs and the results
  // of steps whose pipe may produce nothing.
  const mayBeAbsent = new Map<PipeDecl, Set<string>>();
  const targets: PipeDecl[] = [];
  for (const bundle of ctx.tree.bundles) {
    for (const caller of bundle.pipes) {
      if (caller.spec?.kind !== 'controller') continue;
      const names = new Set<string>();
      for (const i of caller.inputs) if (i.ref?.io?.marker === '?') names.add(i.name);
      targets.length = 0;
      for (const site of caller.pipeRefs) {
        if (!site.ref) continue;
        const target = resolvePipe(ctx.tree, caller.bundle, site.ref);
        if (target.kind !== 'pipe') continue;
        targets.push(target.decl);
        if (target.decl.output?.io?.marker !== '?') continue;
        const step = caller.steps.find((s) => s.pipe === site);
        if (step?.result) names.add(step.result.value);
      }
      if (caller.spec.name === 'PipeCondition' && caller.pipeRefs.some((s) => s.special && s.raw === 'continue')) names.add(caller.code);
      // An empty set and no set read alike.
      if (names.size === 0) continue;
      for (const target of targets) {
        let set = mayBeAbsent.get(target);
        if (!set) mayBeAbsent.set(target, (set = new Set()));
        for (const n of names) set.add(n);
      }
    }
  }
  for (const bundle of ctx.tree.bundles) {
    for (const pipe of bundle.pipes) {
      for (const input of pipe.inputs) {
        const io = input.ref?.io;
        if (io?.marker !== '!' || io.markerStart === undefined) continue;
        if (mayBeAbsent.get(pipe)?.has(input.name)) continue;
        const range = stringSliceRange(input.ref!.node, io.markerStart, io.markerStart + 1);
        ctx.out.push(makeFinding('method.optional_force_redundant', { pipe: pipe.code, input: input.name }, pipe.bundle.file, range, { fix: { title: 'Remove the redundant `!`', edits: [{ file: pipe.bundle.file, range, newText: '' }], safe: true } }));
      }
    }
  }
}
