// The complete runner configuration of docs/runner.md ("Model providers"), loaded as the file an
// operator saves: `mthds serve --config runner.toml` starts with it, warns about its unset key
// variable, serves its models to its token, and a run through its local provider (pointed at a
// fake OpenAI-compatible endpoint on loopback) completes.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfigFile } from '../../../server/src/runner/index.js';
import { chatCompletion, startFakeOpenAI, type FakeOpenAI } from './fakeOpenAI.js';
import { get, HELLO, post, withRunner, type Runner } from './helpers.js';
import { CLI_BIN as BIN } from '../../helpers/cli.js';

const REPO = path.resolve(__dirname, '../../..');

/** The TOML block under `<!-- runner.toml -->` in docs/runner.md, as written there. */
function readmeConfig(): string {
  const readme = readFileSync(path.join(REPO, 'docs/runner.md'), 'utf8');
  const match = /<!-- runner\.toml -->\n```toml\n([\s\S]*?)\n```/.exec(readme);
  if (!match) throw new Error('docs/runner.md has no block under <!-- runner.toml -->');
  return `${match[1]}\n`;
}

function saved(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mthds-readme-config-')), 'runner.toml');
  writeFileSync(file, readmeConfig());
  return file;
}

let fake: FakeOpenAI | undefined;
let runner: Runner | undefined;
afterAll(async () => {
  await runner?.close();
  await fake?.close();
});

describe("the runner configuration of docs/runner.md", () => {
  it('starts mthds serve, warns about the unset key variable, and serves its models to its token', async () => {
    const env = { ...process.env };
    delete env['OPENAI_API_KEY'];
    delete env['MTHDS_RUNNER_TOKENS'];
    const child = spawn(process.execPath, [BIN, 'serve', '--config', saved(), '--port', '0', '--workers', '1', '--no-warm-up'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(stderr).toContain('warning: models.providers[1] (openai): api_key_env names OPENAI_API_KEY, which is not set');
      expect((await get(`${url}/models`)).status).toBe(401);
      const models = await get(`${url}/models`, { Authorization: 'Bearer change-me' });
      expect(models.status).toBe(200);
      const names = JSON.stringify(models.json);
      for (const name of ['llama3.1', 'local-vision', 'gpt-4o-mini', 'gpt-image-1']) expect(names).toContain(name);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('runs a method through its local provider, its key variable set for the hosted one', async () => {
    fake = await startFakeOpenAI(() => ({ json: chatCompletion('Hello, Ada!') }));
    const config = readConfigFile(saved());
    // The one change: the local provider is the fake endpoint rather than an Ollama.
    config.models!.providers![0]!.base_url = fake.url;
    runner = await withRunner({ ...config, port: 0, env: { OPENAI_API_KEY: 'sk-test' }, log: () => {} });
    const r = await post(`${runner.url}/execute`, { mthds_contents: [HELLO.replace('output = "Text"', 'output = "Text"\nmodel = "@fast"')], inputs: { name: { concept: 'Text', content: 'Ada' } } }, { Authorization: 'Bearer change-me' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.pipe_output.working_memory.root.main_stuff.content.text).toBe('Hello, Ada!');
    expect(fake.requests[0]!.body.model).toBe('llama3.1');
  });
});
