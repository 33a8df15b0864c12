// The keystroke path warmed at start-up. V8 compiles a function for speed only after it has run a
// while: without this, the first fifty keystrokes of a session run the text sync, the parse, the
// tree update, the rules and the conversion of findings as bytecode while the optimising compiler
// takes the other core, and they are the slow ones. Here that path runs for real, on the language
// layer's sample bundles (every pipe type's snippet, valid, concepts with structures of every field
// type), in a session, a diagnostics publisher and a text document of its own that nobody sees:
// nothing is sent, and the server's session, caches and documents are not read or written.

import path from 'node:path';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { sampleBundle, type SampleBundleOptions } from '../language/sampleBundles.js';
import { bundleOfFile, type MethodTree } from '../language/tree.js';
import { Session } from '../workspace/session.js';
import { runInSlices } from '../util/steps.js';
import { warmSuggestionsSteps } from '../util/suggest.js';
import { CLAMPED_TEXT_DOCUMENTS } from './clamp.js';
import { Diagnostics, type DiagnosticsConnection } from './diagnostics/index.js';
import { preparationSteps } from './idleWork.js';
import type { MarkupFormat } from './markup.js';
import { MemoryFileSystem } from '../workspace/memoryFileSystem.js';

/**
 * From this many bundles in the workspace folders, the warm-up runs after the start-up check, in
 * quiet moments (`warmUpWhenQuiet`), instead of before `initialize` answers: their check takes
 * about as long as the warm-up's default second (0.3-0.8 ms a bundle) and compiles the same rules
 * and parse.
 */
export const WARMED_BY_CHECK_BUNDLES = 1000;

/** How long one slice of the warm-up runs before it lets queued messages through (ms). */
const WARM_UP_SLICE_MS = 4;

/** Where the match of `re` in `text` begins, plus the length of its first group: a place the warm-up types at. */
function needle(text: string, re: RegExp): number {
  const m = re.exec(text);
  // The bundles are generated: a needle that went missing is a change of the generator (a test runs the cycle).
  if (m === null) throw new Error(`The warm-up bundle has no ${re.source}`);
  return m.index + m[1]!.length;
}

/**
 * The edits typed, in a cycle that ends on the text it began with: mostly in a concept's
 * description, some on a concept reference (broken, then mended) and on the declaration of a pipe a
 * controller names (renamed, then back), all in the second copy.
 */
