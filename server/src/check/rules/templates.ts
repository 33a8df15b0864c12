// method.template_invalid (shorthand placement): `@var` must stand alone on its line.

import { stringSliceRange } from '../../language/buildBundle.js';
import type { Bundle } from '../../language/model.js';
import { findSigilFaults } from '../../language/templates/shorthand.js';
import { templateSites } from '../../language/templates/sites.js';
import { makeFinding, replaceFix, type Finding } from '../finding.js';

export function checkTemplateShorthands(bundle: Bundle, out: Finding[]): void {
  for (const pipe of bundle.pipes) {
    const inputs = new Set(pipe.inputs.map((i) => i.name));
    if (inputs.size === 0) continue;
    for (const site of templateSites(pipe).sites) {
      if (!site.shorthands || !site.node.value.includes('@')) continue;
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
