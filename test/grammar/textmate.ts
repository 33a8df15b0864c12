// Tokenizing with the TextMate grammar as VS Code does (vscode-textmate + vscode-oniguruma), and the
// sweep that tokenizes every bundle of a folder and checks the tokens (test/grammar over the
// project's bundles, test/corpus over the shared corpus).

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';

type Textmate = typeof import('vscode-textmate');
export type Grammar = import('vscode-textmate').IGrammar;
type StackElement = import('vscode-textmate').StackElement;
type Token = import('vscode-textmate').IToken;

const require = createRequire(import.meta.url);
const tm = require('vscode-textmate') as Textmate;
const oniguruma = require('vscode-oniguruma') as typeof import('vscode-oniguruma');

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '../..');
export const GRAMMAR = path.join(REPO, 'syntaxes/mthds.tmLanguage.json');

export const PIPE_SCOPE = 'entity.name.function.pipe.mthds';
export const CONCEPT_SCOPE = 'entity.name.type.concept.mthds';
export const PIPE_TYPE_SCOPE = 'support.class.pipe-type.mthds';
export const NATIVE_SCOPE = 'support.type.native-concept.mthds';

// Bounds that catch catastrophic backtracking (the whole corpus takes well under a second).
const LINE_TIME_LIMIT_MS = 1_000;
const FILE_TIME_LIMIT_MS = 2_000;

let onigLib: ReturnType<typeof loadOniguruma> | undefined;
function loadOniguruma() {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  const buffer = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
  return oniguruma.loadWASM(buffer).then(() => ({
    createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s: string) => new oniguruma.OnigString(s),
  }));
}

/** A registry over grammar files (scope name to path), with injections (scope to injected scopes). */
export async function loadGrammar(scope: string, files: Record<string, string>, injections: Record<string, string[]> = {}): Promise<Grammar> {
  onigLib ??= loadOniguruma();
  const registry = new tm.Registry({
    onigLib,
    loadGrammar: async (name) => (files[name] ? tm.parseRawGrammar(readFileSync(files[name]!, 'utf8'), files[name]) : null),
    getInjections: (name) => injections[name],
  });
  const grammar = await registry.loadGrammar(scope);
  if (!grammar) throw new Error(`no grammar for ${scope}`);
  return grammar;
}

export interface Line {
  text: string;
  tokens: Token[];
  stoppedEarly: boolean;
}

export function tokenize(grammar: Grammar, text: string): { lines: Line[]; state: StackElement } {
  let state = tm.INITIAL;
  const lines: Line[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const result = grammar.tokenizeLine(line, state, LINE_TIME_LIMIT_MS);
    lines.push({ text: line, tokens: result.tokens, stoppedEarly: result.stoppedEarly });
    state = result.ruleStack;
  }
  return { lines, state };
}

/** The scopes of the token(s) covering exactly `part` (its `nth` occurrence) in a line. */
export function scopesOf(line: Line, part: string, nth = 1): string[][] {
  let at = -1;
  for (let i = 0; i < nth; i++) at = line.text.indexOf(part, at + 1);
  if (at < 0) throw new Error(`"${part}" not in ${JSON.stringify(line.text)}`);
  return line.tokens.filter((t) => t.startIndex < at + part.length && t.endIndex > at).map((t) => t.scopes);
}

/** Whether every token over [start, end) of a line carries `scope`. */
export function spanHas(line: Line, [start, end]: [number, number], scope: string): boolean {
  const tokens = line.tokens.filter((t) => t.startIndex < end && t.endIndex > start);
  return tokens.length > 0 && tokens.every((t) => t.scopes.includes(scope));
}

export function everyTokenHas(line: Line, part: string, scope: string, nth = 1): boolean {
  const scopes = scopesOf(line, part, nth);
  return scopes.length > 0 && scopes.every((s) => s.includes(scope));
}

export function listMthds(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listMthds(full));
    else if (entry.isFile() && entry.name.endsWith('.mthds')) out.push(full);
  }
  return out.sort();
}

