// The per-bundle check cache (what the language server uses between keystrokes) must give exactly
// the findings of a check from scratch: random edit sequences over multi-bundle trees, comparing
// both after every edit.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTree, checkTreeFilesSteps, checkTreeSteps, createCheckCache } from '../../../server/src/check/index.js';
import { runSteps } from '../../../server/src/util/steps.js';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { buildManifest } from '../../../server/src/language/manifest.js';
import type { Bundle } from '../../../server/src/language/model.js';
import { createTree, updateTree, type MethodTree } from '../../../server/src/language/tree.js';
import { parseToml } from '../../../server/src/syntax/document.js';
import { FIXTURE_BUNDLES } from '../../helpers/files.js';
import { bundleFolders, Checker, rng, runSequence } from './cacheSequence.js';
// @ts-expect-error: a plain ES module of the benchmarks
import { generateTree } from '../../../bench/generate.mjs';
import { runCounted } from '../../helpers/runCounted.js';

// More sequences while developing: CHECK_CACHE_SEEDS=200 npx vitest run test/unit/check/checkCache.test.ts
const SEEDS = Number(process.env.CHECK_CACHE_SEEDS ?? 10);

// ---- multi-domain trees: cross-bundle references, cycles, conflicts, files coming and going -------

const DOMAINS = ['alpha', 'beta', 'gamma'];
const CODES = ['Report', 'Summary', 'Draft', 'Note', 'Text'];
const PIPES = ['draft', 'review', 'summarize', 'polish', 'route'];

function pick<T>(xs: readonly T[], random: () => number): T {
  return xs[Math.floor(random() * xs.length)]!;
}

/** A reference to a pipe or concept, bare or qualified by another domain. */
function ref(codes: readonly string[], random: () => number): string {
  const code = pick(codes, random);
  return random() < 0.35 ? `${pick(DOMAINS, random)}.${code}` : code;
}

/** One table a bundle may hold: concepts (refining, structured), pipes of every family the rules read. */
function snippet(n: number, random: () => number): string {
  const concept = pick(CODES, random);
  const pipe = `${pick(PIPES, random)}${Math.floor(random() * 3)}`;
  switch (Math.floor(random() * 9)) {
    case 0:
      return `[concept.${concept}]\ndescription = "c${n}"\nrefines = "${ref(CODES, random)}"\n`;
    case 1:
      return `[concept.${concept}]\ndescription = "c${n}"\n\n[concept.${concept}.structure]\npart = { type = "concept", concept_ref = "${ref(CODES, random)}", description = "p" }\n`;
    case 2:
      return `[pipe.${pipe}]\ntype = "PipeLLM"\ndescription = "p${n}"\ninputs = { text = "Text" }\noutput = "${ref(CODES, random)}${random() < 0.3 ? '?' : ''}"\nprompt = "@text"\n`;
    case 3:
      return `[pipe.${pipe}]\ntype = "PipeSequence"\ndescription = "s${n}"\ninputs = { text = "Text${random() < 0.3 ? '?' : ''}" }\noutput = "${ref(CODES, random)}"\nsteps = [\n  { pipe = "${ref(PIPES.map((p) => `${p}${Math.floor(random() * 3)}`), random)}", result = "a" },\n  { pipe = "${ref(PIPES.map((p) => `${p}${Math.floor(random() * 3)}`), random)}", result = "b" },\n]\n`;
    case 4:
      return `[pipe.${pipe}]\ndescription = "sig${n}"\ninputs = { text = "Text" }\noutput = "${ref(CODES, random)}"\n`;
    case 5:
      return `[pipe.${pipe}]\ntype = "PipeLLM"\ndescription = "f${n}"\ninputs = { text = "Text!" }\noutput = "Text"\nprompt = "@text"\n`;
    case 6:
      return `[pipe.${pipe}]\ntype = "PipeCondition"\ndescription = "c${n}"\ninputs = { text = "Text" }\noutput = "Text"\nexpression = "text"\noutcomes = { yes = "${ref(PIPES.map((p) => `${p}0`), random)}" }\ndefault_outcome = "continue"\n`;
    case 7:
      // A resource of the tree: a file that may come and go.
      return `[pipe.${pipe}]\ntype = "PipeCompose"\ndescription = "t${n}"\ninputs = { text = "Text" }\noutput = "Text"\ntemplate_file = "b${10 + Math.floor(random() * 4)}.mthds"\n`;
    default:
      return `[concept.${concept}]\ndescription = "plain ${n}"\n`;
  }
}

