// The trials of keepHarmlessFixes are checked as updates of the tree checked before them (a check
// of what the fixes touch, not of the whole tree): whatever the fixes, harmful or not, in one file
// or another, changing declarations another file reads or not, the verdict is that of checking
// every trial tree from scratch.

import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits, chooseSafeFixes, type ChosenFix } from '../../../server/src/check/applyFixes.js';
import { makeFinding, type Finding, type TextEdit } from '../../../server/src/check/finding.js';
import { checkTree } from '../../../server/src/check/index.js';
import { FixTrials, keepHarmlessFixes, treeTexts, treeWithTexts, type FixVerdict } from '../../../server/src/check/verifyFixes.js';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { bundleIndex, updateTree, type MethodTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';
import { HEADER, ROOT, treeOf } from '../../helpers/tree.js';

const MAIN = path.join(ROOT, 'main.mthds');
const OTHER = path.join(ROOT, 'other.mthds');

/** The verdict with every trial checked from scratch (the definition keepHarmlessFixes keeps). */
function verdictFromScratch(tree: MethodTree, chosen: readonly ChosenFix[]): FixVerdict {
  const verdict: FixVerdict = { kept: [], rolledBack: [] };
  if (chosen.length === 0) return verdict;
  const key = (f: Finding): string => `${f.code}\u0000${f.file}\u0000${f.message}`;
  const count = (findings: readonly Finding[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const f of findings) if (f.severity === 'error') m.set(key(f), (m.get(key(f)) ?? 0) + 1);
    return m;
  };
  const before = count(checkTree(treeWithTexts(tree, new Map())));
  const newError = (fixes: readonly ChosenFix[]): Finding | undefined => {
    const original = treeTexts(tree);
    const texts = new Map<string, string>();
    for (const file of new Set(fixes.flatMap((c) => c.fix.edits.map((e) => e.file)))) texts.set(file, applyEdits(original.get(file)!, fixes.flatMap((c) => c.fix.edits.filter((e) => e.file === file))));
    const seen = new Map<string, number>();
    for (const f of checkTree(treeWithTexts(tree, texts))) {
      if (f.severity !== 'error') continue;
      const n = (seen.get(key(f)) ?? 0) + 1;
      seen.set(key(f), n);
      if (n > (before.get(key(f)) ?? 0)) return f;
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

const pipe = (code: string, reads: boolean, output: string): string => `[pipe.${code}]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "${output}"\nprompt = "${reads ? 'Read $doc' : 'Write'}"\n\n`;

const scenario = fc.record({
  reads: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  /** Per fix of the pool: taken or not. */
  taken: fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }),
  /** Each pipe of main: the fix removes its input (harmful when the prompt reads it) or rewrites its description. */
  removes: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  /** The other file reads the concept the rename fix renames. */
  otherReads: fc.boolean(),
  /**
   * Versions of the tree after the first verdict, each an update of the one before (as the
   * language server makes them after an edit or a file changed on disk): which change, by number
   * (see VERSIONS; changes of the same length, so that the fixes' ranges still apply).
   */
  versions: fc.array(fc.nat(5), { maxLength: 4 }),
});

/** Changes of one file's text, keeping its length: a declaration renamed, a reference changed, a description. */
const VERSIONS: Array<{ file: string; from: string; to: string }> = [
  { file: MAIN, from: '[concept.Beta]', to: '[concept.Zeta]' },
  { file: MAIN, from: '[concept.Zeta]', to: '[concept.Beta]' },
  { file: MAIN, from: '"An alpha"', to: '"An Alpha"' },
  { file: OTHER, from: 'output = "Text"', to: 'output = "Beta"' },
  { file: OTHER, from: '[pipe.o1]', to: '[pipe.q1]' },
  { file: MAIN, from: 'output = "Alpha"', to: 'output = "Omega"' },
];

describe('keepHarmlessFixes trials as updates', () => {
  it('give the verdict of checking every trial from scratch', () => {
    let rolledBackSeen = 0;
    let othersRolledBack = 0;
    let moved = 0;
    fc.assert(
      fc.property(scenario, ({ reads, taken, removes, otherReads, versions }) => {
        const main = `${HEADER}[concept.Alpha]\ndescription = "An alpha"\n\n[concept.Beta]\ndescription = "A beta"\n\n${reads.map((r, i) => pipe(`p${i}`, r, i % 2 === 0 ? 'Alpha' : 'Text')).join('')}`;
        const other = `${HEADER}${[0, 1, 2].map((i) => pipe(`o${i}`, true, otherReads && i === 1 ? 'Beta' : 'Text')).join('')}`;
        const tree = treeOf({ 'main.mthds': main, 'other.mthds': other });
        const [mainBundle, otherBundle] = tree.bundles;
        const edit = (file: string, text: string, at: number, length: number, newText: string): TextEdit => {
          expect(at).toBeGreaterThanOrEqual(0);
          return { file, range: { start: at, end: at + length }, newText };
        };
        const descriptionOf = (b: NonNullable<typeof mainBundle>, i: number) => b.pipes[i]!.table.entries.find((e) => e.key === 'description')!.value.range;
        const pool: Array<{ file: string; edit: TextEdit }> = [];
        mainBundle!.pipes.forEach((p, i) => {
          const d = descriptionOf(mainBundle!, i);
          const inputs = p.table.entries.find((e) => e.key === 'inputs')!;
          pool.push({ file: MAIN, edit: removes[i] ? { file: MAIN, range: inputs.value.range, newText: '{}' } : { file: MAIN, range: d, newText: `"pipe ${i}"` } });
        });
        // Renames Beta (read by the other file when otherReads), and Alpha's description.
        pool.push({ file: MAIN, edit: edit(MAIN, main, main.indexOf('[concept.Beta]') + '[concept.'.length, 4, 'Gamma') });
        pool.push({ file: MAIN, edit: edit(MAIN, main, main.indexOf('"An alpha"'), '"An alpha"'.length, '"The alpha"') });
        otherBundle!.pipes.forEach((_, i) => pool.push({ file: OTHER, edit: { file: OTHER, range: descriptionOf(otherBundle!, i), newText: `"other ${i}"` } }));
        // A harmful edit of the other file: a pipe's output names a concept nobody declares.
        pool.push({ file: OTHER, edit: edit(OTHER, other, other.lastIndexOf('output = "') + 'output = "'.length, 4, 'Nowhere') });
        pool.push({ file: OTHER, edit: edit(OTHER, other, other.indexOf('[pipe.o0]') + '[pipe.'.length, 2, 'zz') });
        const findings: Finding[] = pool.flatMap((p, i) => (taken[i] ? [makeFinding('method.syntax', { finding: `f${i}` }, p.file, p.edit.range, { fix: { title: `fix ${i}`, safe: true, edits: [p.edit] } })] : []));
        const chosen = chooseSafeFixes(findings, () => true, true);
        // Nothing to try: an empty verdict.
        if (chosen.length === 0) expect(keepHarmlessFixes(tree, undefined, chosen, new FixTrials())).toEqual({ kept: [], rolledBack: [] });
        const summary = (v: FixVerdict) => ({ kept: v.kept.map((k) => k.fix.title), rolledBack: v.rolledBack.map((r) => [r.fix.title, r.error.code, r.error.file, r.error.message]) });
        const expected = summary(verdictFromScratch(tree, chosen));
        if (expected.rolledBack.length > 0) rolledBackSeen++;
        if (expected.rolledBack.some((r) => r[2] === OTHER)) othersRolledBack++;
        expect(summary(keepHarmlessFixes(tree, undefined, chosen))).toEqual(expected);
        expect(summary(keepHarmlessFixes(tree, checkTree(tree), chosen))).toEqual(expected);
        // Trials kept from one verdict to the next follow the versions of the tree: each verdict is
        // that of checking every trial of that version from scratch.
        const keep = new FixTrials();
        expect(summary(keepHarmlessFixes(tree, undefined, chosen, keep))).toEqual(expected);
        const trials = keep.take(tree);
        keep.give(trials);
        // Trials whose first verdict was given the tree's findings (not checked, see assumeBaseline)
        // follow the versions as well.
        const keepGiven = new FixTrials();
        expect(summary(keepHarmlessFixes(tree, checkTree(tree), chosen, keepGiven))).toEqual(expected);
        // Trials given the tree's findings at every verdict (as the language server gives them)
        // follow the versions too, and are never made anew.
        const keepAlwaysGiven = new FixTrials();
        expect(summary(keepHarmlessFixes(tree, checkTree(tree), chosen, keepAlwaysGiven))).toEqual(expected);
        const givenTrials = keepAlwaysGiven.take(tree);
        keepAlwaysGiven.give(givenTrials);
        let version = tree;
        for (const v of versions) {
          const { file, from, to } = VERSIONS[v]!;
          const index = bundleIndex(version).get(file)!;
          const text = version.bundles[index]!.doc.text;
          if (text.includes(from)) version = updateTree(version, [{ index, bundle: buildBundle(file, parseToml(text.replace(from, to))) }]);
          const fromScratch = summary(verdictFromScratch(version, chosen));
          if (version !== tree) moved++;
          expect(summary(keepHarmlessFixes(version, undefined, chosen, keep))).toEqual(fromScratch);
          expect(summary(keepHarmlessFixes(version, undefined, chosen, keepGiven))).toEqual(fromScratch);
          expect(summary(keepHarmlessFixes(version, checkTree(version), chosen, keepAlwaysGiven))).toEqual(fromScratch);
          const given = keepAlwaysGiven.take(version);
          if (chosen.length > 0) expect(given).toBe(givenTrials);
          keepAlwaysGiven.give(given);
          // Asked again for the same version (another document of the tree).
          expect(summary(keepHarmlessFixes(version, undefined, chosen, keep))).toEqual(fromScratch);
          // The same trials, moved: never made anew. With no fix chosen no verdict checked any
          // trial: there is nothing to move (a random scenario chooses none about once in 35 runs).
          const now = keep.take(version);
          if (chosen.length > 0) expect(now).toBe(trials);
          keep.give(now);
        }
      }),
      { numRuns: 60 },
    );
    expect(moved).toBeGreaterThan(20);
    // The runs covered rollbacks, some for an error in the file the fix did not edit.
    expect(rolledBackSeen).toBeGreaterThan(10);
    expect(othersRolledBack).toBeGreaterThan(0);
  });
});
