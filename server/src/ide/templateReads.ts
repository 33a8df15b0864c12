// The variable reads of a pipe's templates, located in the bundle's text (not in the decoded
// string), with the input each one reads. One analysis per pipe declaration, shared by hover and
// inlay hints; the checks run their own pass with guards and faults (check/rules/templateInputs.ts).

import { stringSliceRange } from '../language/buildBundle.js';
import type { InputDecl, PipeDecl } from '../language/model.js';
import { analyzeTemplate } from '../language/templates/analyze.js';
import { templateSites } from '../language/templates/sites.js';
import type { LString, Range } from '../syntax/types.js';
import { ObjectCache } from '../util/objectCache.js';

export interface SourceRead {
  /** The attribute chain, root first: `invoice.total` → ['invoice', 'total']. */
  path: string[];
  /** The read as written (sigil or Jinja expression), in the bundle's text. */
  range: Range;
  /** The root name alone, in the bundle's text. */
  rootRange: Range;
  /** The declared input it reads, when there is one. */
  input?: InputDecl;
  node: LString;
  /** The template field (`prompt`, `template`, `construct field 'a'`...). */
  field: string;
}

const cache = new ObjectCache<PipeDecl, readonly SourceRead[]>('cache');

/** Every variable read of the pipe's templates, in source order (templates that do not parse give none). */
export function templateReads(pipe: PipeDecl): readonly SourceRead[] {
  let found = cache.get(pipe);
  if (found) return found;
  const inputs = new Map(pipe.inputs.map((i) => [i.name, i]));
  const out: SourceRead[] = [];
  for (const site of templateSites(pipe).sites) {
    const analysis = analyzeTemplate(site.node.value, site);
    for (const r of analysis.reads) {
      const root = r.path[0]!;
      // The root sits right after the sigil (`$x`, `@x`, `@?x`), or where the expression begins.
      const rootStart = r.start + (r.sigil?.length ?? 0);
      const read: SourceRead = {
        path: r.path,
        range: stringSliceRange(site.node, r.start, r.end),
        rootRange: stringSliceRange(site.node, rootStart, rootStart + root.length),
        node: site.node,
        field: site.field,
      };
      const input = inputs.get(root);
      if (input) read.input = input;
      out.push(read);
    }
  }
  out.sort((a, b) => a.range.start - b.range.start);
  found = out;
  cache.set(pipe, found);
  return found;
}

/** The read whose text holds `offset` (ends inclusive), if any. */
export function readAt(pipe: PipeDecl, offset: number): SourceRead | undefined {
  return templateReads(pipe).find((r) => r.range.start <= offset && offset <= r.range.end);
}
