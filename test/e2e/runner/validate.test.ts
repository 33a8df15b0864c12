// POST /validate: a 200 verdict in both arms, built from the checker's findings, with locators in
// the caller's file names; pending signatures; the input form; the dry-run hook.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateContents, type DryRunHook } from '../../../server/src/runner/index.js';
import { HELLO, post, withRunner, type Runner } from './helpers.js';

import { FIXTURE_BUNDLES } from '../../helpers/files.js';

const fixture = (rel: string): string => readFileSync(path.join(FIXTURE_BUNDLES, rel), 'utf8');

let runner: Runner;
beforeAll(async () => {
  runner = await withRunner();
});
afterAll(async () => {
  await runner.close();
});

const SIGNATURES = `domain = "legal"
description = "Contracts"
main_pipe = "review"

[concept.Review]
description = "A review"
refines = "Text"

[pipe.review]
type = "PipeSequence"
description = "Review a contract"
inputs = { contract = "Text" }
output = "Review"
steps = [{ pipe = "extract_clauses", result = "review" }]

[pipe.extract_clauses]
description = "Extract the clauses (to be implemented)"
inputs = { contract = "Text" }
output = "Review"
`;

describe('valid verdicts', () => {
  it.each(['stories/batch.mthds', 'stories/parallel.mthds', 'stories/templates.mthds', 'support.mthds', 'recipes.mthds'])('validates the fixture bundle %s', async (rel) => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [fixture(rel)] });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json).toMatchObject({ is_valid: true, is_runnable: true, pending_signatures: [] });
  });

  it('reports the input form of the main pipe, keyed by its namespaced ref', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [HELLO] });
    expect(r.json.input_form).toEqual({
      'hello.greet': { fields: [expect.objectContaining({ kind: 'prose', name: 'name', concept_ref: 'native.Text', required: true, presence: 'plain', gating: true })] },
    });
  });

  it('describes structured, list and optional inputs in the input form', async () => {
    const bundle = `domain = "shop"
description = "Shop"
main_pipe = "quote"

[concept.Item]
description = "An item"
[concept.Item.structure]
label = "What it is"
price = { type = "number", description = "Price", required = true }
kind = { description = "Kind", choices = ["tool", "toy"] }

[pipe.quote]
type = "PipeLLM"
description = "Quote"
inputs = { items = "Item[]", note = "Text?", pair = "Item[2]" }
output = "Text"
prompt = """
Quote $items and $pair.
@?note
"""
`;
    const r = await post(`${runner.url}/validate`, { mthds_contents: [bundle] });
    expect(r.json.is_valid).toBe(true);
    const fields = r.json.input_form['shop.quote'].fields;
    expect(fields[0]).toMatchObject({ kind: 'list', name: 'items', required: true, gating: false, item: { kind: 'object', concept_ref: 'shop.Item' } });
    expect(fields[0].item.fields.map((f: { name: string; kind: string }) => `${f.name}:${f.kind}`)).toEqual(['label:text', 'price:number', 'kind:enum']);
    expect(fields[1]).toMatchObject({ name: 'note', presence: 'optional', required: false, gating: false });
    expect(fields[2]).toMatchObject({ kind: 'list', item_count: 2, gating: true });
  });

  it('reports pending signatures and runnability, the same with allow_signatures on or off', async () => {
    for (const allow of [false, true]) {
      const r = await post(`${runner.url}/validate`, { mthds_contents: [SIGNATURES], allow_signatures: allow });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ is_valid: true, is_runnable: false, pending_signatures: ['legal.extract_clauses'] });
    }
  });

  it('accepts a bundle with no main_pipe', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [HELLO.replace('main_pipe = "greet"\n', '')] });
    expect(r.json).toMatchObject({ is_valid: true, is_runnable: true });
    expect(r.json.input_form).toBeUndefined();
  });

  it('validates several bundles of one domain together', async () => {
    const concepts = 'domain = "two"\ndescription = "Concepts"\n\n[concept.Note]\ndescription = "A note"\nrefines = "Text"\n';
    const pipes = 'domain = "two"\ndescription = "Pipes"\n\n[pipe.write]\ntype = "PipeLLM"\ndescription = "Write"\noutput = "Note"\nprompt = "Write a note."\n';
    const r = await post(`${runner.url}/validate`, { mthds_contents: [pipes, concepts], mthds_sources: ['pipes.mthds', 'concepts.mthds'] });
    expect(r.json.is_valid).toBe(true);
  });
});

