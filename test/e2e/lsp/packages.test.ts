// Packages over real stdio: dependencies read from the package store (MTHDS_PACKAGES_DIR) and the
// lock file beside the manifest, both checked with the tree the editor has open.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspClient, startClient, tempWorkspace, textAt, uriOf } from './harness.js';
import { appBundle, appManifest, manifestText, SCORING_BUNDLE } from '../../helpers/packages.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const MANIFEST = appManifest('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }');
const BUNDLE = appBundle('lib->scoring.internal_helper', 'lib->scoring.Score');
const SCORING = SCORING_BUNDLE;
const SCORING_MANIFEST = manifestText('scoring', 'github.com/acme/scoring', '1.2.0', '\n[exports.scoring]\npipes = ["compute"]\n');

describe('language server: packages', () => {
  it('resolves references into an installed dependency and reports what its exports keep private', async () => {
    const ws = tempWorkspace({
      'app/METHODS.toml': MANIFEST,
      'app/main.mthds': BUNDLE,
      'store/github.com/acme/scoring/1.2.0/METHODS.toml': SCORING_MANIFEST,
      'store/github.com/acme/scoring/1.2.0/scoring.mthds': SCORING,
    });
    client = await startClient({ folders: [path.join(ws, 'app')], env: { MTHDS_PACKAGES_DIR: path.join(ws, 'store') } });
    const uri = uriOf(path.join(ws, 'app/main.mthds'));
    client.open(uri, BUNDLE);
    const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, 0);
    expect(diagnostics.map((d) => d.code)).toEqual(['method.pipe_not_exported']);
    expect(textAt(BUNDLE, diagnostics[0]!.range)).toBe('lib->scoring.internal_helper');
    // A typo in the dependency's concept is unresolved, with the dependency's code as the fix.
    const after = client.published.length;
    client.replace(uri, 'lib->scoring.Score', 'lib->scoring.Scor');
    const next = await client.nextDiagnostics(uri, (d) => d.some((x) => x.code === 'method.concept_unresolved'), after);
    const unresolved = next.find((d) => d.code === 'method.concept_unresolved')!;
    expect(unresolved.data).toMatchObject({ params: { suggestions: ['lib->scoring.Score'] } });
  });

  it('reports a dependency that is not installed on the manifest', async () => {
    const ws = tempWorkspace({ 'app/METHODS.toml': MANIFEST, 'app/main.mthds': BUNDLE, 'store/.keep': '' });
    client = await startClient({ folders: [path.join(ws, 'app')], env: { MTHDS_PACKAGES_DIR: path.join(ws, 'store') } });
    const manifestUri = uriOf(path.join(ws, 'app/METHODS.toml'));
    const diagnostics = await client.nextDiagnostics(manifestUri, (d) => d.length > 0, 0);
    const missing = diagnostics.find((d) => d.code === 'method.dependency_missing')!;
    expect(missing.data).toMatchObject({ params: { kind: 'package', name: 'github.com/acme/scoring', reason: 'not_found' } });
    expect(textAt(MANIFEST, missing.range)).toBe('lib');
  });

  it('checks the lock file beside the manifest, from disk and as an open buffer', async () => {
    const lock = `["github.com/acme/scoring"]\nversion = "1.0"\nhash = "sha256:${'a'.repeat(64)}"\nsource = "https://github.com/acme/scoring.git"\n`;
    const ws = tempWorkspace({
      'app/METHODS.toml': MANIFEST,
      'app/main.mthds': BUNDLE.replace('internal_helper', 'compute'),
      'app/methods.lock': lock,
      'store/github.com/acme/scoring/1.2.0/scoring.mthds': SCORING,
    });
    client = await startClient({ folders: [path.join(ws, 'app')], env: { MTHDS_PACKAGES_DIR: path.join(ws, 'store') } });
    const lockUri = uriOf(path.join(ws, 'app/methods.lock'));
    const diagnostics = await client.nextDiagnostics(lockUri, (d) => d.length > 0, 0);
    const invalid = diagnostics.find((d) => d.code === 'method.package_invalid')!;
    expect(invalid.data).toMatchObject({ params: { reason: 'lock_invalid', path: 'github.com/acme/scoring.version' } });
    expect(textAt(readFileSync(path.join(ws, 'app/methods.lock'), 'utf8'), invalid.range)).toBe('"1.0"');
    // Fixed in the editor: the diagnostics go away.
    client.open(lockUri, lock);
    const after = client.published.length;
    client.replace(lockUri, '"1.0"', '"1.0.0"');
    expect(await client.nextDiagnostics(lockUri, (d) => d.length === 0, after)).toEqual([]);
  });

  it('takes the package store from the settings (packages.dir, relative to the workspace folder)', async () => {
    const ws = tempWorkspace({
      'app/METHODS.toml': MANIFEST,
      'app/main.mthds': BUNDLE,
      'app/store/github.com/acme/scoring/1.2.0/METHODS.toml': SCORING_MANIFEST,
      'app/store/github.com/acme/scoring/1.2.0/scoring.mthds': SCORING,
    });
    client = await startClient({ folders: [path.join(ws, 'app')], env: { MTHDS_PACKAGES_DIR: path.join(ws, 'nowhere') }, initializationOptions: { packages: { dir: 'store' } } });
    const uri = uriOf(path.join(ws, 'app/main.mthds'));
    client.open(uri, BUNDLE);
    const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, 0);
    expect(diagnostics.map((d) => d.code)).toEqual(['method.pipe_not_exported']);
  });
});
