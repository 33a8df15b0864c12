// `mthds check` with dependency packages, as a process: the package store given by --packages or
// by $MTHDS_PACKAGES_DIR, findings on METHODS.toml and on the references.

import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appBundle, appManifest, manifestText, SCORING_BUNDLE } from '../helpers/packages.js';
import { runCli } from '../helpers/cli.js';


function mthds(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = runCli(args, { env });
  return { status, stdout, stderr };
}

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-cli-pkg-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

function workspace(constraint: string): string {
  return tempDir({
    'app/METHODS.toml': appManifest(`lib = { address = "github.com/acme/scoring", version = "${constraint}" }`),
    'app/main.mthds': appBundle('lib->scoring.compute', 'lib->scoring.Score'),
    'store/github.com/acme/scoring/1.0.0/METHODS.toml': manifestText('scoring', 'github.com/acme/scoring', '1.0.0', '\n[exports.scoring]\npipes = ["compute"]\n'),
    'store/github.com/acme/scoring/1.0.0/scoring.mthds': SCORING_BUNDLE,
  });
}

describe('mthds check with dependency packages', () => {
  it('checks clean when the dependency is installed in the store named by --packages', () => {
    const ws = workspace('^1.0.0');
    const r = mthds(['check', path.join(ws, 'app'), '--packages', path.join(ws, 'store')]);
    expect(r.stdout).toContain('No problems');
    expect(r.status).toBe(0);
  });

  it('reports a version no installed package satisfies, on METHODS.toml, and exits 1', () => {
    const ws = workspace('^2.0.0');
    const r = mthds(['check', path.join(ws, 'app'), '--format', 'json'], { MTHDS_PACKAGES_DIR: path.join(ws, 'store') });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { findings: { code: string; file: string; line: number; column: number; params: Record<string, unknown> }[] };
    const missing = out.findings.filter((f) => f.code === 'method.dependency_missing');
    expect(missing).toHaveLength(1);
    expect(missing[0]!.params).toEqual({ kind: 'package', name: 'github.com/acme/scoring', reason: 'no_matching_version' });
    expect(missing[0]!.file.endsWith(path.join('app', 'METHODS.toml'))).toBe(true);
    expect([missing[0]!.line, missing[0]!.column]).toEqual([12, 56]);
  });

  it('reports a package that is not installed', () => {
    const ws = workspace('^1.0.0');
    const r = mthds(['check', path.join(ws, 'app'), '--packages', path.join(ws, 'nowhere')]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/METHODS\.toml:12:1: error method\.dependency_missing /);
  });
});

describe('mthds check: package layout on disk', () => {
  it('refuses a symbolic link inside a package and never reads through it', () => {
    const ws = workspace('^1.0.0');
    writeFileSync(path.join(ws, 'secret.mthds'), 'domain = "secret"\n[pipe.leak]\ntype = "Nope"\n');
    symlinkSync(path.join(ws, 'secret.mthds'), path.join(ws, 'app', 'linked.mthds'));
    const r = mthds(['check', path.join(ws, 'app'), '--packages', path.join(ws, 'store'), '--format', 'json']);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { findings: { code: string; file: string; params: Record<string, unknown> }[] };
    expect(out.findings.map((f) => f.code)).toEqual(['method.package_invalid']);
    expect(out.findings[0]!.params).toEqual({ reason: 'symlink', path: 'linked.mthds' });
    expect(r.stdout).not.toContain('secret');
  });

  it('a package without links checks clean', () => {
    const ws = workspace('^1.0.0');
    const r = mthds(['check', path.join(ws, 'app'), '--packages', path.join(ws, 'store')]);
    expect(r.status).toBe(0);
  });
});
