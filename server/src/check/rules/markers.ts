// method.optional_marker_invalid: presence markers where the grammar does not allow them.

import type { Bundle } from '../../language/model.js';
import { stringSliceRange } from '../../language/buildBundle.js';
import { makeFinding, replaceFix, type Finding } from '../finding.js';

export function checkMarkers(bundle: Bundle, out: Finding[]): void {
  for (const pipe of bundle.pipes) {
    const sites = [...pipe.inputs.map((i) => ({ site: i.ref, path: `pipe.${pipe.code}.inputs.${i.name}` })), { site: pipe.output, path: `pipe.${pipe.code}.output` }];
    for (const { site, path } of sites) {
      const io = site?.io;
      if (!site || !io || io.marker === undefined || io.markerStart === undefined) continue;
      const range = stringSliceRange(site.node, io.markerStart, io.markerStart + 1);
      const remove = replaceFix(`Remove \`${io.marker}\``, bundle.file, range, '');
      if (site.context === 'output' && io.marker === '!') {
        out.push(makeFinding('method.optional_marker_invalid', { pipe: pipe.code, field_path: path }, bundle.file, range, { fix: remove }));
      } else if (io.multiplicity.kind !== 'single') {
        out.push(makeFinding('method.optional_marker_invalid', { pipe: pipe.code, field_path: path }, bundle.file, range, { fix: remove }));
      }
    }
  }
}
