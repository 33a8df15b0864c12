// PipeFunc over real HTTP on loopback, with a runner given function modules: the /validate verdict
// (method.dependency_missing, method.function_invalid, requirements.txt), /execute running the
// registered functions for real, the refusals of /execute and /start, run failures, and
// `mthds serve --functions` / `functions` in a config file as a process.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, problemOf, withRunner, type Reply, type Runner } from './helpers.js';
import { CLI_BIN as BIN } from '../../helpers/cli.js';

const REPO = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(REPO, 'test/fixtures/functions');
const TEXT_FUNCTIONS = path.join(FIXTURES, 'text_functions.mjs');

let runner: Runner;
let plain: Runner;
beforeAll(async () => {
  runner = await withRunner({ functions: [TEXT_FUNCTIONS] });
  plain = await withRunner();
});
afterAll(async () => {
  await runner.close();
  await plain.close();
});

/** A bundle whose main pipe `f` is a PipeFunc calling `name` (Text in, `output` out). */
function func(name: string, output = 'Text'): string {
  return `domain = "words"\ndescription = "Words"\nmain_pipe = "f"\n\n[pipe.f]\ntype = "PipeFunc"\ndescription = "Calls a function"\ninputs = { text = "Text" }\noutput = "${output}"\nfunction_name = "${name}"\n`;
}

const text = (content: string): { concept: string; content: string } => ({ concept: 'Text', content });

function mainOf(reply: Reply): { concept: string; content: any } {
  expect(reply.status, reply.text).toBe(200);
  return reply.json.pipe_output.working_memory.root[reply.json.main_stuff_name];
}

describe('/validate with function modules', () => {
  it('reports method.dependency_missing (kind function) at the function_name value', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [func('shot')], mthds_sources: ['words.mthds'] });
    expect(r.status).toBe(200);
    expect(r.json.is_valid).toBe(false);
    expect(r.json.validation_errors).toEqual([
      expect.objectContaining({ code: 'method.dependency_missing', params: { kind: 'function', name: 'shot', reason: 'not_found' }, file: 'words.mthds', line: 10, column: 18, end_line: 10, end_column: 22, pipe: 'f', severity: 'error' }),
    ]);
  });

  it('validates a PipeFunc whose function is registered with a fitting output', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [func('shout')] });
    expect(r.json).toMatchObject({ is_valid: true, is_runnable: true });
    expect((await post(`${runner.url}/validate`, { mthds_contents: [func('split_words', 'Text[]')] })).json.is_valid).toBe(true);
  });

  it('reports method.function_invalid when the declared output does not fit, or the registration is malformed', async () => {
    const list = await post(`${runner.url}/validate`, { mthds_contents: [func('shout', 'Text[]')] });
    expect(list.json.is_valid).toBe(false);
    expect(list.json.validation_errors).toEqual([
      expect.objectContaining({ code: 'method.function_invalid', params: { pipe: 'f', function: 'shout', finding: expect.stringContaining('the output of the pipe is a list (Text[])') }, line: 10, column: 18, end_column: 23 }),
    ]);
    const noRun = await post(`${runner.url}/validate`, { mthds_contents: [func('no_run')] });
    expect(noRun.json.validation_errors[0]).toMatchObject({ code: 'method.function_invalid', params: { pipe: 'f', function: 'no_run', finding: 'its registration has no run function' } });
  });

  it('reports each requirement of a requirements.txt at its line', async () => {
    const files = { 'words.mthds': func('shout'), 'requirements.txt': '# for the Python functions\nnumpy>=1.26\n' };
    const r = await post(`${runner.url}/validate`, { files });
    expect(r.json.is_valid).toBe(false);
    expect(r.json.validation_errors).toEqual([
      expect.objectContaining({ code: 'method.dependency_missing', params: { kind: 'requirement', name: 'numpy', reason: 'not_found' }, file: 'requirements.txt', line: 2, column: 1, end_line: 2, end_column: 12 }),
    ]);
    const commentsOnly = await post(`${runner.url}/validate`, { files: { ...files, 'requirements.txt': '# nothing to install\n' } });
    expect(commentsOnly.json.is_valid).toBe(true);
  });

  it('skips the environment check on a runner without function modules', async () => {
    const r = await post(`${plain.url}/validate`, { files: { 'words.mthds': func('shot'), 'requirements.txt': 'numpy\n' } });
    expect(r.json.is_valid).toBe(true);
  });
});

