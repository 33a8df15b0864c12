// `mthds check --fix` as a process, on temporary copies of fixtures: the safe fixes written, what
// was fixed printed, the remaining findings and the exit status, and nothing left on a second run.

import { chmodSync, copyFileSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const REPO = path.resolve(__dirname, '../..');
const FIXTURES = path.join(REPO, 'test/fixtures/fix');

function mthds(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = runCli(args, { cwd });
  return { status, stdout, stderr };
}

function copyOf(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-fix-'));
  copyFileSync(path.join(FIXTURES, name), path.join(dir, name));
  return dir;
}

describe('mthds check --fix', () => {
  it('writes the safe fixes, says so, and reports what remains (exit 1 for a remaining error)', () => {
    const dir = copyOf('story.mthds');
    const file = path.join(dir, 'story.mthds');
    chmodSync(file, 0o600);
    const before = readFileSync(file, 'utf8');
    const r = mthds(['check', '--fix', 'story.mthds'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'fixed story.mthds:8:43: method.input_unused Remove unused input `unused_extra`\n' +
        'fixed story.mthds:15:28: method.input_unused Remove unused input `tone`\n' +
        'fixed story.mthds:16:17: method.optional_marker_invalid Remove `!`\n' +
        'Fixed 3 problems in 1 file.\n' +
        'story.mthds:19:7: error method.identifier_invalid The pipe code Bad_Case is not a valid name; names match [a-z][a-z0-9_]*. (suggestion: Rename to `bad_case`)\n' +
        '1 error, 0 warnings in 1 file checked.\n',
    );
    expect(r.status).toBe(1);
    const after = readFileSync(file, 'utf8');
    expect(after).toBe(before.replace(', unused_extra = "Text"', '').replace(', tone = "Text"', '').replace('"Text[]!"', '"Text[]"'));
    // Replaced atomically: same mode, no temporary file left.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['story.mthds']);

    const again = mthds(['check', '--fix', 'story.mthds'], dir);
    expect(again.stdout).toBe('Nothing to fix.\nstory.mthds:19:7: error method.identifier_invalid The pipe code Bad_Case is not a valid name; names match [a-z][a-z0-9_]*. (suggestion: Rename to `bad_case`)\n1 error, 0 warnings in 1 file checked.\n');
    expect(again.status).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('exits 0 when the fixes leave no error, on a folder', () => {
    const dir = copyOf('clean_after_fix.mthds');
    const r = mthds(['check', '--fix', '.'], dir);
    expect(r.stdout).toBe('fixed clean_after_fix.mthds:8:28: method.input_unused Remove unused input `unused`\nFixed 1 problem in 1 file.\nNo problems in 1 file checked.\n');
    expect(r.status).toBe(0);
    expect(readFileSync(path.join(dir, 'clean_after_fix.mthds'), 'utf8')).toContain('inputs = { topic = "Text" }\n');
    expect(mthds(['check', '--fix', '.'], dir).stdout).toBe('Nothing to fix.\nNo problems in 1 file checked.\n');
  });

  it('lists the fixes in the JSON output, and leaves files alone without --fix', () => {
    const dir = copyOf('story.mthds');
    const before = readFileSync(path.join(dir, 'story.mthds'), 'utf8');
    expect(mthds(['check', 'story.mthds'], dir).status).toBe(1);
    expect(readFileSync(path.join(dir, 'story.mthds'), 'utf8')).toBe(before);
    const r = mthds(['check', '--fix', '--format', 'json', 'story.mthds'], dir);
    const out = JSON.parse(r.stdout) as { errors: number; fixed: Array<Record<string, unknown>>; findings: Array<Record<string, unknown>> };
    expect(out.fixed).toEqual([
      { file: 'story.mthds', line: 8, column: 43, code: 'method.input_unused', title: 'Remove unused input `unused_extra`' },
      { file: 'story.mthds', line: 15, column: 28, code: 'method.input_unused', title: 'Remove unused input `tone`' },
      { file: 'story.mthds', line: 16, column: 17, code: 'method.optional_marker_invalid', title: 'Remove `!`' },
    ]);
    expect(out.findings.map((f) => f['code'])).toEqual(['method.identifier_invalid']);
    expect(r.status).toBe(1);
  });
});

/** `mthds check --fix` (static checks) on a copy of a fixture: the copy's folder, its text before, the run. */
function fixCopy(name: string): { dir: string; file: string; before: string; r: ReturnType<typeof mthds> } {
  const dir = copyOf(name);
  const file = path.join(dir, name);
  const before = readFileSync(file, 'utf8');
  return { dir, file, before, r: mthds(['check', '--fix', '--no-dry-run', name], dir) };
}

describe('mthds check --fix never leaves a method worse', () => {
  it('keeps an input an inline `@triage` names (the template is the error), and applies the one suggestion', () => {
    const { file, before, r } = fixCopy('triage.mthds');
    expect(r.stdout).toBe(
      'fixed triage.mthds:11:39: method.concept_unresolved Replace with `Triage`\n' +
        'Fixed 1 problem in 1 file.\n' +
        "triage.mthds:13:38: error method.template_invalid The template prompt of pipe answer is invalid: inline `@triage` is not allowed: use `$triage` inline, or put `@triage` alone on its line (suggestion: Write `$triage`)\n" +
        '1 error, 0 warnings in 1 file checked.\n',
    );
    expect(r.status).toBe(1);
    // The input stays; only the misspelled concept was replaced.
    expect(readFileSync(file, 'utf8')).toBe(before.replace('triage = "Triag"', 'triage = "Triage"'));
    // Without --fix, the suggestion shows in the text output.
    const plain = mthds(['check', '--no-dry-run', 'triage.mthds'], copyOf('triage.mthds'));
    expect(plain.stdout).toContain('error method.concept_unresolved The concept Triag is not defined. Did you mean: Triage? (fix: Replace with `Triage`)');
    expect(plain.stdout).not.toContain('input_unused');
  });

  it('rolls back a safe fix whose result has a new error, and says so', () => {
    const { dir, file, before, r } = fixCopy('self_call.mthds');
    expect(r.stdout).toBe(
      'rolled back self_call.mthds:10:20: method.pipe_unresolved Replace with `run` (it brings method.cycle: A pipe call cycle runs through, in order: run, run.)\n' +
        'Nothing to fix.\n' +
        'self_call.mthds:10:20: error method.pipe_unresolved The pipe runn named by run does not exist. Did you mean: run? (suggestion: Replace with `run`)\n' +
        '1 error, 0 warnings in 1 file checked.\n',
    );
    expect(r.status).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const json = JSON.parse(mthds(['check', '--fix', '--no-dry-run', '--format', 'json', 'self_call.mthds'], dir).stdout) as { rolledBack: Array<Record<string, unknown>> };
    expect(json.rolledBack).toEqual([{ file: 'self_call.mthds', line: 10, column: 20, code: 'method.pipe_unresolved', title: 'Replace with `run`', error: { code: 'method.cycle', message: 'A pipe call cycle runs through, in order: run, run.' } }]);
  });
});

describe("mthds check --fix on the README's broken example", () => {
  it('fixes the causes first: fewer errors, every declaration kept, and a second run changes nothing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-fix-'));
    const file = path.join(dir, 'broken.mthds');
    copyFileSync(path.join(REPO, 'examples/broken/broken.mthds'), file);
    const before = mthds(['check', '--no-dry-run', '--format', 'json', '.'], dir);
    const r = mthds(['check', '--fix', '--no-dry-run', '.'], dir);
    expect(r.stdout).toContain('fixed broken.mthds:17:1: method.schema_violation Rename to `prompt`');
    expect(r.stdout).toContain('fixed broken.mthds:24:20: method.pipe_unresolved Replace with `suggest_recipe`');
    expect(r.stdout).not.toContain('rolled back');
    expect(r.stdout).not.toContain('Remove unused input');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('inputs = { ingredients = "Ingredient[]" }');
    expect(text).toContain('prompt = "Suggest a recipe using $ingredients"');
    expect(text).toContain('inputs = { ingredients = "Text[]" }');
    const after = mthds(['check', '--no-dry-run', '--format', 'json', '.'], dir);
    const count = (out: string): number => (JSON.parse(out) as { errors: number }).errors;
    expect(count(after.stdout)).toBeLessThan(count(before.stdout));
    const again = mthds(['check', '--fix', '--no-dry-run', '.'], dir);
    expect(again.stdout.startsWith('Nothing to fix.\n')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('before --fix, the consequence offers a suggestion and the causes a fix', () => {
    const r = mthds(['check', '--no-dry-run', 'examples/broken'], REPO);
    expect(r.stdout).toContain('method.input_unused The pipe suggest_recipe declares inputs that nothing it runs reads: ingredients. (suggestion: Remove unused input `ingredients`)');
    expect(r.stdout).toContain('(did you mean `prompt`?) (fix: Rename to `prompt`)');
  });
});
