// POST /start: 202 with the run id at once, the run in the background, its outcome POSTed to the
// callback_url (a loopback receiver, allowed by config); callback hosts refused by default; the
// request's own faults answered before any 202; cancellation on shutdown.

import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, chatCompletion, type FakeOpenAI } from './fakeOpenAI.js';
import { HELLO, post, problemOf, receiver, withRunner } from './helpers.js';

const run = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } } };

let slow: FakeOpenAI;
beforeAll(async () => {
  slow = await startFakeOpenAI(() => ({ json: chatCompletion('late'), delayMs: 1500 }));
});
afterAll(async () => {
  await slow.close();
});

describe('/start', () => {
  it('answers 202 with a run id and posts the completed run to the callback', async () => {
    const cb = await receiver();
    const r = await withRunner({ callbacks: { allow_private: true, secret_env: 'CB_SECRET' }, env: { CB_SECRET: 'shh' } });
    try {
      const started = await post(`${r.url}/start`, { ...run, callback_url: cb.url });
      expect(started.status).toBe(202);
      expect(started.json).toMatchObject({ pipeline_run_id: expect.any(String), state: 'STARTED' });
      expect(started.json.pipe_output).toBeUndefined();
      const got = await cb.next();
      expect(got.body).toMatchObject({ pipeline_run_id: started.json.pipeline_run_id, status: 'COMPLETED', result: { pipeline_run_id: started.json.pipeline_run_id, pipe_output: { working_memory: { root: { main_stuff: { concept: 'native.Text' } } } } } });
      expect(got.headers['x-pipeline-run-id']).toBe(started.json.pipeline_run_id);
      expect(got.headers['x-completion-signature']).toBe(createHmac('sha256', 'shh').update(got.raw).digest('hex'));
    } finally {
      await r.close();
      await cb.close();
    }
  });

  it('posts a failed run as a problem document', async () => {
    const cb = await receiver();
    const bundle = HELLO.replace('prompt = "Say hello to $name."', 'prompt = "{{ name|format(\'yaml\') }}"');
    const r = await withRunner({ callbacks: { allow_private: true } });
    try {
      const started = await post(`${r.url}/start`, { ...run, mthds_contents: [bundle], callback_url: cb.url });
      expect(started.status).toBe(202);
      const got = await cb.next();
      expect(got.body).toMatchObject({ status: 'FAILED', error: { code: 'mthdsls.pipe.template_render_failed', status: 422, instance: '/v1/start' } });
    } finally {
      await r.close();
      await cb.close();
    }
  });

  it('refuses the request itself before any 202: invalid method, inputs, pipe', async () => {
    const r = await withRunner();
    try {
      expect(problemOf(await post(`${r.url}/start`, { mthds_contents: ['domain ='] })).code).toBe('method.invalid');
      expect(problemOf(await post(`${r.url}/start`, { mthds_contents: [HELLO] })).code).toBe('input.missing');
      expect(problemOf(await post(`${r.url}/start`, { ...run, pipe_code: 'nope' })).code).toBe('request.pipe_not_found');
      expect((await post(`${r.url}/start`, run)).status).toBe(202);
    } finally {
      await r.close();
    }
  });

  it.each(['http://127.0.0.1:9/cb', 'http://localhost/cb', 'http://10.1.2.3/cb', 'http://169.254.169.254/latest', 'http://[::1]:8080/cb', 'http://192.168.0.10/', 'http://[::ffff:127.0.0.1]/'])('refuses the callback host of %s unless allowed', async (url) => {
    const r = await withRunner();
    try {
      const res = await post(`${r.url}/start`, { ...run, callback_url: url });
      expect(res.status).toBe(422);
      expect(problemOf(res)).toMatchObject({ code: 'mthdsls.security.address_refused', params: { field: 'callback_url', host: expect.any(String) } });
    } finally {
      await r.close();
    }
  });

  it.each(['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/', 42])('refuses the callback_url %s as invalid', async (url) => {
    const r = await withRunner();
    try {
      expect(problemOf(await post(`${r.url}/start`, { ...run, callback_url: url }))).toMatchObject({ code: 'request.invalid', params: { field: 'callback_url' } });
    } finally {
      await r.close();
    }
  });

  it('cancels background runs on shutdown and reports them to the callback', async () => {
    const cb = await receiver();
    const r = await withRunner({ callbacks: { allow_private: true }, models: { providers: [{ name: 'slow', base_url: slow.url, models: [{ name: 'slow-llm', type: 'llm' }] }] } });
    const started = await post(`${r.url}/start`, { ...run, callback_url: cb.url });
    expect(started.status).toBe(202);
    await new Promise((res) => setTimeout(res, 200));
    await r.close(5000);
    const got = await cb.next();
    expect(got.body).toMatchObject({ pipeline_run_id: started.json.pipeline_run_id, status: 'FAILED', error: { code: 'mthdsls.run.cancelled', params: { reason: 'shutdown' } } });
    await cb.close();
  });
});