export interface TokenizeSweep {
  files: number;
  lines: number;
  pipeHeaders: number;
  conceptHeaders: number;
  totalMs: number;
  slowest: { file: string; ms: number };
  problems: string[];
  /** What vscode-textmate wrote on the console meanwhile (it reports endless loops there). */
  complaints: string[];
}

/**
 * Tokenizes every file: no error, tokens cover each line exactly, bounded time, every pipe and
 * concept header scoped, and a valid TOML file ends with no string, array or table left open.
 */
export function tokenizeSweep(grammar: Grammar, root: string, files: readonly string[]): TokenizeSweep {
  const complaints: string[] = [];
  const saved = { error: console.error, warn: console.warn };
  console.error = console.warn = (...args: unknown[]) => void complaints.push(args.map(String).join(' '));
  try {
    return { ...sweepFiles(grammar, root, files), complaints };
  } finally {
    console.error = saved.error;
    console.warn = saved.warn;
  }
}

function sweepFiles(grammar: Grammar, root: string, files: readonly string[]): Omit<TokenizeSweep, 'complaints'> {
  const problems: string[] = [];
  let total = 0;
  let slowest = { file: '', ms: 0 };
  let pipeHeaders = 0;
  let conceptHeaders = 0;
  let lineCount = 0;
  for (const file of files) {
    const rel = path.relative(root, file);
    const text = readFileSync(file, 'utf8');
    const started = performance.now();
    let result: ReturnType<typeof tokenize>;
    try {
      result = tokenize(grammar, text);
    } catch (e) {
      problems.push(`${rel}: tokenizer error ${String(e)}`);
      continue;
    }
    const ms = performance.now() - started;
    total += ms;
    if (ms > slowest.ms) slowest = { file: rel, ms };
    if (ms > FILE_TIME_LIMIT_MS) problems.push(`${rel}: ${ms.toFixed(0)} ms`);

    result.lines.forEach((line, i) => {
      lineCount++;
      const where = `${rel}:${i + 1}`;
      if (line.stoppedEarly) problems.push(`${where}: stopped after ${LINE_TIME_LIMIT_MS} ms`);
      // vscode-textmate tokenizes the line plus a "\n": a token may end there, never past it.
      const length = line.text.length;
      let expected = 0;
      for (const t of line.tokens) {
        if (t.startIndex !== expected) problems.push(`${where}: token at ${t.startIndex}, expected ${expected}`);
        if (t.endIndex <= t.startIndex) problems.push(`${where}: empty token at ${t.startIndex}`);
        if (t.endIndex > length + 1 || (t.startIndex >= length && length > 0)) problems.push(`${where}: token ${t.startIndex}-${t.endIndex} past the line (${length})`);
        expected = t.endIndex;
      }
      if (expected < length) problems.push(`${where}: tokens stop at ${expected} of ${length}`);

      const pipe = /^\s*\[\[?\s*pipe\s*\.\s*([A-Za-z0-9_-]+)\s*[.\]]/d.exec(line.text);
      if (pipe) {
        pipeHeaders++;
        if (!spanHas(line, pipe.indices![1]!, PIPE_SCOPE)) problems.push(`${where}: pipe header without ${PIPE_SCOPE}`);
      }
      const concept = /^\s*\[\s*concept\s*\.\s*([A-Za-z0-9_-]+)\s*[.\]]/d.exec(line.text);
      if (concept) {
        conceptHeaders++;
        if (!spanHas(line, concept.indices![1]!, CONCEPT_SCOPE)) problems.push(`${where}: concept header without ${CONCEPT_SCOPE}`);
      }
    });

    // A file that is valid TOML leaves no string, array or table open: the grammar ends at the
    // top level or inside a section (depth 1 or 2).
    let valid = true;
    try {
      parseToml(text);
    } catch {
      valid = false;
    }
    if (valid && result.state.depth > 2) problems.push(`${rel}: ends with ${result.state.depth} rules open`);
  }

  return { files: files.length, lines: lineCount, pipeHeaders, conceptHeaders, totalMs: total, slowest, problems };
}
