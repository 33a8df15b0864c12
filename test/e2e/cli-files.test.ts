// What the commands read, as a process on real files: nothing that is not a regular file is read
// (a FIFO would block the read, a device never ends), every read is bounded by the bytes read, a
// file that does not decode is never rewritten, what a folder walk skips is reported, and a path
// that does not exist fails the command. Each command runs with a timeout and a small heap: a
// hang or an unbounded read fails the test instead of stalling it.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';


function mthds(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string; signal: NodeJS.Signals | null } {
  return runCli(args, { cwd, nodeArgs: ['--max-old-space-size=256'], timeout: 20_000 });
}

const OK = 'domain = "files"\ndescription = "A method file"\n';

let ws = '';
beforeAll(() => {
  ws = mkdtempSync(path.join(tmpdir(), 'mthds-files-'));
  writeFileSync(path.join(ws, 'ok.mthds'), OK);
  execFileSync('mkfifo', [path.join(ws, 'fifo.mthds')]);
  symlinkSync('/dev/zero', path.join(ws, 'zero.mthds'));
  execFileSync('mkfifo', [path.join(ws, 'structures.toml')]);
});

describe('a FIFO or a device named on the command line', () => {
  for (const name of ['fifo.mthds', 'zero.mthds']) {
    const kind = name === 'fifo.mthds' ? 'a FIFO' : 'a character device';
    it(`mthds check ${name} reports it and exits 1 (no hang, no unbounded read)`, () => {
      const r = mthds(['check', '--no-dry-run', name], ws);
      expect(r.signal).toBeNull();
      expect(r.stdout).toContain(`${name}:1:1: error method.package_invalid`);
      expect(r.stdout).toContain('not_regular_file');
      expect(r.stdout).toContain(`is not a regular file (${kind}); it is not read`);
      expect(r.status).toBe(1);
    });

    it(`mthds check --fix ${name} reads nothing and exits 1`, () => {
      const r = mthds(['check', '--fix', '--no-dry-run', name], ws);
      expect(r.signal).toBeNull();
      expect(r.stdout).toContain('Nothing to fix.');
      expect(r.status).toBe(1);
    });

    it(`mthds format ${name} refuses it and exits 2`, () => {
      const r = mthds(['format', name], ws);
      expect(r.signal).toBeNull();
      expect(r.stderr).toContain(`${name}: not formatted: the file is not a regular file (${kind})`);
      expect(r.status).toBe(2);
    });

    it(`mthds graph ${name} says why and exits 2`, () => {
      const r = mthds(['graph', name], ws);
      expect(r.signal).toBeNull();
      expect(r.stderr).toContain('not_regular_file');
      expect(r.status).toBe(2);
    });
  }

  it('mthds check --functions on a FIFO does not import it (no hang) and says why', () => {
    const r = mthds(['check', '--no-dry-run', '--functions', 'fifo.mthds', 'ok.mthds'], ws);
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain('function module fifo.mthds cannot be imported: the file is not a regular file (a FIFO)');
  });

  it('mthds check --structures on a FIFO refuses it and exits 2', () => {
    const r = mthds(['check', '--no-dry-run', '--structures', 'structures.toml', 'ok.mthds'], ws);
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain('is not a regular file (a FIFO)');
    expect(r.status).toBe(2);
  });
});

describe('what a folder walk skips is reported', () => {
  it('a loose folder: a FIFO bundle, a symlinked bundle and a dangling link are findings', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-walk-'));
    writeFileSync(path.join(dir, 'a.mthds'), OK);
    execFileSync('mkfifo', [path.join(dir, 'b.mthds')]);
    symlinkSync(path.join(ws, 'ok.mthds'), path.join(dir, 'c.mthds'));
    symlinkSync(path.join(dir, 'nowhere.mthds'), path.join(dir, 'd.mthds'));
    const r = mthds(['check', '--no-dry-run', '.'], dir);
    expect(r.signal).toBeNull();
    expect(r.stdout).toContain('b.mthds:1:1: error method.package_invalid The package breaks a rule (not_regular_file) at b.mthds. (a FIFO, not a regular file; it is not read)');
    expect(r.stdout).toContain('c.mthds:1:1: error method.package_invalid The package breaks a rule (symlink) at c.mthds. (a symbolic link; it is not followed)');
    expect(r.stdout).toContain('d.mthds:1:1: error method.package_invalid The package breaks a rule (symlink)');
    expect(r.stdout).not.toContain('No problems');
    expect(r.status).toBe(1);
    const f = mthds(['format', '--check', '.'], dir);
    expect(f.stderr).toContain('b.mthds: not formatted: a FIFO, not a regular file');
    expect(f.stderr).toContain('c.mthds: not formatted: a symbolic link');
    expect(f.status).toBe(2);
  });

  it('a package whose METHODS.toml is a FIFO: a finding, not a silent check as loose bundles', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-walk-'));
    writeFileSync(path.join(dir, 'a.mthds'), OK);
    execFileSync('mkfifo', [path.join(dir, 'METHODS.toml')]);
    const r = mthds(['check', '--no-dry-run', '.'], dir);
    expect(r.signal).toBeNull();
    expect(r.stdout).toContain('METHODS.toml:1:1: error method.package_invalid The package breaks a rule (not_regular_file) at METHODS.toml.');
    expect(r.status).toBe(1);
  });
});

