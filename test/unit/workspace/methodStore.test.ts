// Installed methods named by a method_ref: address, address@constraint, or package name.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveMethodRef } from '../../../server/src/workspace/methodStore.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const store = mkdtempSync(path.join(tmpdir(), 'mthds-store-'));
afterAll(() => rmSync(store, { recursive: true, force: true }));

function install(address: string, version: string, name: string): void {
  const dir = path.join(store, ...address.split('/'), version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'METHODS.toml'), `[package]\nname = "${name}"\naddress = "${address}"\nversion = "${version}"\ndescription = "d"\n`);
}

install('github.com/acme/legal', '1.0.0', 'legal');
install('github.com/acme/legal', '1.4.0', 'legal');
install('github.com/acme/legal', '2.0.0', 'legal');
install('github.com/other/legal-kit', '0.1.0', 'legal');
install('gitlab.com/team/invoices', '3.1.0', 'invoices');
install('github.com/deep/methods/documents', '1.0.0', 'documents');

describe('method_ref resolution', () => {
  it('an address means its newest installed version; a constraint narrows it', () => {
    expect(resolveMethodRef(nodeFileSystem, store, 'github.com/acme/legal')).toMatchObject({ kind: 'found', version: '2.0.0', address: 'github.com/acme/legal' });
    expect(resolveMethodRef(nodeFileSystem, store, 'github.com/acme/legal@^1.0.0')).toMatchObject({ kind: 'found', version: '1.4.0' });
    expect(resolveMethodRef(nodeFileSystem, store, 'github.com/acme/legal@^3.0.0')).toEqual({ kind: 'not_found' });
    expect(resolveMethodRef(nodeFileSystem, store, 'github.com/deep/methods/documents')).toMatchObject({ kind: 'found', version: '1.0.0' });
  });
  it('a name means the one address whose package carries it', () => {
    expect(resolveMethodRef(nodeFileSystem, store, 'invoices')).toMatchObject({ kind: 'found', address: 'gitlab.com/team/invoices', version: '3.1.0', dir: path.join(store, 'gitlab.com', 'team', 'invoices', '3.1.0') });
    expect(resolveMethodRef(nodeFileSystem, store, 'documents')).toMatchObject({ kind: 'found', address: 'github.com/deep/methods/documents' });
  });
  it('a name several addresses carry is ambiguous; an unknown one is not found', () => {
    expect(resolveMethodRef(nodeFileSystem, store, 'legal')).toEqual({ kind: 'ambiguous', candidates: ['github.com/acme/legal', 'github.com/other/legal-kit'] });
    expect(resolveMethodRef(nodeFileSystem, store, 'nothing')).toEqual({ kind: 'not_found' });
    expect(resolveMethodRef(nodeFileSystem, store, 'github.com/acme/missing')).toEqual({ kind: 'not_found' });
  });
  it('never leaves the store', () => {
    expect(resolveMethodRef(nodeFileSystem, store, 'github.com/../../etc')).toEqual({ kind: 'not_found' });
    expect(resolveMethodRef(nodeFileSystem, store, '../acme/legal')).toEqual({ kind: 'not_found' });
  });
});
