// method.concept_unresolved, method.pipe_unresolved and the main_pipe rules: every reference of a
// bundle resolved within its tree, with the likeliest corrections as fixes.

import type { Bundle, ConceptRefSite, PipeRefSite, StructureField } from '../../language/model.js';
import { formatRef, isConceptCode } from '../../language/references.js';
import { stringSliceRange } from '../../language/buildBundle.js';
import { RETIRED_NATIVES } from '../../language/spec/natives.js';
import { findInDependencies, resolveConcept, resolvePipe, type MethodTree, resolveDependency } from '../../language/tree.js';
import { splitNameIndexes } from '../../language/visibleNames.js';
import { suggest } from '../../util/suggest.js';
import { suggestKeptSplit } from '../../util/keptSuggestions.js';
import type { CheckContext } from '../context.js';
import { makeFinding, replaceFix, suggestionFixes } from '../finding.js';
import type { Range } from '../../syntax/types.js';

export function checkReferences(ctx: CheckContext, bundle: Bundle): void {
  // A bare code found in several dependencies (and not at home): the author must say which.
  const reportAmbiguous = (written: string, candidates: string[], range: Range): void => {
    const fixes = candidates.map((c) => replaceFix(`Replace with \`${c}\``, bundle.file, range, c));
    ctx.out.push(makeFinding('method.ref_ambiguous', { ref: written, candidates }, bundle.file, range, { alternatives: fixes }));
  };
  // The candidates of a reference through a dependency are listed; the tree's own come indexed.
  const near = (written: string, prefix: string | undefined, kind: 'concepts' | 'pipes'): string[] =>
    prefix !== undefined ? suggest(written, dependencyCodes(ctx.tree, bundle, prefix, kind)) : suggestKeptSplit(written, splitNameIndexes(ctx.tree, bundle, kind, written), `${kind} ${bundle.domain?.value ?? ''}`, `${kind} *`);
  const checkConcept = (site: ConceptRefSite | undefined): void => {
    if (!site?.ref) return;
    const ref = site.ref;
    const resolution = isConceptCode(ref.code) ? resolveConcept(ctx.tree, bundle, ref) : { kind: 'unresolved' as const };
    if (resolution.kind !== 'unresolved') return;
    const written = formatRef(ref);
    const range = stringSliceRange(site.node, ref.refStart, ref.refEnd);
    const elsewhere = ref.prefix === undefined && ref.domain === undefined ? findInDependencies(ctx.tree, bundle, ref.code, 'concepts').map((c) => c.qualified) : [];
    if (elsewhere.length > 1) return reportAmbiguous(written, elsewhere, range);
    const replacement = (ref.prefix === undefined && ref.domain === undefined ? RETIRED_NATIVES[ref.code] : undefined) ?? elsewhere[0];
    const close = near(written, ref.prefix, 'concepts');
    const suggestions = replacement ? [replacement, ...close.filter((s) => s !== replacement)] : close;
    const fixes = suggestions.map((s) => replaceFix(`Replace with \`${s}\``, bundle.file, range, s));
    ctx.out.push(makeFinding('method.concept_unresolved', { concept: written, suggestions }, bundle.file, range, suggestionFixes(fixes)));
  };

  for (const concept of bundle.concepts) {
    checkConcept(concept.refines);
    for (const field of concept.structure ?? []) {
      checkConcept(field.conceptRef);
      if (field.itemConceptRef?.context === 'item_type') checkItemTypeConcept(ctx, bundle, concept.code, field);
      else checkConcept(field.itemConceptRef);
    }
  }
  const checkPipe = (owner: string, site: PipeRefSite): void => {
    if (site.special || !site.ref) return;
    if (resolvePipe(ctx.tree, bundle, site.ref).kind !== 'unresolved') return;
    const written = formatRef(site.ref);
    const range = stringSliceRange(site.node, site.ref.refStart, site.ref.refEnd);
    const elsewhere = site.ref.prefix === undefined && site.ref.domain === undefined ? findInDependencies(ctx.tree, bundle, site.ref.code, 'pipes').map((c) => c.qualified) : [];
    if (elsewhere.length > 1) return reportAmbiguous(written, elsewhere, range);
    const close = near(written, site.ref.prefix, 'pipes');
    const candidates = elsewhere.length === 1 ? [elsewhere[0]!, ...close] : close;
    const fixes = candidates.map((c) => replaceFix(`Replace with \`${c}\``, bundle.file, range, c));
    ctx.out.push(makeFinding('method.pipe_unresolved', { pipe: owner, missing: written, candidates }, bundle.file, range, suggestionFixes(fixes)));
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
    ctx.out.push(makeFinding('method.pipe_unresolved', { pipe: main.value, missing: main.value, candidates }, bundle.file, main.range, suggestionFixes(fixes)));
  }
}

/**
 * `item_type = "Stop"` naming a concept: the runtime reads it as `item_type = "concept"` with
 * `item_concept_ref = "Stop"` (a warning whose fix writes that form); naming nothing is an error.
 */
function checkItemTypeConcept(ctx: CheckContext, bundle: Bundle, concept: string, field: StructureField): void {
  const site = field.itemConceptRef!;
  const node = site.node;
  if (resolveConcept(ctx.tree, bundle, site.ref!).kind === 'unresolved') {
    ctx.out.push(makeFinding('method.concept_invalid', { concept, finding: `field \`${field.name}\`: "${site.raw}" is neither an item type nor a concept that resolves` }, bundle.file, node.range));
    return;
  }
  const separator = field.table?.origin === 'inline' ? ', ' : '\n';
  const fix = replaceFix(`Write \`item_type = "concept"\` with \`item_concept_ref = "${site.raw}"\``, bundle.file, node.range, `"concept"${separator}item_concept_ref = ${JSON.stringify(site.raw)}`);
  const f = makeFinding('method.concept_invalid', { concept, finding: `field \`${field.name}\`: \`item_type = "${site.raw}"\` names a concept; write \`item_type = "concept"\` with \`item_concept_ref = "${site.raw}"\`` }, bundle.file, node.range, { fix, severity: 'warning' });
  ctx.out.push(f);
}

/** The codes of a loaded dependency, qualified the way a reference through it is written. */
function dependencyCodes(tree: MethodTree, from: Bundle, prefix: string, kind: 'concepts' | 'pipes'): string[] {
  const dep = resolveDependency(tree, from, prefix);
  if (!dep) return [];
  return [...dep.tree.symbols].flatMap(([domain, table]) => [...table[kind].keys()].map((code) => `${prefix}->${domain}.${code}`));
}
