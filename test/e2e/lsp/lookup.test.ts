// The language server over stdio: library folders and a structures file from the settings, sibling
// packages of the workspace, the watchers of the folders packages are looked up in, and a package
// appearing there resolved again without a restart.

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspClient, REPO, startClient, tempWorkspace, uriOf } from './harness.js';

const DEPS = path.join(REPO, 'test/fixtures/dependencies');
const RULES = path.join(REPO, 'test/fixtures/rules');
const APP = readFileSync(path.join(DEPS, 'library/app/main.mthds'), 'utf8');
const APP_MANIFEST = readFileSync(path.join(DEPS, 'library/app/METHODS.toml'), 'utf8');
const HOST = readFileSync(path.join(RULES, 'host/combined.mthds'), 'utf8');

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

function workspace(): string {
  return tempWorkspace({ 'app/METHODS.toml': APP_MANIFEST, 'app/main.mthds': APP, 'home/.keep': '', 'store/.keep': '' });
}

const env = (ws: string): Record<string, string> => ({ HOME: path.join(ws, 'home'), MTHDS_PACKAGES_DIR: path.join(ws, 'store') });

describe('language server: where packages are looked up', () => {
  it('finds a package of a library folder named in the settings (relative to the workspace folder)', async () => {
    const ws = workspace();
    cpSync(path.join(DEPS, 'library/lib'), path.join(ws, 'app/vendor'), { recursive: true });
    client = await startClient({ folders: [path.join(ws, 'app')], env: env(ws), initializationOptions: { packages: { libraries: ['vendor'] } } });
    const uri = uriOf(path.join(ws, 'app/main.mthds'));
    client.open(uri, APP);
    expect(await client.nextDiagnostics(uri, () => true, 0)).toEqual([]);
  });

  it('says where it looked, watches the folders outside the workspace, and resolves a package that appears there', async () => {
    const ws = workspace();
    const lib = path.join(ws, 'lib');
    cpSync(path.join(DEPS, 'library/lib'), lib, { recursive: true });
    const textkit = path.join(lib, 'vendor/textkit');
    const manifest = path.join(textkit, 'METHODS.toml');
    const good = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, good.replace('github.com/acme/tools', 'github.com/acme/elsewhere'));
    client = await startClient({ folders: [path.join(ws, 'app')], env: env(ws), initializationOptions: { packages: { libraries: [lib] } } });
    const uri = uriOf(path.join(ws, 'app/main.mthds'));
    client.open(uri, APP);
    const missing = await client.nextDiagnostics(uri, (d) => d.length > 0, 0);
    expect(missing.map((d) => d.code)).toEqual(['method.dependency_missing']);
    expect(missing[0]!.message).toContain(`the library folders ${lib}`);
    expect(missing[0]!.message).toContain(path.join(ws, 'home', '.mthds', 'methods', 'textkit'));
    const watched = client.registrations.flatMap((r) => (r.registerOptions as { watchers?: Array<{ globPattern: unknown }> } | undefined)?.watchers ?? []).map((w) => JSON.stringify(w.globPattern));
    expect(watched.some((g) => g.includes(uriOf(lib)))).toBe(true);
    expect(watched.some((g) => g.includes(uriOf(path.join(ws, 'home', '.mthds', 'methods'))))).toBe(true);
    const after = client.published.length;
    writeFileSync(manifest, good);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(manifest), type: 2 }] });
    expect(await client.nextDiagnostics(uri, (d) => d.length === 0, after)).toEqual([]);
  });

  it('resolves a sibling package of the workspace folder, and one installed in .mthds/methods once it appears', async () => {
    const ws = workspace();
    cpSync(path.join(DEPS, 'siblings/textkit'), path.join(ws, 'textkit'), { recursive: true });
    client = await startClient({ folders: [ws], env: env(ws) });
    const uri = uriOf(path.join(ws, 'app/main.mthds'));
    client.open(uri, APP);
    expect(await client.nextDiagnostics(uri, () => true, 0)).toEqual([]);
    await client.shutdown();

    const alone = workspace();
    client = await startClient({ folders: [path.join(alone, 'app')], env: env(alone) });
    const app = uriOf(path.join(alone, 'app/main.mthds'));
    client.open(app, APP);
    expect((await client.nextDiagnostics(app, (d) => d.length > 0, 0)).map((d) => d.code)).toEqual(['method.dependency_missing']);
    const installed = path.join(alone, 'app/.mthds/methods/textkit');
    cpSync(path.join(DEPS, 'siblings/textkit'), installed, { recursive: true });
    const after = client.published.length;
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(installed, 'METHODS.toml')), type: 1 }] });
    expect(await client.nextDiagnostics(app, (d) => d.length === 0, after)).toEqual([]);
  });

  it('takes the structures file of the settings', async () => {
    const ws = tempWorkspace({ 'combined.mthds': HOST, 'structures.toml': readFileSync(path.join(RULES, 'host/structures.toml'), 'utf8') });
    client = await startClient({ folders: [ws], initializationOptions: { structures: { file: 'structures.toml' } } });
    const uri = uriOf(path.join(ws, 'combined.mthds'));
    client.open(uri, HOST);
    expect(await client.nextDiagnostics(uri, () => true, 0)).toEqual([]);
  });
});
