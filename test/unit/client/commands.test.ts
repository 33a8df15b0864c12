// The client's command plumbing: default arguments from the active editor, the "MTHDS Runs"
// output, the gate that keeps background probes quiet, the server's start options, debouncing.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIX_ALL_COMMAND, SERVER_COMMANDS, withDefaultArgs } from '../../../client/src/commands.js';
import { debounce } from '../../../client/src/debounce.js';
import { MESSAGE_ERROR, MESSAGE_INFO, MessageGate } from '../../../client/src/messages.js';
import { formatRunAnswer } from '../../../client/src/runs.js';
import { DOCUMENT_SELECTOR, serverModuleOptions, TRANSPORT_IPC } from '../../../client/src/serverOptions.js';

const ACTIVE = { uri: 'file:///w/a.mthds', languageId: 'mthds', position: { line: 4, character: 2 } };
const AT = new Date('2026-01-02T03:04:05.000Z');

describe('withDefaultArgs', () => {
  it('fills the document and cursor when the palette gives nothing', () => {
    expect(withDefaultArgs(SERVER_COMMANDS.execute, [], ACTIVE)).toEqual([{ uri: ACTIVE.uri, position: { line: 4, character: 2 } }]);
    expect(withDefaultArgs(SERVER_COMMANDS.start, [], ACTIVE)).toEqual([{ uri: ACTIVE.uri, position: { line: 4, character: 2 } }]);
    expect(withDefaultArgs(SERVER_COMMANDS.validate, [], ACTIVE)).toEqual([{ uri: ACTIVE.uri }]);
    expect(withDefaultArgs(FIX_ALL_COMMAND, [], ACTIVE)).toEqual([{ uri: ACTIVE.uri }]);
    expect(withDefaultArgs(SERVER_COMMANDS.validate, [], { ...ACTIVE, uri: 'file:///w/METHODS.toml', languageId: 'mthds-manifest' })).toEqual([{ uri: 'file:///w/METHODS.toml' }]);
  });

  it('keeps the arguments of code lenses, and turns an explorer Uri into { uri }', () => {
    const lens = [{ uri: 'file:///w/b.mthds', pipe: 'd.p' }];
    expect(withDefaultArgs(SERVER_COMMANDS.execute, lens, ACTIVE)).toEqual(lens);
    const uri = { scheme: 'file', fsPath: '/w/c.mthds', toString: () => 'file:///w/c.mthds' };
    expect(withDefaultArgs(SERVER_COMMANDS.validate, [uri], ACTIVE)).toEqual([{ uri: 'file:///w/c.mthds' }]);
  });

  it('leaves other commands and other documents alone', () => {
    expect(withDefaultArgs(SERVER_COMMANDS.models, [], ACTIVE)).toEqual([]);
    expect(withDefaultArgs(SERVER_COMMANDS.execute, [], { ...ACTIVE, languageId: 'python' })).toEqual([]);
    expect(withDefaultArgs(SERVER_COMMANDS.execute, [], undefined)).toEqual([]);
  });
});

