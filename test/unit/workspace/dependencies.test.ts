// Dependency packages loaded from disk: local paths and the package store, Minimum Version
// Selection, cycles, unparseable dependency files, cross-package resolution and visibility.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTree, type Finding } from '../../../server/src/check/index.js';
import { loadTree, planPackage } from '../../../server/src/workspace/load.js';
import { resolveDependencies, storeFolder, type DependencyOptions } from '../../../server/src/workspace/dependencies.js';
import { satisfiesConstraint, selectMinimumVersion } from '../../../server/src/language/versions.js';
import { appManifest, manifestText, SCORING_BUNDLE as SCORING } from '../../helpers/packages.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

const manifest = manifestText;

function loadWithDependencies(dir: string, options: Omit<DependencyOptions, 'fs'>): ReturnType<typeof loadTree> {
  const loaded = loadTree(nodeFileSystem, planPackage(nodeFileSystem, dir));
  loaded.findings.push(...resolveDependencies(loaded.tree, { fs: nodeFileSystem, ...options }));
  return loaded;
}
const SCORING_BUNDLE = SCORING;

/** A workspace with a package store; returns the app folder and the store. */
function setup(appManifest: string, appBundle: string, store: Record<string, string> = {}, extra: Record<string, string> = {}): { app: string; store: string; bundle: string; manifest: string } {
  const base = mkdtempSync(path.join(tmpdir(), 'mthds-deps-'));
  dirs.push(base);
  const app = path.join(base, 'app');
  write(app, { 'METHODS.toml': appManifest, 'main.mthds': appBundle });
  write(path.join(base, 'store'), store);
  write(base, extra);
  return { app, store: path.join(base, 'store'), bundle: path.join(app, 'main.mthds'), manifest: path.join(app, 'METHODS.toml') };
}

function checkApp(app: string, store: string): { findings: Finding[]; text: (f: Finding) => string } {
  const { tree, findings } = loadWithDependencies(app, { packagesDir: store });
  const all = [...findings, ...checkTree(tree)];
  const texts = new Map<string, string>([...tree.bundles.map((b) => [b.file, b.doc.text] as const), ...(tree.manifest ? [[tree.manifest.file, tree.manifest.doc.text] as const] : [])]);
  return { findings: all, text: (f) => texts.get(f.file)!.slice(f.range.start, f.range.end) };
}

const APP = (ref: string, output = 'scoring.Score'): string => `domain = "app"
main_pipe = "run"
[pipe.run]
type = "PipeSequence"
description = "Runs"
inputs = { text = "Text" }
output = "${output.includes('->') || !output.includes('.') ? output : `lib->${output}`}"
steps = [{ pipe = "${ref}", result = "score" }]
`;

const APP_MANIFEST = appManifest;

describe('versions', () => {
  it('understands the manifest constraint grammar', () => {
    expect(satisfiesConstraint('1.2.0', '^1.0.0')).toBe(true);
    expect(satisfiesConstraint('2.0.0', '^1.0.0')).toBe(false);
    expect(satisfiesConstraint('1.4.0', '>=1.2, <2')).toBe(true);
    expect(satisfiesConstraint('1.3.0', '>=1.2, <2, !=1.3.0')).toBe(false);
    expect(satisfiesConstraint('1.0.7', '1.0.*')).toBe(true);
    expect(satisfiesConstraint('1.0.7', '1.0')).toBe(true);
    expect(satisfiesConstraint('1.1.0', '1.0')).toBe(false);
    expect(satisfiesConstraint('1.0.0', '==1.0.0')).toBe(true);
  });
  it('selects the minimum version satisfying every constraint', () => {
    expect(selectMinimumVersion(['1.0.0', '1.2.0', '1.5.0', '2.0.0'], ['^1.0.0', '>=1.1'])).toBe('1.2.0');
    expect(selectMinimumVersion(['1.0.0', '2.0.0'], ['^1.0.0', '>=2'])).toBeUndefined();
  });
  it('keeps store lookups inside the store', () => {
    expect(storeFolder(nodeFileSystem, '/s', 'github.com/a/b')).toBe(path.join('/s', 'github.com', 'a', 'b'));
    expect(storeFolder(nodeFileSystem, '/s', 'github.com/../../etc')).toBeUndefined();
    expect(storeFolder(nodeFileSystem, '/s', 'github.com//b')).toBeUndefined();
    expect(storeFolder(nodeFileSystem, '/s', 'github.com\\a')).toBeUndefined();
  });
});

