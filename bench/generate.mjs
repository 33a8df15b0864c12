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
