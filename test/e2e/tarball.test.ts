// The toolkit without a published package: `npm pack` of the server package, installed into an
// empty folder (offline: the package bundles its libraries and declares none to install), then its
// bins run from there as a CI job would (see docs/ci.md).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../server/src/version.js';
import { EXAMPLES, REPO } from '../helpers/files.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function run(command: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the npm pack tarball of the server package', () => {
  it('declares no dependency to install: its bins are bundled', () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'server/package.json'), 'utf8')) as { dependencies?: Record<string, string>; files: string[] };
    // A library needed at run time is bundled into dist/ by esbuild: declare it as a devDependency.
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.files).toEqual(['bin', 'dist']);
  });

  it('installs into an empty folder offline, and its mthds and mthds-language-server run from there', () => {
    const packs = mkdtempSync(path.join(tmpdir(), 'mthds-pack-'));
    const project = mkdtempSync(path.join(tmpdir(), 'mthds-install-'));
    dirs.push(packs, project);
    const packed = run(NPM, ['pack', './server', '--pack-destination', packs, '--silent'], REPO);
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = readdirSync(packs).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe(`mthds-language-server-${VERSION}.tgz`);

    writeFileSync(path.join(project, 'package.json'), '{ "private": true }\n');
    const installed = run(NPM, ['install', '--offline', '--no-audit', '--no-fund', path.join(packs, tarball!)], project);
    expect(installed.status, installed.stderr).toBe(0);
    const bin = path.join(project, 'node_modules/.bin');

    const version = run(path.join(bin, 'mthds'), ['--version'], project);
    expect(version.stdout).toBe(`${VERSION}\n`);
    const clean = run(path.join(bin, 'mthds'), ['check', path.join(EXAMPLES, 'news')], project);
    expect(clean.stdout).toBe('No problems in 1 file checked.\n');
    expect(clean.status).toBe(0);
    const broken = run(path.join(bin, 'mthds'), ['check', '--format', 'json', path.join(EXAMPLES, 'broken')], project);
    expect(broken.status).toBe(1);
    expect((JSON.parse(broken.stdout) as { errors: number }).errors).toBeGreaterThan(0);
    const server = run(path.join(bin, 'mthds-language-server'), ['--version'], project);
    expect(server.status).toBe(0);
    expect(server.stdout).toBe(`${VERSION}\n`);
  });
});
