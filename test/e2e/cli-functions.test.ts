// `mthds check --functions` as a process: the environment check (PipeFunc functions against the
// function modules, requirements.txt) with codes, params and positions, and the exit status.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const REPO = path.resolve(__dirname, '../..');
const FIXTURES = path.join(REPO, 'test/fixtures/functions');

function mthds(args: string[], cwd = FIXTURES): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = runCli(args, { cwd });
  return { status, stdout, stderr };
}

function tempTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-functions-cli-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

const PIPES = (loud: string, wordsOutput: string): string => `domain = "words"
description = "Words"

[pipe.loud]
type = "PipeFunc"
description = "The text in capitals"
inputs = { text = "Text" }
output = "Text"
function_name = "${loud}"

[pipe.words]
type = "PipeFunc"
description = "The words"
inputs = { text = "Text" }
output = "${wordsOutput}"
function_name = "split_words"
`;

describe('mthds check --functions', () => {
  it('passes a tree whose functions are registered and fit (exit 0)', () => {
    const r = mthds(['check', 'method', '--functions', 'text_functions.mjs']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('No problems in 1 file checked.');
    expect(r.status).toBe(0);
  });

  it('reports an unregistered function and an unfit one with codes, params and positions (exit 1)', () => {
    const dir = tempTree({ 'words.mthds': PIPES('shot', 'Text') });
    const r = mthds(['check', '--format', 'json', dir, '--functions', path.join(FIXTURES, 'text_functions.mjs')]);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { errors: number; findings: Array<Record<string, any>> };
    expect(out.errors).toBe(2);
    const [missing, invalid] = out.findings;
    expect(missing).toMatchObject({ code: 'method.dependency_missing', severity: 'error', params: { kind: 'function', name: 'shot', reason: 'not_found' }, line: 9, column: 18, endLine: 9, endColumn: 22 });
    expect(missing!['range']).toEqual({ start: { line: 8, character: 17 }, end: { line: 8, character: 21 } });
    expect(missing!['alternatives']).toEqual([expect.objectContaining({ safe: false, edits: [expect.objectContaining({ newText: 'shout' })] })]);
    expect(invalid).toMatchObject({ code: 'method.function_invalid', params: { pipe: 'words', function: 'split_words', finding: expect.stringContaining('returns a list') }, line: 16, column: 18, endColumn: 29 });
  });

  it('reports nothing for the close variant (registered name, list output)', () => {
    const dir = tempTree({ 'words.mthds': PIPES('shout', 'Text[]') });
    const r = mthds(['check', dir, '--functions', path.join(FIXTURES, 'text_functions.mjs')]);
    expect(r.stdout.trim()).toBe('No problems in 1 file checked.');
    expect(r.status).toBe(0);
  });

  it('skips the environment check without --functions', () => {
    const dir = tempTree({ 'words.mthds': PIPES('shot', 'Text'), 'requirements.txt': 'numpy\n' });
    const r = mthds(['check', dir]);
    expect(r.stdout.trim()).toBe('No problems in 1 file checked.');
    expect(r.status).toBe(0);
  });

  it('reports each requirement of requirements.txt at its line when functions are configured', () => {
    const r = mthds(['check', 'with_requirements', '--functions', 'text_functions.mjs']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(
      'with_requirements/requirements.txt:2:1: error method.dependency_missing Dependency numpy (Python requirement) cannot be satisfied: it was not found.\n' +
        'with_requirements/requirements.txt:4:1: error method.dependency_missing Dependency requests (Python requirement) cannot be satisfied: it was not found.\n' +
        '2 errors, 0 warnings in 1 file checked.\n',
    );
  });

  it('reports modules that cannot be imported and names registered twice', () => {
    const r = mthds(['check', 'method', '--functions', 'text_functions.mjs', '--functions', 'duplicate_functions.mjs', '--functions', 'broken_module.mjs']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('mthds check: warning: function module broken_module.mjs cannot be imported: the scoring model file is missing');
    expect(r.stdout).toContain('method/words.mthds:10:18: error method.function_invalid The function shout of pipe loud cannot be used: it is registered by several function modules: text_functions.mjs, duplicate_functions.mjs');
    expect(r.stdout).not.toContain('split_words');
  });

  it('turns a missing name into method.function_invalid when a module failed to import', () => {
    const dir = tempTree({ 'words.mthds': PIPES('shot', 'Text[]') });
    const r = mthds(['check', '--format', 'json', dir, '--functions', 'text_functions.mjs', '--functions', 'broken_module.mjs']);
    const out = JSON.parse(r.stdout) as { findings: Array<Record<string, any>> };
    expect(out.findings).toEqual([expect.objectContaining({ code: 'method.function_invalid', params: { pipe: 'loud', function: 'shot', finding: expect.stringContaining('broken_module.mjs cannot be imported') } })]);
    expect(r.status).toBe(1);
  });

  it('exits 2 when --functions has no value', () => {
    expect(mthds(['check', 'method', '--functions']).status).toBe(2);
  });
});
