// A safe fix is one whose result has no new error. The fixes chosen for a tree are applied in memory
// and the tree checked again; when an error appears that the tree did not have, the fixes are split
// in halves until the culprits are found, and those are rolled back (the others kept). One check
// when every fix is harmless; a few more per culprit. `mthds check --fix` and the language server's
// fix-all both keep only what this keeps.

import { buildBundle } from '../language/buildBundle.js';
import { buildManifest } from '../language/manifest.js';
import { buildSymbols, type MethodTree } from '../language/tree.js';
import { parseToml } from '../syntax/document.js';
import { applyEdits, type ChosenFix } from './applyFixes.js';
import type { Finding } from './finding.js';
import { checkTree } from './index.js';

export interface FixVerdict {
  kept: ChosenFix[];
  /** Each fix rolled back, with an error it brought (the first). */
  rolledBack: Array<ChosenFix & { error: Finding }>;
}

const errorKey = (f: Finding): string => `${f.code}\u0000${f.file}\u0000${f.message}`;

/**
 * The tree with some files' texts replaced. Unchanged bundles are copies (a bundle resolves its
 * references in the tree it was last assembled into: the copies resolve in this one), and the
 * original tree is left as it was.
 */
export function treeWithTexts(tree: MethodTree, texts: ReadonlyMap<string, string>): MethodTree {
  const bundles = tree.bundles.map((b) => {
    const text = texts.get(b.file);
    return text !== undefined && text !== b.doc.text ? buildBundle(b.file, parseToml(text)) : { ...b };
  });
  const trial: MethodTree = { ...tree, bundles, symbols: buildSymbols(bundles) };
  const manifestText = tree.manifest ? texts.get(tree.manifest.file) : undefined;
  if (tree.manifest && manifestText !== undefined && manifestText !== tree.manifest.doc.text) trial.manifest = buildManifest(tree.manifest.file, parseToml(manifestText));
  return trial;
}

/** The text the check saw of each file the tree read (bundles and manifest). */
export function treeTexts(tree: MethodTree): Map<string, string> {
  const texts = new Map<string, string>();
  for (const b of tree.bundles) texts.set(b.file, b.doc.text);
  if (tree.manifest) texts.set(tree.manifest.file, tree.manifest.doc.text);
  return texts;
}

/** The texts of the files fixes touch, with the fixes applied. */
function fixedTexts(tree: MethodTree, fixes: readonly ChosenFix[]): Map<string, string> {
  const original = treeTexts(tree);
  const byFile = new Map<string, ChosenFix['fix']['edits']>();
  for (const c of fixes) {
    for (const e of c.fix.edits) {
      const list = byFile.get(e.file);
      if (list) list.push(e);
      else byFile.set(e.file, [e]);
    }
  }
  const texts = new Map<string, string>();
  for (const [file, edits] of byFile) {
    const text = original.get(file);
    if (text !== undefined) texts.set(file, applyEdits(text, edits));
  }
  return texts;
}

/**
 * The fixes (chosen not to overlap, see chooseSafeFixes) that bring no error `baseline` (the
 * findings checkTree gives the tree as it is; checked here when not given) does not have; the
 * others rolled back.
 */
export function keepHarmlessFixes(tree: MethodTree, baseline: readonly Finding[] | undefined, chosen: readonly ChosenFix[]): FixVerdict {
  const verdict: FixVerdict = { kept: [], rolledBack: [] };
  if (chosen.length === 0) return verdict;
  baseline ??= checkTree(treeWithTexts(tree, new Map()));
  const before = new Map<string, number>();
  for (const f of baseline) if (f.severity === 'error') before.set(errorKey(f), (before.get(errorKey(f)) ?? 0) + 1);
  /** The first error the fixes bring, if any. */
  const newError = (fixes: readonly ChosenFix[]): Finding | undefined => {
    const after = new Map<string, number>();
    for (const f of checkTree(treeWithTexts(tree, fixedTexts(tree, fixes)))) {
      if (f.severity !== 'error') continue;
      const key = errorKey(f);
      const n = (after.get(key) ?? 0) + 1;
      after.set(key, n);
      if (n > (before.get(key) ?? 0)) return f;
    }
    return undefined;
  };
  const settle = (group: readonly ChosenFix[], base: readonly ChosenFix[]): ChosenFix[] => {
    if (group.length === 0) return [];
    const error = newError([...base, ...group]);
    if (!error) return [...group];
    if (group.length === 1) {
      verdict.rolledBack.push({ ...group[0]!, error });
      return [];
    }
    const mid = group.length >> 1;
    const left = settle(group.slice(0, mid), base);
    return [...left, ...settle(group.slice(mid), [...base, ...left])];
  };
  verdict.kept = settle(chosen, []);
  return verdict;
}
