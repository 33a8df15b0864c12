// How the files of a method tree are named to the user: relative to the tree's root, with `/`
// whatever the system (descriptions in hover and completion, `concepts.mthds:12`).

import path from 'node:path';
import type { MethodTree } from './tree.js';

/** A file of the tree by its path from the tree's root, else (no root, an untitled buffer) by its name. */
export function fileInTree(tree: MethodTree, file: string): string {
  return tree.root !== '' && path.isAbsolute(file) ? path.relative(tree.root, file).split(path.sep).join('/') : path.basename(file);
}

/** The last part of a file's path. */
export function fileName(file: string): string {
  return path.basename(file);
}
