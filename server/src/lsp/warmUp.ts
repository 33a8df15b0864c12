// The keystroke path warmed at start-up. V8 compiles a function for speed only after it has run a
// while: without this, the first fifty keystrokes of a session run the text sync, the parse, the
// tree update, the rules and the conversion of findings as bytecode while the optimising compiler
// takes the other core, and they are the slow ones. Here that path runs for real, on bundles made
// from the language facts (every pipe type's snippet, concepts with structures of every field
// type), in a session, a diagnostics publisher and a text document of its own that nobody sees:
// nothing is sent, and the server's session, caches and documents are not read or written.

import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { snippetText } from '../language/complete/snippets.js';
import { FIELD_TYPES } from '../language/spec/bundle.js';
import { toSnakeCase } from '../language/spec/lexical.js';
import { PIPE_TYPES } from '../language/spec/pipeTypes.js';
import { Session } from '../workspace/session.js';
import { runSlice } from '../util/steps.js';
import { CLAMPED_TEXT_DOCUMENTS } from './clamp.js';
import { Diagnostics, type DiagnosticsConnection } from './diagnostics.js';
import { fileToUri } from './uris.js';

/** How long one slice of the warm-up runs before it lets queued messages through (ms). */
const WARM_UP_SLICE_MS = 4;

/** The pipes the snippets' defaults name, and the concepts, made to resolve within each group. */
function resolveDefaults(text: string, group: number): string {
  return text
    .replace(/"(first_step|branch_a|branch_b|handle_urgent|process_item)"/g, `"pipe_llm_${group}"`)
    .replace(/"(Concept|Category)"/g, `"Category${group}"`);
}

/** One structure field of each field type. */
function structureFields(group: number): string[] {
  return FIELD_TYPES.map((type) => {
    const extra = type === 'list' ? ', item_type = "text"' : type === 'dict' ? ', key_type = "text", value_type = "text"' : type === 'concept' ? `, concept_ref = "Thing${group}"` : '';
    return `${type}_field = { type = "${type}", description = "A ${type} of group ${group}"${extra} }`;
  });
}

/** Which of the optional keys of a bundle's top it has (the model's objects differ in shape by them). */
export interface WarmUpHeader {
  mainPipe?: boolean;
  systemPrompt?: boolean;
}

/** A bundle of `groups` groups: two concepts (one simple, one with a structure) and one pipe of every type. */
export function warmUpBundle(domain: string, groups: number, header: WarmUpHeader = { mainPipe: true }): string {
  const lines = [`domain = "${domain}"`, `description = "Bundle ${domain}"`];
  if (header.systemPrompt) lines.push('system_prompt = "Be precise."');
  if (header.mainPipe) lines.push('main_pipe = "pipe_sequence_0"');
  lines.push('');
  for (let g = 0; g < groups; g++) {
    lines.push(`[concept.Thing${g}]`, `description = "Thing of group ${g}"`, '');
    lines.push(`[concept.Category${g}]`, `description = "Category of group ${g}"`, '', `[concept.Category${g}.structure]`);
    lines.push('label = { type = "text", description = "The label", required = true }', 'kind = { description = "The kind", choices = ["a", "b"], default_value = "a" }');
    lines.push(...structureFields(g), '');
    for (const spec of PIPE_TYPES) {
      lines.push(`[pipe.${toSnakeCase(spec.name)}_${g}]`, resolveDefaults(snippetText(spec.snippet), g), '');
    }
  }
  return lines.join('\n');
}

/** The edits typed, in a cycle that ends on the text it began with: mostly in a description, some on a reference and a declaration. */
function edits(text: string, doc: TextDocument): TextDocumentContentChangeEvent[] {
  const at = (needle: string, shift: number): { line: number; character: number } => doc.positionAt(text.indexOf(needle) + shift);
  const typed = at('description = "Thing of group 1', 'description = "Thing'.length);
  const reference = at(`output = "Category1"`, 'output = "'.length);
  const declaration = at('[pipe.pipe_llm_1]', '[pipe.pipe_llm_1'.length);
  const insert = (p: { line: number; character: number }, t: string): TextDocumentContentChangeEvent => ({ range: { start: p, end: p }, text: t });
  const remove = (p: { line: number; character: number }): TextDocumentContentChangeEvent => ({ range: { start: p, end: { line: p.line, character: p.character + 1 } }, text: '' });
  const replace = (p: { line: number; character: number }, t: string): TextDocumentContentChangeEvent => ({ range: { start: p, end: { line: p.line, character: p.character + 1 } }, text: t });
  const cycle: TextDocumentContentChangeEvent[] = [];
  for (let i = 0; i < 4; i++) cycle.push(insert(typed, 'x'), remove(typed));
  cycle.push(replace(reference, 'X'), replace(reference, 'C'), insert(declaration, 'x'), remove(declaration));
  return cycle;
}

