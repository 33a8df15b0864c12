// The real-provider path: a deck configuring an OpenAI-compatible endpoint (a fake one on
// loopback), reached through the Vercel AI SDK. Text, structured and list outputs, images, the
// deck's references, and every provider failure mapped to its registry code.

import { afterEach, describe, expect, it } from 'vitest';
import type { RunnerOptions } from '../../../server/src/runner/index.js';
import { PNG_BASE64, chatCompletion, startFakeOpenAI, type FakeAnswer, type FakeOpenAI, type FakeRequest } from './fakeOpenAI.js';
import { HELLO, get, post, problemOf, withRunner, type Runner } from './helpers.js';

let fake: FakeOpenAI | undefined;
let runner: Runner | undefined;
afterEach(async () => {
  await runner?.close();
  await fake?.close();
  runner = undefined;
  fake = undefined;
});

async function setup(answer: (r: FakeRequest) => FakeAnswer, extra: RunnerOptions['models'] = {}, env: Record<string, string> = { FAKE_KEY: 'sk-test' }): Promise<{ fake: FakeOpenAI; runner: Runner }> {
  fake = await startFakeOpenAI(answer);
  runner = await withRunner({
    env,
    models: {
      providers: [{ name: 'local', base_url: fake.url, api_key_env: 'FAKE_KEY', models: [{ name: 'fake-llm', type: 'llm', model_id: 'fake-model-1' }, { name: 'fake-img', type: 'img_gen' }] }],
      ...extra,
    },
  });
  return { fake, runner };
}

const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };

const STRUCTURED = `domain = "facts"
description = "Facts"
main_pipe = "extract"

[concept.Person]
description = "A person"
[concept.Person.structure]
name = { type = "text", description = "Name", required = true }
born = { type = "integer", description = "Year of birth", required = true }
field = { description = "Field", choices = ["math", "physics"] }

[pipe.extract]
type = "PipeLLM"
description = "Extract a person"
inputs = { text = "Text" }
output = "Person"
prompt = "Who is described here? $text"

[pipe.several]
type = "PipeLLM"
description = "Several people"
inputs = { text = "Text" }
output = "Person[2]"
prompt = "Two people from $text"

[pipe.draw]
type = "PipeImgGen"
description = "Draw"
inputs = { text = "Text" }
output = "Image"
prompt = "Portrait of $text"
`;

