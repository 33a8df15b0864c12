// method.template_invalid (shorthand placement): `@var` must stand alone on its line.

import { stringSliceRange } from '../../language/buildBundle.js';
import type { Bundle, InputDecl } from '../../language/model.js';
import { findSigilFaults } from '../../language/templates/shorthand.js';
import { templateSites } from '../../language/templates/sites.js';
import { makeFinding, replaceFix, type Finding } from '../finding.js';

export function checkTemplateShorthands(bundle: Bundle, out: Finding[]): void {
  for (const pipe of bundle.pipes) {
    if (pipe.inputs.length === 0) continue;
    let inputs: InputNames | undefined;
    for (const site of templateSites(pipe).sites) {
      if (!site.shorthands || !site.node.value.includes('@')) continue;
      inputs ??= new InputNames(pipe.inputs);
      for (const fault of findSigilFaults(site.node.value, inputs)) {
        const range = stringSliceRange(site.node, fault.start, fault.end);
        const finding =
          fault.kind === 'inline'
            ? `inline \`${fault.sigil}${fault.path}\` is not allowed: use \`$${fault.path}\` inline, or put \`${fault.sigil}${fault.path}\` alone on its line`
            : `\`${fault.sigil}${fault.path}\` is padded with non-ASCII white space; only spaces and tabs may surround it on its line`;
        const fix = fault.kind === 'inline' && fault.sigil === '@' ? replaceFix(`Write \`$${fault.path}\``, bundle.file, range, `$${fault.path}`, false) : undefined;
        out.push(makeFinding('method.template_invalid', { pipe: pipe.code, template: site.field, finding }, bundle.file, range, fix ? { fix } : {}));
      }
    }
  }
}

/** The input names of a pipe, as a set (inputs are few: a scan beats building a Set). */
class InputNames {
  constructor(private readonly inputs: readonly InputDecl[]) {}

  has(name: string): boolean {
    for (const input of this.inputs) if (input.name === name) return true;
    return false;
  }
}
