// The README's "Your first method", as a reader follows it: its method checks clean, and its
// commands (check, graph, serve, curl to /execute and /start with the outcome posted back) run as
// written, in an empty folder (the scratch folder it asks for), with `mthds` on PATH being this
// repository's built CLI, as `npm install -g ./server` puts it there.

import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/files.js';
import { CLI_BIN as BIN, runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';


/** The fenced blocks of a README section, in order, with their info string. */
function blocksOf(section: string): Array<{ lang: string; text: string }> {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`README.md has no section "${section}"`);
  const end = readme.indexOf('\n## ', start + 1);
  const body = readme.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, text: m[2]! }));
}


const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('README: the commands it shows', () => {
  it('never sends npx to the npm registry for a package named mthds', () => {
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    expect(readme).toContain('npm install -g ./server');
    expect(readme).toMatch(/^mthds check examples\/ /m);
    // npx (even with --no-install) asks the registry for a name it does not find locally: the
    // README runs no npx command at all.
    expect(readme.split('\n').filter((l) => /^\s*npx /.test(l))).toEqual([]);
    expect([...readme.matchAll(/`npx [^`]*`/g)].map((m) => m[0])).toEqual(['`npx mthds`']);
  });

  it('sends the reader to a scratch folder before the first method writes its files', () => {
    const section = blocksOf('Your first method');
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const text = readme.slice(readme.indexOf('\n## Your first method\n'));
    expect(text.indexOf('cd "$(mktemp -d)"')).toBeGreaterThan(0);
    expect(text.indexOf('cd "$(mktemp -d)"')).toBeLessThan(text.indexOf('```mthds'));
    expect(section.some((b) => b.text.includes('npx'))).toBe(false);
  });
});

describe('README: your first method', () => {
  const blocks = blocksOf('Your first method');

  it('holds one method, which checks clean', () => {
    const methods = blocks.filter((b) => b.lang === 'mthds');
    expect(methods).toHaveLength(1);
    const lines = methods[0]!.text.trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(35);
    expect(blocks.filter((b) => b.lang === 'sh').length).toBe(3);
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-readme-'));
    temp.push(dir);
    writeFileSync(path.join(dir, 'reply.mthds'), methods[0]!.text);
    const r = runCli(['check', 'reply.mthds'], { cwd: dir });
    expect(r.stdout).toBe('No problems in 1 file checked.\n');
    expect(r.status).toBe(0);
  });

  it('runs its commands as written: check, graph, /execute, then /start with the outcome posted back', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-readme-'));
    temp.push(dir);
    writeFileSync(path.join(dir, 'reply.mthds'), blocks.find((b) => b.lang === 'mthds')!.text);
    // `mthds` is this repository's CLI (and `npx` is never called); the runner and the receiver get
    // ports free here.
    const shims = path.join(dir, '.bin');
    mkdirSync(shims);
    writeFileSync(path.join(shims, 'mthds'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    writeFileSync(path.join(shims, 'npx'), `#!/bin/sh\necho "unexpected npx $*" >&2; exit 127\n`);
    chmodSync(path.join(shims, 'mthds'), 0o755);
    chmodSync(path.join(shims, 'npx'), 0o755);
    const [runnerPort, receiverPort] = [await freePort(), await freePort()];
    const script = blocks
      .filter((b) => b.lang === 'sh')
      .map((b) => b.text)
      .join('\n')
      .replaceAll('8080', String(runnerPort))
      .replaceAll('9000', String(receiverPort));
    expect(script).toContain('/v1/execute');
    expect(script).toContain('/v1/start');

    const child = spawn('bash', ['-e', '-c', script], { cwd: dir, detached: true, env: { ...process.env, PATH: `${shims}:${path.dirname(process.execPath)}:${process.env['PATH']}` } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const status = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The whole group is gone already.
    }
    expect(status, `${stdout}\n${stderr}`).toBe(0);

    expect(stdout).toContain('No problems in 1 file checked.');
    const svg = readFileSync(path.join(dir, 'reply.svg'), 'utf8');
    expect(XMLValidator.validate(svg)).toBe(true);
    for (const pipe of ['answer_review', 'sum_up', 'reply']) expect(svg).toContain(`data-node="feedback.${pipe}"`);

    // /execute: the result, as the README shows it.
    const executed = JSON.parse(stdout.split('\n').find((l) => l.startsWith('{"pipeline_run_id"') && l.includes('"main_stuff_name"'))!) as { state: string; main_stuff_name: string; pipe_output: { working_memory: { root: Record<string, { concept: string; content: { text: string } }> } } };
    expect(executed.state).toBe('COMPLETED');
    expect(executed.main_stuff_name).toBe('answer');
    expect(Object.keys(executed.pipe_output.working_memory.root)).toEqual(['review', 'points', 'answer']);
    expect(executed.pipe_output.working_memory.root['review']!.content.text).toBe('The kettle boils fast, but the lid squeaks.');
    // /start: 202 STARTED at once, then the outcome posted to the receiver.
    expect(stdout).toMatch(/\{"pipeline_run_id":"\w+","state":"STARTED"/);
    const outcome = JSON.parse(readFileSync(path.join(dir, 'outcome.json'), 'utf8')) as { status: string; result: { state: string; main_stuff_name: string } };
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.result).toMatchObject({ state: 'COMPLETED', main_stuff_name: 'answer' });
    expect(existsSync(path.join(dir, 'runner.toml'))).toBe(true);
  }, 90_000);
});
