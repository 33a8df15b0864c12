// The fix-all run as a command (codeActions.ts FIX_ALL_COMMAND), for clients that apply edits the
// server sends (`workspace/applyEdit`) but cannot resolve a code action's edit: the code action
// answers at once, and the verified fix-all is made only when the user chooses it.

import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { Finding } from '../check/finding.js';
import type { MethodTree } from '../language/tree.js';
import { fixAllEdits, FIX_ALL_TITLE } from './codeActions.js';
import { editsToWorkspaceEdit, type TextLocator } from './convert.js';

export interface FixAllCommandContext {
  fileOf(uri: string): string | undefined;
  /** The findings of the latest check, carried over to the document's current text. */
  findingsOf(file: string): { findings: readonly Finding[]; tree?: MethodTree | undefined; treeFindings?: () => readonly Finding[] } | undefined;
  /** The version of an open document (undefined: not open). */
  versionOf(file: string): number | undefined;
  locator: TextLocator;
  /** Whether the client takes versioned document edits (`workspace.workspaceEdit.documentChanges`). */
  documentChanges: boolean;
  applyEdit(params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult>;
  pause?: () => Promise<void>;
}

export type FixAllAnswer = { ok: true; applied: boolean; edits: number; failureReason?: string } | { ok: false; message: string };

/** Times the edit is made again when the document changed while it was made. */
const ATTEMPTS = 3;

export async function runFixAllCommand(ctx: FixAllCommandContext, args: readonly unknown[]): Promise<FixAllAnswer> {
  // The URI, or `{ uri }` as the editors' document commands send it (the runner commands' form).
  const first = args[0];
  const uri = typeof first === 'object' && first !== null && typeof (first as { uri?: unknown }).uri === 'string' ? (first as { uri: string }).uri : first;
  if (typeof uri !== 'string') return { ok: false, message: 'mthds.fixAll takes the URI of the document to fix.' };
  const file = ctx.fileOf(uri);
  if (file === undefined) return { ok: false, message: `${uri} is not a method document.` };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const version = ctx.versionOf(file);
    const found = ctx.findingsOf(file);
    if (!found) return { ok: false, message: `${uri} has not been checked.` };
    const edits = await fixAllEdits(found.findings, found.tree, ctx.pause, undefined, found.treeFindings);
    if (edits.length === 0) return { ok: true, applied: false, edits: 0 };
    // Typed meanwhile: the edit was made for a text the document no longer has.
    if (ctx.versionOf(file) !== version) continue;
    const plain = editsToWorkspaceEdit(edits, ctx.locator);
    // Versioned where the client takes it: an edit for a version since replaced is refused by the
    // client rather than applied to the wrong text.
    const edit: WorkspaceEdit = ctx.documentChanges
      ? { documentChanges: Object.entries(plain.changes ?? {}).map(([target, list]): TextDocumentEdit => ({ textDocument: { uri: target, version: version ?? null }, edits: list })) }
      : plain;
    const result = await ctx.applyEdit({ label: FIX_ALL_TITLE, edit });
    return { ok: true, applied: result.applied, edits: edits.length, ...(result.failureReason !== undefined ? { failureReason: result.failureReason } : {}) };
  }
  return { ok: false, message: `${uri} kept changing while its fixes were made; run the fix-all again.` };
}