function bundleText(random: () => number, tables: number): string {
  const head = `domain = "${pick(DOMAINS, random)}"\ndescription = "generated"\n${random() < 0.15 ? `main_pipe = "${pick(PIPES, random)}0"\n` : ''}\n`;
  return head + Array.from({ length: tables }, (_, n) => snippet(n, random)).join('\n');
}

/** Codes one edit away from the generated ones: declared, they become a broken reference's suggestions. */
const NEAR = ['Reprt', 'Sumary', 'Drafts', 'Notes', 'Txt', 'draf0', 'revew1', 'summarise0', 'polis2', 'rout1'];

/**
 * One edit of a bundle: typing, tables added or removed, codes renamed, the domain changed (to
 * another domain of the tree, a new one, or none), the main pipe changed, calls changed (cycles
 * made and broken across bundles), names declared near broken references.
 */
function mutateMulti(text: string, random: () => number): string {
  const tables = text.split(/\n(?=\[)/);
  switch (Math.floor(random() * 14)) {
    case 0: {
      // Typing inside a description: no declaration changes.
      return text.replace(/description = "([^"]*)"/, (_m, d: string) => `description = "${d}${random() < 0.5 ? 'x' : ''}"`);
    }
    case 1:
      return `${text}\n${snippet(Math.floor(random() * 100), random)}`;
    case 2:
      if (tables.length > 1) tables.splice(1 + Math.floor(random() * (tables.length - 1)), 1);
      return tables.join('\n');
    case 3: {
      // Rename one code (declarations and references alike).
      const from = pick([...CODES, ...PIPES.map((p) => `${p}0`), ...PIPES.map((p) => `${p}1`)], random);
      const to = pick([...CODES, ...PIPES.map((p) => `${p}2`), 'Fresh', 'fresh0'], random);
      return text.replace(new RegExp(`\\b${from}\\b`), to);
    }
    case 4:
      return text.replace(/^domain = "[^"]*"/, `domain = "${pick(DOMAINS, random)}"`);
    case 5: {
      // Insert text before everything: every range of the file moves.
      return `# ${'x'.repeat(1 + Math.floor(random() * 4))}\n${text}`;
    }
    case 8: {
      // The domain line: another domain of the tree, a new one, or gone.
      const r = random();
      const domain = r < 0.6 ? pick(DOMAINS, random) : r < 0.85 ? `delta${Math.floor(random() * 2)}` : undefined;
      const head = domain === undefined ? '' : `domain = "${domain}"\n`;
      return /^domain = "[^"]*"\n/m.test(text) ? text.replace(/^domain = "[^"]*"\n/m, head) : head + text;
    }
    case 9: {
      // The main pipe: set, changed or removed.
      const line = random() < 0.3 ? '' : `main_pipe = "${pick(PIPES, random)}${Math.floor(random() * 3)}"\n`;
      return /^main_pipe = "[^"]*"\n/m.test(text) ? text.replace(/^main_pipe = "[^"]*"\n/m, line) : text.replace(/^description = "generated"\n/m, (m) => m + line);
    }
    case 10: {
      // A call changed: a step's pipe (bare or in another domain) becomes another one, closing or opening cycles.
      const calls = [...text.matchAll(/pipe = "([^"]*)"/g)];
      const call = calls[Math.floor(random() * calls.length)];
      if (!call || call.index === undefined) return `${text}\n${snippet(Math.floor(random() * 100), random)}`;
      const to = ref(PIPES.map((p) => `${p}${Math.floor(random() * 3)}`), random);
      return text.slice(0, call.index) + `pipe = "${to}"` + text.slice(call.index + call[0].length);
    }
    case 11:
      // A sequence that calls back into pipes of the tree: cycles across bundles.
      return `${text}\n[pipe.${pick(PIPES, random)}${Math.floor(random() * 3)}]\ntype = "PipeSequence"\ndescription = "loop"\ninputs = { text = "Text" }\noutput = "Text"\nsteps = [{ pipe = "${ref(PIPES.map((p) => `${p}${Math.floor(random() * 3)}`), random)}", result = "a" }]\n`;
    case 12: {
      // A name declared near a broken reference (or removed again): the reference's suggestions change.
      const near = pick(NEAR, random);
      const declared = new RegExp(`\\n\\[(concept|pipe)\\.${near}\\][^\\[]*`);
      if (declared.test(text)) return text.replace(declared, '\n');
      return /^[A-Z]/.test(near)
        ? `${text}\n[concept.${near}]\ndescription = "near"\n`
        : `${text}\n[pipe.${near}]\ntype = "PipeLLM"\ndescription = "near"\ninputs = { text = "Text" }\noutput = "Text"\nprompt = "@text"\n`;
    }
    case 13: {
      // A reference broken by a typo (its suggestions read the tables).
      const refs = [...text.matchAll(/(output|refines|concept_ref|pipe) = "([A-Za-z]+)/g)];
      const r = refs[Math.floor(random() * refs.length)];
      if (!r || r.index === undefined) return text;
      const at = r.index + r[0].length - 1;
      return text.slice(0, at) + text.slice(at + 1);
    }
    case 6: {
      // Swap two tables: the same declarations in another order.
      if (tables.length > 2) {
        const i = 1 + Math.floor(random() * (tables.length - 1));
        const j = 1 + Math.floor(random() * (tables.length - 1));
        [tables[i], tables[j]] = [tables[j]!, tables[i]!];
      }
      return tables.join('\n');
    }
    default: {
      const lines = text.split('\n');
      lines.splice(Math.floor(random() * lines.length), 1);
      return lines.join('\n');
    }
  }
}

