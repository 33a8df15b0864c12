// Fixture texts for dependency-package tests: an app package calling a `scoring` package through
// the alias `lib`, used by the unit, CLI and language-server tests alike.

/** A METHODS.toml; `extra` is appended after the [package] table. */
export function manifestText(name: string, address: string, version: string, extra = ''): string {
  return `[package]\nname = "${name}"\naddress = "${address}"\nversion = "${version}"\ndescription = "d"\n${extra}`;
}

/** The scoring package's bundle: a concept, an exported-by-convention pipe and a private one. */
export const SCORING_BUNDLE = `domain = "scoring"

[concept.Score]
description = "A score"

[pipe.compute]
type = "PipeLLM"
description = "Scores a text"
inputs = { text = "Text" }
output = "Score"
prompt = "Score @text"

[pipe.internal_helper]
type = "PipeLLM"
description = "Private"
inputs = { text = "Text" }
output = "Text"
prompt = "Help @text"
`;

/** The app's bundle: one sequence calling `pipe` and declaring `output`. */
export function appBundle(pipe: string, output: string): string {
  return `domain = "app"
main_pipe = "run"

[pipe.run]
type = "PipeSequence"
description = "Runs"
inputs = { text = "Text" }
output = "${output}"
steps = [{ pipe = "${pipe}", result = "score" }]
`;
}

/** The app's manifest, exporting `run`, with the given `[dependencies]` lines. */
export function appManifest(dependencies: string): string {
  return manifestText('app', 'github.com/acme/app', '1.0.0', `main_pipe = "run"\n\n[exports.app]\npipes = ["run"]\n\n[dependencies]\n${dependencies}\n`);
}
