// The tree a request works on, without waiting for a check (completion, hover, inlay hints,
// definition, highlights, references, code lenses, code actions, diagnostic pulls). A keystroke
// schedules a check of the whole tree (debounced), and files changed on disk an update; no request
// runs them. So a view takes the tree of the last finished check and swaps in the open buffers that
// changed since (parsed once per text, found through the open files: no request goes over every
// bundle), patches the symbol tables of their domains and shares the check's index of files. A
// view's findings are given only when the check is of the document's
// current text (their ranges hold); `findingsOf` carries the last check's over to the current text.

import path from 'node:path';
import type { Finding } from '../check/finding.js';
import { buildBundle } from '../language/buildBundle.js';
import type { Bundle } from '../language/model.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { bundleIndex, bundleOfFile, shareBundleIndex, symbolsOf, type MethodTree } from '../language/tree.js';
import { parseToml } from '../syntax/document.js';
import type { TomlDocument } from '../syntax/types.js';
import { sizePastLimit } from '../workspace/documentSize.js';
import type { FileId, Session, TreeCheck } from '../workspace/session.js';
import { changeBetween, shiftFindings, type TextChange } from './shiftFindings.js';

export interface FileView {
  file: FileId;
  text: string;
  tree: MethodTree;
  bundle: Bundle;
  /** The findings of the file, when the last check saw its current text. */
  findings?: readonly Finding[];
}

/** The findings of a file for its current text, and the tree they go with. */
export interface FindingsView {
  findings: readonly Finding[];
  /** The last check's tree with the open buffers parsed ahead (undefined for a released tree). */
  tree?: MethodTree;
  /** Carried over from an older text (the file's check is pending). */
  ahead: boolean;
  /** Every finding of `tree`'s check, when `tree` is the tree that check checked (the fix-all's baseline). */
  treeFindings?: () => Finding[];
}

export class Views {
  /** Open buffers parsed ahead of the check, by file: one text each. */
  private readonly ahead = new Map<FileId, Bundle>();
  /**
   * The last derived tree, reused while its base tree and bundles are the same; dropped once a view
   * of its tree needs none (the check caught up with the buffers): it holds the whole tree of an
   * older check, with every bundle replaced or deleted since (measured: 1,400 bundles, 33 MB, after
   * 1,000 files changed on disk while the open document was typed in).
   */
  private derived: { key: string; base: MethodTree; replaced: ReadonlyArray<{ index: number; bundle: Bundle }>; extra: Bundle | undefined; tree: MethodTree } | undefined;

  /** The findings last carried over, per list of findings: requests come at every cursor move. */
  private readonly shifted = new WeakMap<readonly Finding[], { text: string; findings: Finding[] }>();

  constructor(
    private readonly session: () => Session,
    /** Checks the tree of a file now (used only when it was never checked). */
    private readonly ensureCurrent: (file: FileId) => TreeCheck | undefined,
  ) {}

  /** The latest check of the tree of `file`; checked now only when the tree never was. */
  private checkOf(file: FileId): TreeCheck | undefined {
    const check = this.session().lastCheck(this.session().treeOf(file).key);
    return check?.tree ? check : this.ensureCurrent(file);
  }

  /** `previous`: the check's parse of the file, an earlier version to take the unchanged statements of. */
  private parsedAhead(file: FileId, text: string, previous?: TomlDocument): Bundle {
    const known = this.ahead.get(file);
    if (known && known.doc.text === text) return known;
    // From the last parse ahead (the version before this one) else the check's: a parse of a
    // 0.5 MB bundle from scratch at each change held the server 30-35 ms.
    const bundle = buildBundle(file, parseToml(text, known?.doc ?? previous));
    this.ahead.set(file, bundle);
    return bundle;
  }