function runMultiSequence(seed: number, edits: number, seen: Set<string>): void {
  const random = rng(seed);
  const root = '/virtual/multi';
  const files = new Map<string, Bundle>();
  const texts = new Map<string, string>();
  const put = (name: string, text: string): void => {
    texts.set(name, text);
    files.set(name, buildBundle(path.join(root, name), parseToml(text)));
  };
  for (let i = 0; i < 10; i++) put(`b${i}.mthds`, bundleText(random, 3 + Math.floor(random() * 4)));
  const manifest = buildManifest(path.join(root, 'METHODS.toml'), parseToml('[package]\nname = "multi"\naddress = "github.com/example/multi"\nversion = "1.0.0"\ndescription = "d"\n'));
  const checker = new Checker(root);
  // Open buffers not on disk come last, as the session lists them.
  const order = (): Bundle[] => [...files.keys()].sort((a, b) => (a.startsWith('new') ? 1 : 0) - (b.startsWith('new') ? 1 : 0) || a.localeCompare(b)).map((n) => files.get(n)!);
  let created = 0;
  const gone: Array<[string, string, Bundle]> = [];
  for (let step = 0; step <= edits; step++) {
    if (step > 0) {
      const r = random();
      const names = [...files.keys()];
      if (r < 0.08 && names.length > 2) {
        const name = pick(names, random);
        gone.push([name, texts.get(name)!, files.get(name)!]);
        files.delete(name);
        texts.delete(name);
      } else if (r < 0.12 && gone.length > 0) {
        // The same version of a file comes back (its findings were computed before it left).
        const [name, text, bundle] = gone.splice(Math.floor(random() * gone.length), 1)[0]!;
        if (!files.has(name)) {
          texts.set(name, text);
          files.set(name, bundle);
        }
      } else if (r < 0.18) {
        put(random() < 0.5 ? `b${10 + created++}.mthds` : `new${created++}.mthds`, bundleText(random, 2 + Math.floor(random() * 3)));
      } else {
        const name = pick(names, random);
        if (random() < 0.25) {
          // A version that never gets checked to the end: its check is left after its first steps.
          const other = pick(names, random);
          const before = files.get(other)!;
          files.set(other, buildBundle(path.join(root, other), parseToml(mutateMulti(texts.get(other)!, random))));
          checker.abandon(order(), manifest, new Set([...files.keys(), 'METHODS.toml']), 1);
          files.set(other, before);
        }
        put(name, mutateMulti(texts.get(name)!, random));
      }
    }
    const fileSet = new Set([...files.keys(), 'METHODS.toml']);
    let findings: ReturnType<Checker['compare']>;
    try {
      findings = checker.compare(order(), manifest, fileSet, `seed ${seed}, step ${step}`);
    } catch (error) {
      // A check that throws names its sequence too.
      throw error instanceof Error && !error.message.includes('seed') ? new Error(`seed ${seed}, step ${step}: ${error.message}`, { cause: error }) : error;
    }
    for (const f of findings) seen.add(f.code);
  }
}

