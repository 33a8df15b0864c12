// method.concept_unresolved, method.pipe_unresolved and the main_pipe rules: every reference of a
// bundle resolved within its tree, with the likeliest corrections as fixes.

import type { Bundle, ConceptRefSite, PipeRefSite } from '../../language/model.js';
import { formatRef, isConceptCode } from '../../language/references.js';
import { stringSliceRange } from '../../language/buildBundle.js';
import { NATIVE_CONCEPTS, RETIRED_NATIVES } from '../../language/spec/natives.js';
import { resolveConcept, resolvePipe, visibleConceptCodes, visiblePipeCodes } from '../../language/tree.js';
import { suggest } from '../../util/suggest.js';
import type { CheckContext } from '../context.js';
import { makeFinding, replaceFix, type Fix } from '../finding.js';

export function checkReferences(ctx: CheckContext, bundle: Bundle): void {
  const conceptCandidates = (): string[] => [...NATIVE_CONCEPTS.map((c) => c.code), ...visibleConceptCodes(ctx.tree, bundle)];
  let conceptPool: string[] | undefined;
  const checkConcept = (site: ConceptRefSite | undefined): void => {
    if (!site?.ref) return;
    const ref = site.ref;
    const resolution = isConceptCode(ref.code) ? resolveConcept(ctx.tree, bundle, ref) : { kind: 'unresolved' as const };
    if (resolution.kind !== 'unresolved') return;
    conceptPool ??= conceptCandidates();
    const written = formatRef(ref);
    const replacement = ref.prefix === undefined && ref.domain === undefined ? RETIRED_NATIVES[ref.code] : undefined;
    const suggestions = replacement ? [replacement, ...suggest(written, conceptPool).filter((s) => s !== replacement)] : suggest(written, conceptPool);
    const range = stringSliceRange(site.node, ref.refStart, ref.refEnd);
    const fixes = suggestions.map((s) => replaceFix(`Replace with \`${s}\``, bundle.file, range, s));
    ctx.out.push(makeFinding('method.concept_unresolved', { concept: written, suggestions }, bundle.file, range, withFixes(fixes)));
  };

  for (const concept of bundle.concepts) {
    checkConcept(concept.refines);
    for (const field of concept.structure ?? []) {
      checkConcept(field.conceptRef);
      checkConcept(field.itemConceptRef);
    }
  }
  let pipePool: string[] | undefined;
  const checkPipe = (owner: string, site: PipeRefSite): void => {
    if (site.special || !site.ref) return;
    if (resolvePipe(ctx.tree, bundle, site.ref).kind !== 'unresolved') return;
    pipePool ??= visiblePipeCodes(ctx.tree, bundle);
    const written = formatRef(site.ref);
    const candidates = suggest(written, pipePool);
    const range = stringSliceRange(site.node, site.ref.refStart, site.ref.refEnd);
    const fixes = candidates.map((c) => replaceFix(`Replace with \`${c}\``, bundle.file, range, c));
    ctx.out.push(makeFinding('method.pipe_unresolved', { pipe: owner, missing: written, candidates }, bundle.file, range, withFixes(fixes)));
  };
  for (const pipe of bundle.pipes) {
    for (const input of pipe.inputs) checkConcept(input.ref);
    checkConcept(pipe.output);
    for (const site of pipe.pipeRefs) checkPipe(pipe.code, site);
  }
  // The bundle's main_pipe must be a pipe of this very bundle.
  const main = bundle.mainPipe;
  if (main && main.value !== '' && !bundle.pipes.some((p) => p.code === main.value)) {
    const candidates = suggest(main.value, bundle.pipes.map((p) => p.code));
    const fixes = candidates.map((c) => replaceFix(`Replace with \`${c}\``, bundle.file, main.range, JSON.stringify(c)));
    ctx.out.push(makeFinding('method.pipe_unresolved', { pipe: main.value, missing: main.value, candidates }, bundle.file, main.range, withFixes(fixes)));
  }
}

function withFixes(fixes: Fix[]): { fix?: Fix; alternatives?: Fix[] } {
  if (fixes.length === 0) return {};
  // Only a lone suggestion is an obvious repair; several are offered as alternatives.
  return fixes.length === 1 ? { fix: { ...fixes[0]!, safe: false }, alternatives: fixes } : { alternatives: fixes };
}
