// The TextMate grammar (syntaxes/): the assertion files run by vscode-tmgrammar-test, the whole
// shared corpus tokenized with vscode-textmate + vscode-oniguruma (the engine VS Code uses), the
// spec's pipe types and natives, and the Markdown injection.

import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NATIVE_CONCEPTS } from '../../server/src/language/spec/natives.js';
import { PIPE_TYPES, RETIRED_PIPE_TYPES } from '../../server/src/language/spec/pipeTypes.js';

type Textmate = typeof import('vscode-textmate');
type Grammar = import('vscode-textmate').IGrammar;
type StackElement = import('vscode-textmate').StackElement;
type Token = import('vscode-textmate').IToken;

const require = createRequire(import.meta.url);
const tm = require('vscode-textmate') as Textmate;
const oniguruma = require('vscode-oniguruma') as typeof import('vscode-oniguruma');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const CORPUS = path.resolve(REPO, '../shared/corpus');
const GRAMMAR = path.join(REPO, 'syntaxes/mthds.tmLanguage.json');
const INJECTION = path.join(REPO, 'syntaxes/mthds-markdown-injection.tmLanguage.json');
const MARKDOWN_STAND_IN = path.join(HERE, 'markdown.tmLanguage.json');

const PIPE_SCOPE = 'entity.name.function.pipe.mthds';
const CONCEPT_SCOPE = 'entity.name.type.concept.mthds';
const PIPE_TYPE_SCOPE = 'support.class.pipe-type.mthds';
const NATIVE_SCOPE = 'support.type.native-concept.mthds';

// Bounds that catch catastrophic backtracking (the whole corpus takes well under a second).
const LINE_TIME_LIMIT_MS = 1_000;
const FILE_TIME_LIMIT_MS = 2_000;
const CORPUS_TIME_LIMIT_MS = 20_000;

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
async function loadGrammar(scope: string, files: Record<string, string>, injections: Record<string, string[]> = {}): Promise<Grammar> {
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

interface Line {
  text: string;
  tokens: Token[];
  stoppedEarly: boolean;
}

function tokenize(grammar: Grammar, text: string): { lines: Line[]; state: StackElement } {
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
function scopesOf(line: Line, part: string, nth = 1): string[][] {
  let at = -1;
  for (let i = 0; i < nth; i++) at = line.text.indexOf(part, at + 1);
  if (at < 0) throw new Error(`"${part}" not in ${JSON.stringify(line.text)}`);
  return line.tokens.filter((t) => t.startIndex < at + part.length && t.endIndex > at).map((t) => t.scopes);
}

/** Whether every token over [start, end) of a line carries `scope`. */
function spanHas(line: Line, [start, end]: [number, number], scope: string): boolean {
  const tokens = line.tokens.filter((t) => t.startIndex < end && t.endIndex > start);
  return tokens.length > 0 && tokens.every((t) => t.scopes.includes(scope));
}

function everyTokenHas(line: Line, part: string, scope: string, nth = 1): boolean {
  const scopes = scopesOf(line, part, nth);
  return scopes.length > 0 && scopes.every((s) => s.includes(scope));
}

function listMthds(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listMthds(full));
    else if (entry.isFile() && entry.name.endsWith('.mthds')) out.push(full);
  }
  return out.sort();
}