describe('the per-bundle check cache', () => {
  it('gives the findings of a fresh check after every edit, on multi-domain trees whose files come and go', () => {
    const codes = new Set<string>();
    for (let seed = 1; seed <= SEEDS; seed++) runMultiSequence(seed, 70, codes);
    // The sequences reach the tree-level rules the cache keeps between edits.
    for (const code of ['method.pipe_not_exported', 'method.resource_missing', 'method.cycle', 'method.name_conflict', 'method.signature_mismatch', 'method.optional_force_redundant', 'method.concept_unresolved', 'method.pipe_unresolved']) expect(codes, code).toContain(code);
  });

  it('gives the findings of a fresh check after every edit, on generated trees', () => {
    const files = generateTree(120, 8) as Record<string, string>;
    for (let seed = 1; seed <= 4; seed++) runSequence(files, seed, 60);
  });

  it('gives the findings of a fresh check after every edit, on the fixture folders', () => {
    const trees = bundleFolders(FIXTURE_BUNDLES);
    expect(trees.length).toBeGreaterThanOrEqual(2);
    trees.forEach((files, i) => runSequence(files, 100 + i, 60));
  });

  it('re-checks a bundle when a declaration it reads changes inside, its code unchanged', () => {
    const root = '/virtual/reads';
    const callee = (output: string): Bundle => buildBundle(`${root}/a.mthds`, parseToml(`domain = "d"\n[concept.Summary]\ndescription = "s"\n[pipe.summarize]\ntype = "PipeLLM"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "${output}"\nprompt = "@text"\n`));
    const caller = buildBundle(`${root}/b.mthds`, parseToml('domain = "d"\n[pipe.run]\ntype = "PipeSequence"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "Summary"\nsteps = [{ pipe = "summarize", result = "s" }]\n'));
    const cache = createCheckCache();
    // The findings of the caller's file: it only reads `summarize` through resolution.
    const codes = (a: Bundle): string[] => checkTree(createTree(root, [a, caller]), cache).filter((f) => f.file === caller.file).map((f) => f.code);
    expect(codes(callee('Summary'))).toEqual([]);
    // Same codes everywhere (same shape); only what `run` reads of `summarize` changed.
    expect(codes(callee('Image'))).toContain('method.output_concept_mismatch');
    expect(codes(callee('Summary'))).toEqual([]);
  });

  it('re-checks a reference to a name declared anew in a dotted domain', () => {
    const root = '/virtual/dotted';
    const callee = (code: string): Bundle => buildBundle(`${root}/a.mthds`, parseToml(`domain = "legal.contracts"\n[pipe.${code}]\ntype = "PipeLLM"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "Text"\nprompt = "@text"\n`));
    const caller = buildBundle(`${root}/b.mthds`, parseToml('domain = "legal.contracts"\n[pipe.run]\ntype = "PipeSequence"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "Text"\nsteps = [{ pipe = "helper", result = "s" }]\n'));
    const cache = createCheckCache();
    const codes = (a: Bundle): string[] => checkTree(createTree(root, [a, caller]), cache).filter((f) => f.file === caller.file).map((f) => f.code);
    expect(codes(callee('other'))).toContain('method.pipe_unresolved');
    // The caller's bundle is the same version; the name it looked up is now declared.
    expect(codes(callee('helper'))).toEqual(checkTree(createTree(root, [callee('helper'), caller])).filter((f) => f.file === caller.file).map((f) => f.code));
    expect(codes(callee('helper'))).not.toContain('method.pipe_unresolved');
  });
});

