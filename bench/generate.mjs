// Generates realistic bundles of a given size: concepts with structures, and pipes of the common
// types wired into sequences, as real methods are.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function generateBundle(pipes, { domain = 'bench', seed = 1, prefix = 'step', concepts: sharedConcepts } = {}) {
  const lines = [`domain = "${domain}"`, `description = "A generated bundle of ${pipes} pipes"`, ''];
  // With `sharedConcepts`, the concepts are declared in another bundle of the domain.
  const concepts = sharedConcepts ?? Math.max(1, Math.floor(pipes / 5));
  for (let c = 0; c < (sharedConcepts === undefined ? concepts : 0); c++) {
    lines.push(`[concept.Thing${c}]`, `description = "Generated concept ${c}"`, '', `[concept.Thing${c}.structure]`);
    lines.push(`title = { type = "text", description = "The title of thing ${c}", required = true }`);
    lines.push(`score = { type = "number", description = "A score" }`);
    lines.push(`kind  = { description = "The kind", choices = ["a", "b", "c"], default_value = "a" }`, '');
  }
  for (let p = 0; p < pipes; p++) {
    const concept = `Thing${(p * 7 + seed) % concepts}`;
    if (p % 10 === 9) {
      // The sequence ends with step p-2, so it outputs that step's concept.
      const last = `Thing${((p - 2) * 7 + seed) % concepts}`;
      lines.push(`[pipe.${prefix}_${p}]`, 'type = "PipeSequence"', `description = "Sequence ${p}"`, 'inputs = { text = "Text" }', `output = "${last}"`, 'steps = [');
      lines.push(`  { pipe = "${prefix}_${p - 1}", result = "first" },`, `  { pipe = "${prefix}_${p - 2}", result = "second" },`, ']', '');
    } else if (p % 10 === 5) {
      lines.push(`[pipe.${prefix}_${p}]`, 'type = "PipeCompose"', `description = "Compose ${p}"`, 'inputs = { text = "Text" }', 'output = "Text"', 'template = "Title: $text"', '');
    } else {
      lines.push(`[pipe.${prefix}_${p}]`, 'type = "PipeLLM"', `description = "Generated pipe ${p}"`, 'inputs = { text = "Text" }', `output = "${concept}"`, 'model = "$writing-factual"');
      lines.push('prompt = """', `Read the text and describe thing ${p}:`, '', '@text', '"""', '');
    }
  }
  return lines.join('\n');
}

/** A tree of `bundles` bundles of one domain sharing their concepts: `pipes` pipes in all. */
export function generateTree(pipes, bundles) {
  const concepts = Math.max(1, Math.floor(pipes / 5));
  const files = { 'concepts.mthds': generateBundle(0, { concepts: undefined }).split('\n').slice(0, 2).join('\n') + '\n' + conceptBlock(concepts) };
  const per = Math.floor(pipes / bundles);
  for (let b = 0; b < bundles; b++) files[`part_${b}.mthds`] = generateBundle(per, { prefix: `b${b}_step`, concepts });
  return files;
}

function conceptBlock(concepts) {
  const lines = [];
  for (let c = 0; c < concepts; c++) {
    lines.push(`[concept.Thing${c}]`, `description = "Generated concept ${c}"`, '', `[concept.Thing${c}.structure]`);
    lines.push(`title = { type = "text", description = "The title of thing ${c}", required = true }`, `score = { type = "number", description = "A score" }`, '');
  }
  return lines.join('\n');
}

/**
 * Bundle number `i` of a generated workspace: codes made unique per bundle so that many bundles
 * share domains without clashing; one bundle in twenty has a pipe-type typo, so that a check has
 * something to publish.
 */
export function workspaceBundle(i, { pipes, domain }) {
  let text = generateBundle(pipes, { domain, seed: i })
    .replaceAll('[pipe.step_', `[pipe.b${i}_step_`)
    .replaceAll('pipe = "step_', `pipe = "b${i}_step_`)
    .replaceAll('Thing', `B${i}Thing`);
  const broken = i % 20 === 7;
  if (broken) text = text.replace('type = "PipeLLM"', 'type = "PipeLMM"');
  return { text, broken };
}

/**
 * Writes one package of `count` workspace bundles under `dir/all` (100 domains, folders of 20
 * bundles, a METHODS.toml), as the one-package benchmarks use it; returns the files and texts.
 */
