// POST /pipe-io over real HTTP: the three I/O artifacts of the selected pipe (or of every pipe),
// the selection facts, the echo of the files, the invalid arm, and the refusals.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO, post, problemOf, withRunner, type Runner } from './helpers.js';

let runner: Runner;
beforeAll(async () => {
  runner = await withRunner();
});
afterAll(async () => {
  await runner.close();
});

const ENTRY = `domain = "smoke"
description = "Smoke"
main_pipe = "echo"

[concept.Dossier]
description = "A dossier"

[concept.Dossier.structure]
title = { type = "text", description = "Title", required = true }
cover = { type = "concept", concept_ref = "native.Image", description = "Cover" }

[pipe.echo]
type = "PipeCompose"
description = "Echo the note beside a document and a dossier"
inputs = { doc = "Document", note = "Text", dossier = "Dossier" }
output = "Text"
template = """
$note

@doc

@dossier
"""
`;

const OPEN = `domain = "open"
description = "No entry"

[pipe.first]
type = "PipeCompose"
description = "Echo a note"
inputs = { note = "Text" }
output = "Text"
template = "$note"

[pipe.second]
type = "PipeCompose"
description = "Echo a topic"
inputs = { topic = "Text" }
output = "Text"
template = "$topic"
`;

describe('POST /pipe-io', () => {
  it('selects the declared entry pipe and describes it, the three maps over one key', async () => {
    const r = await post(`${runner.url}/pipe-io`, { files: [{ content: ENTRY, source: 'smoke.mthds' }] });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ is_valid: true, pipe_ref: 'smoke.echo', default_pipe_ref: 'smoke.echo', is_runnable: true, pending_signatures: [], files: null });
    for (const key of ['pipe_io_contracts', 'input_form', 'output_form']) expect(Object.keys(r.json[key])).toEqual(['smoke.echo']);
    const fields = r.json.input_form['smoke.echo'].fields;
    expect(fields.map((f: { name: string; kind: string }) => `${f.name}:${f.kind}`)).toEqual(['doc:document', 'note:prose', 'dossier:object']);
    expect(fields[2].fields.map((f: { name: string; required: boolean }) => [f.name, f.required])).toEqual([
      ['title', true],
      ['cover', false],
    ]);
    expect(r.json.pipe_io_contracts['smoke.echo'].inputs.doc).toMatchObject({ concept_ref: 'native.Document', presence: 'plain', multiplicity: 'single', item_count: null });
    expect(r.json.output_form['smoke.echo']).toEqual({ field: { kind: 'prose', name: 'output', concept_ref: 'native.Text', description: 'A piece of text.', required: true } });
  });

  it('describes every pipe under all_pipes with no entry pipe, and echoes the files', async () => {
    const files = [{ content: OPEN, source: 'open.mthds' }];
    const r = await post(`${runner.url}/pipe-io`, { files, all_pipes: true, include_files: true });
    expect(r.json).toMatchObject({ is_valid: true, pipe_ref: null, default_pipe_ref: null, files });
    expect(Object.keys(r.json.input_form)).toEqual(['open.first', 'open.second']);
  });

  it('takes mthds_contents and a pipe_ref, the default still the entry pipe', async () => {
    const r = await post(`${runner.url}/pipe-io`, { mthds_contents: [HELLO, OPEN], pipe_ref: 'open.second' });
    expect(r.json).toMatchObject({ is_valid: true, pipe_ref: 'open.second', default_pipe_ref: 'hello.greet' });
    expect(Object.keys(r.json.pipe_io_contracts)).toEqual(['open.second']);
  });

  it('answers an invalid method with the invalid verdict on a 200', async () => {
    const r = await post(`${runner.url}/pipe-io`, { files: [{ content: ENTRY.replace('type = "PipeCompose"', 'type = "PipeNope"'), source: 'broken.mthds' }] });
    expect(r.status).toBe(200);
    expect(r.json.is_valid).toBe(false);
    expect(r.json.validation_errors[0]).toMatchObject({ code: 'method.pipe_type_invalid', file: 'broken.mthds' });
    expect(r.json.input_form).toBeUndefined();
  });

  it('refuses a selection it cannot make, and a malformed request', async () => {
    const none = await post(`${runner.url}/pipe-io`, { files: [{ content: OPEN }] });
    expect(none.status).toBe(422);
    expect(problemOf(none).code).toBe('request.pipe_unspecified');
    const missing = await post(`${runner.url}/pipe-io`, { files: [{ content: ENTRY }], pipe_ref: 'smoke.absent' });
    expect(problemOf(missing).code).toBe('request.pipe_not_found');
    const two = await post(`${runner.url}/pipe-io`, { files: [{ content: ENTRY }], mthds_contents: [ENTRY] });
    expect(problemOf(two)).toMatchObject({ code: 'request.invalid' });
    const extra = await post(`${runner.url}/pipe-io`, { files: [{ content: ENTRY }], views: ['x'] });
    expect(problemOf(extra)).toMatchObject({ code: 'request.unsupported' });
  });

  it('gives the same input form as /validate for the same method', async () => {
    const io = await post(`${runner.url}/pipe-io`, { mthds_contents: [ENTRY] });
    const verdict = await post(`${runner.url}/validate`, { mthds_contents: [ENTRY] });
    expect(io.json.input_form).toEqual(verdict.json.input_form);
  });
});