describe('bytes that do not decode, and the size bound', () => {
  it('mthds format never writes a Latin-1 file (exit 2), located as mthds check locates it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-latin-'));
    const bytes = Buffer.concat([Buffer.from('domain = "x"\ndescription = "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]);
    writeFileSync(path.join(dir, 'latin.mthds'), bytes);
    for (const args of [['format', 'latin.mthds'], ['format', '--check', 'latin.mthds']]) {
      const r = mthds(args, dir);
      expect(r.stderr).toContain('latin.mthds:2:19: error method.syntax');
      expect(r.stderr).toContain('latin.mthds: not formatted: the file is not valid UTF-8 (byte 0xe9');
      expect(r.status).toBe(2);
      expect(readFileSync(path.join(dir, 'latin.mthds')).equals(bytes)).toBe(true);
    }
    expect(mthds(['check', '--no-dry-run', 'latin.mthds'], dir).stdout).toContain('latin.mthds:2:19: error method.syntax');
  });

  it('mthds format and check refuse a file past the bound by the bytes read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-large-'));
    const file = path.join(dir, 'large.mthds');
    writeFileSync(file, OK);
    // A sparse file: 17 MB of comment-free zeros past the text, more than the 16 MB bound.
    truncateSync(file, 17 * 1024 * 1024);
    appendFileSync(file, '\n');
    const f = mthds(['format', 'large.mthds'], dir);
    expect(f.stderr).toContain('large.mthds: not formatted: the file is too large (more than 16777216 bytes');
    expect(f.status).toBe(2);
    const c = mthds(['check', '--no-dry-run', 'large.mthds'], dir);
    expect(c.stdout).toContain('error method.package_invalid The package breaks a rule (file_too_large) at large.mthds; the limit is 16777216.');
    expect(c.status).toBe(1);
  });
});

describe('a path that does not exist', () => {
  it('mthds check exits 2 and every report carries it as method.not_found', () => {
    const text = mthds(['check', '--no-dry-run', 'ok.mthds', 'missing.mthds'], ws);
    expect(text.stdout).toContain('missing.mthds:1:1: error method.not_found No method matches missing.mthds.');
    expect(text.stderr).toContain('mthds check: missing.mthds: no such file or folder');
    expect(text.status).toBe(2);
    const json = mthds(['check', '--no-dry-run', '--format', 'json', 'ok.mthds', 'missing.mthds'], ws);
    const report = JSON.parse(json.stdout) as { errors: number; findings: Array<{ code: string; file: string }> };
    expect(report.errors).toBe(1);
    expect(report.findings).toEqual([expect.objectContaining({ code: 'method.not_found', file: 'missing.mthds' })]);
    expect(json.status).toBe(2);
    const sarif = mthds(['check', '--no-dry-run', '--format', 'sarif', 'ok.mthds', 'missing.mthds'], ws);
    const log = JSON.parse(sarif.stdout) as { runs: Array<{ results: Array<{ ruleId: string }> }> };
    expect(log.runs[0]!.results.map((r) => r.ruleId)).toEqual(['method.not_found']);
    expect(sarif.status).toBe(2);
  });

  it('mthds graph exits 2, the other paths still drawn', () => {
    const r = mthds(['graph', 'ok.mthds', 'missing.mthds'], ws);
    expect(r.stderr).toContain('mthds graph: missing.mthds: no such file or folder');
    expect(r.stdout).toContain('flowchart');
    expect(r.status).toBe(2);
  });
});

describe('SARIF locations', () => {
  it('a file outside the working folder is an absolute file URI with no base; one inside is relative to %SRCROOT%', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-sarif-'));
    mkdirSync(path.join(dir, 'in side'));
    const broken = 'domain = "x"\n[pipe.a]\ntype = "PipeLLM"\ndescription = "A"\noutput = "Txt"\nprompt = "Hello"\n';
    writeFileSync(path.join(dir, 'in side', 'b.mthds'), broken);
    const outside = mkdtempSync(path.join(tmpdir(), 'mthds-sarif-out-'));
    writeFileSync(path.join(outside, 'c.mthds'), broken);
    const r = mthds(['check', '--no-dry-run', '--format', 'sarif', path.join(dir, 'in side', 'b.mthds'), path.join(outside, 'c.mthds')], dir);
    type Location = { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } };
    const log = JSON.parse(r.stdout) as { runs: Array<{ originalUriBaseIds: Record<string, { uri: string }>; results: Array<{ locations: Location[] }> }> };
    const run = log.runs[0]!;
    expect(run.originalUriBaseIds['%SRCROOT%']).toEqual({ uri: pathToFileURL(dir + path.sep).href });
    const artifacts = run.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation);
    expect(artifacts).toContainEqual({ uri: 'in%20side/b.mthds', uriBaseId: '%SRCROOT%' });
    expect(artifacts).toContainEqual({ uri: pathToFileURL(path.join(outside, 'c.mthds')).href });
    for (const a of artifacts) if (a.uriBaseId !== undefined) expect(a.uri.startsWith('/') || a.uri.startsWith('file:')).toBe(false);
  });
});
