// The function registry: loading function modules (named exports, default-exported objects,
// functions carrying their output), malformed registrations, names registered twice and modules
// that cannot be imported.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFunctionRegistry, moduleLabel, registryWarnings } from '../../../server/src/runner/functions.js';

const FIXTURES = path.resolve(__dirname, '../../fixtures/functions');
const fixture = (name: string): string => path.join(FIXTURES, name);

describe('loadFunctionRegistry', () => {
  it('registers the named exports of a module, with their declared outputs', async () => {
    const registry = await loadFunctionRegistry([fixture('text_functions.mjs')], FIXTURES);
    expect(registry.modules).toEqual(['text_functions.mjs']);
    expect([...registry.functions.keys()].sort()).toEqual(['count_words', 'explode', 'hang', 'shout', 'split_words', 'wrong_content']);
    expect(registry.functions.get('split_words')).toMatchObject({ module: 'text_functions.mjs', output: 'Text[]' });
    expect(registry.functions.get('count_words')!.output).toBe('Number');
    expect(await registry.functions.get('shout')!.run({ text: { text: 'hi' } }, { pipe: 'p', signal: new AbortController().signal })).toBe('HI');
    expect(registry.catalog.importFaults).toEqual([]);
  });

  it('records malformed registrations as faults, not as functions', async () => {
    const registry = await loadFunctionRegistry([fixture('text_functions.mjs')], FIXTURES);
    expect(registry.catalog.entries.get('no_output')).toEqual({ fault: expect.stringContaining('declares no output') });
    expect(registry.catalog.entries.get('no_run')).toEqual({ fault: 'its registration has no run function' });
    expect(registry.catalog.entries.get('shout')).toEqual({ output: 'Text' });
    expect(registry.functions.has('no_output')).toBe(false);
  });

  it('registers the members of a default-exported object, and faults a name two modules register', async () => {
    const registry = await loadFunctionRegistry([fixture('text_functions.mjs'), fixture('duplicate_functions.mjs')], FIXTURES);
    expect(registry.functions.get('whisper')).toMatchObject({ module: 'duplicate_functions.mjs', output: 'Text' });
    expect(registry.functions.has('shout')).toBe(false);
    expect(registry.catalog.entries.get('shout')).toEqual({ fault: 'it is registered by several function modules: text_functions.mjs, duplicate_functions.mjs' });
    expect(registry.duplicates.get('shout')).toEqual(['text_functions.mjs', 'duplicate_functions.mjs']);
    expect(registryWarnings(registry)).toEqual([expect.stringContaining('function shout is registered more than once')]);
  });

  it('does not fault one module loaded once (no duplicate with itself across registries)', async () => {
    const a = await loadFunctionRegistry([fixture('duplicate_functions.mjs')], FIXTURES);
    expect(a.duplicates.size).toBe(0);
    expect(a.functions.has('shout')).toBe(true);
  });

  it('records modules that cannot be imported with the error message, without stack or absolute path', async () => {
    const missing = path.join(FIXTURES, 'no_such_module.mjs');
    const registry = await loadFunctionRegistry([fixture('broken_module.mjs'), missing, fixture('text_functions.mjs')], FIXTURES);
    expect(registry.catalog.importFaults).toEqual([
      { module: 'broken_module.mjs', message: 'the scoring model file is missing' },
      { module: 'no_such_module.mjs', message: expect.stringContaining('no_such_module.mjs') },
    ]);
    expect(registry.catalog.importFaults[1]!.message).not.toContain(FIXTURES);
    expect(registry.catalog.importFaults.every((f) => !f.message.includes('\n'))).toBe(true);
    // The other modules still register their functions.
    expect(registry.functions.has('shout')).toBe(true);
  });

  it('faults a default export that is not an object, and a name exported twice by one module', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-functions-'));
    writeFileSync(path.join(dir, 'fn_default.mjs'), 'export default function () { return 1; }\n');
    writeFileSync(path.join(dir, 'twice.mjs'), "export const a = { output: 'Text', run: () => 'x' };\nexport default { a: { output: 'Text', run: () => 'y' } };\n");
    writeFileSync(path.join(dir, 'same.mjs'), "export const b = { output: 'Text', run: () => 'x' };\nexport default { b };\n");
    const registry = await loadFunctionRegistry([path.join(dir, 'fn_default.mjs'), path.join(dir, 'twice.mjs'), path.join(dir, 'same.mjs')], dir);
    expect(registry.catalog.importFaults).toEqual([{ module: 'fn_default.mjs', message: 'its default export is not an object of functions' }]);
    expect(registry.catalog.entries.get('a')!.fault).toContain('registers it twice');
    expect(registry.functions.has('b')).toBe(true);
  });

  it('labels modules relative to the working folder when inside it', () => {
    expect(moduleLabel('/a/b/c.mjs', '/a')).toBe('b/c.mjs');
    expect(moduleLabel('/x/c.mjs', '/a')).toBe('/x/c.mjs');
  });
});