describe('dependency packages', () => {
  const scoringStore = (version: string, extra = ''): Record<string, string> => ({
    [`github.com/acme/scoring/${version}/METHODS.toml`]: manifest('scoring', 'github.com/acme/scoring', version, `[exports.scoring]\npipes = ["compute"]\n${extra}`),
    [`github.com/acme/scoring/${version}/scoring.mthds`]: SCORING_BUNDLE,
  });

  it('resolves alias references into an installed package, minimum satisfying version', () => {
    const s = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.1.0" }'), APP('lib->scoring.compute'), { ...scoringStore('1.0.0'), ...scoringStore('1.2.0'), ...scoringStore('1.3.0') });
    const { tree } = loadWithDependencies(s.app, { packagesDir: s.store });
    expect(tree.dependencies?.get('lib')?.version).toBe('1.2.0');
    expect(checkApp(s.app, s.store).findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('types references through the dependency: a wrong concept is a mismatch, a missing one unresolved', () => {
    const s = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.compute', 'Image'), scoringStore('1.0.0'));
    const { findings } = checkApp(s.app, s.store);
    expect(findings.map((f) => f.code)).toContain('method.output_concept_mismatch');

    const t = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.compute', 'lib->scoring.Scroe'), scoringStore('1.0.0'));
    const r = checkApp(t.app, t.store);
    const unresolved = r.findings.find((f) => f.code === 'method.concept_unresolved')!;
    expect(r.text(unresolved)).toBe('lib->scoring.Scroe');
    expect(unresolved.params['suggestions']).toEqual(['lib->scoring.Score']);
    // Without the typo: clean.
    const u = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.compute'), scoringStore('1.0.0'));
    expect(checkApp(u.app, u.store).findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('refuses a call to a pipe the dependency does not export (method.pipe_not_exported)', () => {
    const s = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.internal_helper', 'Text'), scoringStore('1.0.0'));
    const r = checkApp(s.app, s.store);
    const f = r.findings.find((x) => x.code === 'method.pipe_not_exported')!;
    expect(f.params).toEqual({ pipe: 'scoring.internal_helper', package: 'github.com/acme/scoring' });
    expect(r.text(f)).toBe('lib->scoring.internal_helper');
    expect(f.file).toBe(s.bundle);
  });

  it('reports a package that is not installed, and one with no matching version', () => {
    const s = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.compute'), {});
    const r = checkApp(s.app, s.store);
    const missing = r.findings.filter((f) => f.code === 'method.dependency_missing');
    expect(missing).toHaveLength(1);
    expect(missing[0]!.params).toEqual({ kind: 'package', name: 'github.com/acme/scoring', reason: 'not_found' });
    expect(missing[0]!.file).toBe(s.manifest);
    expect(r.text(missing[0]!)).toBe('lib');
    // Its references are not typed against nothing: no cascade of unresolved findings.
    expect(r.findings.filter((f) => f.code === 'method.concept_unresolved' || f.code === 'method.pipe_unresolved')).toEqual([]);

    const t = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^2.0.0" }'), APP('lib->scoring.compute'), { ...scoringStore('1.0.0'), ...scoringStore('1.5.0') });
    const q = checkApp(t.app, t.store);
    const nomatch = q.findings.find((f) => f.code === 'method.dependency_missing')!;
    expect(nomatch.params).toEqual({ kind: 'package', name: 'github.com/acme/scoring', reason: 'no_matching_version' });
    expect(q.text(nomatch)).toBe('"^2.0.0"');
    expect(nomatch.message).toContain('1.0.0, 1.5.0');
  });

  it('selects one version for a package two dependencies constrain (diamond), or reports none fits', () => {
    const shared = (v: string): Record<string, string> => ({
      [`github.com/acme/shared/${v}/METHODS.toml`]: manifest('shared', 'github.com/acme/shared', v),
      [`github.com/acme/shared/${v}/shared.mthds`]: 'domain = "shared"\n[concept.Thing]\ndescription = "t"\n',
    });
    const withDep = (constraint: string): Record<string, string> => scoringStore('1.0.0', `[dependencies]\nsh = { address = "github.com/acme/shared", version = "${constraint}" }\n`);
    const ok = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }\nsh = { address = "github.com/acme/shared", version = ">=1.0.0" }'), APP('lib->scoring.compute'), { ...withDep('^1.1.0'), ...shared('1.0.0'), ...shared('1.1.0'), ...shared('1.4.0') });
    const { tree } = loadWithDependencies(ok.app, { packagesDir: ok.store });
    expect(tree.dependencies?.get('sh')?.version).toBe('1.1.0');

    const bad = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }\nsh = { address = "github.com/acme/shared", version = "<1.1.0" }'), APP('lib->scoring.compute'), { ...withDep('^1.1.0'), ...shared('1.0.0'), ...shared('1.1.0') });
    const r = checkApp(bad.app, bad.store);
    expect(r.findings.filter((f) => f.code === 'method.dependency_missing').map((f) => f.params['reason'])).toEqual(['no_matching_version']);
  });

  it('reports a dependency cycle (method.dependency_missing, reason cycle)', () => {
    const store = {
      ...scoringStore('1.0.0', '[dependencies]\nback = { address = "github.com/acme/app", version = "^1.0.0" }\n'),
      'github.com/acme/app/1.0.0/METHODS.toml': manifest('app', 'github.com/acme/app', '1.0.0'),
      'github.com/acme/app/1.0.0/app.mthds': 'domain = "app"\n',
    };
    const s = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.compute'), store);
    const r = checkApp(s.app, s.store);
    const f = r.findings.find((x) => x.code === 'method.dependency_missing')!;
    expect(f.params).toEqual({ kind: 'package', name: 'github.com/acme/app', reason: 'cycle' });
    expect(r.text(f)).toBe('lib');
  });

  it('loads a local path dependency; a missing folder is not_found on the path', () => {
    const s = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0", path = "../scoring" }'), APP('lib->scoring.compute'), {}, {
      'scoring/METHODS.toml': manifest('scoring', 'github.com/acme/scoring', '1.0.0', '[exports.scoring]\npipes = ["compute"]\n'),
      'scoring/scoring.mthds': SCORING_BUNDLE,
    });
    expect(checkApp(s.app, s.store).findings.filter((f) => f.severity === 'error')).toEqual([]);

    const t = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0", path = "../nowhere" }'), APP('lib->scoring.compute'));
    const r = checkApp(t.app, t.store);
    const f = r.findings.find((x) => x.code === 'method.dependency_missing')!;
    expect(f.params).toEqual({ kind: 'package', name: 'lib', reason: 'not_found' });
    expect(r.text(f)).toBe('"../nowhere"');
  });

  it('reports a dependency file that does not parse (method.dependency_invalid)', () => {
    const store = scoringStore('1.0.0');
    store['github.com/acme/scoring/1.0.0/broken.mthds'] = 'domain = "scoring"\n[pipe.x\n';
    const s = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.compute'), store);
    const r = checkApp(s.app, s.store);
    const f = r.findings.find((x) => x.code === 'method.dependency_invalid')!;
    expect(f.params['package']).toBe('github.com/acme/scoring');
    expect(String(f.params['finding'])).toMatch(/^broken\.mthds: /);
    expect(f.file).toBe(s.manifest);
    expect(r.text(f)).toBe('lib');
    // The parseable files of the package still serve.
    expect(r.findings.filter((x) => x.code === 'method.pipe_unresolved')).toEqual([]);
    // A clean package: no such finding.
    const t = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.compute'), scoringStore('1.0.0'));
    expect(checkApp(t.app, t.store).findings.map((x) => x.code)).not.toContain('method.dependency_invalid');
  });

  it('a bare reference found in several dependencies is ambiguous; in one, the fix qualifies it', () => {
    const other = {
      'github.com/acme/grading/1.0.0/METHODS.toml': manifest('grading', 'github.com/acme/grading', '1.0.0'),
      'github.com/acme/grading/1.0.0/grading.mthds': 'domain = "grading"\n[concept.Score]\ndescription = "Another score"\n',
    };
    const deps = 'lib = { address = "github.com/acme/scoring", version = "^1.0.0" }\ngr = { address = "github.com/acme/grading", version = "1.0.0" }';
    const s = setup(APP_MANIFEST(deps), APP('lib->scoring.compute').replace('output = "lib->scoring.Score"', 'output = "Score"'), { ...scoringStore('1.0.0'), ...other });
    const r = checkApp(s.app, s.store);
    const f = r.findings.find((x) => x.code === 'method.ref_ambiguous')!;
    expect(f.params).toEqual({ ref: 'Score', candidates: ['lib->scoring.Score', 'gr->grading.Score'] });
    expect(r.text(f)).toBe('Score');
    expect(f.alternatives?.map((a) => a.edits[0]!.newText)).toEqual(['lib->scoring.Score', 'gr->grading.Score']);

    const t = setup(APP_MANIFEST('lib = { address = "github.com/acme/scoring", version = "^1.0.0" }'), APP('lib->scoring.compute').replace('output = "lib->scoring.Score"', 'output = "Score"'), scoringStore('1.0.0'));
    const q = checkApp(t.app, t.store);
    expect(q.findings.map((x) => x.code)).not.toContain('method.ref_ambiguous');
    const u = q.findings.find((x) => x.code === 'method.concept_unresolved')!;
    expect(u.params['suggestions']).toEqual(['lib->scoring.Score']);
    expect(u.fix?.edits[0]!.newText).toBe('lib->scoring.Score');
  });

  it('resolves address-qualified references from the store; reports an address not installed', () => {
    const bundle = APP('github.com/acme/scoring->scoring.compute', 'github.com/acme/scoring->scoring.Score');
    const s = setup(manifest('app', 'github.com/acme/app', '1.0.0', 'main_pipe = "run"\n[exports.app]\npipes = ["run"]\n'), bundle, scoringStore('1.0.0'));
    expect(checkApp(s.app, s.store).findings.filter((f) => f.severity === 'error')).toEqual([]);
    const t = setup(manifest('app', 'github.com/acme/app', '1.0.0', 'main_pipe = "run"\n[exports.app]\npipes = ["run"]\n'), bundle, {});
    const r = checkApp(t.app, t.store);
    const missing = r.findings.filter((f) => f.code === 'method.dependency_missing');
    expect(missing).toHaveLength(1);
    expect(missing[0]!.params).toEqual({ kind: 'package', name: 'github.com/acme/scoring', reason: 'not_found' });
    expect(r.text(missing[0]!)).toBe('github.com/acme/scoring');
  });
});
