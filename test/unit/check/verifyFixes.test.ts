// A safe fix whose result has a new error is rolled back; the harmless ones around it are kept,
// and the tree the fixes were computed on is left as it was.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseSafeFixes } from '../../../server/src/check/applyFixes.js';
import { makeFinding, type Finding } from '../../../server/src/check/finding.js';
import { checkTree } from '../../../server/src/check/index.js';
import { removeInputEdit } from '../../../server/src/check/modelEdits.js';
import { keepHarmlessFixes } from '../../../server/src/check/verifyFixes.js';
import { HEADER, ROOT, treeOf } from '../../helpers/tree.js';

const FILE = path.join(ROOT, 'main.mthds');

const pipe = (code: string, prompt: string): string => `[pipe.${code}]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\nprompt = "${prompt}"\n\n`;

describe('keepHarmlessFixes', () => {
  it('rolls back exactly the fixes that bring an error, among many harmless ones', () => {
    // Twelve pipes that read `doc`; "removing" it is harmful where the prompt reads it, harmless in a comment.
    const text = `${HEADER}${Array.from({ length: 12 }, (_, i) => pipe(`p${i}`, 'Read $doc')).join('')}`;
    const tree = treeOf({ 'main.mthds': text });
    const baseline = checkTree(tree);
    expect(baseline.filter((f) => f.severity === 'error')).toEqual([]);
    const bundle = tree.bundles[0]!;
    // Pretend findings offering a safe fix: harmful for p3 and p8 (removing the input), harmless for the others (a description).
    const findings: Finding[] = bundle.pipes.map((p, i) => {
      const harmful = i === 3 || i === 8;
      const description = p.table.entries.find((e) => e.key === 'description')!.value.range;
      const edit = harmful ? removeInputEdit(bundle, p, p.inputs[0]!) : { file: FILE, range: description, newText: `"pipe ${i}"` };
      return makeFinding('method.input_unused', { pipe: p.code, variables: ['doc'] }, FILE, p.inputs[0]!.nameRange, { fix: { title: `fix ${i}`, safe: true, edits: [edit] } });
    });
    const verdict = keepHarmlessFixes(tree, baseline, chooseSafeFixes(findings));
    expect(verdict.rolledBack.map((r) => [r.fix.title, r.error.code])).toEqual([
      ['fix 3', 'method.input_undeclared'],
      ['fix 8', 'method.input_undeclared'],
    ]);
    expect(verdict.kept.map((k) => k.fix.title)).toEqual(['fix 0', 'fix 1', 'fix 2', 'fix 4', 'fix 5', 'fix 6', 'fix 7', 'fix 9', 'fix 10', 'fix 11']);
    // The tree itself is untouched: checked again, it has the same findings.
    expect(checkTree(tree)).toEqual(baseline);
  });

  it('keeps every fix when none brings an error, after one check', () => {
    const text = `${HEADER}${pipe('a', 'Read $doc')}`;
    const tree = treeOf({ 'main.mthds': text });
    const description = tree.bundles[0]!.pipes[0]!.table.entries.find((e) => e.key === 'description')!.value.range;
    const f = makeFinding('method.syntax', { finding: 'x' }, FILE, description, { fix: { title: 'describe', safe: true, edits: [{ file: FILE, range: description, newText: '"better"' }] } });
    const verdict = keepHarmlessFixes(tree, checkTree(tree), chooseSafeFixes([f]));
    expect(verdict.kept).toHaveLength(1);
    expect(verdict.rolledBack).toEqual([]);
  });
});