export function warmUpEdits(text: string, doc: TextDocument): TextDocumentContentChangeEvent[] {
  const at = (re: RegExp): { line: number; character: number } => doc.positionAt(needle(text, re));
  const typed = at(/^(\[concept\.\w+1\]\ndescription = "Variant)/m);
  const declared = [...text.matchAll(/^\[concept\.(\w+1)\]$/gm)].map((m) => m[1]!);
  const reference = at(new RegExp(`^(output = ")(?:${declared.join('|')})"$`, 'm'));
  const child = /^\s*\{ pipe = "(\w+_1)"/m.exec(text)?.[1];
  const declaration = at(new RegExp(`^(\\[pipe\\.${child})\\]$`, 'm'));
  const insert = (p: { line: number; character: number }, t: string): TextDocumentContentChangeEvent => ({ range: { start: p, end: p }, text: t });
  const remove = (p: { line: number; character: number }): TextDocumentContentChangeEvent => ({ range: { start: p, end: { line: p.line, character: p.character + 1 } }, text: '' });
  const replace = (p: { line: number; character: number }, t: string): TextDocumentContentChangeEvent => ({ range: { start: p, end: { line: p.line, character: p.character + 1 } }, text: t });
  const first = text.charAt(doc.offsetAt(reference));
  const cycle: TextDocumentContentChangeEvent[] = [];
  for (let i = 0; i < 4; i++) cycle.push(insert(typed, 'x'), remove(typed));
  cycle.push(replace(reference, 'X'), replace(reference, first), insert(declaration, 'x'), remove(declaration));
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
export const WARM_UP_BUNDLES: readonly SampleBundleOptions[] = [
  { domain: 'warm_up', copies: 4, variant: 0, mainPipe: true },
  { domain: 'warm_up_plain', copies: 2, variant: 1 },
  { domain: 'warm_up_prompted', copies: 2, variant: 2, systemPrompt: true, mainPipe: true },
];

/**
 * The warm-up in steps, one keystroke each: a session, a publisher and documents of its own (in a
 * folder that is not read from: the files exist only as buffers), a tree of three bundles typed in
 * by turns. Runs until `endAt` (by `now`: `performance.now()`, or a clock that counts only the
 * time it runs), or `limit` keystrokes.
 */
/** The URI of a warm-up buffer: of a scheme of its own, never a file of the editor's. */
const warmUpUri = (file: string): string => `mthds-warm-up://${file}`;

export function* warmUpSteps(endAt: number, limit = Infinity, documentation: MarkupFormat = 'markdown', now: () => number = () => performance.now()): Generator<void, number> {
  // The warm-up's files exist only as buffers, over an empty file system: nothing is read.
  const root = path.resolve('/', '.mthds-warm-up');
  const session = new Session({ fs: new MemoryFileSystem() });
  let version = 1;
  const publisher = new Diagnostics(SINK, session, { uriOf: warmUpUri, lineStartsOf: (f) => session.lineStartsOf(f) }, {
    pull: false,
    refreshSupport: false,
    debounceMs: () => 0,
    versionOf: () => version,
    log: () => undefined,
  });
  const typed = WARM_UP_BUNDLES.map((options) => {
    const file = path.join(root, `${options.domain}.mthds`);
    const text = sampleBundle(options);
    const doc = CLAMPED_TEXT_DOCUMENTS.create(warmUpUri(file), 'mthds', version, text);
    return { file, doc, cycle: warmUpEdits(text, doc), at: 0 };
  });
  let id = session.treeOf(typed[0]!.file);
  for (const { file, doc } of typed) id = session.setDocument(file, doc.getText());
  // The first check reads the whole tree, cold: in steps like any check, within the budget.
  const first = session.checkSteps(id);
  while (!first.next().done) {
    if (now() >= endAt) return 0;
    yield;
  }
  // Publishes that check (the tree has not changed since: nothing is checked again).
  publisher.checkNow(id);
  // The preparation a document just opened gets (idleWork.ts), on this tree: it renders the native
  // concepts' documentation in the client's format (markup.ts keeps it), and compiles the making
  // of suggestion indexes and completion lists. Then the suggestion lookup itself, on an index as
  // large as a real tree's (this tree's names in 100 domains), past the point where the
  // preparation would warm it on the first real tree's indexes.
  const tree = session.lastCheck(id.key)?.tree;
  if (tree) {
    const bundles = typed.flatMap(({ file }) => bundleOfFile(tree, file) ?? []);
    for (const step of [preparationSteps(tree, bundles, ['concepts', 'pipes'], documentation), warmSuggestionsSteps(suggestionNames(tree))]) {
      while (!step.next().done) {
        if (now() >= endAt) return 0;
        yield;
      }
    }
  }
  let keystrokes = 0;
  while (now() < endAt && keystrokes < limit) {
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

/** The names of a tree's concepts and pipes, qualified with 100 domain names. */
function suggestionNames(tree: MethodTree): string[] {
  const codes = [...tree.symbols.values()].flatMap((table) => [...table.concepts.keys(), ...table.pipes.keys()]);
  const names: string[] = [];
  for (let d = 0; d < 100; d++) for (const code of codes) names.push(`warm_up_${d}.${code}`);
  return names;
}

/**
 * Runs the warm-up for `budgetMs` in slices, pausing between them (`pause`: until the messages
 * queued meanwhile are handled), so that a message waits at most one slice.
 */
export async function warmUp(budgetMs: number, pause: () => Promise<void>, limit?: number, documentation: MarkupFormat = 'markdown', now: () => number = () => performance.now()): Promise<WarmUpReport> {
  const t0 = now();
  const keystrokes = await runInSlices(warmUpSteps(t0 + budgetMs, limit, documentation, now), WARM_UP_SLICE_MS, pause);
  return { keystrokes, ms: now() - t0 };
}

/** How long no message must have come before the warm-up of a workspace of many bundles runs a slice (ms). */
export const QUIET_BEFORE_WARM_UP_MS = 250;

/**
 * The warm-up of a workspace of many bundles, after its start-up check: its slices run only once
 * the connection has dispatched no message for QUIET_BEFORE_WARM_UP_MS (`dispatched`: the count
 * of messages dispatched, messageTurns.ts), and its budget counts only the time it runs. Run at
 * once after the check, it landed on the first keystrokes of someone typing as the progress ended
 * (5,000 bundles: keystroke p50 6-10 ms, p99 53-80 ms, against 0.8 ms and 5-11 ms without it);
 * without it, the first update of files changed on disk ran its code cold (the branch switch of
 * 2,000 bundles: 50-100 ms longer).
 */
export async function warmUpWhenQuiet(budgetMs: number, pause: () => Promise<void>, dispatched: () => number, documentation: MarkupFormat, quietMs = QUIET_BEFORE_WARM_UP_MS): Promise<WarmUpReport> {
  let seen = dispatched();
  let lastMessage = performance.now();
  let waited = 0;
  const quiet = async (): Promise<void> => {
    await pause();
    for (;;) {
      const count = dispatched();
      if (count !== seen) {
        seen = count;
        lastMessage = performance.now();
      }
      const left = lastMessage + quietMs - performance.now();
      if (left <= 0) return;
      const t = performance.now();
      await new Promise((resolve) => setTimeout(resolve, left));
      waited += performance.now() - t;
    }
  };
  await quiet();
  return warmUp(budgetMs, quiet, undefined, documentation, () => performance.now() - waited);
}
