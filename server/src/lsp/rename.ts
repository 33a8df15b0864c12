// Rename over LSP: prepareRename names what would be renamed (or refuses, with the reason shown to
// the user), rename returns one workspace edit over every file of the tree. Open documents are
// edited at the version the server saw, so a client applying it to a newer text refuses it.

import type { PrepareRenameParams, Range as LspRange, RenameParams, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { planRename, prepareRename } from '../ide/index.js';
import { toLspRange } from './convert.js';
import { locatorFor, refuse, type FeatureContext } from './featureContext.js';

export function prepareRenameLsp(ctx: FeatureContext, params: PrepareRenameParams): { range: LspRange; placeholder: string } | null {
  const doc = ctx.docOf(params.textDocument.uri);
  if (!doc) return null;
  const found = ctx.bundleOf(doc);
  if (!found) throw refuse('This document is not part of a method tree yet: save it as a .mthds file to rename in it.');
  const prepared = prepareRename(found.tree, found.bundle, doc.offset(params.position));
  if (!prepared.ok) throw refuse(prepared.message);
  return { range: toLspRange(ctx.host.locator, doc.file, prepared.range), placeholder: prepared.placeholder };
}

export function renameLsp(ctx: FeatureContext, params: RenameParams): WorkspaceEdit | null {
  const doc = ctx.docOf(params.textDocument.uri);
  if (!doc) return null;
  const found = ctx.bundleOf(doc);
  if (!found) throw refuse('This document is not part of a method tree yet.');
  const plan = planRename(found.tree, found.bundle, doc.offset(params.position), params.newName);
  if (!plan.ok) throw refuse(plan.message);
  const locator = locatorFor(found.tree, ctx.host.locator);
  const perFile = new Map<string, TextEdit[]>();
  const sorted = [...plan.edits].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start - b.range.start));
  for (const e of sorted) {
    let list = perFile.get(e.file);
    if (!list) perFile.set(e.file, (list = []));
    list.push({ range: toLspRange(locator, e.file, e.range), newText: e.newText });
  }
  if (ctx.host.capabilities().workspace?.workspaceEdit?.documentChanges === true) {
    const documentChanges: TextDocumentEdit[] = [...perFile].map(([file, edits]) => ({
      // A closed file has no version: null tells the client to edit what is on disk.
      textDocument: { uri: locator.uriOf(file), version: ctx.host.versionOf(file) ?? null },
      edits,
    }));
    return { documentChanges };
  }
  const changes: Record<string, TextEdit[]> = {};
  for (const [file, edits] of perFile) changes[locator.uriOf(file)] = edits;
  return { changes };
}
