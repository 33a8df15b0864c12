// method.optional_marker_invalid: presence markers where the grammar does not allow them.

import type { Bundle, IoRefSite } from '../../language/model.js';
import { stringSliceRange } from '../../language/buildBundle.js';
import { makeFinding, replaceFix, type Finding } from '../finding.js';

export function checkMarkers(bundle: Bundle, out: Finding[]): void {
  for (const pipe of bundle.pipes) {
    for (const input of pipe.inputs) checkSite(bundle, pipe.code, input.ref, input.name, out);
    checkSite(bundle, pipe.code, pipe.output, undefined, out);
  }
}

/** One input (`name`) or the output (no name) of a pipe. */
function checkSite(bundle: Bundle, pipe: string, site: IoRefSite | undefined, input: string | undefined, out: Finding[]): void {
  const io = site?.io;
  if (!site || !io || io.marker === undefined || io.markerStart === undefined) return;
  if (!((site.context === 'output' && io.marker === '!') || io.multiplicity.kind !== 'single')) return;
  const path = input === undefined ? `pipe.${pipe}.output` : `pipe.${pipe}.inputs.${input}`;
  const range = stringSliceRange(site.node, io.markerStart, io.markerStart + 1);
  const remove = replaceFix(`Remove \`${io.marker}\``, bundle.file, range, '');
  out.push(makeFinding('method.optional_marker_invalid', { pipe, field_path: path }, bundle.file, range, { fix: remove }));
}
