// A folder the command cannot read (mode 000) holding a broken bundle: `mthds check` reports the
// folder (method.package_invalid, reason folder_unreadable) and exits 1, `mthds format --check`
// says so and exits 2: never "No problems" and 0. The commands run as a user the mode applies to
// (see test/helpers/otherUser.ts: root reads any folder).

import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockedWorkspace, unprivilegedCommand } from '../helpers/otherUser.js';

let ws = '';
let unlock = (): void => {};
beforeAll(() => {
  ({ ws, unlock } = lockedWorkspace());
});
afterAll(() => unlock());

function mthds(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const [first, ...rest] = unprivilegedCommand('cli.js', args);
  const r = spawnSync(first!, rest, { cwd: ws, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a folder the command cannot read', () => {
  it('mthds check reports it and exits 1', () => {
    const r = mthds(['check', '.']);
    expect(r.stdout).toContain('locked:1:1: error method.package_invalid');
    expect(r.stdout).toContain('folder_unreadable');
    expect(r.stdout).toContain('permission denied');
    expect(r.stdout).not.toContain('No problems');
    expect(r.status).toBe(1);
  });

  it('mthds check --format json carries it as a finding', () => {
    const r = mthds(['check', '--format', 'json', ws]);
    const report = JSON.parse(r.stdout) as { errors: number; findings: Array<{ code: string; params: Record<string, unknown> }> };
    expect(report.findings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'method.package_invalid', params: { reason: 'folder_unreadable', path: 'locked' } })]));
    expect(report.errors).toBeGreaterThan(0);
    expect(r.status).toBe(1);
  });

  it('mthds check on the folder itself reports it and exits 1', () => {
    const r = mthds(['check', 'locked']);
    expect(r.stdout).toContain('folder_unreadable');
    expect(r.status).toBe(1);
  });

  it('mthds format --check says it could not read the folder and exits 2', () => {
    const r = mthds(['format', '--check', '.']);
    expect(r.stderr).toContain('locked: the folder cannot be read (permission denied)');
    expect(r.status).toBe(2);
  });
});
