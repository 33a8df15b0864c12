// A real provider that fails, as an operator meets it: a fake OpenAI-compatible endpoint on
// loopback that refuses the connection, stalls before answering, stalls mid-answer, answers HTTP
// 500, or answers garbage. Each run ends in bounded time with a problem that says what happened,
// and the runner's log names the provider, its endpoint and the cause. An unset API key variable
// is named at start and in the problem; a misspelt configuration key is refused with a "did you mean".

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig, type RunnerOptions } from '../../../server/src/runner/index.js';
import { chatCompletion, startFakeOpenAI, type FakeAnswer, type FakeOpenAI } from './fakeOpenAI.js';
import { HELLO, post, problemOf, withRunner, type Runner } from './helpers.js';
import { freePort } from '../../helpers/ports.js';

const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };

let fake: FakeOpenAI | undefined;
let runner: Runner | undefined;
let raw: http.Server | undefined;
afterEach(async () => {
  await runner?.close(500);
  await fake?.close();
  raw?.closeAllConnections();
  await new Promise<void>((r) => (raw ? raw.close(() => r()) : r()));
  runner = undefined;
  fake = undefined;
  raw = undefined;
});

function provider(baseUrl: string, timeouts?: { connect_ms?: number; first_byte_ms?: number; total_ms?: number }): RunnerOptions['models'] {
  return { providers: [{ name: 'local', base_url: baseUrl, api_key_env: 'FAKE_KEY', models: [{ name: 'fake-llm', type: 'llm', model_id: 'fake-model-1' }], ...(timeouts ? { timeouts } : {}) }] };
}

async function runnerFor(baseUrl: string, log: string[], timeouts?: Parameters<typeof provider>[1], env: Record<string, string> = { FAKE_KEY: 'sk-test' }): Promise<Runner> {
  runner = await withRunner({ env, log: (line) => log.push(line), models: provider(baseUrl, timeouts) });
  return runner;
}

async function fakeAnswering(answer: FakeAnswer): Promise<string> {
  fake = await startFakeOpenAI(() => answer);
  return fake.url;
}

describe('provider failures, diagnosed', () => {
  it('a refused connection: 502 saying so, the log naming provider, endpoint and cause', async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1`;
    const log: string[] = [];
    const r = await post(`${(await runnerFor(url, log)).url}/execute`, run);
    expect(r.status).toBe(502);
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.provider.unavailable', params: { provider: 'local' } });
    expect(problemOf(r).detail).toBe('The inference provider local refused the connection.');
    expect(log.join('\n')).toContain(`provider local (${url}): the connection was refused`);
  });

  it('a provider that accepts and never answers: ended after first_byte_ms, not the run timeout', async () => {
    const url = await fakeAnswering({ json: chatCompletion('late'), delayMs: 60_000 });
    const log: string[] = [];
    const started = Date.now();
    const r = await post(`${(await runnerFor(url, log, { first_byte_ms: 600 })).url}/execute`, run);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.status).toBe(502);
    expect(problemOf(r).detail).toBe('The inference provider local did not answer in time (first byte: no answer began within 600 ms).');
    expect(log.join('\n')).toContain(`provider local (${url}): no answer began within 600 ms`);
  }, 20_000);

  it('a provider that starts its answer and stalls: ended after total_ms', async () => {
    raw = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"id": "chatcmpl-slow", ');
    });
    await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
    const log: string[] = [];
    const started = Date.now();
    const r = await post(`${(await runnerFor(url, log, { total_ms: 800 })).url}/execute`, run);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.status).toBe(502);
    expect(problemOf(r).detail).toContain('did not answer in time (whole answer');
    expect(log.join('\n')).toContain('the whole answer did not arrive within 800 ms');
  }, 20_000);

  it('an upstream HTTP 500 is reported as such, not as "did not answer"', async () => {
    const url = await fakeAnswering({ status: 500, json: { error: { message: 'model crashed' } } });
    const log: string[] = [];
    const r = await post(`${(await runnerFor(url, log)).url}/execute`, run);
    expect(r.status).toBe(502);
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.provider.unavailable', detail: 'The inference provider local answered HTTP 500.' });
    expect(log.join('\n')).toMatch(new RegExp(`provider local \\(${url.replace(/[.]/g, '\\.')}\\): HTTP 500 from ${url.replace(/[.]/g, '\\.')}/chat/completions: .*model crashed`));
  });

  it('garbage instead of a completion: an unusable answer, said so', async () => {
    const url = await fakeAnswering({ raw: '<html>gateway says hi</html>' });
    const log: string[] = [];
    const r = await post(`${(await runnerFor(url, log)).url}/execute`, run);
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.provider.invalid_response', params: { provider: 'local', finding: 'its answer is not a readable completion' } });
    expect(log.join('\n')).toContain(`provider local (${url}): unusable answer (HTTP 200)`);
  });

  it('an unset api_key_env: warned at start, named in the problem and the log', async () => {
    const url = await fakeAnswering({ json: chatCompletion('x') });
    const log: string[] = [];
    const r = await post(`${(await runnerFor(url, log, undefined, {})).url}/execute`, run);
    expect(log[0]).toBe('warning: models.providers[0] (local): api_key_env names FAKE_KEY, which is not set: its models answer mthdsls.provider.not_configured until it is');
    expect(r.status).toBe(503);
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.provider.not_configured', params: { provider: 'local' } });
    expect(problemOf(r).detail).toContain('the environment variable FAKE_KEY that holds its API key is not set');
    expect(log.join('\n')).toContain('FAKE_KEY (api_key_env) is not set');
  });

  it('a provider that answers after a stall within its bounds still serves the run', async () => {
    const url = await fakeAnswering({ json: chatCompletion('Hello, Ada!'), delayMs: 200 });
    const r = await post(`${(await runnerFor(url, [], { first_byte_ms: 5_000, total_ms: 10_000 })).url}/execute`, run);
    expect(r.status).toBe(200);
  });
});

describe('misspelt configuration keys', () => {
  it.each([
    [{ limit: { max_body_bytes: 10 } }, 'unknown key limit: did you mean limits?'],
    [{ callback: { retries: 1 } }, 'unknown key callback: did you mean callbacks?'],
    [{ warmup: false }, 'unknown key warmup: did you mean warm_up?'],
    [{ model: { mock: true } }, 'unknown key model: did you mean models?'],
    [{ runs: { stall_timeout: 10 } }, 'unknown key runs.stall_timeout in [runs]: did you mean runs.stall_timeout_ms?'],
    [{ models: { providers: [{ name: 'p', base_url: 'http://x', models: [{ name: 'm', type: 'llm' }], timeout: { total_ms: 1 } }] } }, 'unknown key models.providers[0].timeout in [models.providers[0]]: did you mean models.providers[0].timeouts?'],
  ])('refuses %j', (config, message) => {
    expect(() => resolveConfig(config as RunnerOptions)).toThrow(message);
  });

  it('accepts the operator-named tables (aliases, waterfalls) and programmatic members', () => {
    expect(() => resolveConfig({ models: { aliases: { fast: 'mock-llm' }, waterfalls: { any: ['mock-llm'] } }, log: () => {}, env: {} })).not.toThrow();
  });
});