describe('OpenAI-compatible provider', () => {
  it('lists the provider models in the deck beside the mock ones, and uses them by default', async () => {
    await setup(() => ({ json: chatCompletion('Hello, Ada!') }));
    const deck = await get(`${runner!.url}/models`);
    expect(deck.json.models).toEqual(expect.arrayContaining([{ name: 'fake-llm', type: 'llm', provider: 'local' }, { name: 'mock-llm', type: 'llm', provider: 'mock' }]));
    expect(deck.json.defaults.llm).toBe('fake-llm');
    const r = await post(`${runner!.url}/execute`, run);
    expect(r.status).toBe(200);
    expect(r.json.pipe_output.working_memory.root.main_stuff.content).toEqual({ text: 'Hello, Ada!' });
    const sent = fake!.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body.model).toBe('fake-model-1');
    expect(JSON.stringify(sent.body.messages)).toContain('Say hello to Ada.');
  });

  it('asks structured outputs with the JSON Schema of the concept, and validates the answer', async () => {
    await setup((r) => ({ json: chatCompletion(r.body.response_format?.json_schema?.schema?.properties?.items ? JSON.stringify({ items: [{ name: 'Emmy', born: 1882 }, { name: 'Marie', born: 1867, field: 'physics' }] }) : JSON.stringify({ name: 'Ada', born: 1815, field: 'math' })) }));
    const one = await post(`${runner!.url}/execute`, { mthds_contents: [STRUCTURED], inputs: { text: { concept: 'Text', content: 'She wrote the first program.' } } });
    expect(one.json.pipe_output.working_memory.root.main_stuff).toEqual({ concept: 'facts.Person', content: { name: 'Ada', born: 1815, field: 'math' } });
    const format = fake!.requests[0]!.body.response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.schema).toMatchObject({ type: 'object', required: ['name', 'born'], properties: { born: { type: 'integer' }, field: { enum: ['math', 'physics'] } } });
    const two = await post(`${runner!.url}/execute`, { mthds_contents: [STRUCTURED], pipe_code: 'several', inputs: { text: { concept: 'Text', content: 'x' } } });
    expect(two.json.pipe_output.working_memory.root.main_stuff.content.items).toHaveLength(2);
    expect(fake!.requests[1]!.body.response_format.json_schema.schema.properties.items).toMatchObject({ minItems: 2, maxItems: 2 });
  });

  it('refuses an answer that does not satisfy the concept with mthdsls.pipe.output_invalid', async () => {
    await setup(() => ({ json: chatCompletion(JSON.stringify({ name: 'Ada', born: 'long ago' })) }));
    const r = await post(`${runner!.url}/execute`, { mthds_contents: [STRUCTURED], inputs: { text: { concept: 'Text', content: 'x' } } });
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.pipe.output_invalid', params: { pipe: 'extract', concept: 'facts.Person', field: 'born' } });
  });

  it('refuses a list of the wrong length with pipe.output_multiplicity', async () => {
    await setup(() => ({ json: chatCompletion(JSON.stringify({ items: [{ name: 'Solo', born: 1 }] })) }));
    const r = await post(`${runner!.url}/execute`, { mthds_contents: [STRUCTURED], pipe_code: 'several', inputs: { text: { concept: 'Text', content: 'x' } } });
    expect(problemOf(r)).toMatchObject({ code: 'pipe.output_multiplicity', params: { pipe: 'several', expected: 'fixed', expected_count: 2, produced_count: 1 } });
  });

  it('generates images through the images endpoint', async () => {
    await setup(() => ({ json: { created: 1, data: [{ b64_json: PNG_BASE64 }] } }));
    const r = await post(`${runner!.url}/execute`, { mthds_contents: [STRUCTURED], pipe_code: 'draw', inputs: { text: { concept: 'Text', content: 'Ada' } } });
    expect(r.status, r.text).toBe(200);
    const image = r.json.pipe_output.working_memory.root.main_stuff;
    expect(image.concept).toBe('native.Image');
    expect(image.content).toMatchObject({ url: `data:image/png;base64,${PNG_BASE64}`, source_prompt: 'Portrait of Ada' });
    expect(fake!.requests[0]!.path).toBe('/v1/images/generations');
  });

  it.each([
    [{ status: 429, headers: { 'retry-after': '7' }, json: { error: { message: 'slow down' } } }, 'mthdsls.provider.rate_limited', 429],
    [{ status: 500, json: { error: { message: 'boom' } } }, 'mthdsls.provider.unavailable', 502],
    [{ status: 401, json: { error: { message: 'bad key' } } }, 'mthdsls.provider.not_configured', 503],
    [{ raw: 'this is not json' }, 'mthdsls.provider.invalid_response', 502],
  ] as const)('maps a provider failure to its code (%#)', async (answer, code, status) => {
    await setup(() => answer as FakeAnswer);
    const r = await post(`${runner!.url}/execute`, run);
    expect(r.status).toBe(status);
    const p = problemOf(r);
    expect(p).toMatchObject({ code, params: { provider: 'local' } });
    if (code === 'mthdsls.provider.rate_limited') {
      expect(p.retry_after).toBe(7);
      expect(r.headers['retry-after']).toBe('7');
    }
    expect(r.text).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('answers mthdsls.provider.not_configured when the API key variable is not set', async () => {
    await setup(() => ({ json: chatCompletion('x') }), {}, {});
    const r = await post(`${runner!.url}/execute`, run);
    expect(r.status).toBe(503);
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.provider.not_configured', params: { provider: 'local' } });
  });

  it('answers mthdsls.provider.unavailable when the endpoint does not answer', async () => {
    await setup(() => ({ json: chatCompletion('x') }));
    await fake!.close();
    const r = await post(`${runner!.url}/execute`, run);
    expect(r.status).toBe(502);
    expect(problemOf(r).code).toBe('mthdsls.provider.unavailable');
  });

  it('resolves aliases and waterfalls, and refuses unknown models on a strict deck', async () => {
    await setup(() => ({ json: chatCompletion('aliased') }), { aliases: { best: 'fake-llm' }, waterfalls: { chain: ['missing-model', 'mock-llm'] }, strict: true, defaults: { llm: 'mock-llm' } });
    const aliased = HELLO.replace('prompt =', 'model = "@best"\nprompt =');
    expect((await post(`${runner!.url}/execute`, { ...run, mthds_contents: [aliased] })).json.pipe_output.working_memory.root.main_stuff.content.text).toBe('aliased');
    const chained = HELLO.replace('prompt =', 'model = { model = "~chain", temperature = 0.2 }\nprompt =');
    expect((await post(`${runner!.url}/execute`, { ...run, mthds_contents: [chained] })).json.pipe_output.working_memory.root.main_stuff.content.text).toMatch(/^Mock /);
    const unknown = HELLO.replace('prompt =', 'model = "fake-lm"\nprompt =');
    const r = await post(`${runner!.url}/execute`, { ...run, mthds_contents: [unknown] });
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.model.unknown', params: { model: 'fake-lm', model_type: 'llm', suggestions: expect.arrayContaining(['fake-llm']) } });
    const deck = await get(`${runner!.url}/models?type=llm`);
    expect(deck.json.aliases).toEqual({ llm: { best: 'fake-llm' } });
  });

  it('stops a run past its time bound with mthdsls.run.timeout', async () => {
    fake = await startFakeOpenAI(() => ({ json: chatCompletion('too late'), delayMs: 2500 }));
    runner = await withRunner({ env: {}, limits: { run_timeout_seconds: 1 }, models: { providers: [{ name: 'local', base_url: fake.url, models: [{ name: 'slow', type: 'llm' }] }] } });
    const started = Date.now();
    const r = await post(`${runner.url}/execute`, run);
    expect(r.status).toBe(504);
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.run.timeout', params: { seconds: 1 } });
    expect(Date.now() - started).toBeLessThan(2400);
  });

  it('refuses runs past its concurrency bound with mthdsls.runtime.unavailable and Retry-After', async () => {
    fake = await startFakeOpenAI(() => ({ json: chatCompletion('busy'), delayMs: 500 }));
    runner = await withRunner({ env: {}, limits: { max_runs_in_flight: 1 }, models: { providers: [{ name: 'local', base_url: fake.url, models: [{ name: 'slow', type: 'llm' }] }] } });
    const [a, b] = await Promise.all([post(`${runner.url}/execute`, run), new Promise((res) => setTimeout(res, 100)).then(() => post(`${runner!.url}/execute`, run))]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(503);
    expect(problemOf(b)).toMatchObject({ code: 'mthdsls.runtime.unavailable', retry_after: 1 });
    expect(b.headers['retry-after']).toBe('1');
  });

  it('refuses search models on OpenAI-compatible providers at start', async () => {
    await expect(withRunner({ models: { providers: [{ name: 'p', base_url: 'http://127.0.0.1:1/v1', models: [{ name: 's', type: 'search' }] }] } })).rejects.toThrow(/search/);
  });
});
