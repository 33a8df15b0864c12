// The TextMate grammar (syntaxes/): the assertion files run by vscode-tmgrammar-test, the project's
// bundles tokenized with vscode-textmate + vscode-oniguruma (the engine VS Code uses; the shared
// corpus: test/corpus/grammar.test.ts), the spec's pipe types and natives, and the Markdown injection.

import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_CONCEPTS } from '../../server/src/language/spec/natives.js';
import { PIPE_TYPES, RETIRED_PIPE_TYPES } from '../../server/src/language/spec/pipeTypes.js';
import { CONCEPT_SCOPE, GRAMMAR, HERE, NATIVE_SCOPE, PIPE_SCOPE, PIPE_TYPE_SCOPE, REPO, everyTokenHas, listMthds, loadGrammar, scopesOf, tokenize, tokenizeSweep, type Grammar } from './textmate.js';

const require = createRequire(import.meta.url);
const INJECTION = path.join(REPO, 'syntaxes/mthds-markdown-injection.tmLanguage.json');
const MARKDOWN_STAND_IN = path.join(HERE, 'markdown.tmLanguage.json');

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

describe('the project\'s bundles, tokenized', () => {
  let grammar: Grammar;
  beforeAll(async () => {
    grammar = await loadGrammar('source.mthds', { 'source.mthds': GRAMMAR });
  });

  it('tokenizes every .mthds file of the fixtures and examples: no error, tokens within their line, bounded time, every pipe header scoped', () => {
    const files = [...listMthds(path.join(REPO, 'test/fixtures')), ...listMthds(path.join(REPO, 'examples'))];
    expect(files.length).toBeGreaterThanOrEqual(12);
    const sweep = tokenizeSweep(grammar, REPO, files);
    expect(sweep.problems).toEqual([]);
    expect(sweep.complaints).toEqual([]);
    expect(sweep.pipeHeaders).toBeGreaterThan(40);
    expect(sweep.conceptHeaders).toBeGreaterThan(10);
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