const SINK: DiagnosticsConnection = {
  sendDiagnostics: () => Promise.resolve(),
  languages: { diagnostics: { refresh: () => undefined } },
};

export interface WarmUpReport {
  keystrokes: number;
  ms: number;
}

/**
 * The bundles typed in: one large, two smaller ones whose tops differ (the model's objects of a
 * bundle differ in shape by its optional keys: compiled for one shape only, the code would be
 * compiled again for the first real bundle of another).
 */
const BUNDLES: ReadonlyArray<{ name: string; groups: number; header: WarmUpHeader }> = [
  { name: 'warm_up', groups: 6, header: { mainPipe: true } },
  { name: 'warm_up_plain', groups: 2, header: {} },
  { name: 'warm_up_prompted', groups: 2, header: { systemPrompt: true, mainPipe: true } },
];

/**
 * The warm-up in steps, one keystroke each: a session, a publisher and documents of its own (in a
 * folder that is not read from: the files exist only as buffers), a tree of three bundles typed in
 * by turns. Runs until `endAt` (`performance.now()`), or `limit` keystrokes.
 */
export function* warmUpSteps(endAt: number, limit = Infinity): Generator<void, number> {
  const root = path.join(tmpdir(), `.mthds-warm-up-${process.pid}`);
  const session = new Session();
  let version = 1;
  const publisher = new Diagnostics(SINK, session, { uriOf: (f) => fileToUri(f), lineStartsOf: (f) => session.lineStartsOf(f) }, {
    pull: false,
    refreshSupport: false,
    debounceMs: () => 0,
    versionOf: () => version,
    log: () => undefined,
  });
  const typed = BUNDLES.map(({ name, groups, header }) => {
    const file = path.join(root, `${name}.mthds`);
    const text = warmUpBundle(name, groups, header);
    const doc = CLAMPED_TEXT_DOCUMENTS.create(fileToUri(file), 'mthds', version, text);
    return { file, doc, cycle: edits(text, doc), at: 0 };
  });
  let id = session.treeOf(typed[0]!.file);
  for (const { file, doc } of typed) id = session.setDocument(file, doc.getText());
  // The first check reads the whole tree, cold: in steps like any check, within the budget.
  const first = session.checkSteps(id);
  while (!first.next().done) {
    if (performance.now() >= endAt) return 0;
    yield;
  }
  // Publishes that check (the tree has not changed since: nothing is checked again).
  publisher.checkNow(id);
  let keystrokes = 0;
  while (performance.now() < endAt && keystrokes < limit) {
    yield;
    version += 1;
    // The large bundle two keystrokes in three, each smaller one every sixth.
    const one = typed[keystrokes % 3 === 2 ? 1 + ((keystrokes / 3) | 0) % 2 : 0]!;
    one.doc = CLAMPED_TEXT_DOCUMENTS.update(one.doc, [one.cycle[one.at++ % one.cycle.length]!], version);
    publisher.documentChanged(one.file, session.setDocument(one.file, one.doc.getText()));
    publisher.checkNow(id);
    keystrokes += 1;
  }
  return keystrokes;
}

/**
 * Runs the warm-up for `budgetMs` in slices, pausing between them (`pause`: until the messages
 * queued meanwhile are handled), so that a message waits at most one slice.
 */
export async function warmUp(budgetMs: number, pause: () => Promise<void>, limit?: number): Promise<WarmUpReport> {
  const t0 = performance.now();
  const steps = warmUpSteps(t0 + budgetMs, limit);
  for (;;) {
    const done = runSlice(steps, performance.now() + WARM_UP_SLICE_MS);
    if (done) return { keystrokes: done.value, ms: performance.now() - t0 };
    await pause();
  }
}
