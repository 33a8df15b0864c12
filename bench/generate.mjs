// Generates realistic bundles of a given size: concepts with structures, and pipes of the common
// types wired into sequences, as real methods are.

export function generateBundle(pipes, { domain = 'bench', seed = 1 } = {}) {
  const lines = [`domain = "${domain}"`, `description = "A generated bundle of ${pipes} pipes"`, ''];
  const concepts = Math.max(1, Math.floor(pipes / 5));
  for (let c = 0; c < concepts; c++) {
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
      lines.push(`[pipe.step_${p}]`, 'type = "PipeSequence"', `description = "Sequence ${p}"`, 'inputs = { text = "Text" }', `output = "${last}"`, 'steps = [');
      lines.push(`  { pipe = "step_${p - 1}", result = "first" },`, `  { pipe = "step_${p - 2}", result = "second" },`, ']', '');
    } else if (p % 10 === 5) {
      lines.push(`[pipe.step_${p}]`, 'type = "PipeCompose"', `description = "Compose ${p}"`, 'inputs = { text = "Text" }', 'output = "Text"', 'template = "Title: $text"', '');
    } else {
      lines.push(`[pipe.step_${p}]`, 'type = "PipeLLM"', `description = "Generated pipe ${p}"`, 'inputs = { text = "Text" }', `output = "${concept}"`, 'model = "$writing-factual"');
      lines.push('prompt = """', `Read the text and describe thing ${p}:`, '', '@text', '"""', '');
    }
  }
  return lines.join('\n');
}
