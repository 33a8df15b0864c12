// The editor session's state (workspace/session.ts): which tree a file is in, buffers over disk,
// disk changes, and caching of parsed files.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../server/src/workspace/session.js';
import { runCounted } from '../../helpers/runCounted.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';
const USES = 'domain = "d"\ndescription = "Uses"\n\n[pipe.go]\ntype = "PipeCompose"\ndescription = "Go"\ninputs = { text = "Text" }\noutput = "Note"\ntemplate = "$text"\n';
const DECLARES = 'domain = "d"\ndescription = "Declares"\n\n[concept.Note]\ndescription = "A note"\n';

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-session-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function codesOf(session: Session, file: string): string[] {
  return (session.currentCheck(file).findings.get(file) ?? []).map((f) => f.code);
}

describe('Session trees', () => {
  it('puts a file in the package of the nearest METHODS.toml, nested packages apart', () => {
    const ws = workspace({ 'pkg/METHODS.toml': MANIFEST, 'pkg/a/uses.mthds': USES, 'pkg/declares.mthds': DECLARES, 'pkg/inner/METHODS.toml': MANIFEST, 'pkg/inner/x.mthds': USES });
    const session = new Session({ fs: nodeFileSystem, folders: [ws] });
    expect(session.treeOf(path.join(ws, 'pkg/a/uses.mthds'))).toMatchObject({ kind: 'package', root: path.join(ws, 'pkg') });
    expect(session.treeOf(path.join(ws, 'pkg/inner/x.mthds'))).toMatchObject({ kind: 'package', root: path.join(ws, 'pkg/inner') });
    const members = session.members(session.treeOf(path.join(ws, 'pkg/a/uses.mthds')));
    expect(members.bundles.map((b) => path.relative(ws, b)).sort()).toEqual(['pkg/a/uses.mthds', 'pkg/declares.mthds']);
    expect(members.manifest).toBe(path.join(ws, 'pkg/METHODS.toml'));
    expect(codesOf(session, path.join(ws, 'pkg/a/uses.mthds'))).toEqual([]);
    expect(codesOf(session, path.join(ws, 'pkg/inner/x.mthds'))).toContain('method.concept_unresolved');
  });

  it('loads the bundles of one folder together when there is no package, and stops at the workspace folder', () => {
    const ws = workspace({ 'METHODS.toml': MANIFEST, 'ws/lib/uses.mthds': USES, 'ws/lib/declares.mthds': DECLARES, 'ws/lib/sub/alone.mthds': USES });
    const folder = path.join(ws, 'ws');
    const session = new Session({ fs: nodeFileSystem, folders: [folder] });
    // The manifest above the workspace folder is not looked at.
    expect(session.treeOf(path.join(folder, 'lib/uses.mthds'))).toMatchObject({ kind: 'folder', root: path.join(folder, 'lib') });
    expect(codesOf(session, path.join(folder, 'lib/uses.mthds'))).toEqual([]);
    expect(codesOf(session, path.join(folder, 'lib/sub/alone.mthds'))).toContain('method.concept_unresolved');
    expect(session.scanWorkspace().map((t) => t.kind)).toEqual(['folder', 'folder']);
  });

  it('checks a document that is no file alone', () => {
    const session = new Session({ fs: nodeFileSystem });
    const id = session.setDocument('untitled:1', USES);
    expect(id.kind).toBe('single');
    expect(codesOf(session, 'untitled:1')).toContain('method.concept_unresolved');
    expect(session.closeDocument('untitled:1').dropped).toBe(true);
  });
});

describe('Session documents', () => {
  it('lets buffers win over disk, re-parses only what changed, and reads disk again on close', () => {
    const ws = workspace({ 'lib/uses.mthds': USES, 'lib/declares.mthds': DECLARES });
    const session = new Session({ fs: nodeFileSystem, folders: [ws] });
    const uses = path.join(ws, 'lib/uses.mthds');
    const declares = path.join(ws, 'lib/declares.mthds');
    const first = session.currentCheck(uses);
    session.setDocument(declares, DECLARES.replace('Note', 'Memo'));
    expect(session.isDirty(first.id.key)).toBe(true);
    const second = session.currentCheck(uses);
    expect(second.findings.get(uses)!.map((f) => f.code)).toContain('method.concept_unresolved');
    // The bundle of the untouched file is the same object: it was not parsed again.
    const bundleOf = (c: typeof first, file: string) => c.tree!.bundles.find((b) => b.file === file);
    expect(bundleOf(second, uses)).toBe(bundleOf(first, uses));
    expect(bundleOf(second, declares)).not.toBe(bundleOf(first, declares));
    session.closeDocument(declares);
    expect(session.currentCheck(uses).findings.get(uses)).toEqual([]);
  });

  it('follows disk changes it is told about, and validates by time when it is not', () => {
    const ws = workspace({ 'lib/uses.mthds': USES, 'lib/declares.mthds': DECLARES });
    const uses = path.join(ws, 'lib/uses.mthds');
    const declares = path.join(ws, 'lib/declares.mthds');
    const told = new Session({ fs: nodeFileSystem, folders: [ws] });
    told.currentCheck(uses);
    writeFileSync(declares, DECLARES.replace('Note', 'Memo'));
    told.diskChanged(declares, 'changed');
    expect(codesOf(told, uses)).toContain('method.concept_unresolved');

    const untold = new Session({ fs: nodeFileSystem, folders: [ws], validateDisk: true });
    expect(codesOf(untold, uses)).toContain('method.concept_unresolved');
    writeFileSync(declares, `${DECLARES}\n`);
    untold.markAllDirty();
    expect(codesOf(untold, uses)).toEqual([]);
  });

  it('reports unreadable bytes on disk as located findings', () => {
    const ws = workspace({ 'lib/bad.mthds': 'domain = "d"\u0000\n' });
    const session = new Session({ fs: nodeFileSystem, folders: [ws] });
    const bad = path.join(ws, 'lib/bad.mthds');
    const findings = session.currentCheck(bad).findings.get(bad)!;
    expect(findings.find((f) => f.code === 'method.syntax' && f.range.start === 12)).toBeDefined();
  });
});