function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: REPO, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe('grammar assertion files (vscode-tmgrammar-test)', () => {
  const cli = require.resolve('vscode-tmgrammar-test/dist/unit.js');

  it('passes every test/grammar/*.test.mthds', async () => {
    const files = readdirSync(HERE).filter((f) => f.endsWith('.test.mthds'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    const { code, output } = await run([cli, '-g', 'syntaxes/mthds.tmLanguage.json', 'test/grammar/*.test.mthds']);
    expect(output).not.toMatch(/failed|ERROR/);
    expect(code, output).toBe(0);
    for (const f of files) expect(output).toContain(`test/grammar/${f} run successfuly`);
  });

  it('the assertion files cover every MTHDS scope and the TOML base', () => {
    const assertions = readdirSync(HERE)
      .filter((f) => f.endsWith('.test.mthds'))
      .flatMap((f) => readFileSync(path.join(HERE, f), 'utf8').split('\n'))
      .filter((l) => /^#\s*(\^|<)/.test(l))
      .map((l) => l.split(' - ')[0]!)
      .join('\n');
    const required = [
      PIPE_SCOPE,
      CONCEPT_SCOPE,
      PIPE_TYPE_SCOPE,
      NATIVE_SCOPE,
      'keyword.operator.multiplicity.mthds',
      'keyword.operator.presence.mthds',
      'punctuation.separator.package.mthds',
      'entity.name.namespace.package.mthds',
      'entity.name.namespace.domain.mthds',
      'entity.name.function.pipe-reference.mthds',
      'constant.language.outcome.mthds',
      'keyword.operator.model-sigil.mthds',
      'variable.other.model.mthds',
      'variable.other.template.mthds',
      'punctuation.definition.variable.mthds',
      'constant.character.escape.template.mthds',
      'meta.embedded.expression.jinja',
      'meta.embedded.statement.jinja',
      'comment.block.jinja',
      'keyword.control.jinja',
      'support.function.filter.jinja',
      'string.quoted.single.jinja',
      'string.quoted.double.jinja',
      'comment.line.number-sign.toml',
      'meta.table.toml',
      'meta.table.array.toml',
      'support.type.property-name.toml',
      'punctuation.separator.dot.toml',
      'string.quoted.double.basic.toml',
      'string.quoted.single.literal.toml',
      'string.quoted.triple.basic.block.toml',
      'string.quoted.triple.literal.block.toml',
      'constant.character.escape.toml',
      'constant.numeric.integer.toml',
      'constant.numeric.integer.hex.toml',
      'constant.numeric.integer.oct.toml',
      'constant.numeric.integer.bin.toml',
      'constant.numeric.float.toml',
      'constant.numeric.float.inf.toml',
      'constant.numeric.float.nan.toml',
      'constant.language.boolean.toml',
      'constant.other.time.datetime.offset.toml',
      'constant.other.time.datetime.local.toml',
      'constant.other.time.date.toml',
      'constant.other.time.time.toml',
      'meta.inline-table.toml',
      'meta.array.toml',
    ];
    // Every template key of the spec's pipe types is exercised too.
    const sources = readdirSync(HERE)
      .filter((f) => f.endsWith('.test.mthds'))
      .map((f) => readFileSync(path.join(HERE, f), 'utf8'))
      .join('\n');
    const templateKeys = new Set(
      PIPE_TYPES.flatMap((p) => p.fields).flatMap((f) => (f.value.kind === 'string' && (f.value.role === 'template' || f.value.role === 'expression') && !f.retired ? [f.name] : [])),
    );
    expect([...templateKeys].filter((k) => !new RegExp(`^\\s*${k}\\s*=`, 'm').test(sources))).toEqual([]);
    expect(required.filter((scope) => !assertions.includes(scope))).toEqual([]);
  });

  it('passes the Markdown injection file (with the stand-in Markdown grammar)', async () => {
    const { code, output } = await run([cli, '--config', 'test/grammar/markdown-grammars.json', 'test/grammar/*.test.md']);
    expect(code, output).toBe(0);
    expect(output).toContain('test/grammar/markdown-injection.test.md run successfuly');
  });

  it('the committed grammar is what build-grammar.mjs makes from the spec', async () => {
    const { code, output } = await run([path.join(REPO, 'syntaxes/build-grammar.mjs'), '--check']);
    expect(code, output).toBe(0);
  });
});

describe('the shared corpus, tokenized', () => {
  let grammar: Grammar;
  beforeAll(async () => {
    grammar = await loadGrammar('source.mthds', { 'source.mthds': GRAMMAR });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('tokenizes every .mthds file: no error, tokens within their line, bounded time, every pipe header scoped', () => {
    expect(existsSync(CORPUS), `the shared corpus at ${CORPUS}`).toBe(true);
    const files = listMthds(CORPUS);
    expect(files.length).toBeGreaterThan(100);
    // vscode-textmate reports an endless loop (a rule pushed and popped without advancing) on the console.
    const complaints: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void complaints.push(args.map(String).join(' ')));
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void complaints.push(args.map(String).join(' ')));

    const problems: string[] = [];
    let total = 0;
    let slowest = { file: '', ms: 0 };
    let pipeHeaders = 0;
    let conceptHeaders = 0;
    let lineCount = 0;
    for (const file of files) {
      const rel = path.relative(CORPUS, file);
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

    console.info(
      `grammar corpus: ${files.length} files, ${lineCount} lines, ${pipeHeaders} pipe and ${conceptHeaders} concept headers, ` +
        `${total.toFixed(0)} ms in all, slowest ${slowest.ms.toFixed(1)} ms (${slowest.file})`,
    );
    expect(problems).toEqual([]);
    expect(complaints).toEqual([]);
    expect(pipeHeaders).toBeGreaterThan(500);
    expect(total).toBeLessThan(CORPUS_TIME_LIMIT_MS);
  });
});

describe('the spec: every pipe type and every native gets its scope', () => {
  let grammar: Grammar;
  beforeAll(async () => {
    grammar = await loadGrammar('source.mthds', { 'source.mthds': GRAMMAR });
  });

  it.each(PIPE_TYPES.map((p) => p.name))('pipe type %s', (name) => {
    const { lines } = tokenize(grammar, `[pipe.p]\ntype = "${name}"\nsignature_for = '${name}'\n[pipe]\nold = { type = "${name}" }\n`);
    expect(everyTokenHas(lines[1]!, name, PIPE_TYPE_SCOPE)).toBe(true);
    expect(everyTokenHas(lines[2]!, name, PIPE_TYPE_SCOPE)).toBe(true);
    expect(everyTokenHas(lines[4]!, name, PIPE_TYPE_SCOPE)).toBe(true);
  });

  it('retired and unknown pipe types are not highlighted as pipe types', () => {
    const names = [...Object.keys(RETIRED_PIPE_TYPES), 'PipeUnknown', 'pipellm', 'PipeLLMX'];
    const { lines } = tokenize(grammar, `[pipe.p]\n${names.map((n) => `type = "${n}"`).join('\n')}\n`);
    names.forEach((name, i) => {
      expect(scopesOf(lines[i + 1]!, name).flat(), name).not.toContain(PIPE_TYPE_SCOPE);
    });
    expect(everyTokenHas(lines[1]!, Object.keys(RETIRED_PIPE_TYPES)[0]!, 'invalid.deprecated.pipe-type.mthds')).toBe(true);
  });

  it.each(NATIVE_CONCEPTS.map((c) => c.code))('native concept %s', (code) => {
    const { lines } = tokenize(
      grammar,
      [
        '[pipe.p]',
        `inputs = { a = "${code}", b = "${code}[]?", c = { concept = "native.${code}!" } }`,
        `output = "${code}[3]"`,
        `[concept.X]`,
        `refines = "${code}"`,
        `[concept.Y.structure]`,
        `f = { type = "concept", concept_ref = "${code}" }`,
      ].join('\n'),
    );
    for (const nth of [1, 2, 3]) expect(everyTokenHas(lines[1]!, code, NATIVE_SCOPE, nth), `input ${nth}`).toBe(true);
    expect(everyTokenHas(lines[2]!, code, NATIVE_SCOPE)).toBe(true);
    expect(everyTokenHas(lines[4]!, code, NATIVE_SCOPE)).toBe(true);
    expect(everyTokenHas(lines[6]!, code, NATIVE_SCOPE)).toBe(true);
    // A concept merely starting like a native is a user concept.
    const { lines: other } = tokenize(grammar, `[pipe.p]\noutput = "${code}Extra"\n`);
    expect(everyTokenHas(other[1]!, `${code}Extra`, CONCEPT_SCOPE)).toBe(true);
  });
});

describe('Markdown injection', () => {
  const injection = JSON.parse(readFileSync(INJECTION, 'utf8')) as {
    scopeName: string;
    injectionSelector: string;
    patterns: { include: string }[];
    repository: Record<string, { begin: string; patterns: { contentName?: string; patterns?: { include: string }[] }[] }>;
  };

  it('is an injection into Markdown that embeds source.mthds', () => {
    expect(injection.injectionSelector).toBe('L:text.html.markdown');
    expect(injection.scopeName).toBe('markdown.mthds.codeblock');
    const block = injection.repository['mthds-code-block']!;
    expect(new RegExp(block.begin.replace('(?i:', '(?:'), 'i').test('```mthds')).toBe(true);
    expect(block.patterns[0]!.contentName).toBe('meta.embedded.block.mthds');
    expect(block.patterns[0]!.patterns).toEqual([{ include: 'source.mthds' }]);
  });

  it('highlights ```mthds fences of a Markdown document (tokenized with a stand-in Markdown grammar)', async () => {
    const markdown = await loadGrammar(
      'text.html.markdown',
      { 'text.html.markdown': MARKDOWN_STAND_IN, 'source.mthds': GRAMMAR, 'markdown.mthds.codeblock': INJECTION },
      { 'text.html.markdown': ['markdown.mthds.codeblock'] },
    );
    const doc = [
      '# Title', //                       0
      '',
      '```mthds', //                      2
      '[pipe.summarize]', //              3
      'type = "PipeLLM"', //              4
      'prompt = """', //                  5
      'Summarize $text.', //              6
      '```', //                           7: closes the fence even inside an open string
      '',
      'type = "PipeLLM" in prose', //     9
      '',
      '```toml', //                      11
      '[pipe.not_mthds]', //             12
      '```', //                          13
      '  ~~~ MTHDS', //                  14
      '  [concept.Invoice]', //          15
      '  ~~~', //                        16
      'The end.', //                     17
    ].join('\n');
    const { lines } = tokenize(markdown, doc);
    const embedded = 'meta.embedded.block.mthds';
    expect(everyTokenHas(lines[2]!, 'mthds', 'fenced_code.block.language.markdown')).toBe(true);
    expect(everyTokenHas(lines[3]!, 'summarize', PIPE_SCOPE)).toBe(true);
    expect(everyTokenHas(lines[3]!, 'summarize', embedded)).toBe(true);
    expect(everyTokenHas(lines[4]!, 'PipeLLM', PIPE_TYPE_SCOPE)).toBe(true);
    expect(everyTokenHas(lines[6]!, 'text', 'variable.other.template.mthds')).toBe(true);
    expect(scopesOf(lines[7]!, '```').flat()).not.toContain(embedded);
    expect(everyTokenHas(lines[7]!, '```', 'punctuation.definition.markdown')).toBe(true);
    expect(scopesOf(lines[9]!, 'PipeLLM').flat()).not.toContain(PIPE_TYPE_SCOPE);
    expect(scopesOf(lines[12]!, 'not_mthds').flat()).not.toContain(PIPE_SCOPE);
    expect(everyTokenHas(lines[15]!, 'Invoice', CONCEPT_SCOPE)).toBe(true);
    expect(scopesOf(lines[17]!, 'The end.').flat()).not.toContain(embedded);
    expect(everyTokenHas(lines[17]!, 'The end.', 'meta.paragraph.markdown')).toBe(true);
  });
});