describe('formatRunAnswer', () => {
  it('logs a run with its id, where the output went, and the output', () => {
    const lines = formatRunAnswer(SERVER_COMMANDS.execute, [{ uri: 'file:///w/a.mthds' }], { ok: true, pipe: 'recipes.plan', pipeline_run_id: 'run-1', pipe_output: { working_memory: { root: {} } }, outputUri: 'file:///tmp/mthds-runs/x.json' }, AT);
    expect(lines[0]).toBe('[2026-01-02T03:04:05.000Z] Run of recipes.plan (file:///w/a.mthds): pipeline_run_id run-1');
    expect(lines[1]).toBe('  output written to file:///tmp/mthds-runs/x.json');
    expect(lines.slice(2).join('\n')).toContain('"working_memory"');
  });

  it('logs accepted runs, starts, verdicts, models, versions and failures', () => {
    expect(formatRunAnswer(SERVER_COMMANDS.execute, [], { ok: true, pipe: 'p', pipeline_run_id: 'r', accepted: true }, AT)[1]).toContain('HTTP 202');
    expect(formatRunAnswer(SERVER_COMMANDS.start, [], { ok: true, pipe: 'p', pipeline_run_id: 'r9' }, AT)[0]).toContain('started: pipeline_run_id r9');
    expect(formatRunAnswer(SERVER_COMMANDS.validate, [], { ok: true, verdict: { is_valid: true, is_runnable: true, pending_signatures: [] } }, AT)[0]).toContain('valid and runnable');
    const invalid = formatRunAnswer(SERVER_COMMANDS.validate, [], { ok: true, verdict: { is_valid: false, validation_errors: [{ code: 'method.cycle', message: 'loop' }] } }, AT);
    expect(invalid).toEqual([expect.stringContaining('1 error'), '  - method.cycle: loop']);
    expect(formatRunAnswer(SERVER_COMMANDS.models, [], { ok: true, models: { models: [{ name: 'mock', type: 'llm' }] } }, AT)).toEqual([expect.stringContaining('1 model:'), '  - mock (llm)']);
    expect(formatRunAnswer(SERVER_COMMANDS.version, [], { ok: true, url: 'http://r', builtIn: true, version: { protocol_version: '0.6.0' } }, AT)[0]).toContain('Runner (built-in) at http://r: protocol 0.6.0');
    expect(formatRunAnswer(SERVER_COMMANDS.execute, [], { ok: false, message: 'No pipe to run' }, AT)[0]).toBe('[2026-01-02T03:04:05.000Z] mthds.runner.execute failed: No pipe to run');
    expect(formatRunAnswer(SERVER_COMMANDS.execute, [], undefined, AT)[0]).toContain('no answer');
  });

  it('cuts very long outputs', () => {
    const lines = formatRunAnswer(SERVER_COMMANDS.execute, [], { ok: true, pipe: 'p', pipeline_run_id: 'r', pipe_output: { big: 'x'.repeat(50_000) } }, AT);
    expect(lines.join('\n').length).toBeLessThan(21_000);
    expect(lines[lines.length - 1]).toMatch(/more characters\)$/);
  });
});

describe('MessageGate', () => {
  it('shows everything when no probe runs', () => {
    const gate = new MessageGate();
    expect(gate.admit(MESSAGE_INFO, 'Runner at http://r: protocol 0.6.0.')).toBe(true);
    expect(gate.admit(MESSAGE_ERROR, 'boom')).toBe(true);
  });

  it('holds back what a probe causes, and lets a user command show its own failure again', async () => {
    const gate = new MessageGate();
    await gate.quietly(async () => {
      expect(gate.admit(MESSAGE_INFO, 'Runner (built-in) at http://127.0.0.1:1: protocol 0.6.0.')).toBe(false);
      expect(gate.admit(MESSAGE_INFO, '3 models: a, b, c')).toBe(false);
      expect(gate.admit(MESSAGE_ERROR, 'The runner at http://r cannot be reached')).toBe(false);
      // A user's validate succeeding meanwhile is still shown.
      expect(gate.admit(MESSAGE_INFO, 'The runner validated the method: valid and runnable.')).toBe(true);
    });
    expect(gate.release('The runner at http://r cannot be reached')).toBe(true);
    expect(gate.release('The runner at http://r cannot be reached')).toBe(false);
    expect(gate.admit(MESSAGE_INFO, 'Runner at http://r: protocol 0.6.0.')).toBe(true);
  });

  it('stays balanced when a probe fails', async () => {
    const gate = new MessageGate();
    await expect(gate.quietly(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(gate.admit(MESSAGE_ERROR, 'e')).toBe(true);
  });
});

describe('serverModuleOptions', () => {
  it('forks the bundled server over Node IPC, with a debug variant', () => {
    const o = serverModuleOptions('/ext');
    expect(o.run).toEqual({ module: '/ext/server/dist/server.js', transport: TRANSPORT_IPC });
    expect(o.debug.options.execArgv).toContain('--inspect=6009');
    expect(TRANSPORT_IPC).toBe(1);
  });

  it('selects bundles and package files, whatever their language', () => {
    expect(DOCUMENT_SELECTOR).toEqual(expect.arrayContaining([{ language: 'mthds' }, { scheme: 'file', pattern: '**/METHODS.toml' }, { scheme: 'file', pattern: '**/methods.lock' }]));
  });
});

describe('debounce', () => {
  afterEach(() => vi.useRealTimers());

  it('runs once after a burst, and not at all when cancelled', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const d = debounce(fn, 100);
    d();
    vi.advanceTimersByTime(50);
    d();
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    d();
    d.cancel();
    vi.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
