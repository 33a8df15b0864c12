// The cycle search in steps: a large graph is walked a part at a time (the language server serves
// requests between the parts), and what it finds does not depend on where it paused.

import { describe, expect, it } from 'vitest';
import { findTreeCycleSteps } from '../../../server/src/check/rules/cycles.js';
import { treeOf } from '../../helpers/tree.js';
import { runCounted } from '../../helpers/runCounted.js';

/** A chain of `n` pipes, each calling the next, the last calling the first: one loop through all. */
function ring(n: number): Record<string, string> {
  let text = 'domain = "demo"\n';
  for (let i = 0; i < n; i++) text += `[pipe.p${i}]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = [{ pipe = "p${(i + 1) % n}", result = "x" }]\n`;
  // A refinement loop in another bundle, found in the same search.
  const concepts = 'domain = "demo"\n[concept.A]\ndescription = "a"\nrefines = "B"\n[concept.B]\ndescription = "b"\nrefines = "A"\n';
  return { 'ring.mthds': text, 'concepts.mthds': concepts };
}

describe('the cycle search in steps', () => {
  it('pauses while walking a large graph and finds every cycle all the same', () => {
    const tree = treeOf(ring(3000));
    const { pauses, value: facts } = runCounted(findTreeCycleSteps(tree));
    // 3,000 pipes with one edge each: the walk pauses several times rather than once at the end.
    expect(pauses).toBeGreaterThanOrEqual(5);
    expect(facts.map((f) => [f.kind, f.steps.length])).toEqual([
      ['refines', 2],
      ['pipe', 3000],
    ]);
  });

  it('finds the same cycles however the walk is resumed (interleaved with another search of the tree)', () => {
    const tree = treeOf(ring(1500));
    const a = findTreeCycleSteps(tree);
    const b = findTreeCycleSteps(tree);
    let ra = a.next();
    let rb = b.next();
    while (!ra.done || !rb.done) {
      if (!ra.done) ra = a.next();
      if (!rb.done) rb = b.next();
    }
    expect(ra.value).toEqual(rb.value);
    expect(ra.value).toHaveLength(2);
  });
});
