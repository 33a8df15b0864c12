// method.syntax: TOML errors of a file, and reference strings that do not parse.

import type { Bundle } from '../../language/model.js';
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
    if (concept.refines?.parseError) report(`refines: ${concept.refines.parseError.message}`, concept.refines.parseError.range);
    for (const field of concept.structure ?? []) {
      for (const site of [field.conceptRef, field.itemConceptRef]) if (site?.parseError) report(`${field.name}: ${site.parseError.message}`, site.parseError.range);
    }
  }
}