describe('Session dependency packages', () => {
  const APP_MANIFEST = `${MANIFEST}\n[dependencies]\nlib = { address = "github.com/example/lib", version = "^1.0.0", path = "../lib" }\n`;
  const APP = 'domain = "d"\ndescription = "Uses"\n\n[pipe.go]\ntype = "PipeCompose"\ndescription = "Go"\ninputs = { text = "Text" }\noutput = "lib->lib.Note"\ntemplate = "$text"\n';

  it('reads a dependency once, and again when the watcher reports a change below it', () => {
    const ws = workspace({ 'app/METHODS.toml': APP_MANIFEST, 'app/go.mthds': APP, 'lib/lib.mthds': 'domain = "lib"\n[concept.Nothing]\ndescription = "n"\n' });
    const session = new Session({ fs: nodeFileSystem, folders: [path.join(ws, 'app')] });
    const file = path.join(ws, 'app/go.mthds');
    expect(codesOf(session, file)).toEqual(['method.concept_unresolved']);
    writeFileSync(path.join(ws, 'lib/lib.mthds'), 'domain = "lib"\n[concept.Note]\ndescription = "n"\n');
    session.setDocument(file, APP);
    expect(codesOf(session, file)).toEqual(['method.concept_unresolved']);
    session.diskChanged(path.join(ws, 'lib/lib.mthds'), 'changed');
    expect(codesOf(session, file)).toEqual([]);
  });

  it('resolves dependencies once while typing, not at every check', () => {
    const ws = workspace({ 'app/METHODS.toml': APP_MANIFEST, 'app/go.mthds': APP, 'lib/lib.mthds': 'domain = "lib"\n[concept.Note]\ndescription = "n"\n' });
    const session = new Session({ fs: nodeFileSystem, folders: [path.join(ws, 'app')] });
    const file = path.join(ws, 'app/go.mthds');
    expect(codesOf(session, file)).toEqual([]);
    const first = session.currentCheck(file).tree!.dependencies;
    session.setDocument(file, APP.replace('"Go"', '"Go on"'));
    expect(codesOf(session, file)).toEqual([]);
    expect(session.currentCheck(file).tree!.dependencies).toBe(first);
    // A new alias in the manifest resolves again.
    session.setDocument(path.join(ws, 'app/METHODS.toml'), APP_MANIFEST.replace('lib = {', 'other = { address = "github.com/example/other", version = "1.0.0" }\nlib = {'));
    expect(session.currentCheck(file).tree!.dependencies).not.toBe(first);
  });

  it('without a watcher, notices a changed dependency by its files', () => {
    const ws = workspace({ 'app/METHODS.toml': APP_MANIFEST, 'app/go.mthds': APP, 'lib/lib.mthds': 'domain = "lib"\n[concept.Nothing]\ndescription = "n"\n' });
    const session = new Session({ fs: nodeFileSystem, folders: [path.join(ws, 'app')], validateDisk: true, dependencyRecheckMs: 0 });
    const file = path.join(ws, 'app/go.mthds');
    expect(codesOf(session, file)).toEqual(['method.concept_unresolved']);
    writeFileSync(path.join(ws, 'lib/lib.mthds'), 'domain = "lib"\n[concept.Note]\ndescription = "a note, with more words"\n');
    session.setDocument(file, APP);
    expect(codesOf(session, file)).toEqual([]);
  });
});

