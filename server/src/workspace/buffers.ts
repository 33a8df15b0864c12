// Loading a tree with unsaved buffers: texts an editor or an agent holds that win over the disk.
// A buffer of a bundle the plan lists replaces its text; a buffer of a new bundle below the plan's
// root joins the tree (outside a hidden `.mthds/` folder); other buffers are not this tree's.

import path from 'node:path';
import { buildBundle } from '../language/buildBundle.js';
import type { Bundle } from '../language/model.js';
import { createTree, type MethodTree } from '../language/tree.js';
import type { Finding } from '../check/finding.js';
import { parseToml } from '../syntax/document.js';
import { loadTree, relativeTo, type TreePlan } from './load.js';
import type { FileSystem } from './fileSystem.js';

/** Absolute file path -> text. */
export type Buffers = ReadonlyMap<string, string>;

/** The buffers that belong to a plan's tree: its bundles, and new bundles below its root. */
export function buffersOfPlan(plan: TreePlan, buffers: Buffers): string[] {
  const listed = new Set(plan.bundleFiles);
  const out: string[] = [];
  for (const file of buffers.keys()) {
    if (listed.has(file)) out.push(file);
    else if (file.endsWith('.mthds') && isBelow(plan.root, file) && !relativeTo(plan.root, file).split('/').includes('.mthds')) out.push(file);
  }
  return out;
}

function isBelow(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** `loadTree`, with the plan's buffered bundles built from their buffers instead of the disk. */
export function loadTreeWithBuffers(fs: FileSystem, plan: TreePlan, buffers: Buffers): { tree: MethodTree; findings: Finding[] } {
  const mine = buffersOfPlan(plan, buffers);
  if (mine.length === 0) return loadTree(fs, plan);
  const buffered = new Set(mine);
  const loaded = loadTree(fs, { ...plan, bundleFiles: plan.bundleFiles.filter((f) => !buffered.has(f)) });
  const fromDisk = new Map(loaded.tree.bundles.map((b) => [b.file, b]));
  const added = mine.filter((f) => !plan.bundleFiles.includes(f));
  const bundles: Bundle[] = [];
  for (const file of [...plan.bundleFiles, ...added]) {
    const text = buffers.get(file);
    const bundle = text !== undefined ? buildBundle(file, parseToml(text)) : fromDisk.get(file);
    if (bundle) bundles.push(bundle);
  }
  const files = new Set(loaded.tree.files);
  for (const file of added) files.add(relativeTo(plan.root, file));
  const tree = createTree(plan.root, bundles, loaded.tree.manifest, files);
  if (loaded.tree.lock) tree.lock = loaded.tree.lock;
  // A file read from its buffer has no fault of its bytes: only the disk's other faults remain.
  return { tree, findings: loaded.findings.filter((f) => !buffered.has(f.file)) };
}
