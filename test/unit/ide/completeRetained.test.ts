// The concept and pipe lists kept between completion requests (the latest entries of each domain, the
// lists of the open documents' domains) hold their names and details in strings of their own: a
// detail cut from a bundle's text kept that whole text alive after the bundle was replaced (seen in
// a heap snapshot of the language server: 5.7 MB of replaced bundles' texts after 1,000 files
// changed on disk).

import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { conceptCompletions, pipeCompletions } from '../../../server/src/ide/completion/refs.js';
import { createTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const used = (): number => {
  gc();
  return v8.getHeapStatistics().used_heap_size;
};

/** A bundle of `size` characters (mostly a comment) declaring concepts with long descriptions. */
function bigBundle(size: number, round: number): string {
  const concepts = Array.from({ length: 20 }, (_, i) => `[concept.RetainedThing${i}]\ndescription = "The retained thing number ${i}, round ${round}, described at length"\n`).join('\n');
  const pipes = Array.from({ length: 20 }, (_, i) => `[pipe.retained_pipe_number_${i}]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { the_text = "RetainedThing${i}" }\noutput = "RetainedThing${(i + 1) % 20}"\nprompt = "x"\n`).join('\n');
  return `domain = "retained"\ndescription = "A large bundle"\n\n${concepts}\n${pipes}\n${`# ${'x'.repeat(98)}\n`.repeat(Math.ceil(size / 101))}`;
}

describe('completion lists kept between requests', () => {
  it('do not keep the text of a replaced bundle alive', () => {
    const request = (round: number): number => {
      const bundle = buildBundle('/w/retained.mthds', parseToml(bigBundle(4_000_000, round)));
      const other = buildBundle('/w/other.mthds', parseToml('domain = "other"\ndescription = "Another domain"\n'));
      const tree = createTree('/w', [bundle, other]);
      const range = { start: 0, end: 0 };
      // The retained domain's pipes as another domain sees them (qualified), and its concepts.
      return conceptCompletions(tree, bundle, { range, close: '' }).length + pipeCompletions(tree, other, { range, close: '', specials: false, ownOnly: false }).length;
    };
    expect(request(1)).toBeGreaterThan(40);
    const before = used();
    // The bundle replaced by other versions, each offered once: their texts (8 MB each) are garbage.
    for (let round = 2; round < 6; round++) request(round);
    expect(used() - before).toBeLessThan(4 * 2 ** 20);
  });
});