describe('a check in steps', () => {
  it('pauses in the tree-wide phase too, when every bundle is kept', async () => {
    // @ts-expect-error: a plain ES module of the benchmarks
    const { workspaceBundle } = (await import('../../../bench/generate.mjs')) as { workspaceBundle: (i: number, o: { pipes: number; domain: string }) => { text: string } };
    const bundles = (): Bundle[] => Array.from({ length: 600 }, (_, i) => buildBundle(`/ws/b${i}.mthds`, parseToml(workspaceBundle(i, { pipes: 5, domain: `d${i % 10}` }).text)));
    const first = createTree('/ws', bundles());
    const cache = createCheckCache();
    const expected = checkTree(first, cache);
    // The same bundle objects again: every per-bundle result is kept.
    const again = createTree('/ws', first.bundles, undefined, undefined, first);
    const { pauses, value: done } = runCounted(checkTreeSteps(again, cache));
    // No bundle is checked again, yet the rules over the whole tree (600 bundles) do not run in one go.
    expect(pauses).toBeGreaterThanOrEqual(2);
    expect(done).toEqual(expected);
    expect(done).toEqual(checkTree(createTree('/ws', bundles())));
  });
});

/** Counts every read of a tree's list of bundles (a whole-list pass counts as many reads as bundles). */
function countReads(tree: MethodTree): { reads: number } {
  const counter = { reads: 0 };
  tree.bundles = new Proxy(tree.bundles, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) counter.reads += 1;
      if (key === Symbol.iterator || key === 'forEach' || key === 'map' || key === 'some' || key === 'every' || key === 'flatMap' || key === 'filter') counter.reads += target.length;
      return Reflect.get(target, key, receiver);
    },
  });
  return counter;
}