describe('/execute with function modules', () => {
  it('runs the registered function on the inputs and returns its output', async () => {
    const r = await post(`${runner.url}/execute`, { mthds_contents: [func('shout')], inputs: { text: text('hello world') } });
    expect(mainOf(r)).toEqual({ concept: 'native.Text', content: { text: 'HELLO WORLD' } });
  });

  it('runs a function returning a list, and one carrying its output on itself', async () => {
    const words = await post(`${runner.url}/execute`, { mthds_contents: [func('split_words', 'Text[]')], inputs: { text: text('a b  c') } });
    expect(mainOf(words)).toEqual({ concept: 'native.Text', content: { items: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] } });
    const count = await post(`${runner.url}/execute`, { mthds_contents: [func('count_words', 'Number')], inputs: { text: text('one two three') } });
    expect(mainOf(count).content).toEqual({ number: 3 });
  });

  it('runs a function inside a sequence, on the output of a model step', async () => {
    const bundle = `domain = "words"\ndescription = "Words"\nmain_pipe = "flow"\n\n[pipe.flow]\ntype = "PipeSequence"\ndescription = "Flow"\ninputs = { name = "Text" }\noutput = "Text"\nsteps = [{ pipe = "greet", result = "greeting" }, { pipe = "loud", result = "out" }]\n\n[pipe.greet]\ntype = "PipeLLM"\ndescription = "Greet"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Say hello to $name."\n\n[pipe.loud]\ntype = "PipeFunc"\ndescription = "Shout"\ninputs = { greeting = "Text" }\noutput = "Text"\nfunction_name = "shout_greeting"\n`;
    // shout_greeting is not registered: refused before anything runs.
    expect(problemOf(await post(`${runner.url}/execute`, { mthds_contents: [bundle], inputs: { name: text('Ada') } }))).toMatchObject({ code: 'method.dependency_missing' });
    const r = await post(`${runner.url}/execute`, { mthds_contents: [bundle.replace('inputs = { greeting = "Text" }', 'inputs = { text = "Text" }').replace('"greet", result = "greeting"', '"greet", result = "text"').replace('shout_greeting', 'shout')], inputs: { name: text('Ada') } });
    const out = mainOf(r);
    const greeting = r.json.pipe_output.working_memory.root['text'].content.text as string;
    expect(greeting.length).toBeGreaterThan(0);
    expect(out.content.text).toBe(greeting.toUpperCase());
  });

  it('refuses an unregistered function with method.dependency_missing, located', async () => {
    const r = await post(`${runner.url}/execute`, { mthds_contents: [func('shot')], mthds_sources: ['words.mthds'], inputs: { text: text('x') } });
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'method.dependency_missing', params: { kind: 'function', name: 'shot', reason: 'not_found' }, location: { file: 'words.mthds', line: 10, column: 18, pipe: 'f' } });
  });

  it('refuses an unfit function with method.function_invalid', async () => {
    const r = await post(`${runner.url}/execute`, { mthds_contents: [func('split_words')], inputs: { text: text('x') } });
    expect(problemOf(r)).toMatchObject({ status: 422, code: 'method.function_invalid', params: { pipe: 'f', function: 'split_words' } });
  });

  it('refuses on /start before the 202, as /execute does', async () => {
    const r = await post(`${runner.url}/start`, { mthds_contents: [func('shot')], inputs: { text: text('x') } });
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'method.dependency_missing', params: { kind: 'function', name: 'shot' } });
    expect((await post(`${runner.url}/start`, { mthds_contents: [func('shout')], inputs: { text: text('x') } })).status).toBe(202);
  });

  it('fails the run with mthdsls.pipe.execution_failed when the function throws', async () => {
    const r = await post(`${runner.url}/execute`, { mthds_contents: [func('explode')], inputs: { text: text('x') } });
    expect(problemOf(r)).toMatchObject({ status: 422, code: 'mthdsls.pipe.execution_failed', params: { pipe: 'f', finding: 'the function explode failed: the scoring model is not loaded' } });
  });

  it('fails the run with mthdsls.pipe.output_invalid when the function returns what the concept refuses', async () => {
    const r = await post(`${runner.url}/execute`, { mthds_contents: [func('wrong_content')], inputs: { text: text('x') } });
    expect(problemOf(r)).toMatchObject({ status: 422, code: 'mthdsls.pipe.output_invalid', params: { pipe: 'f', concept: 'native.Text' } });
  });

  it('ends a run whose function never answers at the time bound', async () => {
    const bounded = await withRunner({ functions: [TEXT_FUNCTIONS], limits: { run_timeout_seconds: 1 } });
    try {
      const r = await post(`${bounded.url}/execute`, { mthds_contents: [func('hang')], inputs: { text: text('x') } });
      expect(problemOf(r)).toMatchObject({ code: 'mthdsls.run.timeout', params: { seconds: 1 } });
    } finally {
      await bounded.close();
    }
  });

  it('still refuses PipeFunc with mthdsls.pipe.func_unsupported on a runner without function modules', async () => {
    const r = await post(`${plain.url}/execute`, { mthds_contents: [func('shout')], inputs: { text: text('x') } });
    expect(problemOf(r)).toMatchObject({ code: 'mthdsls.pipe.func_unsupported', params: { pipe: 'f', function: 'shout' } });
  });
});

/** Starts `mthds serve` and resolves with the URL it prints first. */
function serve(args: string[], cwd: string): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-warm-up', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ child, url: out.split('\n')[0]!, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

describe('mthds serve with function modules', () => {
  it('takes --functions (relative to the working folder) and functions of a config file (relative to it)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-functions-'));
    writeFileSync(path.join(dir, 'runner.json'), JSON.stringify({ functions: [path.relative(dir, path.join(FIXTURES, 'duplicate_functions.mjs'))] }));
    const { child, url, stderr } = await serve(['--config', path.join(dir, 'runner.json'), '--functions', 'text_functions.mjs', '--functions', 'broken_module.mjs'], FIXTURES);
    try {
      // whisper comes from the config file's module, count_words from --functions.
      expect(mainOf(await post(`${url}/execute`, { mthds_contents: [func('whisper')], inputs: { text: text('QUIET') } })).content).toEqual({ text: 'quiet' });
      expect(mainOf(await post(`${url}/execute`, { mthds_contents: [func('count_words', 'Number')], inputs: { text: text('a b') } })).content).toEqual({ number: 2 });
      // shout is registered by both: refused; a missing name now meets the module that failed to import.
      expect(problemOf(await post(`${url}/execute`, { mthds_contents: [func('shout')], inputs: { text: text('x') } }))).toMatchObject({ code: 'method.function_invalid', params: { function: 'shout', finding: expect.stringContaining('registered by several function modules') } });
      expect(problemOf(await post(`${url}/execute`, { mthds_contents: [func('shot')], inputs: { text: text('x') } }))).toMatchObject({ code: 'method.function_invalid', params: { function: 'shot', finding: expect.stringContaining('broken_module.mjs cannot be imported: the scoring model file is missing') } });
      expect(stderr()).toContain('function module broken_module.mjs cannot be imported');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
