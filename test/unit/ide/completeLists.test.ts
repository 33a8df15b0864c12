// The lists of the tree's concepts and pipes are made once per state of the tree's declarations
// and come in the order of their sort texts: on random trees met one after the other (the kept
// lists must follow every change), they hold exactly the items the plain listing gives.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nativeMarkdown, writtenSignature } from '../../../server/src/ide/describe.js';
import type { Bundle, PipeDecl } from '../../../server/src/language/model.js';
import { conceptCompletions, pipeCompletions, prepareCompletionList, prepareSharedConceptLists, type ConceptOptions, type PipeOptions } from '../../../server/src/ide/completion/refs.js';
import type { Completion } from '../../../server/src/ide/completion/types.js';
import { NATIVE_CONCEPTS } from '../../../server/src/language/spec/natives.js';
import { SPECIAL_OUTCOMES } from '../../../server/src/language/spec/lexical.js';
import type { MethodTree } from '../../../server/src/language/tree.js';
import { MAX_ITEMS, narrow } from '../../../server/src/ide/completion/narrow.js';
import { treeOf } from '../../helpers/tree.js';

const firstLine = (text: string | undefined): string => (text === undefined ? 'concept' : text.split('\n')[0]!);

/** The concept list as first defined: every item made in table order. */
function plainConcepts(tree: MethodTree, bundle: Bundle, options: ConceptOptions): Completion[] {
  const out: Completion[] = [];
  const domain = bundle.domain?.value;
  const { range, close } = options;
  for (const native of NATIVE_CONCEPTS) out.push({ label: native.code, kind: 'native', detail: 'native concept', documentation: nativeMarkdown(native), insertText: native.code + close, range, sortText: `1${native.code}` });
  const add = (label: string, key: string, detail: string, rank: string): void => {
    if (key !== options.exclude) out.push({ label, kind: 'concept', detail, resolve: { kind: 'concept', key }, insertText: label + close, range, sortText: `${rank}${label}` });
  };
  for (const [d, table] of tree.symbols) {
    for (const [code, decls] of table.concepts) add(d === domain && !options.qualified ? code : `${d}.${code}`, `${d}.${code}`, firstLine(decls[0]!.description?.value), d === domain ? '0' : '2');
  }
  if (domain === undefined) for (const c of bundle.concepts) add(c.code, `.${c.code}`, firstLine(c.description?.value), '0');
  return out;
}

/** The pipe list as first defined. */
function plainPipes(tree: MethodTree, bundle: Bundle, options: PipeOptions): Completion[] {
  const out: Completion[] = [];
  const domain = bundle.domain?.value;
  const seen = new Set<string>();
  const add = (label: string, pipe: PipeDecl, rank: string): void => {
    if (seen.has(label) || pipe === options.exclude || (options.exclude && pipe.code === options.exclude.code && pipe.bundle.domain?.value === domain)) return;
    seen.add(label);
    out.push({ label, kind: 'pipe', detail: writtenSignature(pipe), resolve: { kind: 'pipe', key: `${pipe.bundle.domain?.value ?? ''}.${pipe.code}` }, insertText: label + options.close, range: options.range, sortText: `${rank}${label}` });
  };
  const own = (code: string): string => (options.qualified && domain !== undefined ? `${domain}.${code}` : code);
  for (const p of bundle.pipes) add(own(p.code), p, '0');
  if (!options.ownOnly) {
    for (const [d, table] of tree.symbols) {
      for (const [code, decls] of table.pipes) {
        const decl = decls.find((x) => !x.typeless) ?? decls[0]!;
        add(d === domain ? own(code) : `${d}.${code}`, decl, d === domain ? '0' : '2');
      }
    }
  }
  if (options.specials) for (const s of SPECIAL_OUTCOMES) out.push({ label: s, kind: 'keyword', detail: s === 'fail' ? 'stop the run with an error' : 'go on without an output', documentation: s === 'fail' ? '`fail`: the run stops with an error when this outcome is chosen.' : '`continue`: the condition produces no output (declare the output `?`).', insertText: s + options.close, range: options.range, sortText: `1${s}` });
  return out;
}

