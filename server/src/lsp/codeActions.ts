// Code actions: a quick fix from each finding's fix (preferred when safe) and alternatives, the
// repairs of repairs.ts, and `source.fixAll.mthds`, which applies every safe fix of a document
// whose edits do not overlap.

import type { ClientCapabilities, CodeAction, CodeActionParams } from 'vscode-languageserver';
import type { Finding, Fix, TextEdit } from '../check/finding.js';
import type { MethodTree } from '../language/tree.js';
import { chooseSafeFixesSteps, fixSignature, type ChosenFix } from '../check/applyFixes.js';
import { mergeTouchingEdits } from '../check/edits.js';
import { FixTrials, keepHarmlessFixesSteps } from '../check/verifyFixes.js';
import { lspRangeToRange } from '../syntax/positions.js';
import { editsToWorkspaceEdit, findingToDiagnostic, type TextLocator } from './convert.js';
import { repairsFor } from '../ide/index.js';
import { ObjectCache } from '../util/objectCache.js';
import { runInSlices } from '../util/steps.js';
import { oneTurn } from './messageTurns.js';

export const QUICK_FIX = 'quickfix';
export const FIX_ALL_KIND = 'source.fixAll.mthds';

/** Whether `kind` is asked for: `only` lists kinds or their parents (`source` covers `source.fixAll.mthds`). */
export function kindWanted(kind: string, only: readonly string[] | undefined): boolean {
  if (!only || only.length === 0) return true;
  return only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

export interface CodeActionInput {
  params: CodeActionParams;
  file: string;
  text: string;
  lineStarts: readonly number[];
  findings: readonly Finding[];
  tree: MethodTree | undefined;
  /** Every finding of `tree` as it was checked, when known (the fix-all's baseline: see fixAllEdits). */
  treeFindings?: () => readonly Finding[];
  locator: TextLocator;
  /** Lets queued messages through between slices of the fix-all's checks (see fixAllEdits). */
  pause?: () => Promise<void>;
  /**
   * How the fix-all's edit reaches the client. `resolve`: the client resolves a code action's edit
   * (`codeAction/resolve`), the fix-all is offered without it and verified only when chosen
   * (resolveFixAll). `command`: the client cannot resolve but applies edits the server sends
   * (`workspace/applyEdit`), the fix-all is offered as the command FIX_ALL_COMMAND that makes its
   * edit when run, as vscode-eslint offers its fix-all. Either way the answer waits on no re-check.
   * `inline` (the default): the edit is made before the answer.
   */
  fixAllBy?: 'resolve' | 'command' | 'inline';
}

/** The command that applies the fix-all of the document its argument names (`fixAllBy: 'command'`). */
export const FIX_ALL_COMMAND = 'mthds.fixAll';

/**
 * Past this many safe fixes a client of `fixAllBy: 'command'` gets the fix-all as the command; up to
 * it, the edit is made within the answer (a few milliseconds), so that a fix-all the re-check would
 * empty is not offered at all.
 */
export const COMMAND_INLINE_MAX = 100;

/** How a client with these capabilities gets the fix-all's edit (CodeActionInput `fixAllBy`). */
export function fixAllBy(capabilities: ClientCapabilities): 'resolve' | 'command' | 'inline' {
  if (capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true) return 'resolve';
  return capabilities.workspace?.applyEdit === true ? 'command' : 'inline';
}

/** What an unresolved fix-all carries to its resolve: the document it fixes. */
export interface FixAllData {
  fixAll: string;
}

export function isFixAllData(data: unknown): data is FixAllData {
  return typeof data === 'object' && data !== null && typeof (data as { fixAll?: unknown }).fixAll === 'string';
}

export const FIX_ALL_TITLE = 'Fix all safe MTHDS problems';

/** The fix-all's edit made (verified as fixAllEdits does) for an action offered unresolved. */
export async function resolveFixAll(action: CodeAction, findings: readonly Finding[], tree: MethodTree | undefined, locator: TextLocator, pause?: () => Promise<void>, treeFindings?: () => readonly Finding[]): Promise<CodeAction> {
  const edits = await fixAllEdits(findings, tree, pause, SLICE_MS, treeFindings);
  return { ...action, edit: editsToWorkspaceEdit(edits, locator) };
}

export async function codeActions(input: CodeActionInput): Promise<CodeAction[]> {
  const { params, findings, locator } = input;
  const only = params.context.only;
  const actions: CodeAction[] = [];
  if (kindWanted(QUICK_FIX, only)) {
    const range = lspRangeToRange(input.lineStarts, input.text, params.range);
    for (const finding of findings) {
      if (finding.range.start > range.end || finding.range.end < range.start) continue;
      const diagnostic = findingToDiagnostic(finding, locator);
      const seen = new Set<string>();
      const offer = (fix: Fix, preferred: boolean): void => {
        const sig = fixSignature(fix);
        if (fix.edits.length === 0 || seen.has(sig)) return;
        seen.add(sig);
        const action: CodeAction = { title: fix.title, kind: QUICK_FIX, diagnostics: [diagnostic], edit: editsToWorkspaceEdit(fix.edits, locator) };
        if (preferred) action.isPreferred = true;
        actions.push(action);
      };
      if (finding.fix) offer(finding.fix, finding.fix.safe);
      for (const alternative of finding.alternatives ?? []) offer(alternative, false);
      if (input.tree) for (const repair of repairsFor(finding, input.tree)) offer(repair, false);
    }
  }
  if (kindWanted(FIX_ALL_KIND, only)) {
    const safe = findings.filter((f) => f.fix?.safe === true && f.fix.edits.length > 0).length;
    if (input.fixAllBy === 'resolve' || (input.fixAllBy === 'command' && safe > COMMAND_INLINE_MAX)) {
      // Offered when some fix is safe; the re-check may still roll every one back (an empty edit).
      if (safe > 0) {
        const uri = params.textDocument.uri;
        actions.push(
          input.fixAllBy === 'resolve'
            ? { title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, data: { fixAll: uri } satisfies FixAllData }
            : { title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, command: { title: FIX_ALL_TITLE, command: FIX_ALL_COMMAND, arguments: [uri] } },
        );
      }
    } else {
      const edits = await fixAllEdits(findings, input.tree, input.pause, SLICE_MS, input.treeFindings);
      if (edits.length > 0) actions.push({ title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, edit: editsToWorkspaceEdit(edits, locator) });
    }
  }
  return actions;
}

// The fix-all of a document's findings, kept while they are the current ones (clients ask for code
// actions at every move of the cursor; the re-check runs once per check): the edits, or the
// re-check under way (a second request waits for the same one).
const fixAllByFindings = new ObjectCache<readonly Finding[], TextEdit[] | Promise<TextEdit[]>>('fixAllByFindings');

/**
 * The re-check of the last fix-all, kept for the next: its first check (the tree as it is) is then
 * an update of the last tree it checked, not a check of the whole tree (see FixTrials).
 */
const fixTrials = new FixTrials();

/** How long a slice of the fix-all's checks runs before queued messages go through (ms). */
const SLICE_MS = 8;

/**
 * The edits of every safe fix, leaving out a fix any of whose edits overlaps an edit already taken
 * (applying both would corrupt the text; a second run fixes what remains), and, with the tree,
 * those whose result the re-check finds a new error in (rolled back: left out of the edit, as
 * `mthds check --fix` leaves them unwritten). The re-check (a check of the tree, as an update of
 * the last fix-all's when the tree is a version of its tree, then of what the fixes touch: see
 * verifyFixes.ts) runs in slices of `sliceMs` that let queued messages through, so
 * other requests never wait behind it; only this answer does.
 */
export function fixAllEdits(findings: readonly Finding[], tree: MethodTree | undefined, pause: () => Promise<void> = oneTurn, sliceMs = SLICE_MS, treeFindings?: () => readonly Finding[]): Promise<TextEdit[]> {
  const known = fixAllByFindings.get(findings);
  if (known) return Promise.resolve(known);
  // The findings of the tree's own check, when given, spare the re-check a check of the tree as it
  // is (verifyFixes.ts); taken now, while they are those of `tree`.
  const baseline = tree ? treeFindings?.() : undefined;
  function* steps(): Generator<void, readonly ChosenFix[]> {
    const chosen = yield* chooseSafeFixesSteps(findings, () => true, true);
    if (!tree || chosen.length === 0) return chosen;
    return (yield* keepHarmlessFixesSteps(tree, baseline, chosen, fixTrials)).kept;
  }
  const running = runInSlices(steps(), sliceMs, pause).then((kept) => mergeTouchingEdits(kept.flatMap((c) => c.fix.edits)));
  fixAllByFindings.set(findings, running);
  running.then(
    (edits) => fixAllByFindings.set(findings, edits),
    () => fixAllByFindings.delete(findings),
  );
  return running;
}
