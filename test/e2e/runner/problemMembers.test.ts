// What today's client libraries read on every problem and every item of `errors`: `error_domain`,
// `retryable` and `user_action {kind, detail}`, from the code's registry entry (its domain, retry
// and first client advice step), over real HTTP for codes of every family a runner answers.

import { afterAll, describe, expect, it } from 'vitest';
import { getEntry } from '../../../server/src/registry/index.js';
import type { AdviceKind } from '../../../server/src/registry/index.js';
import { HELLO, get, post, problemOf, request, withRunner, type Reply, type Runner } from './helpers.js';

const ADVICE_KINDS: readonly AdviceKind[] = ['change_input', 'change_method', 'contact_owner', 'check_credentials', 'check_account', 'request_access', 'refresh', 'retry', 'wait', 'upgrade', 'read_run'];

const runners: Runner[] = [];
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
});
async function runner(options: Parameters<typeof withRunner>[0] = {}): Promise<Runner> {
  const r = await withRunner(options);
  runners.push(r);
  return r;
}

/** The members a client acts on, checked against the code's entry and their own rules. */
function expectClientFacts(member: Record<string, any>): void {
  const entry = getEntry(member['code'])!;
  expect(entry, member['code']).toBeDefined();
  expect(member['error_domain']).toBe(entry.domain);
  expect(member['retryable']).toBe(entry.retry);
  expect(Object.keys(member['user_action']).sort()).toEqual(['detail', 'kind']);
  expect(ADVICE_KINDS).toContain(member['user_action'].kind);
  expect(member['user_action']).toEqual({ kind: entry.advice.client[0]!.kind, detail: entry.advice.client[0]!.text });
}

function checked(reply: Reply, code: string): Record<string, any> {
  const p = problemOf(reply);
  expect(p.code, reply.text).toBe(code);
  expectClientFacts(p);
  for (const item of p.errors ?? []) expectClientFacts(item);
  return p;
}

const run = (body: Record<string, unknown>) => ({ inputs: { name: { concept: 'Text', content: 'Ada' } }, ...body });

describe('error_domain, retryable and user_action on every problem', () => {
  it('request family', async () => {
    const r = await runner();
    checked(await get(`${r.url}/nope`), 'request.not_found');
    checked(await request(`${r.url}/execute`, { method: 'GET' }), 'request.method_not_allowed');
    const malformed = checked(await post(`${r.url}/execute`, '{not json'), 'request.malformed');
    expect(malformed).toMatchObject({ error_domain: 'input', retryable: false, user_action: { kind: 'change_input' } });
  });

  it('auth and account families', async () => {
    const guarded = await runner({ auth: { tokens: [{ token: 's3cret-token', name: 'ci' }] } });
    const missing = checked(await post(`${guarded.url}/execute`, run({ mthds_contents: [HELLO] })), 'auth.missing_credential');
    expect(missing.error_domain).toBe('account');
    const limited = await runner({ rate_limit: { limit: 1, window_seconds: 60 } });
    await get(`${limited.url}/models`);
    const refused = checked(await get(`${limited.url}/models`), 'account.rate_limited');
    expect(refused).toMatchObject({ status: 429, error_domain: 'account', retryable: true, user_action: { kind: 'wait' } });
  });

  it('input, method (with its items), pipe, model and security families', async () => {
    const r = await runner();
    checked(await post(`${r.url}/execute`, { mthds_contents: [HELLO] }), 'input.missing');
    const bad = HELLO.replace('prompt = "Say hello to $name."', 'promt = "x"').replace('output = "Text"', 'output = "Txet"');
    const invalid = checked(await post(`${r.url}/execute`, run({ mthds_contents: [bad] })), 'method.invalid');
    expect(invalid.errors!.length).toBeGreaterThanOrEqual(2);
    expect(invalid.errors!.every((item: any) => item.error_domain === 'method' && item.retryable === false)).toBe(true);
    const render = HELLO.replace('prompt = "Say hello to $name."', 'prompt = "Say hello to {{ name|format(\'yaml\') }}"');
    checked(await post(`${r.url}/execute`, run({ mthds_contents: [render] })), 'mthdsls.pipe.template_render_failed');
    const strict = await runner({ models: { strict: true } });
    const unknown = HELLO.replace('prompt =', 'model = "no-such-model"\nprompt =');
    checked(await post(`${strict.url}/execute`, run({ mthds_contents: [unknown] })), 'mthdsls.model.unknown');
    const image = `domain = "see"\nmain_pipe = "describe"\n\n[pipe.describe]\ntype = "PipeLLM"\ndescription = "Describe"\ninputs = { picture = "Image" }\noutput = "Text"\nprompt = "Describe $picture."\n`;
    checked(await post(`${r.url}/execute`, { mthds_contents: [image], inputs: { picture: { concept: 'Image', content: { url: 'file:///etc/passwd' } } } }), 'mthdsls.security.path_refused');
  });

  it('provider family (a provider whose key is not set)', async () => {
    const r = await runner({ env: {}, models: { providers: [{ name: 'local', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'NO_SUCH_KEY', models: [{ name: 'far-llm', type: 'llm' }] }] } });
    const far = HELLO.replace('prompt =', 'model = "far-llm"\nprompt =');
    const p = checked(await post(`${r.url}/execute`, run({ mthds_contents: [far] })), 'mthdsls.provider.not_configured');
    expect(p.error_domain).toBe(getEntry('mthdsls.provider.not_configured')!.domain);
  });
});
