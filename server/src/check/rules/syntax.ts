// method.syntax: TOML errors of a file, and reference strings that do not parse.

import type { Bundle, ConceptRefSite } from '../../language/model.js';
import type { TomlDocument } from '../../syntax/types.js';
import { makeFinding, type Finding } from '../finding.js';

export function checkTomlSyntax(file: string, doc: TomlDocument, out: Finding[]): void {
  for (const error of doc.errors) {
    out.push(makeFinding('method.syntax', { finding: error.message }, file, error.range));
  }
}

/** Concept and pipe references whose text is not a reference at all. */
export function checkReferenceSyntax(bundle: Bundle, out: Finding[]): void {
  const report = (message: string, range: { start: number; end: number }): void => {
    out.push(makeFinding('method.syntax', { finding: message }, bundle.file, range));
  };
  for (const pipe of bundle.pipes) {
    for (const input of pipe.inputs) if (input.ref?.parseError) report(`input \`${input.name}\`: ${input.ref.parseError.message}`, input.ref.parseError.range);
    if (pipe.output?.parseError) report(`output: ${pipe.output.parseError.message}`, pipe.output.parseError.range);
    for (const site of pipe.pipeRefs) if (site.parseError) report(`pipe reference "${site.raw}": ${site.parseError.message}`, site.parseError.range);
  }
  for (const concept of bundle.concepts) {
    checkConceptSite(bundle, concept.code, concept.refines, undefined, 'refines', out);
    for (const f of concept.structure ?? []) {
      checkConceptSite(bundle, concept.code, f.conceptRef, f.name, 'concept_ref', out);
      checkConceptSite(bundle, concept.code, f.itemConceptRef, f.name, 'item_concept_ref', out);
    }
  }
}

function checkConceptSite(bundle: Bundle, concept: string, site: ConceptRefSite | undefined, field: string | undefined, key: string, out: Finding[]): void {
  if (!site?.parseError) return;
  const path = field === undefined ? `concept.${concept}.${key}` : `concept.${concept}.structure.${field}.${key}`;
  // Presence markers and multiplicities belong to inputs and outputs only.
  if (/[?!\]]$/.test(site.raw)) out.push(makeFinding('method.optional_marker_invalid', { pipe: concept, field_path: path }, bundle.file, site.node.range));
  else out.push(makeFinding('method.syntax', { finding: `${path}: ${site.parseError.message}` }, bundle.file, site.parseError.range));
}
