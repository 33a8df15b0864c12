// The safe fix-all never damages a method: for random single faults in valid bundles (a misspelt
// key, a misspelt reference, a wrong pipe type), the language server's fix-all
// (`source.fixAll.mthds`, fixAllEdits) and `mthds check --fix` (fixTrees, passes on disk) never
// remove a declaration the author wrote and never leave more errors than they found. A finding
// another finding of its pipe can explain (an input unused while the key reading it is misspelt)
// offers its fix as a suggestion only, and the cause's fix goes first.

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../server/src/check/applyFixes.js';
import { checkTree, type Finding } from '../../../server/src/check/index.js';
import { sampleBundle } from '../../../server/src/language/sampleBundles.js';
import { fixAllEdits } from '../../../server/src/lsp/codeActions.js';
import { fixTrees } from '../../../server/src/cli/checkFix.js';
import { loadTree, planTrees } from '../../../server/src/workspace/load.js';
import { applyFault, declarations, fault } from '../../fuzz/faults.js';
import { treeOf } from '../../helpers/tree.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const RECIPES = `domain = "recipes"
description = "Suggest a recipe for the ingredients at hand"

[concept.Ingredient]
description = "An ingredient"

[concept.Recipe]
description = "A recipe"

[concept.Recipe.structure]
title = { type = "text", description = "The name of the dish", required = true }
servings = { type = "integer", description = "How many it feeds", default_value = 2 }

[pipe.suggest_recipe]
type = "PipeLLM"
description = "Suggest a recipe"
inputs = { ingredients = "Ingredient[]", guests = "Text" }
output = "Recipe"
prompt = "Suggest a recipe using $ingredients for $guests"

[pipe.plan_dinner]
type = "PipeSequence"
description = "Plan a dinner"
inputs = { ingredients = "Ingredient[]", guests = "Text" }
output = "Recipe"
steps = [{ pipe = "suggest_recipe", result = "recipe" }]
`;

const BASES = [RECIPES, sampleBundle({ domain: 'sample' }), readFileSync(path.resolve(__dirname, '../../../examples/news/news.mthds'), 'utf8')];

const errors = (findings: readonly Finding[]): number => findings.filter((f) => f.severity === 'error').length;

/** Every declaration of the valid bundle that the fault left in place is still there after the fix-all. */
function expectKept(base: string, faulty: string, fixed: string): void {
  const before = declarations(faulty);
  const after = declarations(fixed);
  const lost = [...declarations(base)].filter((d) => before.has(d) && !after.has(d));
  expect(lost, `fixed text:\n${fixed}`).toEqual([]);
}

describe('the bases', () => {
  it('are valid bundles', () => {
    for (const base of BASES) expect(checkTree(treeOf({ 'main.mthds': base })).filter((f) => f.severity === 'error')).toEqual([]);
  });
});

describe('a consequence waits for its cause', () => {
  it('an input unused because the key reading it is misspelt is not safe to remove; the rename is', () => {
    const faulty = RECIPES.replace('prompt = "Suggest', 'promt = "Suggest');
    const findings = checkTree(treeOf({ 'main.mthds': faulty }));
    const unused = findings.filter((f) => f.code === 'method.input_unused');
    expect(unused.map((f) => [f.params['variables'], f.fix?.safe])).toEqual([
      [['ingredients'], false],
      [['guests'], false],
    ]);
    expect(findings.find((f) => f.code === 'method.schema_violation')?.fix).toMatchObject({ title: 'Rename to `prompt`', safe: true });
  });

  it('a PipeSequence with a prompt: nothing removed', async () => {
    const faulty = RECIPES.replace('type = "PipeLLM"', 'type = "PipeSequence"');
    const tree = treeOf({ 'main.mthds': faulty });
    const findings = checkTree(tree);
    expect(findings.filter((f) => f.code === 'method.input_unused').every((f) => f.fix?.safe !== true)).toBe(true);
    const fixed = applyEdits(faulty, await fixAllEdits(findings, tree));
    expectKept(RECIPES, faulty, fixed);
  });

  it('an unused input beside an undeclared read (one a misspelling of the other): neither fix is safe', () => {
    const faulty = RECIPES.replace('using $ingredients', 'using $ingredient');
    const findings = checkTree(treeOf({ 'main.mthds': faulty }));
    const pair = findings.filter((f) => f.code === 'method.input_unused' || f.code === 'method.input_undeclared');
    expect(pair.length).toBeGreaterThanOrEqual(2);
    expect(pair.every((f) => f.fix?.safe !== true)).toBe(true);
  });
});

describe('the fix-all on single faults (property)', () => {
  it('source.fixAll.mthds never removes a declaration and never leaves more errors', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(BASES.length - 1), fault, async (which, f) => {
        const base = BASES[which]!;
        const faulty = applyFault(base, f);
        fc.pre(faulty !== undefined);
        const tree = treeOf({ 'main.mthds': faulty! });
        const found = checkTree(tree);
        const fixed = applyEdits(faulty!, await fixAllEdits(found, tree));
        expect(errors(checkTree(treeOf({ 'main.mthds': fixed })))).toBeLessThanOrEqual(errors(found));
        expectKept(base, faulty!, fixed);
      }),
      { numRuns: 200, seed: 20261128 },
    );
  });

  it('mthds check --fix (passes on disk) never removes a declaration and never leaves more errors', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'mthds-fixall-'));
    let n = 0;
    fc.assert(
      fc.property(fc.nat(BASES.length - 1), fault, (which, f) => {
        const base = BASES[which]!;
        const faulty = applyFault(base, f);
        fc.pre(faulty !== undefined);
        const file = path.join(root, `case${n++}`, 'main.mthds');
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, faulty!);
        const { plans } = planTrees(nodeFileSystem, [file]);
        const found = checkTree(loadTree(nodeFileSystem, plans[0]!).tree);
        fixTrees(plans, (plan) => loadTree(nodeFileSystem, plan).tree);
        const fixed = readFileSync(file, 'utf8');
        expect(errors(checkTree(loadTree(nodeFileSystem, planTrees(nodeFileSystem, [file]).plans[0]!).tree))).toBeLessThanOrEqual(errors(found));
        expectKept(base, faulty!, fixed);
      }),
      { numRuns: 80, seed: 20261129 },
    );
  });
});