  viewOf(file: FileId): FileView | undefined {
    if (path.basename(file) === MANIFEST_FILE) return undefined;
    const session = this.session();
    const text = session.textOf(file);
    // A document past the analysed size is out of its tree and never parsed (documentSize.ts).
    if (text === undefined || sizePastLimit(text) !== undefined) return undefined;
    const check = this.checkOf(file);
    const base = check?.tree;
    if (!check || !base) return undefined;

    // The open buffers that changed since the check, by their place in its bundle list: found
    // through the open files, not by going over every bundle (each request on a tree of thousands
    // of bundles did).
    const places = bundleIndex(base);
    const replaced: Array<{ index: number; bundle: Bundle }> = [];
    for (const f of session.openFiles()) {
      const index = places.get(f);
      if (index === undefined) continue;
      const current = session.textOf(f);
      if (current === undefined || current === base.bundles[index]!.doc.text) continue;
      replaced.push({ index, bundle: this.parsedAhead(f, current, base.bundles[index]!.doc) });
    }
    replaced.sort((a, b) => a.index - b.index);
    // The open file is one of the check's (the common case): the derived tree has its files in its
    // order, and shares its index of them (a map of every file, made again for each derived tree
    // otherwise: tens of milliseconds on thousands of bundles inside a request during an update).
    const own = places.get(file);
    const extra = own === undefined ? this.parsedAhead(file, text) : undefined;
    for (const f of this.ahead.keys()) if (!session.isOpen(f)) this.ahead.delete(f);

    let tree = base;
    const key = session.treeOf(file).key;
    if (replaced.length > 0 || extra) {
      const d = this.derived;
      if (d && d.base === base && d.extra === extra && d.replaced.length === replaced.length && d.replaced.every((r, i) => r.index === replaced[i]!.index && r.bundle === replaced[i]!.bundle)) tree = d.tree;
      else {
        const bundles = base.bundles.slice();
        for (const r of replaced) bundles[r.index] = r.bundle;
        if (extra) bundles.push(extra);
        tree = { ...base, bundles, symbols: symbolsOf(bundles, base) };
        if (!extra) shareBundleIndex(tree, base);
        this.derived = { key, base, replaced, extra, tree };
      }
    } else if (this.derived?.key === key) this.derived = undefined;
    const bundle = own === undefined ? tree.bundles[tree.bundles.length - 1]! : tree.bundles[own]!;
    const view: FileView = { file, text, tree, bundle };
    if (own !== undefined && base.bundles[own] === bundle) {
      const findings = check.findings.get(file);
      if (findings) view.findings = findings;
    }
    return view;
  }

  /**
   * The findings of a file (bundle, manifest or lock file) for its current text: the last check's
   * when it saw that text, else carried over from it (moved past the edits, those touching them
   * left out). Never checks, unless the tree never was.
   */
  findingsOf(file: FileId): FindingsView | undefined {
    const session = this.session();
    const check = this.checkOf(file);
    if (!check) return undefined;
    const findings = check.findings.get(file) ?? [];
    const view = path.basename(file) === MANIFEST_FILE ? undefined : this.viewOf(file);
    const tree = view?.tree ?? check.tree;
    const text = session.textOf(file);
    const checked = check.tree ? checkedText(check.tree, file) : text;
    // An open document the check did not have yet (just created): nothing to carry over.
    if (checked === undefined && text !== undefined && session.isOpen(file) && !check.findings.has(file)) return { findings: [], ...(tree ? { tree } : {}), ahead: true };
    if (text === undefined || checked === undefined || checked === text) {
      const own = tree !== undefined && tree === check.tree ? { treeFindings: () => [...check.findings.values()].flat() } : {};
      return { findings, ...(tree ? { tree } : {}), ahead: false, ...own };
    }
    const known = this.shifted.get(findings);
    if (known?.text === text) return { findings: known.findings, ...(tree ? { tree } : {}), ahead: true };
    // Every open file of the tree that changed since (a fix may edit another file too).
    const changes = new Map<string, TextChange>();
    for (const f of session.openFiles()) {
      const before = check.tree ? checkedText(check.tree, f) : undefined;
      const now = session.textOf(f);
      const change = before !== undefined && now !== undefined ? changeBetween(before, now) : undefined;
      if (change) changes.set(f, change);
    }
    const carried = shiftFindings(findings, changes);
    this.shifted.set(findings, { text, findings: carried });
    return { findings: carried, ...(tree ? { tree } : {}), ahead: true };
  }
}

/** The text a check read of one of its tree's files (undefined: not one of them). */
export function checkedText(tree: MethodTree, file: FileId): string | undefined {
  if (tree.manifest?.file === file) return tree.manifest.doc.text;
  if (tree.lock?.file === file) return tree.lock.doc.text;
  return bundleOfFile(tree, file)?.doc.text;
}