describe('a check after an edit', () => {
  // @ts-expect-error: a plain ES module of the benchmarks
  const load = async () => (await import('../../../bench/generate.mjs')) as { workspaceBundle: (i: number, o: { pipes: number; domain: string }) => { text: string } };
  const build = (i: number, text: string): Bundle => buildBundle(`/ws/b${i}.mthds`, parseToml(text));
  /** A sequence in bundle `i` calling `calls`. */
  const sequence = (i: number, calls: readonly string[]): string => `\n[pipe.b${i}_seq]\ntype = "PipeSequence"\ndescription = "s"\ninputs = { text = "Text" }\noutput = "Text"\nsteps = [${calls.map((c, k) => `{ pipe = "${c}", result = "r${k}" }`).join(', ')}]\n`;

  it('goes through the edited bundle alone when no declaration changed, never the whole list of bundles', async () => {
    const { workspaceBundle } = await load();
    const texts = Array.from({ length: 400 }, (_, i) => workspaceBundle(i, { pipes: 5, domain: `d${i % 10}` }).text);
    const first = createTree('/ws', texts.map((t, i) => build(i, t)));
    const cache = createCheckCache();
    checkTree(first, cache);
    const edited = build(123, texts[123]!.replace('description = "Generated pipe', 'description = "Typed generated pipe'));
    const tree = updateTree(first, [{ index: 123, bundle: edited }]);
    const counter = countReads(tree);
    const { changed } = runSteps(checkTreeFilesSteps(tree, cache));
    expect(counter.reads).toBeLessThan(10);
    expect([...changed!]).toEqual([]);
    // And it finds what a check from scratch finds.
    expect(checkTree(tree, cache)).toEqual(checkTree(createTree('/ws', [...tree.bundles])));
  });

  it('follows a call-graph, domain or main_pipe edit: the cycles, what may be absent and the tables are updated, never made over the whole tree', async () => {
    const { workspaceBundle } = await load();
    const texts = Array.from({ length: 400 }, (_, i) => workspaceBundle(i, { pipes: 5, domain: `d${i % 10}` }).text);
    // Two bundles of one domain with sequences: 133 calls 123's sequence.
    texts[123] += sequence(123, ['b123_step_0', 'b123_step_1']);
    texts[133] += sequence(133, ['b123_seq']);
    let tree = createTree('/ws', texts.map((t, i) => build(i, t)));
    const cache = createCheckCache();
    checkTree(tree, cache);
    const edits: Array<[string, string]> = [
      // A call to another bundle closes a cycle across bundles, then opens it again.
      ['a call closing a cycle', texts[123]!.replace('pipe = "b123_step_1"', 'pipe = "b133_seq"')],
      ['a call opening it', texts[123]!],
      // The domain line: into another domain of the tree, into a new one, back.
      ['a domain line', texts[123]!.replace('domain = "d3"', 'domain = "d4"')],
      ['a new domain', texts[123]!.replace('domain = "d3"', 'domain = "fresh"')],
      ['the domain back', texts[123]!],
      // A main pipe named, then gone.
      ['a main_pipe line', texts[123]!.replace('\n\n', '\nmain_pipe = "b123_seq"\n\n')],
      ['no main_pipe', texts[123]!],
    ];
    const cycles: boolean[] = [];
    for (const [label, text] of edits) {
      tree = updateTree(tree, [{ index: 123, bundle: build(123, text) }]);
      const counter = countReads(tree);
      const findings = runSteps(checkTreeSteps(tree, cache));
      // Bundles looked up by file count one read each (the edited one, those reading it, the
      // cycle search's region); one pass over the list would count 400.
      expect(counter.reads, label).toBeLessThan(100);
      expect(findings, label).toEqual(checkTree(createTree('/ws', [...tree.bundles])));
      cycles.push(findings.some((f) => f.code === 'method.cycle'));
    }
    expect(cycles).toEqual([true, false, false, false, false, false, false]);
  });

  it('runs a suggestion check again only when a name changed near what it asked', async () => {
    const { workspaceBundle } = await load();
    const texts = Array.from({ length: 400 }, (_, i) => workspaceBundle(i, { pipes: 5, domain: `d${i % 10}` }).text);
    // Broken references whose findings suggest names of the tables.
    const broken = [10, 20, 30];
    const asked = ['B10Thingg0', 'WhollyOther', 'EntirelyElse'];
    broken.forEach((i, k) => (texts[i] = texts[i]!.replace(`output = "B${i}Thing0"`, `output = "${asked[k]}"`)));
    let tree = createTree('/ws', texts.map((t, i) => build(i, t)));
    const cache = createCheckCache();
    expect(checkTree(tree, cache).filter((f) => f.code === 'method.concept_unresolved')).toHaveLength(3);
    const unitOf = (i: number): unknown => cache.units.get(`b/ws/b${i}.mthds`);
    const units = broken.map(unitOf);
    // A pipe renamed far from every name asked: the suggestion checks are kept.
    tree = updateTree(tree, [{ index: 123, bundle: build(123, texts[123]!.replace('[pipe.b123_step_0]', '[pipe.b123_step_zero]').replace('"b123_step_0"', '"b123_step_zero"')) }]);
    expect(checkTree(tree, cache)).toEqual(checkTree(createTree('/ws', [...tree.bundles])));
    expect(broken.map(unitOf)).toEqual(units);
    broken.forEach((i, k) => expect(unitOf(i)).toBe(units[k]));
    // A concept declared near what bundle 10 asked (in another domain): that check alone runs again.
    tree = updateTree(tree, [{ index: 123, bundle: build(123, `${texts[123]!}\n[concept.B10Thingg0]\ndescription = "near"\n`) }]);
    const findings = checkTree(tree, cache);
    expect(findings).toEqual(checkTree(createTree('/ws', [...tree.bundles])));
    expect(unitOf(10)).not.toBe(units[0]);
    expect([unitOf(20), unitOf(30)]).toEqual([units[1], units[2]]);
    expect(unitOf(20)).toBe(units[1]);
    expect(findings.find((f) => f.file === '/ws/b10.mthds' && f.code === 'method.concept_unresolved')?.message).toContain('d3.B10Thingg0');
  });

  it('drops the cycle of a declaration that is gone, its bundle left with no node of that graph', () => {
    const root = '/virtual/gone';
    const a = (concepts: string): Bundle => buildBundle(`${root}/a.mthds`, parseToml(`domain = "d"\n${concepts}[pipe.run]\ntype = "PipeLLM"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "Text"\nprompt = "@text"\n`));
    const b = buildBundle(`${root}/b.mthds`, parseToml('domain = "d"\n[concept.Other]\ndescription = "o"\n'));
    const first = createTree(root, [a('[concept.Loop]\ndescription = "l"\nrefines = "Loop"\n'), b]);
    const cache = createCheckCache();
    expect(checkTree(first, cache).some((f) => f.code === 'method.cycle')).toBe(true);
    const tree = updateTree(first, [{ index: 0, bundle: a('') }]);
    const findings = checkTree(tree, cache);
    expect(findings).toEqual(checkTree(createTree(root, [...tree.bundles])));
    expect(findings.some((f) => f.code === 'method.cycle')).toBe(false);
  });

  it('finds the cycle left in a component an edit broke elsewhere', () => {
    const root = '/virtual/pieces';
    const pipe = (code: string, calls: readonly string[]): string => `[pipe.${code}]\ntype = "PipeSequence"\ndescription = "x"\ninputs = { text = "Text" }\noutput = "Text"\nsteps = [${calls.map((c, k) => `{ pipe = "${c}", result = "r${k}" }`).join(', ')}]\n`;
    const bundle = (name: string, text: string): Bundle => buildBundle(`${root}/${name}.mthds`, parseToml(`domain = "d"\n${text}`));
    // One component: a <-> b <-> c.
    const first = createTree(root, [bundle('a', pipe('pa', ['pb'])), bundle('b', pipe('pb', ['pa', 'pc'])), bundle('c', pipe('pc', ['pb']))]);
    const cache = createCheckCache();
    expect(checkTree(first, cache).filter((f) => f.code === 'method.cycle')).toHaveLength(1);
    // a no longer calls b: b <-> c is still a cycle, though the edit does not reach it.
    const tree = updateTree(first, [{ index: 0, bundle: bundle('a', pipe('pa', ['pa_missing'])) }]);
    const findings = checkTree(tree, cache);
    expect(findings).toEqual(checkTree(createTree(root, [...tree.bundles])));
    expect(findings.filter((f) => f.code === 'method.cycle').map((f) => f.file)).toEqual([`${root}/b.mthds`]);
  });
});