export function writeOnePackage(dir, count) {
  const files = [];
  const texts = [];
  for (let i = 0; i < count; i++) {
    const sub = path.join(dir, 'all', `group${Math.floor((i % 100) / 20)}`);
    mkdirSync(sub, { recursive: true });
    const { text } = workspaceBundle(i, { pipes: 5, domain: `d${i % 100}` });
    const file = path.join(sub, `bundle${i}.mthds`);
    writeFileSync(file, text);
    files.push(file);
    texts.push(text);
  }
  writeFileSync(path.join(dir, 'all', 'METHODS.toml'), '[package]\nname = "all"\naddress = "github.com/example/all"\nversion = "1.0.0"\ndescription = "A benchmark package"\n');
  return { files, texts };
}

/**
 * Bundle number `i` of the branch-switch workspace (`count` bundles in one package, 100 domains),
 * on the base branch or on the other (`renamed`: the bundles of `renamedSet` rename their concept
 * `Item` to `Report`, fix a typo and rewrite a description). Each bundle calls a pipe of another
 * bundle of its domain (`i + 100`), reads the `Item` concepts of the bundles `i + 1` and `i + 2`
 * (other domains, domain-qualified), and one in four expects a `Report` concept that does not
 * exist on the base branch (of `i + 3` or `i + 2`, alternately): 1 in 4 bundles has a
 * `concept_unresolved` on the base branch; on the other, every read of a renamed `Item` and the
 * expectations of a `Report` not made there.
 */
export function switchBundle(i, count, renamed = false) {
  const d = (k) => `d${k % 100}`;
  const at = (k) => ((k % count) + count) % count;
  const own = renamed && renamedSet(i) ? 'Report' : 'Item';
  const [k1, k2, j] = [at(i + 1), at(i + 2), at(i + 100)];
  const inputs = [`first = "${d(k1)}.B${k1}Item"`, `second = "${d(k2)}.B${k2}Item"`];
  const uses = ["$first", "$second"];
  if (i % 4 === 1) {
    const kr = at(i % 8 === 1 ? i + 3 : i + 2);
    inputs.push(`expected = "${d(kr)}.B${kr}Report"`);
    uses.push("$expected");
  }
  return [
    `domain = "${d(i)}"`,
    `description = "Bundle ${i} of the branch-switch workspace"`,
    '',
    `[concept.B${i}${own}]`,
    `description = "${renamed && renamedSet(i) ? `What bundle ${i} reports` : `An item of bundle ${i}`}"`,
    '',
    `[concept.B${i}${own}.structure]`,
    'title = { type = "text", description = "The title", required = true }',
    'score = { type = "number", description = "A score" }',
    '',
    `[concept.B${i}Note]`,
    `description = "A note of bundle ${i}"`,
    '',
    `[pipe.b${i}_make]`,
    'type = "PipeLLM"',
    `description = "${renamed && renamedSet(i) ? 'Makes' : 'Maeks'} the ${own.toLowerCase()} of bundle ${i}"`,
    'inputs = { text = "Text" }',
    `output = "B${i}${own}"`,
    'prompt = """',
    `Describe the ${own.toLowerCase()} of bundle ${i} from $text`,
    '"""',
    '',
    `[pipe.b${i}_read]`,
    'type = "PipeLLM"',
    'description = "Reads the items of other domains"',
    `inputs = { ${inputs.join(', ')} }`,
    `output = "B${i}Note"`,
    'prompt = """',
    `Compare ${uses.join(' and ')}`,
    '"""',
    '',
    `[pipe.b${i}_run]`,
    'type = "PipeSequence"',
    `description = "Runs a step of bundle ${j}, then its own"`,
    'inputs = { text = "Text" }',
    `output = "B${i}${own}"`,
    'steps = [',
    `  { pipe = "b${j}_make", result = "theirs" },`,
    `  { pipe = "b${i}_make", result = "mine" },`,
    ']',
    '',
  ].join('\n');
}

/** The bundles the other branch changes: one in two (1,000 of 2,000). */
export function renamedSet(i) {
  return i % 2 === 0;
}

/** Writes the branch-switch workspace (`switchBundle`) under `dir/all`; returns its files. */
export function writeSwitchPackage(dir, count) {
  const files = [];
  for (let i = 0; i < count; i++) {
    const sub = path.join(dir, 'all', `group${Math.floor((i % 100) / 20)}`);
    mkdirSync(sub, { recursive: true });
    const file = path.join(sub, `bundle${i}.mthds`);
    writeFileSync(file, switchBundle(i, count));
    files.push(file);
  }
  writeFileSync(path.join(dir, 'all', 'METHODS.toml'), '[package]\nname = "all"\naddress = "github.com/example/all"\nversion = "1.0.0"\ndescription = "A benchmark package"\n');
  return files;
}
