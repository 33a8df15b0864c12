// `mthds check --fix`: the safe fixes of the findings, applied to the files and written with the
// guarded writer (workspace/writeGuarded.ts), in a few passes: each pass re-reads and re-checks the
// trees, so that fixes left out for overlapping another, or whose ranges a fix shifted, are applied
// on fresh text. A file changed by someone else between the read and the write is left untouched
// and reported as method.changed_concurrently.

import { applyEdits, chooseSafeFixes, fixSignature } from '../check/applyFixes.js';
import { checkTree, makeFinding, type Finding } from '../check/index.js';
import { keepHarmlessFixes, treeTexts } from '../check/verifyFixes.js';
import type { MethodTree } from '../language/tree.js';
import { computeLineStarts, offsetToPosition } from '../syntax/positions.js';
import type { TreePlan } from '../workspace/load.js';
import { decodeMethodBytes } from '../workspace/readText.js';
import { readSnapshot, writeGuarded, type GuardedWriteHooks } from '../workspace/writeGuarded.js';

/** One fix written. Positions are 1-based, in the text the fix was computed on. */
export interface AppliedFixRecord {
  file: string;
  line: number;
  column: number;
  code: string;
  title: string;
  /** With `recordEdits`: the edits, 0-based positions in the text the fix was computed on. */
  edits?: Array<{ range: { start: Position; end: Position }; newText: string }>;
}

interface Position {
  line: number;
  character: number;
}

/** A safe fix left out because the re-check found an error it brought. */
export interface RolledBackFixRecord extends AppliedFixRecord {
  /** The error the fix would have brought: its code and message. */
  error: { code: string; message: string };
}

export interface FixOutcome {
  fixed: AppliedFixRecord[];
  rolledBack: RolledBackFixRecord[];
  /** The rolled-back fixes as fixSignature writes them: the report shows them as suggestions. */
  rolledBackFixes: Set<string>;
  /** method.changed_concurrently, one per file left untouched. */
  conflicts: Finding[];
  /** Files that could not be written (the file system's message). */
  failures: Array<{ file: string; message: string }>;
}

export interface FixOptions {
  /** Passes at most (each re-checks what the previous one wrote). Default 3. */
  passes?: number;
  /** Hooks of the guarded writer (tests). */
  hooks?: GuardedWriteHooks;
  /** Only the fixes of findings of these codes. */
  codes?: ReadonlySet<string>;
  /** Write nothing: one pass, whose fixes are reported as they would be made. */
  dryRun?: boolean;
  /** Give each fixed record its edits. */
  recordEdits?: boolean;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export function fixTrees(plans: readonly TreePlan[], load: (plan: TreePlan) => MethodTree, options: FixOptions = {}): FixOutcome {
  const outcome: FixOutcome = { fixed: [], rolledBack: [], rolledBackFixes: new Set(), conflicts: [], failures: [] };
  const rolledBackSeen = new Set<string>();
  const leftAlone = new Set<string>();
  /** Each tree's findings before any fix: every pass judges its fixes against them. */
  const originals = new Map<TreePlan, readonly Finding[]>();
  const passes = options.passes ?? 3;
  for (let pass = 0; pass < passes; pass++) {
    let wrote = false;
    for (const plan of plans) {
      const tree = load(plan);
      const texts = treeTexts(tree);
      const focus = plan.focus;
      const all = checkTree(tree);
      const findings = all.filter((f) => (!focus || focus.has(f.file)) && (!options.codes || options.codes.has(f.code)));
      // A fix whose result has an error the tree did not have is not safe after all: rolled back.
      // Judged against the tree as the author left it, not as an earlier pass left it.
      const original = originals.get(plan) ?? all;
      originals.set(plan, original);
      const verdict = keepHarmlessFixes(tree, original, chooseSafeFixes(findings, (file) => texts.has(file) && !leftAlone.has(file) && (!focus || focus.has(file))));
      for (const r of verdict.rolledBack) {
        const at = offsetToPosition(computeLineStarts(texts.get(r.finding.file) ?? ''), r.finding.range.start);
        const record = { file: r.finding.file, line: at.line + 1, column: at.character + 1, code: r.finding.code, title: r.fix.title, error: { code: r.error.code, message: r.error.message } };
        const key = JSON.stringify(record);
        if (!rolledBackSeen.has(key)) outcome.rolledBack.push(record);
        rolledBackSeen.add(key);
        outcome.rolledBackFixes.add(fixSignature(r.fix));
      }
      const chosen = verdict.kept;
      const byFile = new Map<string, typeof chosen>();
      for (const c of chosen) {
        const file = c.fix.edits[0]!.file;
        byFile.set(file, [...(byFile.get(file) ?? []), c]);
      }
      for (const [file, fixes] of byFile) {
        const seen = texts.get(file)!;
        const conflict = (): void => {
          leftAlone.add(file);
          outcome.conflicts.push(makeFinding('method.changed_concurrently', {}, file, { start: 0, end: 0 }));
        };
        let snapshot;
        try {
          snapshot = readSnapshot(file);
        } catch (error) {
          leftAlone.add(file);
          outcome.failures.push({ file, message: error instanceof Error ? error.message : String(error) });
          continue;
        }
        const decoded = decodeMethodBytes(snapshot.bytes);
        if ('fault' in decoded) {
          // Not clean UTF-8: the text is not the file's exact content; never rewrite it.
          leftAlone.add(file);
          continue;
        }
        // The file changed between the check's read and this one: its findings are stale.
        if (decoded.text !== seen) {
          conflict();
          continue;
        }
        const text = applyEdits(seen, fixes.flatMap((c) => c.fix.edits));
        if (text === seen) continue;
        if (options.dryRun) {
          record(outcome, file, seen, fixes, options);
          continue;
        }
        const hasBom = snapshot.bytes.subarray(0, 3).equals(BOM);
        const bytes = hasBom ? Buffer.concat([BOM, Buffer.from(text, 'utf8')]) : Buffer.from(text, 'utf8');
        const result = writeGuarded(snapshot, bytes, options.hooks);
        if (result.status === 'changed') {
          conflict();
          continue;
        }
        if (result.status === 'failed') {
          leftAlone.add(file);
          outcome.failures.push({ file, message: result.message });
          continue;
        }
        wrote = true;
        record(outcome, file, seen, fixes, options);
      }
    }
    if (!wrote) break;
  }
  return outcome;
}

function record(outcome: FixOutcome, file: string, seen: string, fixes: ReturnType<typeof keepHarmlessFixes>['kept'], options: FixOptions): void {
  const starts = computeLineStarts(seen);
  for (const c of fixes) {
    const at = offsetToPosition(starts, c.finding.range.start);
    const fixed: AppliedFixRecord = { file, line: at.line + 1, column: at.character + 1, code: c.finding.code, title: c.fix.title };
    if (options.recordEdits) fixed.edits = c.fix.edits.map((e) => ({ range: { start: offsetToPosition(starts, e.range.start), end: offsetToPosition(starts, e.range.end) }, newText: e.newText }));
    outcome.fixed.push(fixed);
  }
}
