// The command line as a process: what CI and terminals see.

import { mkdtempSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const REPO = path.resolve(__dirname, '../..');

function mthds(args: string[], cwd = REPO): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = runCli(args, { cwd });
  return { status, stdout, stderr };
}

function tempDir(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-cli-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

describe('mthds check', () => {
  it('checks the examples: the broken one is reported with codes and positions', () => {
    const r = mthds(['check', 'examples/']);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    const findings = lines.filter((l) => /^\S+:\d+:\d+: (error|warning) /.test(l));
    expect(findings.length).toBeGreaterThanOrEqual(5);
    expect(findings.every((l) => l.startsWith('examples/broken/broken.mthds:'))).toBe(true);
    expect(r.stdout).toContain('examples/broken/broken.mthds:17:1: error method.schema_violation');
    expect(r.stdout).toContain('method.pipe_type_invalid');
    expect(r.stdout).toContain('method.pipe_unresolved');
    expect(r.stdout).toContain('method.concept_unresolved');
    expect(lines[lines.length - 1]).toMatch(/^\d+ errors?, \d+ warnings? in \d+ files? checked\.$/);
  });

  it('exits 0 on clean trees and sorts by file and position', () => {
    const r = mthds(['check', 'examples/news', 'examples/invoices']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toMatch(/^No problems in 4 files checked\.$/);
    expect(r.status).toBe(0);
  });

  it('prints JSON findings with code, params, range and fix', () => {
    const r = mthds(['check', '--format', 'json', 'examples/broken/broken.mthds']);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { errors: number; findings: Array<Record<string, unknown>> };
    expect(out.errors).toBe(out.findings.length);
    const unknownKey = out.findings.find((f) => f['code'] === 'method.schema_violation')!;
    expect(unknownKey['params']).toEqual({ field_path: 'pipe.suggest_recipe.promt', finding: expect.stringContaining('prompt') });
    expect(unknownKey['range']).toEqual({ start: { line: 16, character: 0 }, end: { line: 16, character: 5 } });
    const unresolved = out.findings.find((f) => f['code'] === 'method.pipe_unresolved')!;
    expect(unresolved['fix']).toMatchObject({ edits: [{ newText: 'suggest_recipe' }] });
  });

  it('prints SARIF 2.1.0 with rule metadata from the registry, locations and fixes', () => {
    const r = mthds(['check', '--format', 'sarif', 'examples/broken/broken.mthds']);
    expect(r.status).toBe(1);
    const log = JSON.parse(r.stdout) as { version: string; runs: Array<{ tool: { driver: { name: string; rules: Array<{ id: string; shortDescription: { text: string }; helpUri: string }> } }; results: Array<Record<string, unknown>> }> };
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('mthds');
    const ids = run.tool.driver.rules.map((rule) => rule.id);
    expect(ids).toContain('method.pipe_unresolved');
    expect(run.tool.driver.rules.every((rule) => rule.shortDescription.text.length > 0 && rule.helpUri.includes('#'))).toBe(true);
    const unresolved = run.results.find((x) => x['ruleId'] === 'method.pipe_unresolved')!;
    expect(unresolved['level']).toBe('error');
    expect(ids[unresolved['ruleIndex'] as number]).toBe('method.pipe_unresolved');
    expect(unresolved['locations']).toEqual([{ physicalLocation: { artifactLocation: { uri: 'examples/broken/broken.mthds', uriBaseId: '%SRCROOT%' }, region: { startLine: 24, startColumn: 20, endLine: 24, endColumn: 33 } } }]);
    expect(unresolved['fixes']).toMatchObject([{ artifactChanges: [{ replacements: [{ insertedContent: { text: 'suggest_recipe' } }] }] }]);
  });

  it('prints GitHub workflow annotations', () => {
    const r = mthds(['check', '--format', 'github', 'examples/broken/broken.mthds']);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.every((l) => l.startsWith('::error file=examples/broken/broken.mthds,line='))).toBe(true);
    expect(r.stdout).toContain('::error file=examples/broken/broken.mthds,line=24,col=20,endLine=24,endColumn=33,title=method.pipe_unresolved::The pipe sugest_recipe named by plan_dinner does not exist.');
  });

  it('gives clear messages for bad files, never a stack trace', () => {
    const dir = tempDir({
      'latin1.mthds': Buffer.concat([Buffer.from('domain = "d"\ndescription = "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]),
      'binary.mthds': Buffer.from([0x64, 0x00, 0x01, 0x02]),
    });
    const r = mthds(['check', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('latin1.mthds:2:19: error method.syntax');
    expect(r.stdout).toContain('not valid UTF-8');
    expect(r.stdout).toContain('binary.mthds:1:2: error method.syntax');
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('reports unreadable files with a registry code', () => {
    if (process.getuid?.() === 0) return; // root reads everything: nothing to observe
    const dir = tempDir({ 'secret.mthds': 'domain = "d"\n' });
    chmodSync(path.join(dir, 'secret.mthds'), 0o000);
    const r = mthds(['check', dir]);
    expect(r.stdout).toContain('method.package_invalid');
  });

  it('distinguishes usage errors (exit 2)', () => {
    expect(mthds(['check', '--format', 'xml', 'examples']).status).toBe(2);
    expect(mthds(['frobnicate']).status).toBe(2);
    const missing = mthds(['check', 'no/such/folder']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no such file or folder');
    const empty = mthds(['check', tempDir({ 'notes.txt': 'hello' })]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('holds no method bundle');
  });
});
