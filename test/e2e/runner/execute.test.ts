// POST /execute with the embedded mock provider: the bundles of test/fixtures and others exercising
// every controller and operator, the wire shape of the output, reproducibility, and every refusal
// of the method, the pipe selection and the inputs.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO, post, problemOf, withRunner, type Reply, type Runner } from './helpers.js';

import { FIXTURE_BUNDLES } from '../../helpers/files.js';

const fixture = (rel: string): string => readFileSync(path.join(FIXTURE_BUNDLES, rel), 'utf8');

let runner: Runner;
beforeAll(async () => {
  runner = await withRunner();
});
afterAll(async () => {
  await runner.close();
});

const execute = (body: Record<string, unknown>): Promise<Reply> => post(`${runner.url}/execute`, body);
const text = (content: string): { concept: string; content: string } => ({ concept: 'Text', content });

function mainOf(reply: Reply): { concept: string; content: any } {
  expect(reply.status, reply.text).toBe(200);
  const wm = reply.json.pipe_output.working_memory;
  return wm.root[reply.json.main_stuff_name];
}

describe('fixture bundles', () => {
  it('runs a sequence with a compose template (stories/templates)', async () => {
    const r = await execute({ mthds_contents: [fixture('stories/templates.mthds')] });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ pipeline_run_id: expect.any(String), state: 'COMPLETED', main_stuff_name: 'document' });
    const wm = r.json.pipe_output.working_memory;
    expect(Object.keys(wm.root)).toEqual(['idea', 'outline', 'document']);
    expect(wm.aliases).toEqual({ main_stuff: 'document' });
    const doc = mainOf(r);
    expect(doc.concept).toBe('native.Text');
    expect(doc.content.text).toContain('## Outline');
    expect(doc.content.text).toContain(wm.root.idea.content.text);
    expect(doc.content.text).toContain(wm.root.outline.content.text);
  });

  it('runs a batch over a fixed list and composes the results (stories/batch)', async () => {
    const r = await execute({ mthds_contents: [fixture('stories/batch.mthds')] });
    const wm = r.json.pipe_output.working_memory;
    expect(wm.root.topics.concept).toBe('headlines.Topic');
    expect(wm.root.topics.content.items).toHaveLength(3);
    expect(wm.root.headlines.content.items).toHaveLength(3);
    expect(mainOf(r).content.text).toContain('<headlines>');
  });

  it('runs a parallel with add_each_output (stories/parallel)', async () => {
    const r = await execute({ mthds_contents: [fixture('stories/parallel.mthds')] });
    const wm = r.json.pipe_output.working_memory;
    for (const name of ['haiku', 'limerick', 'couplet']) expect(wm.root[name].concept).toBe('native.Text');
    expect(Object.keys(mainOf(r).content).sort()).toEqual(['couplet', 'haiku', 'limerick']);
  });

  it('is reproducible: the same inputs give the same outputs, other inputs others', async () => {
    const body = { mthds_contents: [HELLO], inputs: { name: text('Ada') } };
    const a = mainOf(await execute(body));
    const b = mainOf(await execute(body));
    const c = mainOf(await execute({ ...body, inputs: { name: text('Grace') } }));
    expect(a).toEqual(b);
    expect(c.content.text).not.toBe(a.content.text);
  });
});

