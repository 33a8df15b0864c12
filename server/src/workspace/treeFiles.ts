// Reading a file of a method tree from disk by its path from the root, for checks that look at
// files other than bundles and the manifest (requirements.txt). Only files the tree lists are read:
// nothing outside the tree, no symbolic links (the walker does not list them).

import path from 'node:path';
import type { MethodTree } from '../language/tree.js';
import type { FileSystem } from './fileSystem.js';

export function treeFileReader(fs: FileSystem, tree: MethodTree, onRead?: (file: string, text: string) => void): (rel: string) => { file: string; text: string } | undefined {
  return (rel) => {
    if (!tree.files.has(rel)) return undefined;
    const file = path.join(tree.root, ...rel.split('/'));
    const result = fs.readMethodFile(file);
    if (!result.ok) return undefined;
    onRead?.(file, result.text);
    return { file, text: result.text };
  };
}
