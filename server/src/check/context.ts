// What every rule receives: the tree under check and the place to put findings.

import type { MethodTree } from '../language/tree.js';
import type { Finding } from './finding.js';

export interface CheckContext {
  tree: MethodTree;
  out: Finding[];
}
