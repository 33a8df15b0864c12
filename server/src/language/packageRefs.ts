// The references of a bundle written through another package: `alias->domain.Code` or
// `github.com/org/repo->domain.Code` (inputs, outputs, pipe references, refines and structure
// fields), with the range of the prefix. Read by the package rules and by dependency loading,
// once per bundle object.

import { stringSliceRange } from './buildBundle.js';
import type { Bundle } from './model.js';
import type { LString, Range } from '../syntax/types.js';
import { ObjectCache } from '../util/objectCache.js';

export interface PrefixedRef {
  /** The alias or address before `->`. */
  prefix: string;
  /** The range of the prefix in the document. */
  range: Range;
}

const cache = new ObjectCache<Bundle, readonly PrefixedRef[]>('cache');

export function prefixedRefs(bundle: Bundle): readonly PrefixedRef[] {
  let out = cache.get(bundle);
  if (out) return out;
  const list: PrefixedRef[] = [];
  const add = (site: { node: LString; ref?: { prefix?: string; refStart: number } | undefined } | undefined): void => {
    const prefix = site?.ref?.prefix;
    if (site?.ref && prefix !== undefined) list.push({ prefix, range: stringSliceRange(site.node, site.ref.refStart, site.ref.refStart + prefix.length) });
  };
  for (const pipe of bundle.pipes) {
    for (const input of pipe.inputs) add(input.ref);
    add(pipe.output);
    for (const site of pipe.pipeRefs) add(site);
  }
  for (const concept of bundle.concepts) {
    add(concept.refines);
    for (const f of concept.structure ?? []) {
      add(f.conceptRef);
      add(f.itemConceptRef);
    }
  }
  out = list;
  cache.set(bundle, out);
  return out;
}
