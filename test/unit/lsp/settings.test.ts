import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings } from '../../../server/src/lsp/settings.js';

describe('readSettings', () => {
  it('reads the mthds section, nested or not, and ignores wrong types', () => {
    expect(readSettings(undefined)).toEqual(DEFAULT_SETTINGS);
    expect(readSettings({ debounceMs: 0 }).diagnostics.debounceMs).toBe(0);
    expect(readSettings({ mthds: { diagnostics: { debounceMs: 120 } } }).diagnostics.debounceMs).toBe(120);
    expect(readSettings({ diagnostics: { debounceMs: -1 } }).diagnostics.debounceMs).toBe(50);
    expect(readSettings({ diagnostics: { debounceMs: 'fast' } }).diagnostics.debounceMs).toBe(50);
    const runner = readSettings({ runner: { url: ' http://127.0.0.1:8080 ', tokenEnv: 'MY_TOKEN', timeoutMs: 5000 } }).runner;
    expect(runner).toEqual({ url: 'http://127.0.0.1:8080', tokenEnv: 'MY_TOKEN', timeoutMs: 5000 });
  });

  it('layers over a base (initializationOptions first, then configuration)', () => {
    const base = readSettings({ debounceMs: 0 });
    expect(readSettings({ runner: { timeoutMs: 10 } }, base)).toEqual({ diagnostics: { debounceMs: 0, dryRun: true, dryRunDelayMs: 400, warmUpMs: 1000 }, runner: { timeoutMs: 10 }, packages: { libraries: [] }, structures: {}, workspace: { maxFiles: 100_000 } });
    expect(base.runner).toEqual({});
  });

  it('reads the bound of a workspace folder walk, refusing what is not a count', () => {
    expect(readSettings({ mthds: { workspace: { maxFiles: 5000.7 } } }).workspace).toEqual({ maxFiles: 5000 });
    for (const bad of [0, -1, '10', null]) expect(readSettings({ workspace: { maxFiles: bad } }).workspace).toEqual({ maxFiles: 100_000 });
  });

  it('reads the dry run switch and its delay', () => {
    expect(DEFAULT_SETTINGS.diagnostics).toMatchObject({ dryRun: true, dryRunDelayMs: 400 });
    const off = readSettings({ mthds: { diagnostics: { dryRun: false, dryRunDelayMs: 0 } } });
    expect(off.diagnostics).toMatchObject({ dryRun: false, dryRunDelayMs: 0 });
    expect(readSettings({ diagnostics: { dryRun: 'no', dryRunDelayMs: -5 } }, off).diagnostics).toMatchObject({ dryRun: false, dryRunDelayMs: 0 });
    expect(readSettings({ diagnostics: { dryRun: true, dryRunDelayMs: 250 } }, off).diagnostics).toMatchObject({ dryRun: true, dryRunDelayMs: 250 });
  });

  it('reads the start-up warm-up budget, 0 turning it off', () => {
    expect(DEFAULT_SETTINGS.diagnostics.warmUpMs).toBeGreaterThan(0);
    expect(readSettings({ diagnostics: { warmUpMs: 0 } }).diagnostics.warmUpMs).toBe(0);
    expect(readSettings({ mthds: { diagnostics: { warmUpMs: 250 } } }).diagnostics.warmUpMs).toBe(250);
    expect(readSettings({ diagnostics: { warmUpMs: -1 } }).diagnostics.warmUpMs).toBe(DEFAULT_SETTINGS.diagnostics.warmUpMs);
  });

  it('reads the package store, an empty value meaning the default', () => {
    const set = readSettings({ mthds: { packages: { dir: ' /opt/mthds ' } } });
    expect(set.packages).toEqual({ dir: '/opt/mthds', libraries: [] });
    expect(readSettings({ packages: { dir: '' } }, set).packages).toEqual({ libraries: [] });
    expect(readSettings({ packages: { dir: 3 } }).packages).toEqual({ libraries: [] });
  });

  it('reads library folders and the structures file, dropping what is not a path', () => {
    const set = readSettings({ mthds: { packages: { libraries: [' vendor ', '', 4, '/opt/lib'] }, structures: { file: 'structures.toml' } } });
    expect(set.packages.libraries).toEqual(['vendor', '/opt/lib']);
    expect(set.structures).toEqual({ file: 'structures.toml' });
    expect(readSettings({ structures: { file: '' } }, set).structures).toEqual({});
    expect(readSettings({ packages: { libraries: 'vendor' } }, set).packages.libraries).toEqual(['vendor', '/opt/lib']);
  });
});