const FLOWS = `domain = "flows"
description = "Every controller"
main_pipe = "triage"

[concept.Ticket]
description = "A support ticket"
[concept.Ticket.structure]
title = { type = "text", description = "Title", required = true }
severity = { description = "Severity", choices = ["low", "high"], required = true }
tags = { type = "list", item_type = "text", description = "Tags" }

[concept.Answer]
description = "An answer"
refines = "Text"

[concept.Report]
description = "Both views"
[concept.Report.structure]
summary = { type = "text", description = "Summary", required = true }
verdict = { type = "concept", concept_ref = "native.YesNo", description = "Verdict", required = true }

[pipe.triage]
type = "PipeSequence"
description = "Triage a ticket"
inputs = { ticket = "Ticket" }
output = "Answer"
steps = [
  { from = "ticket.title", result = "title" },
  { pipe = "route", result = "answer" },
]

[pipe.route]
type = "PipeCondition"
description = "Route on severity"
inputs = { ticket = "Ticket", title = "Text" }
output = "Answer"
expression = "ticket.severity"
outcomes = { high = "escalate", low = "reply" }
default_outcome = "fail"

[pipe.escalate]
type = "PipeCompose"
description = "Escalation notice"
inputs = { title = "Text" }
output = "Answer"
template = "ESCALATED: $title"

[pipe.reply]
type = "PipeLLM"
description = "Reply"
inputs = { title = "Text" }
output = "Answer"
prompt = "Reply about $title"

[pipe.review]
type = "PipeParallel"
description = "Summary and verdict"
inputs = { ticket = "Ticket" }
output = "Report"
branches = [
  { pipe = "summarize", result = "summary" },
  { pipe = "judge", result = "verdict" },
]

[pipe.summarize]
type = "PipeLLM"
description = "Summarize"
inputs = { ticket = "Ticket" }
output = "Text"
prompt = """
Summarize
@ticket
"""

[pipe.judge]
type = "PipeJudge"
description = "Is it urgent?"
inputs = { ticket = "Ticket" }
output = "YesNo"
prompt = "@ticket"
question = "Is this urgent?"

[pipe.tag_all]
type = "PipeBatch"
description = "Tag every ticket"
inputs = { tickets = "Ticket[]" }
output = "Text[]"
branch_pipe_code = "tag_one"
input_list_name = "tickets"
input_item_name = "ticket"

[pipe.tag_one]
type = "PipeCompose"
description = "Tag one"
inputs = { ticket = "Ticket" }
output = "Text"
template = "[{{ ticket.severity|upper }}] {{ ticket.title }}"

[pipe.make_ticket]
type = "PipeLLM"
description = "Invent tickets"
output = "Ticket[2]"
prompt = "Invent two tickets."

[pipe.card]
type = "PipeCompose"
description = "A card"
inputs = { ticket = "Ticket", note = "Text" }
output = "Report"
construct = { summary = { template = "{{ ticket.title }} / $note" }, verdict = { yes_no = true } }

[pipe.maybe]
type = "PipeCondition"
description = "Continue on low"
inputs = { ticket = "Ticket" }
output = "Answer?"
expression = "ticket.severity"
outcomes = { high = "escalate_ticket" }
default_outcome = "continue"

[pipe.escalate_ticket]
type = "PipeCompose"
description = "Escalate"
inputs = { ticket = "Ticket" }
output = "Answer"
template = "ESCALATED: {{ ticket.title }}"
`;

const ticket = (severity: 'low' | 'high', title = 'Printer on fire'): { concept: string; content: unknown } => ({ concept: 'flows.Ticket', content: { title, severity, tags: ['hw'] } });

