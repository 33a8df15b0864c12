// Inlay hints: after each step's `result = "x"` the concept the step stores there (`: Summary[]`),
// and after each template variable read the concept (or field type) it reads.

import type { Range } from '../syntax/types.js';
import { fieldTypeLabel, typedLabel, walkFields } from '../language/fieldPaths.js';
import type { Bundle } from '../language/model.js';
import { inputTypes, stepResults } from '../language/stepTypes.js';
import { templateReads } from './templateReads.js';
import type { MethodTree } from '../language/tree.js';

export interface Inlay {
  /** Where the hint sits (right after the text it describes). */
  offset: number;
  label: string;
  tooltip: string;
  what: 'result' | 'read';
}

function overlaps(a: Range, b: Range): boolean {
  return a.start <= b.end && b.start <= a.end;
}

export function inlaysOf(tree: MethodTree, bundle: Bundle, range: Range): Inlay[] {
  const out: Inlay[] = [];
  const domain = bundle.domain?.value;
  for (const pipe of bundle.pipes) {
    if (!overlaps(pipe.range, range)) continue;
    if (pipe.steps.length > 0) {
      const results = stepResults(tree, pipe);
      for (const step of pipe.steps) {
        const value = results.get(step);
        if (!step.result || !value || !overlaps(step.result.range, range)) continue;
        const label = typedLabel(value, domain);
        out.push({ offset: step.result.range.end, label: `: ${label}`, tooltip: `\`${step.result.value}\` holds \`${label}\``, what: 'result' });
      }
    }
    const reads = templateReads(pipe);
    if (reads.length === 0) continue;
    const inputs = inputTypes(tree, pipe);
    for (const read of reads) {
      if (!read.input || !overlaps(read.range, range)) continue;
      const root = inputs.get(read.path[0]!);
      if (!root) continue;
      let label: string;
      if (read.path.length === 1) label = typedLabel(root, domain);
      else {
        if (root.multiplicity.kind !== 'single') continue;
        const walked = walkFields(tree, root.concept, read.path.slice(1));
        if (walked.failedAt !== undefined || !walked.field) continue;
        label = fieldTypeLabel(walked.field, domain);
      }
      out.push({ offset: read.range.end, label: `: ${label}`, tooltip: `\`${read.path.join('.')}\` reads \`${label}\``, what: 'read' });
    }
  }
  return out.sort((a, b) => a.offset - b.offset);
}
