// `mthds check` as a process on small trees written for the newest runtime's rules (test/fixtures/rules)
// and for each place a package named by address is looked up (test/fixtures/dependencies).

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const REPO = path.resolve(__dirname, '../..');
const RULES = path.join(REPO, 'test/fixtures/rules');
const DEPS = path.join(REPO, 'test/fixtures/dependencies');
// A home folder without installed methods and a store without packages, unless a test says otherwise.
const EMPTY_HOME = path.join(DEPS, 'no-home');

interface JsonFinding {
  file: string;
  line: number;
  column: number;
  code: string;
  severity: string;
  message: string;
  params: Record<string, unknown>;
  fix?: { edits: { newText: string }[] };
}

function check(cwd: string, args: string[], env: Record<string, string> = {}): { status: number | null; findings: JsonFinding[]; stderr: string } {
  const r = runCli(['check', '--no-dry-run', '--format', 'json', ...args], { cwd, env: { HOME: EMPTY_HOME, MTHDS_PACKAGES_DIR: path.join(EMPTY_HOME, 'packages'), ...env } });
  const findings = r.stdout.trim() === '' ? [] : (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings;
  return { status: r.status, findings, stderr: r.stderr };
}

const summary = (findings: JsonFinding[]): string[] => findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.code}`);

describe('the newest runtime rules, on fixtures', () => {
  it('Markdown is a native accepted where Text is', () => {
    const r = check(RULES, ['markdown.mthds']);
    expect(r.findings).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('PipeParallel: text field of a description-only output, a list marker alone, a branch fed by an optional input', () => {
    const r = check(RULES, ['parallel.mthds']);
    expect(summary(r.findings)).toEqual([
      'parallel.mthds:24:10 error method.wiring_invalid',
      'parallel.mthds:25:44 error method.wiring_invalid',
      'parallel.mthds:31:10 error method.output_multiplicity_mismatch',
      'parallel.mthds:39:44 error method.optional_unhandled',
    ]);
    expect(r.findings.map((f) => f.params['variable_path'] ?? f.params['input'] ?? f.params['expected'])).toEqual(['text', 'summary', 'single', 'summary']);
    expect(r.status).toBe(1);
  });

  it('PipeParallel combines into its output, add_each_output or not: a Text or Number refinement holds its native\'s field, Dynamic is refused', () => {
    const r = check(RULES, ['parallel-combine.mthds']);
    expect(summary(r.findings)).toEqual([
      'parallel-combine.mthds:30:10 error method.wiring_invalid',
      'parallel-combine.mthds:33:30 error method.wiring_invalid',
      'parallel-combine.mthds:34:30 error method.wiring_invalid',
      'parallel-combine.mthds:59:10 error method.wiring_invalid',
      'parallel-combine.mthds:60:40 error method.wiring_invalid',
      'parallel-combine.mthds:66:10 error method.output_concept_mismatch',
    ]);
    expect(r.findings.map((f) => f.params['variable_path'] ?? f.params['declared'])).toEqual(['text', 'clean_text', 'word_count', 'number', 'total', 'Dynamic']);
    expect(r.status).toBe(1);
  });

  it('item_type naming a concept is a warning with the canonical form as its fix', () => {
    const r = check(RULES, ['item-type.mthds']);
    expect(summary(r.findings)).toEqual(['item-type.mthds:11:38 warning method.concept_invalid']);
    expect(r.findings[0]!.fix!.edits[0]!.newText).toBe('"concept", item_concept_ref = "Stop"');
    expect(r.status).toBe(0);
  });

  it('an unresolved step does not cascade into undeclared inputs', () => {
    const r = check(RULES, ['no-cascade.mthds']);
    expect(summary(r.findings)).toEqual(['no-cascade.mthds:16:20 error method.pipe_unresolved']);
  });

  it('a description-only concept takes the fields a structures file declares for it', () => {
    const without = check(RULES, ['host']);
    expect(without.findings.map((f) => f.code)).toEqual(['method.wiring_invalid', 'method.wiring_invalid', 'method.wiring_invalid']);
    const declared = check(RULES, ['host', '--structures', 'host/structures.toml']);
    expect(declared.findings).toEqual([]);
    expect(declared.status).toBe(0);
    const bad = check(RULES, ['host', '--structures', 'host/bad-structures.toml']);
    expect(summary(bad.findings).slice(0, 2)).toEqual(['host/bad-structures.toml:1:1 error method.schema_violation', 'host/bad-structures.toml:4:26 error method.concept_invalid']);
    const missing = runCli(['check', 'host', '--structures', 'host/nope.toml'], { cwd: RULES });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read the structures file');
  });
});

describe('address-qualified references, looked up where the real tools put packages', () => {
  const missing = (r: ReturnType<typeof check>): JsonFinding[] => r.findings.filter((f) => f.code === 'method.dependency_missing');

  it('a path dependency', () => {
    expect(check(DEPS, ['path/app']).findings).toEqual([]);
  });

  it('a sibling package of the checked folder, its exports enforced', () => {
    const r = check(DEPS, ['siblings']);
    expect(summary(r.findings)).toEqual(['siblings/app/private.mthds:8:20 error method.pipe_not_exported']);
    expect(r.findings[0]!.params).toEqual({ pipe: 'textkit.internal_helper', package: 'github.com/acme/tools/textkit' });
  });

  it('a library folder given with --library / -L, searched recursively', () => {
    const without = missing(check(DEPS, ['library/app']));
    expect(without.map((f) => f.params)).toEqual([{ kind: 'package', name: 'github.com/acme/tools/textkit', reason: 'not_found' }]);
    expect(check(DEPS, ['library/app', '-L', 'library/lib']).findings).toEqual([]);
    expect(check(DEPS, ['library/app', '--library', 'library']).findings).toEqual([]);
    const nowhere = runCli(['check', 'library/app', '-L', 'library/none'], { cwd: DEPS });
    expect(nowhere.status).toBe(2);
  });

  it('.mthds/methods/<name>/ above the package; the files under .mthds are not checked as the tree', () => {
    const r = check(DEPS, ['installed/project/app']);
    expect(r.findings).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('~/.mthds/methods/<name>/', () => {
    expect(missing(check(DEPS, ['home/app']))).toHaveLength(1);
    expect(check(DEPS, ['home/app'], { HOME: path.join(DEPS, 'home/user') }).findings).toEqual([]);
  });

  it('the package store, last', () => {
    expect(check(DEPS, ['store/app', '--packages', 'store/packages']).findings).toEqual([]);
  });

  it('a finding says every place it looked, in order', () => {
    const [g] = missing(check(DEPS, ['home/app', '-L', 'path/app']));
    const looked = g!.message.slice(g!.message.indexOf('(looked in ') + 11, -1).split('; ');
    expect(looked).toEqual([
      `the packages under ${path.join(DEPS, 'home/app')}`,
      `the library folders ${path.join(DEPS, 'path/app')}`,
      `.mthds/methods/textkit in ${path.join(DEPS, 'home/app')} and every folder above it`,
      path.join(EMPTY_HOME, '.mthds/methods/textkit'),
      `the package store ${path.join(EMPTY_HOME, 'packages')}`,
    ]);
  });
});