describe('controllers and operators', () => {
  it('validates the flows bundle', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [FLOWS] });
    expect(r.json.validation_errors ?? []).toEqual([]);
    expect(r.json.is_valid).toBe(true);
  });

  it('runs a sequence with a binding step and a condition choosing a compose', async () => {
    const r = await execute({ mthds_contents: [FLOWS], inputs: { ticket: ticket('high') } });
    const wm = r.json.pipe_output.working_memory;
    expect(wm.root.title).toEqual({ concept: 'native.Text', content: { text: 'Printer on fire' } });
    expect(mainOf(r)).toEqual({ concept: 'flows.Answer', content: { text: 'ESCALATED: Printer on fire' } });
    expect(r.json.main_stuff_name).toBe('answer');
  });

  it('routes the other outcome to a model', async () => {
    const r = await execute({ mthds_contents: [FLOWS], inputs: { ticket: ticket('low') } });
    expect(mainOf(r).content.text).toMatch(/^Mock .* to: Reply about Printer on fire$/);
  });

  it('refuses a fail outcome with mthdsls.pipe.condition_failed', async () => {
    const r = await execute({ mthds_contents: [FLOWS.replace('outcomes = { high = "escalate", low = "reply" }', 'outcomes = { high = "escalate" }')], inputs: { ticket: ticket('low') } });
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.pipe.condition_failed', params: { pipe: 'route', outcome: 'default_outcome' } });
  });

  it('leaves the output absent when a condition continues', async () => {
    const r = await execute({ mthds_contents: [FLOWS], pipe_code: 'maybe', inputs: { ticket: ticket('low') } });
    expect(r.status).toBe(200);
    expect(r.json.main_stuff_name).toBeUndefined();
    expect(r.json.pipe_output.absent).toEqual({ absent: true, kind: 'declared_absent' });
  });

  it('combines parallel branches into a structured output with a judge verdict', async () => {
    const r = await execute({ mthds_contents: [FLOWS], pipe_code: 'review', inputs: { ticket: ticket('high') } });
    const report = mainOf(r);
    expect(report.concept).toBe('flows.Report');
    expect(typeof report.content.summary).toBe('string');
    expect(typeof report.content.verdict.yes_no).toBe('boolean');
  });

  it('runs a PipeBatch over a list input', async () => {
    const r = await execute({ mthds_contents: [FLOWS], pipe_code: 'tag_all', inputs: { tickets: { concept: 'Ticket', content: [ticket('high', 'A').content, ticket('low', 'B').content] } } });
    expect(mainOf(r)).toEqual({ concept: 'native.Text', content: { items: [{ text: '[HIGH] A' }, { text: '[LOW] B' }] } });
  });

  it('accepts a list as { items: [...] } too', async () => {
    const r = await execute({ mthds_contents: [FLOWS], pipe_code: 'tag_all', inputs: { tickets: { concept: 'Ticket', content: { items: [ticket('high', 'A').content] } } } });
    expect(mainOf(r).content.items).toEqual([{ text: '[HIGH] A' }]);
  });

  it('mints structured outputs of the requested count from the concept structure', async () => {
    const r = await execute({ mthds_contents: [FLOWS], pipe_code: 'make_ticket' });
    const items = mainOf(r).content.items;
    expect(items).toHaveLength(2);
    for (const t of items) {
      expect(typeof t.title).toBe('string');
      expect(['low', 'high']).toContain(t.severity);
    }
  });

  it('constructs a structured output field by field', async () => {
    const r = await execute({ mthds_contents: [FLOWS], pipe_code: 'card', inputs: { ticket: ticket('high'), note: text('urgent') } });
    expect(mainOf(r)).toEqual({ concept: 'flows.Report', content: { summary: 'Printer on fire / urgent', verdict: { yes_no: true } } });
  });

  it('honours output_multiplicity and output_name', async () => {
    const r = await execute({ mthds_contents: [HELLO], inputs: { name: text('Ada') }, output_multiplicity: 3, output_name: 'greetings' });
    expect(r.json.main_stuff_name).toBe('greetings');
    expect(mainOf(r).content.items).toHaveLength(3);
    const many = await execute({ mthds_contents: [HELLO], inputs: { name: text('Ada') }, output_multiplicity: true });
    expect(mainOf(many).content.items.length).toBeGreaterThanOrEqual(1);
  });

  it('honours dynamic_output_concept_ref for a Dynamic output', async () => {
    const bundle = HELLO.replace('output = "Text"', 'output = "Dynamic"').replace('main_pipe = "greet"', 'main_pipe = "greet"\n\n[concept.Greeting]\ndescription = "A greeting"\n[concept.Greeting.structure]\nwords = { type = "text", description = "Words", required = true }\n');
    const r = await execute({ mthds_contents: [bundle], inputs: { name: text('Ada') }, dynamic_output_concept_ref: 'Greeting' });
    const out = mainOf(r);
    expect(out.concept).toBe('hello.Greeting');
    expect(typeof out.content.words).toBe('string');
    const bad = await execute({ mthds_contents: [bundle], inputs: { name: text('Ada') }, dynamic_output_concept_ref: 'Nope' });
    expect(problemOf(bad)).toMatchObject({ code: 'request.invalid', params: { field: 'dynamic_output_concept_ref' } });
  });

  it('runs image generation, extraction and search through the provider', async () => {
    const bundle = `domain = "media"
description = "Media"

[pipe.draw]
type = "PipeImgGen"
description = "Draw"
inputs = { subject = "Text" }
output = "Image[2]"
prompt = "A watercolor of $subject"

[pipe.read]
type = "PipeExtract"
description = "Read"
inputs = { doc = "Document" }
output = "Page[]"

[pipe.look]
type = "PipeSearch"
description = "Look up"
inputs = { topic = "Text" }
output = "SearchResult"
prompt = "News about $topic"

[pipe.describe]
type = "PipeLLM"
description = "Describe an image"
inputs = { picture = "Image" }
output = "Text"
prompt = """
Describe this:
@picture
"""
`;
    const draw = mainOf(await execute({ mthds_contents: [bundle], pipe_code: 'draw', inputs: { subject: text('a fox') } }));
    expect(draw.concept).toBe('native.Image');
    expect(draw.content.items).toHaveLength(2);
    expect(draw.content.items[0]).toMatchObject({ url: expect.stringMatching(/^mock:\/\/image\//), source_prompt: 'A watercolor of a fox' });
    const read = mainOf(await execute({ mthds_contents: [bundle], pipe_code: 'read', inputs: { doc: { concept: 'Document', content: { url: 'https://example.com/a.pdf' } } } }));
    expect(read.concept).toBe('native.Page');
    expect(read.content.items[0].text_and_images.text.text).toContain('https://example.com/a.pdf');
    const look = mainOf(await execute({ mthds_contents: [bundle], pipe_code: 'look', inputs: { topic: text('tides') } }));
    expect(look.content).toMatchObject({ answer: expect.stringContaining('News about tides'), sources: expect.any(Array) });
    const described = mainOf(await execute({ mthds_contents: [bundle], pipe_code: 'describe', inputs: { picture: { concept: 'Image', content: { url: 'https://example.com/fox.png' } } } }));
    expect(described.content.text).toContain('[Image 1]');
  });

  it('fails a template that does not render with mthdsls.pipe.template_render_failed', async () => {
    const bundle = HELLO.replace('prompt = "Say hello to $name."', 'prompt = "Say hello to {{ name|format(\'yaml\') }}"');
    const r = await execute({ mthds_contents: [bundle], inputs: { name: text('Ada') } });
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.pipe.template_render_failed', params: { pipe: 'greet', template: 'prompt' } });
  });
});

describe('refusals', () => {
  it('refuses an invalid method with method.invalid, one located item per fault', async () => {
    const bad = HELLO.replace('prompt = "Say hello to $name."', 'promt = "x"').replace('output = "Text"', 'output = "Txet"');
    const r = await execute({ mthds_contents: [bad], mthds_sources: ['hello.mthds'] });
    expect(r.status).toBe(422);
    const p = problemOf(r);
    expect(p.code).toBe('method.invalid');
    expect(p.errors!.map((e) => e.code)).toEqual(expect.arrayContaining(['method.concept_unresolved', 'method.schema_violation']));
    for (const e of p.errors!) expect(e.location).toMatchObject({ file: 'hello.mthds', line: expect.any(Number), column: expect.any(Number), pipe: 'greet' });
    expect(p.errors!.find((e) => e.code === 'method.concept_unresolved')).toMatchObject({ params: { concept: 'Txet', suggestions: ['Text'] } });
  });

  it('refuses an unknown pipe_code with suggestions', async () => {
    const r = await execute({ mthds_contents: [HELLO], pipe_code: 'gret' });
    expect(problemOf(r)).toMatchObject({ code: 'request.pipe_not_found', params: { pipe: 'gret', suggestions: ['hello.greet'] } });
    const none = await execute({ pipe_code: 'greet' });
    expect(problemOf(none)).toMatchObject({ code: 'request.pipe_not_found', params: { pipe: 'greet' } });
  });

  it('refuses a bare pipe code defined in several domains, listing them', async () => {
    const other = HELLO.replace('domain = "hello"', 'domain = "hola"').replace('main_pipe = "greet"\n', '');
    const r = await execute({ mthds_contents: [HELLO, other], pipe_code: 'greet' });
    expect(problemOf(r)).toMatchObject({ code: 'request.pipe_ambiguous', params: { pipe: 'greet', candidates: ['hello.greet', 'hola.greet'] } });
    const qualified = await execute({ mthds_contents: [HELLO, other], pipe_code: 'hola.greet', inputs: { name: text('x') } });
    expect(qualified.status).toBe(200);
  });

  it('refuses a method with no main_pipe and no pipe_code, listing candidates', async () => {
    const r = await execute({ mthds_contents: [HELLO.replace('main_pipe = "greet"\n', '')] });
    expect(problemOf(r)).toMatchObject({ code: 'request.pipe_unspecified', params: { candidates: ['hello.greet'] } });
  });

  it('refuses inputs: missing, unexpected, wrong concept, wrong multiplicity, invalid', async () => {
    expect(problemOf(await execute({ mthds_contents: [HELLO] }))).toMatchObject({ code: 'input.missing', params: { input: 'name' } });
    const both = problemOf(await execute({ mthds_contents: [HELLO], inputs: { name: text('a'), age: text('3') } }));
    expect(both).toMatchObject({ code: 'input.unexpected', params: { input: 'age' } });
    expect(problemOf(await execute({ mthds_contents: [HELLO], inputs: { name: { concept: 'Number', content: 3 } } }))).toMatchObject({ code: 'input.wrong_concept', params: { input: 'name', expected: 'native.Text', provided: 'Number' } });
    expect(problemOf(await execute({ mthds_contents: [HELLO], inputs: { name: { concept: 'Nope', content: 'x' } } }))).toMatchObject({ code: 'input.wrong_concept', params: { provided: 'Nope' } });
    expect(problemOf(await execute({ mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: ['a', 'b'] } } }))).toMatchObject({ code: 'input.wrong_multiplicity', params: { input: 'name', expected: 'single', provided_count: 2 } });
    const list = problemOf(await execute({ mthds_contents: [FLOWS], pipe_code: 'tag_all', inputs: { tickets: ticket('low') } }));
    expect(list).toMatchObject({ code: 'input.wrong_multiplicity', params: { input: 'tickets', expected: 'list', provided_count: 1 } });
    const invalid = await execute({ mthds_contents: [FLOWS], inputs: { ticket: { concept: 'Ticket', content: { title: 'x', severity: 'SECRET-VALUE' } } } });
    expect(problemOf(invalid)).toMatchObject({ code: 'input.invalid', params: { input: 'ticket', field: 'severity' }, location: { field: 'inputs.ticket.content.severity' } });
    expect(invalid.text).not.toContain('SECRET-VALUE');
    const nested = problemOf(await execute({ mthds_contents: [FLOWS], pipe_code: 'tag_all', inputs: { tickets: { concept: 'Ticket', content: [ticket('low').content, { title: 3, severity: 'low' }] } } }));
    expect(nested).toMatchObject({ code: 'input.invalid', params: { input: 'tickets', field: '1.title' } });
  });

  it('lists every input fault when there are several', async () => {
    const p = problemOf(await execute({ mthds_contents: [HELLO], inputs: { nme: text('x') } }));
    expect(p.code).toBe('input.missing');
    expect(p.errors!.map((e) => e.code)).toEqual(['input.missing', 'input.unexpected']);
  });

  it('accepts a refinement of the declared concept, and keeps it', async () => {
    const bundle = `${HELLO}\n[concept.Name]\ndescription = "A name"\nrefines = "Text"\n`;
    const r = await execute({ mthds_contents: [bundle], inputs: { name: { concept: 'hello.Name', content: { text: 'Ada' } } } });
    expect(r.json.pipe_output.working_memory.root.name).toEqual({ concept: 'hello.Name', content: { text: 'Ada' } });
  });

  it('refuses a run reaching a signature with method.not_runnable', async () => {
    const bundle = `${HELLO}\n[pipe.later]\ndescription = "Not yet"\ninputs = { name = "Text" }\noutput = "Text"\n`;
    const r = await execute({ mthds_contents: [bundle], pipe_code: 'later', inputs: { name: text('x') } });
    expect(problemOf(r)).toMatchObject({ code: 'method.not_runnable', params: { pipe: 'later' } });
  });

  it('refuses PipeFunc with mthdsls.pipe.func_unsupported before running anything', async () => {
    const bundle = `${HELLO.replace('main_pipe = "greet"', 'main_pipe = "flow"')}\n[pipe.flow]\ntype = "PipeSequence"\ndescription = "Flow"\ninputs = { name = "Text" }\noutput = "Text"\nsteps = [{ pipe = "greet", result = "g" }, { pipe = "py", result = "out" }]\n\n[pipe.py]\ntype = "PipeFunc"\ndescription = "Python"\ninputs = { g = "Text" }\noutput = "Text"\nfunction_name = "shout"\n`;
    const r = await execute({ mthds_contents: [bundle], inputs: { name: text('x') } });
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.pipe.func_unsupported', params: { pipe: 'py', function: 'shout' } });
  });
});
