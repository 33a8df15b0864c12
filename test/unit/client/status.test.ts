// The status bar: what it says for each state of the runner, and the controller that probes the
// runner through the server's commands (against a fake `vscode`).

import { beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => import('./fakeVscode.js'));
import { resetFakes, statusBarItems, ThemeColor } from './fakeVscode.js';
import { describeStatus, RunnerStatus, type Answer, type StatusProbes } from '../../../client/src/status.js';

const REMOTE_VERSION: Answer = { ok: true, url: 'https://runner.example', builtIn: false, version: { protocol_version: '0.6.0', runner_version: '1.2.3' } };
const BUILT_IN_VERSION: Answer = { ok: true, url: 'http://127.0.0.1:4567', builtIn: true, version: { protocol_version: '0.6.0' } };
const UNAUTHORIZED: Answer = { ok: false, message: 'auth.missing_credential: Missing credential (HTTP 401)\nSet `mthds.runner.token` to a bearer token the runner accepts.' };

describe('describeStatus', () => {
  it('shows a reachable, authenticated remote runner with its version', () => {
    const view = describeStatus({ state: 'probed', version: REMOTE_VERSION, models: { ok: true, models: { models: [] } }, tokenSource: 'keychain' });
    expect(view.text).toBe('$(check) MTHDS runner 1.2.3');
    expect(view.level).toBe('ok');
    expect(view.tooltip).toContain('Runner: https://runner.example');
    expect(view.tooltip).toContain('Authentication: accepted (token from the keychain)');
  });

  it('shows the built-in runner as needing no authentication', () => {
    const view = describeStatus({ state: 'probed', version: BUILT_IN_VERSION });
    expect(view.text).toBe('$(check) MTHDS runner (built-in) 0.6.0');
    expect(view.tooltip).toContain('not needed');
  });

  it('warns when the runner refuses the credentials, and says how to set a token', () => {
    const view = describeStatus({ state: 'probed', version: REMOTE_VERSION, models: UNAUTHORIZED });
    expect(view.text).toBe('$(lock) MTHDS runner 1.2.3: not authenticated');
    expect(view.level).toBe('warning');
    expect(view.tooltip).toContain('MTHDS: Set Runner Token');
  });

  it('shows an unreachable runner and a stopped server as errors', () => {
    const view = describeStatus({ state: 'probed', version: { ok: false, message: 'The runner at https://x cannot be reached (ECONNREFUSED).' } });
    expect(view.text).toBe('$(error) MTHDS runner unreachable');
    expect(view.tooltip).toContain('ECONNREFUSED');
    expect(view.level).toBe('error');
    expect(describeStatus({ state: 'stopped', reason: 'crashed' }).tooltip).toContain('crashed');
    expect(describeStatus({ state: 'starting' }).text).toContain('sync~spin');
  });

  it('does not claim authentication it could not check', () => {
    const view = describeStatus({ state: 'probed', version: REMOTE_VERSION, models: { ok: false, message: 'The runner at https://x did not answer within 30 s' } });
    expect(view.text).toBe('$(question) MTHDS runner 1.2.3');
    expect(view.tooltip).toContain('Authentication: unknown');
  });
});

describe('RunnerStatus', () => {
  beforeEach(() => {
    resetFakes();
    vi.useRealTimers();
  });

  function probes(answers: Record<string, Answer>, running = true): StatusProbes & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      running: () => running,
      execute: async (command) => {
        calls.push(command);
        return answers[command] ?? { ok: false, message: 'unknown' };
      },
      tokenSource: () => 'environment',
    };
  }

  it('creates a visible item that starts out as "starting" and runs the version command on click', () => {
    const status = new RunnerStatus(probes({}), () => 0, 'mthds.runner.version');
    const item = statusBarItems[0]!;
    expect(item.visible).toBe(true);
    expect(item.command).toBe('mthds.runner.version');
    expect(item.text).toContain('sync~spin');
    status.dispose();
    expect(item.disposed).toBe(true);
  });

  it('asks version then models for a remote runner, only version for the built-in one', async () => {
    const remote = probes({ 'mthds.runner.version': REMOTE_VERSION, 'mthds.runner.models': UNAUTHORIZED });
    const status = new RunnerStatus(remote, () => 0, 'x');
    await status.refresh();
    expect(remote.calls).toEqual(['mthds.runner.version', 'mthds.runner.models']);
    const item = statusBarItems[0]!;
    expect(item.text).toContain('not authenticated');
    expect(item.backgroundColor).toEqual(new ThemeColor('statusBarItem.warningBackground'));
    expect(item.tooltip).toContain('token from the environment');
    status.dispose();

    const local = probes({ 'mthds.runner.version': BUILT_IN_VERSION });
    const status2 = new RunnerStatus(local, () => 0, 'x');
    await status2.refresh();
    expect(local.calls).toEqual(['mthds.runner.version']);
    expect(statusBarItems[1]!.backgroundColor).toBeUndefined();
    status2.dispose();
  });

  it('says the server is stopped without asking it anything', async () => {
    const p = probes({}, false);
    const status = new RunnerStatus(p, () => 0, 'x');
    expect((await status.refresh()).text).toContain('circle-slash');
    expect(p.calls).toEqual([]);
    status.dispose();
  });

  it('polls a remote runner periodically, and stops when disposed', async () => {
    vi.useFakeTimers();
    const p = probes({ 'mthds.runner.version': REMOTE_VERSION, 'mthds.runner.models': { ok: true, models: { models: [] } } });
    const status = new RunnerStatus(p, () => 60_000, 'x');
    await status.refresh();
    expect(p.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(p.calls).toHaveLength(4);
    status.dispose();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(p.calls).toHaveLength(4);
  });

  it('keeps the newest answer when probes overlap', async () => {
    let release: (() => void) | undefined;
    let first = true;
    const p: StatusProbes = {
      running: () => true,
      tokenSource: () => undefined,
      execute: async (command) => {
        if (command === 'mthds.runner.version' && first) {
          first = false;
          await new Promise<void>((r) => (release = r));
          return { ok: false, message: 'old answer' };
        }
        return command === 'mthds.runner.version' ? BUILT_IN_VERSION : { ok: true };
      },
    };
    const status = new RunnerStatus(p, () => 0, 'x');
    const older = status.refresh();
    await status.refresh();
    release!();
    await older;
    expect(statusBarItems[0]!.text).toContain('built-in');
    status.dispose();
  });
});