describe('Session checks after an edit', () => {
  it('updates the tree from the previous check and tells which files have other findings', () => {
    const files: Record<string, string> = { 'pkg/METHODS.toml': MANIFEST, 'pkg/declares.mthds': DECLARES };
    for (let i = 0; i < 30; i++) files[`pkg/uses${i}.mthds`] = USES.replace('[pipe.go]', `[pipe.go${i}]`);
    const ws = workspace(files);
    const session = new Session({ fs: nodeFileSystem, folders: [ws] });
    const edited = path.join(ws, 'pkg/uses3.mthds');
    const first = session.currentCheck(edited);
    expect(first.changed).toBeUndefined();
    const other = first.tree!.bundles.find((b) => b.file === path.join(ws, 'pkg/uses7.mthds'))!;
    // Typing in a description: no file's findings change, the other bundles are the same objects.
    const id = session.setDocument(edited, files['pkg/uses3.mthds']!.replace('description = "Go"', 'description = "Gox"'));
    const typed = session.check(id);
    expect([...typed.changed!]).toEqual([]);
    expect(typed.tree!.bundles).toContain(other);
    expect(typed.tree!.bundles.find((b) => b.file === edited)!.doc.text).toContain('Gox');
    // Breaking a reference: that file alone has other findings, the same a fresh session finds.
    const broken = files['pkg/uses3.mthds']!.replace('output = "Note"', 'output = "Nope"');
    session.setDocument(edited, broken);
    const after = session.check(id);
    expect([...after.changed!]).toEqual([edited]);
    const fresh = new Session({ fs: nodeFileSystem, folders: [ws] });
    fresh.setDocument(edited, broken);
    const expected = fresh.check(id);
    expect([...after.findings].sort()).toEqual([...expected.findings].sort());
    expect(after.findings.get(edited)!.map((f) => f.code)).toEqual(['method.concept_unresolved']);
    // A change of the same file on disk meanwhile is the file's own: closing the buffer reads the disk again.
    session.closeDocument(edited);
    const closed = session.check(id);
    expect([...closed.changed!]).toEqual([edited]);
    expect(closed.findings.get(edited)).toEqual([]);
  });

  it('reads and compares the files changed on disk in steps of one file each', () => {
    const files: Record<string, string> = { 'pkg/METHODS.toml': MANIFEST, 'pkg/declares.mthds': DECLARES };
    for (let i = 0; i < 30; i++) files[`pkg/uses${i}.mthds`] = USES.replace('[pipe.go]', `[pipe.go${i}]`);
    const ws = workspace(files);
    const session = new Session({ fs: nodeFileSystem, folders: [ws] });
    const id = session.treeOf(path.join(ws, 'pkg/uses0.mthds'));
    session.check(id);
    // 20 files changed at once (a checkout): the update parses each and compares its names in a step
    // of its own, so that a check in slices yields between any two of them.
    for (let i = 0; i < 20; i++) {
      const file = path.join(ws, `pkg/uses${i}.mthds`);
      writeFileSync(file, files[`pkg/uses${i}.mthds`]!.replace('description = "Go"', 'description = "Changed"'));
      session.diskChanged(file, 'changed');
    }
    const { pauses: count, value: done } = runCounted(session.checkSteps(id));
    expect(done.changed).toBeDefined();
    expect(done.tree!.bundles.filter((b) => b.doc.text.includes('Changed'))).toHaveLength(20);
    expect(count).toBeGreaterThanOrEqual(40);
  });

  it('parses a file changed on disk from its earlier version: the unchanged statements are shared', () => {
    const ws = workspace({ 'pkg/METHODS.toml': MANIFEST, 'pkg/declares.mthds': DECLARES, 'pkg/uses.mthds': USES });
    const session = new Session({ fs: nodeFileSystem, folders: [ws] });
    const file = path.join(ws, 'pkg/uses.mthds');
    const id = session.treeOf(file);
    const before = session.check(id).tree!.bundles.find((b) => b.file === file)!.doc;
    writeFileSync(file, USES.replace('description = "Go"', 'description = "Gone"'));
    session.diskChanged(file, 'changed');
    const after = session.check(id).tree!.bundles.find((b) => b.file === file)!.doc;
    expect(after.text).toContain('"Gone"');
    const shared = after.statements.filter((st) => before.statements.includes(st));
    expect(shared.map((st) => USES.slice(st.range.start, st.range.end))).toEqual(['domain = "d"', 'description = "Uses"', 'type = "PipeCompose"']);
  });

  it('reads the whole tree again when a file comes', () => {
    const ws = workspace({ 'pkg/METHODS.toml': MANIFEST, 'pkg/uses.mthds': USES });
    const session = new Session({ fs: nodeFileSystem, folders: [ws] });
    const uses = path.join(ws, 'pkg/uses.mthds');
    expect(codesOf(session, uses)).toContain('method.concept_unresolved');
    writeFileSync(path.join(ws, 'pkg/declares.mthds'), DECLARES);
    session.diskChanged(path.join(ws, 'pkg/declares.mthds'), 'created');
    const check = session.currentCheck(uses);
    expect(check.changed).toBeUndefined();
    expect(check.findings.get(uses)).toEqual([]);
    expect(check.findings.has(path.join(ws, 'pkg/declares.mthds'))).toBe(true);
  });
});
