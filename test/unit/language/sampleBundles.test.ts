// The sample bundles of the warm-ups (language/sampleBundles.ts): made from the pipe types'
// snippets, valid for the checker (no finding at all) and for /validate (the dry run runs every
// pipe, the controllers included), every pipe type and field type present, each variant new.

import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { snippetText } from '../../../server/src/language/snippetText.js';
import { sampleBundle, type SampleBundleOptions } from '../../../server/src/language/sampleBundles.js';
import { FIELD_TYPES } from '../../../server/src/language/spec/bundle.js';
import { PIPE_TYPES } from '../../../server/src/language/spec/pipeTypes.js';
import { resolveConfig } from '../../../server/src/runner/config.js';
import { loadOptionsOf } from '../../../server/src/runner/method.js';
import { validateContents } from '../../../server/src/runner/validate.js';
import { parseToml } from '../../../server/src/syntax/document.js';
import { check } from '../../helpers/tree.js';

const SHAPES: SampleBundleOptions[] = [
  { domain: 'sample', copies: 1, variant: 0 },
  { domain: 'sample', copies: 3, variant: 1, mainPipe: true },
  { domain: 'sample_prompted', copies: 2, variant: 2, mainPipe: true, systemPrompt: true, models: new Map([['llm', ['gpt-4o', 'claude']], ['img_gen', ['flux']]]) },
  { domain: 'one_type', variant: 3, types: [PIPE_TYPES.find((t) => t.name === 'PipeBatch')!] },
];

const modelOf = (text: string): ReturnType<typeof buildBundle> => {
  const parsed = parseToml(text);
  expect(parsed.errors).toEqual([]);
  return buildBundle('sample.mthds', parsed);
};

describe('sample bundles', () => {
  it('hold every pipe type, copies under other codes, concepts with a structure field of every field type, templates', () => {
    const text = sampleBundle({ domain: 'sample', copies: 2, variant: 1 });
    const bundle = modelOf(text);
    for (const spec of PIPE_TYPES) expect(bundle.pipes.filter((p) => p.type?.value === spec.name).length, spec.name).toBeGreaterThanOrEqual(2);
    expect(new Set(bundle.pipes.map((p) => p.code)).size).toBe(bundle.pipes.length);
    const structured = bundle.concepts.filter((c) => c.structure !== undefined);
    expect(structured.length).toBeGreaterThan(0);
    for (const concept of structured) for (const type of FIELD_TYPES) expect(concept.structure!.some((f) => f.type?.value === type), `${concept.code} ${type}`).toBe(true);
    // Shorthand and Jinja templates both.
    expect(text).toMatch(/\$\w+/);
    expect(text).toContain('{% if true %}');
  });

  it('is made of the snippets users insert: each pipe of a type carries its snippet\'s lines, names aside', () => {
    const text = sampleBundle({ domain: 'sample' });
    for (const spec of PIPE_TYPES) {
      const body = snippetText(spec.snippet).split('\n').filter((l) => !/^(description|inputs|output|steps|branches|outcomes|branch_pipe_code|prompt|template|question) = /.test(l) && !l.includes('pipe ='));
      for (const line of body) expect(text, `${spec.name}: ${line}`).toContain(line);
    }
  });

  it('is valid: the checker finds nothing at all, whatever the shape', () => {
    for (const options of SHAPES) expect(check(sampleBundle(options)), JSON.stringify(options)).toEqual([]);
  });

  it('is valid for /validate: the dry run runs every pipe, PipeCondition and PipeBatch included', async () => {
    const config = resolveConfig({ env: {}, log: () => {} });
    for (const options of SHAPES) {
      const text = sampleBundle(options);
      const verdict = (await validateContents({ kind: 'contents', contents: [text] }, { allowSignatures: false, ...loadOptionsOf(config), dryRun: config.dryRun! })) as {
        is_valid: boolean;
        validated_pipes?: Array<{ pipe_ref: string; status: string }>;
      };
      expect(verdict.is_valid, JSON.stringify(verdict).slice(0, 2000)).toBe(true);
      const codes = modelOf(text).pipes.map((p) => p.code);
      expect(verdict.validated_pipes!.map((p) => p.pipe_ref.split('.').pop()).sort()).toEqual([...codes].sort());
      expect(verdict.validated_pipes!.every((p) => p.status === 'SUCCESS'), JSON.stringify(verdict.validated_pipes)).toBe(true);
    }
    const all = modelOf(sampleBundle({ domain: 'sample' }));
    for (const name of ['PipeCondition', 'PipeBatch', 'PipeSequence', 'PipeParallel']) expect(all.pipes.some((p) => p.type?.value === name)).toBe(true);
  });

  it('makes each variant new: descriptions, template openings (text on even variants, Jinja on odd ones), models', () => {
    const texts = [0, 1, 2, 3].map((variant) => sampleBundle({ domain: 'sample', variant }));
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts[1]).toContain('{% if true %}Variant 1{% endif %}');
    expect(texts[2]).not.toContain('{%');
    const templates = (text: string): string[] => [...text.matchAll(/^(?:prompt|template|question) = ("""\n[^\n]*|"[^\n]*)/gm)].map((m) => m[1]!);
    for (const t of templates(texts[0]!)) for (const other of texts.slice(1)) expect(templates(other)).not.toContain(t);
    const models = new Map([['llm', ['a-model', 'b-model']]]);
    expect(sampleBundle({ domain: 'sample', variant: 0, models })).toContain('model = "a-model"');
    expect(sampleBundle({ domain: 'sample', variant: 1, models })).toContain('model = "b-model"');
    expect(sampleBundle({ domain: 'sample' })).not.toContain('model = ');
  });

  it('has the top keys asked for', () => {
    expect(sampleBundle({ domain: 'sample' })).not.toMatch(/^(main_pipe|system_prompt) = /m);
    const top = modelOf(sampleBundle({ domain: 'sample', mainPipe: true, systemPrompt: true }));
    expect(top.mainPipe?.value).toBe('pipe_sequence_0');
    expect(top.systemPrompt).toBeDefined();
  });
});
