// The tree a completion, hover or inlay request works on, without waiting for a check. A keystroke
// schedules a check of the whole tree (debounced); completion must not run it. So a view takes the
// tree of the last check and swaps in the open buffers that changed since (parsed once per text),
// then rebuilds the symbol tables, which is linear in the number of declarations. Findings are
// only given when the check is of the document's current text (their ranges hold).

import path from 'node:path';
import type { Finding } from '../check/finding.js';
import { buildBundle } from '../language/buildBundle.js';
import type { Bundle } from '../language/model.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { symbolsOf, type MethodTree } from '../language/tree.js';
import { parseToml } from '../syntax/document.js';
import type { FileId, Session, TreeCheck } from '../workspace/session.js';

export interface FileView {
  file: FileId;
  text: string;
  tree: MethodTree;
  bundle: Bundle;
  /** The findings of the file, when the last check saw its current text. */
  findings?: readonly Finding[];
}

export class Views {
  /** Open buffers parsed ahead of the check, by file: one text each. */
  private readonly ahead = new Map<FileId, Bundle>();
  /** The last derived tree, reused while its base tree and bundles are the same. */
  private derived: { base: MethodTree; bundles: readonly Bundle[]; tree: MethodTree } | undefined;

  constructor(
    private readonly session: () => Session,
    /** Checks the tree of a file now (used only when it was never checked). */
    private readonly ensureCurrent: (file: FileId) => TreeCheck | undefined,
  ) {}

  private parsedAhead(file: FileId, text: string): Bundle {
    const known = this.ahead.get(file);
    if (known && known.doc.text === text) return known;
    const bundle = buildBundle(file, parseToml(text));
    this.ahead.set(file, bundle);
    return bundle;
  }

  viewOf(file: FileId): FileView | undefined {
    if (path.basename(file) === MANIFEST_FILE) return undefined;
    const session = this.session();
    const text = session.textOf(file);
    if (text === undefined) return undefined;
    const id = session.treeOf(file);
    let check = session.lastCheck(id.key);
    if (!check?.tree?.bundles.some((b) => b.file === file)) check = this.ensureCurrent(file);
    const base = check?.tree;
    if (!check || !base) return undefined;

    let changed = false;
    const bundles = base.bundles.map((b) => {
      if (!session.isOpen(b.file)) return b;
      const current = session.textOf(b.file);
      if (current === undefined || current === b.doc.text) return b;
      changed = true;
      return this.parsedAhead(b.file, current);
    });
    if (!bundles.some((b) => b.file === file)) {
      bundles.push(this.parsedAhead(file, text));
      changed = true;
    }
    for (const f of this.ahead.keys()) if (!session.isOpen(f)) this.ahead.delete(f);

    let tree = base;
    if (changed) {
      const d = this.derived;
      if (d && d.base === base && d.bundles.length === bundles.length && d.bundles.every((b, i) => b === bundles[i])) tree = d.tree;
      else {
        tree = { ...base, bundles, symbols: symbolsOf(bundles, base) };
        this.derived = { base, bundles, tree };
      }
    }
    const bundle = tree.bundles.find((b) => b.file === file)!;
    const view: FileView = { file, text, tree, bundle };
    if (base.bundles.includes(bundle)) {
      const findings = check.findings.get(file);
      if (findings) view.findings = findings;
    }
    return view;
  }
}