describe('invalid verdicts', () => {
  it('answers a TOML syntax error with 200, is_valid false, a located method.syntax item carrying the source', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: ['domain = "broken" trailing\n'], mthds_sources: ['broken.mthds'] });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json).toMatchObject({ is_valid: false, is_runnable: false, pending_signatures: [] });
    const item = r.json.validation_errors[0];
    expect(item).toMatchObject({ category: 'blueprint_validation', code: 'method.syntax', file: 'broken.mthds', source: 'broken.mthds', line: 1, column: 19, params: { finding: expect.any(String) } });
    expect(typeof item.message).toBe('string');
    expect(r.json.message).toMatch(/^Validation error/);
    expect(r.json.input_form).toBeUndefined();
  });

  it('locates pipe faults: file, line, column, pipe, field and params', async () => {
    const bad = HELLO.replace('main_pipe = "greet"', 'main_pipe = "Not A Valid Pipe Code!"').replace('prompt = "Say hello to $name."', 'promt = "Say hello to $name."');
    const r = await post(`${runner.url}/validate`, { mthds_contents: [bad] });
    expect(r.json.is_valid).toBe(false);
    expect(r.json.validation_errors.length).toBeGreaterThanOrEqual(2);
    for (const e of r.json.validation_errors) {
      expect(e).toMatchObject({ category: expect.any(String), message: expect.any(String), code: expect.stringMatching(/^method\./), file: 'mthds_contents[0]', line: expect.any(Number), column: expect.any(Number), params: expect.any(Object) });
      expect(Object.values(e)).not.toContain(null);
    }
    const unknownKey = r.json.validation_errors.find((e: { code: string }) => e.code === 'method.schema_violation');
    expect(unknownKey).toMatchObject({ pipe: 'greet', pipe_code: 'greet', domain_code: 'hello', field: 'pipe.greet.promt', line: 10, column: 1 });
    expect(r.json.source).toBeUndefined();
  });

  it('reports files by their mthds_sources names across several bundles', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [HELLO, 'domain = "other"\ndescription = "x"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "p"\noutput = "Missing"\nprompt = "x"\n'], mthds_sources: ['hello.mthds', 'dir/other.mthds'] });
    expect(r.json.is_valid).toBe(false);
    expect(r.json.validation_errors).toEqual([expect.objectContaining({ code: 'method.concept_unresolved', file: 'dir/other.mthds', source: 'dir/other.mthds', pipe: 'p', line: 7 })]);
  });
});

describe('the dry-run hook', () => {
  it('joins its faults to an invalid verdict (category dry_run) and its artifacts to a valid one', async () => {
    const failing: DryRunHook = ({ tree, toItem }) => {
      const pipe = tree.bundles[0]!.pipes[0]!;
      const item = toItem({ code: 'method.mock_unsatisfiable', params: { concept: 'native.Text' }, file: pipe.bundle.file, range: pipe.codeRange, message: 'no mock', severity: 'error' });
      return { errors: [item] };
    };
    const verdict = await validateContents({ kind: 'contents', contents: [HELLO], sources: ['hello.mthds'] }, { dryRun: failing });
    expect(verdict).toMatchObject({ is_valid: false, validation_errors: [{ category: 'dry_run', code: 'method.mock_unsatisfiable', file: 'hello.mthds', pipe: 'greet', line: 5 }] });

    const passing: DryRunHook = async () => ({ errors: [], extensions: { validated_pipes: [{ pipe_ref: 'hello.greet', status: 'SUCCESS' }] } });
    const ok = await validateContents({ kind: 'contents', contents: [HELLO] }, { dryRun: passing });
    expect(ok).toMatchObject({ is_valid: true, validated_pipes: [{ pipe_ref: 'hello.greet' }] });

    const served = await withRunner({ dry_run: failing });
    try {
      const r = await post(`${served.url}/validate`, { mthds_contents: [HELLO] });
      expect(r.json).toMatchObject({ is_valid: false, validation_errors: [{ category: 'dry_run' }] });
    } finally {
      await served.close();
    }
  });

  it('is not called when the static checks already fail', async () => {
    let called = false;
    const verdict = await validateContents({ kind: 'contents', contents: ['domain = '] }, { dryRun: () => ((called = true), { errors: [] }) });
    expect(verdict.is_valid).toBe(false);
    expect(called).toBe(false);
  });
});