/** Stable, by sort text compared in code units (as lsp/completion.ts narrows). */
function bySortText(items: Completion[]): Completion[] {
  const key = (c: Completion): string => c.sortText ?? c.label;
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const bundle = fc.record({
  domain: fc.option(fc.constantFrom('legal', 'hr', 'fin', 'Fin', 'legal.read'), { nil: undefined }),
  concepts: fc.uniqueArray(fc.record({ code: fc.constantFrom('Text', 'Contract', 'Clause', 'Party', 'party', 'Zed'), description: fc.constantFrom('a', 'b\nmore') }), { selector: (c) => c.code, maxLength: 4 }),
  pipes: fc.uniqueArray(fc.record({ code: fc.constantFrom('read', 'write', 'Review', 'sum_up', '"read.write"'), typeless: fc.boolean(), output: fc.constantFrom('Text', 'Contract') }), { selector: (p) => p.code, maxLength: 4 }),
});

function text(b: { domain: string | undefined; concepts: Array<{ code: string; description: string }>; pipes: Array<{ code: string; typeless: boolean; output: string }> }): string {
  const lines = b.domain === undefined ? [] : [`domain = "${b.domain}"`];
  for (const c of b.concepts) lines.push(`[concept.${c.code}]`, `description = ${JSON.stringify(c.description)}`);
  for (const p of b.pipes) lines.push(`[pipe.${p.code}]`, ...(p.typeless ? [] : ['type = "PipeLLM"', 'prompt = "x"']), 'description = "p"', `output = "${p.output}"`);
  return lines.join('\n') + '\n';
}

describe('concept and pipe lists', () => {
  it('hold the items of the plain listing, sorted, through a sequence of trees', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(bundle, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        fc.record({ close: fc.constantFrom('', '"'), qualified: fc.boolean(), specials: fc.boolean(), ownOnly: fc.boolean(), exclude: fc.boolean() }),
        (trees, o) => {
          for (const bundles of trees) {
            const tree = treeOf(Object.fromEntries(bundles.map((b, i) => [`b${i}.mthds`, text(b)])));
            for (const from of tree.bundles) {
              const range = { start: 3, end: 5 };
              const concepts: ConceptOptions = { range, close: o.close, qualified: o.qualified, ...(o.exclude && from.concepts[0] ? { exclude: `${from.domain?.value ?? ''}.${from.concepts[0].code}` } : {}) };
              expect(conceptCompletions(tree, from, concepts)).toEqual(bySortText(plainConcepts(tree, from, concepts)));
              const pipes: PipeOptions = { range, close: o.close, qualified: o.qualified, specials: o.specials, ownOnly: o.ownOnly, ...(o.exclude && from.pipes[0] ? { exclude: from.pipes[0] } : {}) };
              expect(pipeCompletions(tree, from, pipes)).toEqual(bySortText(plainPipes(tree, from, pipes)));
            }
          }
        },
      ),
      { seed: 11, numRuns: 250 },
    );
  });

  it('made ahead in steps (left at any step, taken up by a request or the next preparation), hold what a request makes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(bundle, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 3 }),
        fc.record({ close: fc.constantFrom('', '"'), qualified: fc.boolean(), specials: fc.boolean() }),
        (trees, stops, o) => {
          for (const bundles of trees) {
            const tree = treeOf(Object.fromEntries(bundles.map((b, i) => [`b${i}.mthds`, text(b)])));
            for (const from of tree.bundles) {
              // Preparations left after a number of steps (a change came), one of each kind per stop.
              for (const stop of stops) {
                for (const kind of ['concepts', 'pipes'] as const) {
                  const steps = prepareCompletionList(tree, from, kind);
                  for (let k = 0; k < stop && !steps.next().done; k++);
                }
              }
              const range = { start: 3, end: 5 };
              const concepts: ConceptOptions = { range, close: o.close, qualified: o.qualified };
              expect(conceptCompletions(tree, from, concepts)).toEqual(bySortText(plainConcepts(tree, from, concepts)));
              const pipes: PipeOptions = { range, close: o.close, qualified: o.qualified, specials: o.specials, ownOnly: false };
              expect(pipeCompletions(tree, from, pipes)).toEqual(bySortText(plainPipes(tree, from, pipes)));
            }
          }
        },
      ),
      { seed: 17, numRuns: 250 },
    );
  });

  it('with what every list of the tree shares made ahead (left at any step), hold what a request makes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(bundle, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        fc.nat({ max: 6 }),
        fc.record({ close: fc.constantFrom('', '"'), qualified: fc.boolean() }),
        (trees, stop, o) => {
          for (const bundles of trees) {
            const tree = treeOf(Object.fromEntries(bundles.map((b, i) => [`b${i}.mthds`, text(b)])));
            const steps = prepareSharedConceptLists(tree);
            for (let k = 0; k < stop && !steps.next().done; k++);
            for (const from of tree.bundles) {
              const concepts: ConceptOptions = { range: { start: 3, end: 5 }, close: o.close, qualified: o.qualified };
              expect(conceptCompletions(tree, from, concepts)).toEqual(bySortText(plainConcepts(tree, from, concepts)));
            }
          }
        },
      ),
      { seed: 23, numRuns: 250 },
    );
  });

  it('of two domains share the items of a third domain: a list makes only its own domain\'s', () => {
    const many = (d: string): string => [`domain = "${d}"`, ...Array.from({ length: 5 }, (_, i) => `[concept.C${i}${d}]\ndescription = "c"`)].join('\n') + '\n';
    const tree = treeOf({ 'a.mthds': many('legal'), 'b.mthds': many('hr'), 'c.mthds': many('fin') });
    for (const g = prepareSharedConceptLists(tree); !g.next().done; );
    const range = { start: 0, end: 0 };
    const [fromLegal, fromHr] = [tree.bundles[0]!, tree.bundles[1]!];
    const fin = (items: ReturnType<typeof conceptCompletions>) => items.filter((i) => i.label.startsWith('fin.')).map((i) => i.resolve);
    const legalItems = conceptCompletions(tree, fromLegal, { range, close: '' });
    const hrItems = conceptCompletions(tree, fromHr, { range, close: '' });
    expect(fin(legalItems)).toHaveLength(5);
    fin(legalItems).forEach((r, i) => expect(r).toBe(fin(hrItems)[i]));
    // A domain's own items are its list's: bare from itself, qualified from the other.
    expect(legalItems.filter((i) => i.label.endsWith('legal')).map((i) => i.label)).toEqual(['C0legal', 'C1legal', 'C2legal', 'C3legal', 'C4legal']);
    expect(hrItems.filter((i) => i.label.startsWith('legal.'))).toHaveLength(5);
  });

  it('made ahead in full, are the lists a request then reads (nothing is made again)', () => {
    const many = (d: string): string => [`domain = "${d}"`, ...Array.from({ length: 30 }, (_, i) => `[concept.C${i}${d}]\ndescription = "c"\n[pipe.p${i}]\ntype = "PipeLLM"\ndescription = "p"\noutput = "Text"\nprompt = "x"`)].join('\n') + '\n';
    const tree = treeOf({ 'a.mthds': many('legal'), 'b.mthds': many('hr'), 'c.mthds': many('legal.read'), 'd.mthds': many('fin') });
    const from = tree.bundles[1]!;
    let steps = 0;
    for (const kind of ['concepts', 'pipes'] as const) for (const g = prepareCompletionList(tree, from, kind); !g.next().done; ) steps += 1;
    expect(steps).toBeGreaterThan(4);
    // Prepared again: every list is kept, so only the tables are read.
    let again = 0;
    for (const kind of ['concepts', 'pipes'] as const) for (const g = prepareCompletionList(tree, from, kind); !g.next().done; ) again += 1;
    expect(again).toBeLessThan(steps);
    const range = { start: 0, end: 0 };
    const items = conceptCompletions(tree, from, { range, close: '' });
    expect(items).toEqual(bySortText(plainConcepts(tree, from, { range, close: '' })));
    expect(items.slice(0, 30).every((i) => i.sortText?.startsWith('0C'))).toBe(true);
  });

  it('offer a label two tables write alike once, as the first table offers it', () => {
    // `legal.read.write` is both the pipe `write` of `legal.read` and the pipe `read.write` of `legal`.
    const pipe = (code: string): string => `[pipe.${code}]\ntype = "PipeLLM"\ndescription = "p"\noutput = "Text"\nprompt = "x"\n`;
    const tree = treeOf({ 'a.mthds': `domain = "legal.read"\n${pipe('write')}`, 'b.mthds': `domain = "legal"\n${pipe('"read.write"')}`, 'c.mthds': `domain = "legal"\n${pipe('other')}` });
    const from = tree.bundles[2]!;
    const options: PipeOptions = { range: { start: 0, end: 0 }, close: '', qualified: true, specials: false, ownOnly: false };
    const items = pipeCompletions(tree, from, options);
    expect(items.filter((i) => i.label === 'legal.read.write').map((i) => i.resolve)).toEqual([{ kind: 'pipe', key: 'legal.read.write' }]);
    expect(items.find((i) => i.label === 'legal.read.write')!.sortText).toBe('2legal.read.write');
    expect(items).toEqual(bySortText(plainPipes(tree, from, options)));
  });

  it('narrowed where they are made, give what narrowing the whole list gives', () => {
    // Long lists: many concepts and pipes over a few domains, some with a dependency; the cursor after a
    // typed prefix of the reference (its range starts at the opening quote's end).
    const domains = ['legal', 'hr', 'fin', 'legal.read'];
    const many = (d: string, n: number, seed: number): string => {
      const lines = [`domain = "${d}"`];
      for (let i = 0; i < n; i++) lines.push(`[concept.${['Con', 'Ca', 'Zed', 'Ab', 'C'][(i + seed) % 5]}${i}x${seed}]`, `description = "c${i}"`);
      // Some codes dotted (`"a.c5x0"`); the open bundle declares `"read.c1x3"`, which `legal` offers as `legal.read.c1x3`, as `legal.read` does.
      for (let i = 0; i < n; i++) lines.push(`[pipe.${(i + seed) % 6 === 5 ? `"a.c${i}x${seed}"` : `${['con', 'ca', 'zed', 'ab', 'c'][(i + seed) % 6]}${i}x${seed}`}]`, 'type = "PipeLLM"', 'description = "p"', 'output = "Text"', 'prompt = "x"');
      return lines.join('\n') + '\n';
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 40, max: 220 }),
        fc.oneof(fc.stringMatching(/^[acCzZ0-9x]{0,3}$/), fc.constantFrom('c1x3', 'rc1x')),
        fc.record({ close: fc.constantFrom('', '"'), qualified: fc.boolean(), exclude: fc.boolean(), homeless: fc.boolean(), dependency: fc.boolean(), specials: fc.boolean() }),
        (home, perDomain, typed, o) => {
          const files: Record<string, string> = Object.fromEntries(domains.map((d, i) => [`b${i}.mthds`, many(d, perDomain, i)]));
          if (o.dependency) files['METHODS.toml'] = '[package]\nname = "p"\naddress = "github.com/example/p"\nversion = "1.0.0"\ndescription = "p"\n\n[dependencies]\nca = { address = "github.com/example/ca", version = "^1.0.0" }\n';
          const source = `${o.homeless ? '' : `domain = "${domains[home]}"\n`}[concept.Cab]\ndescription = "x"\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\noutput = "${typed}"\nprompt = "x"\n[pipe."read.c1x3"]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Text"\nprompt = "x"\n`;
          files['open.mthds'] = source;
          const tree = treeOf(files);
          const from = tree.bundles.find((b) => b.file.endsWith('open.mthds'))!;
          const start = source.indexOf('output = "') + 'output = "'.length;
          const offset = start + typed.length;
          const options: ConceptOptions = { range: { start, end: offset }, close: o.close, qualified: o.qualified, ...(o.exclude ? { exclude: `${from.domain?.value ?? ''}.Cab` } : {}) };
          const full = conceptCompletions(tree, from, options);
          expect(full.length).toBeGreaterThan(MAX_ITEMS / 4);
          expect(narrow(conceptCompletions(tree, from, { ...options, narrowAt: offset }), source, offset)).toEqual(narrow(full, source, offset));
          const pipes: PipeOptions = { range: options.range, close: o.close, qualified: o.qualified, specials: o.specials, ownOnly: false, ...(o.exclude ? { exclude: from.pipes[0]! } : {}) };
          expect(narrow(pipeCompletions(tree, from, { ...pipes, narrowAt: offset }), source, offset)).toEqual(narrow(pipeCompletions(tree, from, pipes), source, offset));
        },
      ),
      { seed: 5, numRuns: 120 },
    );
  });
});
