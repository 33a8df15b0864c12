import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planRename, prepareRename } from '../../../server/src/ide/rename.js';
import { targetsOf } from '../../../server/src/ide/symbolIndex.js';
import { occurrenceAt } from '../../../server/src/ide/occurrences.js';
import { ROOT, treeOf } from '../../helpers/tree.js';

const A = `domain = "shop"
description = "Shop"

[concept.Order]
description = "An order"

[concept.Order.structure]
id = "The id"

[concept.Cart]
description = "A cart"

[pipe.place]
type = "PipeSequence"
description = "Place"
inputs = { cart = "Cart" }
output = "Order"
steps = [{ pipe = "checkout", result = "order" }]
`;

const B = `domain = "shop"
description = "More"

[pipe.checkout]
type = "PipeLLM"
description = "Checkout"
inputs = { cart = "shop.Cart" }
output = "Order"
prompt = "Check out $cart"
`;

const MANIFEST = `[package]
name = "shop"
address = "github.com/example/shop"
version = "1.0.0"
description = "Shop"
main_pipe = "place"

[exports.shop]
pipes = ["place", "checkout"]
`;

function setup() {
  const tree = treeOf({ 'a.mthds': A, 'b.mthds': B, 'METHODS.toml': MANIFEST });
  const a = tree.bundles.find((b) => b.file === path.join(ROOT, 'a.mthds'))!;
  const b = tree.bundles.find((x) => x.file === path.join(ROOT, 'b.mthds'))!;
  return { tree, a, b };
}

function apply(text: string, edits: Array<{ range: { start: number; end: number }; newText: string }>): string {
  let out = text;
  for (const e of [...edits].sort((x, y) => y.range.start - x.range.start)) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}

describe('rename planning', () => {
  it('renames a concept in both header segments and every reference', () => {
    const { tree, a, b } = setup();
    const plan = planRename(tree, b, B.indexOf('"Order"') + 1, 'Purchase');
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const forA = plan.edits.filter((e) => e.file === a.file);
    expect(apply(A, forA)).toContain('[concept.Purchase]\ndescription = "An order"\n\n[concept.Purchase.structure]');
    expect(apply(A, forA)).toContain('output = "Purchase"');
    expect(apply(B, plan.edits.filter((e) => e.file === b.file))).toContain('output = "Purchase"');
  });

  it('renames a pipe in the manifest too', () => {
    const { tree, b } = setup();
    const plan = planRename(tree, b, B.indexOf('[pipe.checkout]') + 7, 'pay');
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const manifest = plan.edits.filter((e) => e.file.endsWith('METHODS.toml'));
    expect(apply(MANIFEST, manifest)).toContain('pipes = ["place", "pay"]');
    expect(apply(A, plan.edits.filter((e) => e.file.endsWith('a.mthds')))).toContain('{ pipe = "pay", result = "order" }');
    const main = planRename(tree, setup().a, A.indexOf('[pipe.place]') + 7, 'order_it');
    expect(main.ok && apply(MANIFEST, main.edits.filter((e) => e.file.endsWith('METHODS.toml')))).toContain('main_pipe = "order_it"');
  });

  it('refuses with reasons', () => {
    const { tree, a } = setup();
    const at = A.indexOf('"Cart"') + 1;
    expect(planRename(tree, a, at, 'cart')).toMatchObject({ ok: false, message: expect.stringMatching(/PascalCase/) });
    expect(planRename(tree, a, at, 'Order')).toMatchObject({ ok: false, message: expect.stringMatching(/already exists/) });
    expect(planRename(tree, a, at, 'Image')).toMatchObject({ ok: false, message: expect.stringMatching(/native/) });
    expect(planRename(tree, a, at, 'Cart')).toEqual({ ok: true, edits: [] });
    expect(prepareRename(tree, a, A.indexOf('PipeSequence') + 1)).toMatchObject({ ok: false });
  });

  it('sends a result read to the step storing it', () => {
    const { tree, a } = setup();
    const o = occurrenceAt(tree, a, A.indexOf('result = "order"') + 11)!;
    expect(o.kind).toBe('result');
    const [target] = targetsOf(tree, o, 'definition');
    expect(A.slice(target!.range.start, target!.range.end)).toBe('{ pipe = "checkout", result = "order" }');
  });
});
