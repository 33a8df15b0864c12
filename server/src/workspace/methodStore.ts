// Installed methods: a `method_ref` names a package of the package store instead of sending its
// files. Three forms: an address (`github.com/acme/legal`), an address with a version constraint
// (`github.com/acme/legal@^1.2`), or a package name (`legal`, the `[package] name` of its manifest).
// The newest installed version that fits is used. A name that several addresses carry is ambiguous;
// a reference that names nothing installed is not found.

import path from 'node:path';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { newestVersion, satisfiesConstraint } from '../language/versions.js';
import { readManifest, storeFolder } from './dependencies.js';
import { isPlainFile, subfolders } from './discover.js';
import type { FileSystem } from './fileSystem.js';

export type MethodRefResolution =
  | { kind: 'found'; dir: string; address: string; version: string }
  | { kind: 'not_found' }
  | { kind: 'ambiguous'; candidates: string[] };

/** How deep below the store an address may go (`host/org/repo/sub/...`). */
const MAX_ADDRESS_DEPTH = 8;

function pickVersion(fs: FileSystem, store: string, address: string, constraint: string | undefined): MethodRefResolution {
  const folder = storeFolder(fs, store, address);
  if (!folder) return { kind: 'not_found' };
  const installed = subfolders(fs, folder).filter((v) => isPlainFile(fs, path.join(folder, v, MANIFEST_FILE)));
  const fitting = constraint === undefined ? installed : installed.filter((v) => satisfiesConstraint(v, constraint));
  const version = newestVersion(fitting);
  return version === undefined ? { kind: 'not_found' } : { kind: 'found', dir: path.join(folder, version), address, version };
}

/** Every installed address whose newest version's manifest carries `name`. */
function addressesNamed(fs: FileSystem, store: string, name: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, segments: string[]): void => {
    if (segments.length > MAX_ADDRESS_DEPTH) return;
    const children = subfolders(fs, dir);
    const version = segments.length >= 2 ? newestVersion(children.filter((c) => isPlainFile(fs, path.join(dir, c, MANIFEST_FILE)))) : undefined;
    if (version !== undefined) {
      if (readManifest(fs, path.join(dir, version))?.name?.value === name) found.push(segments.join('/'));
      return;
    }
    for (const child of children) walk(path.join(dir, child), [...segments, child]);
  };
  walk(store, []);
  return found.sort();
}

export function resolveMethodRef(fs: FileSystem, store: string, ref: string): MethodRefResolution {
  const at = ref.indexOf('@');
  const address = at >= 0 ? ref.slice(0, at) : ref;
  const constraint = at >= 0 ? ref.slice(at + 1) : undefined;
  if (address.includes('/')) return pickVersion(fs, store, address, constraint);
  const addresses = addressesNamed(fs, store, address);
  if (addresses.length === 0) return { kind: 'not_found' };
  if (addresses.length > 1) return { kind: 'ambiguous', candidates: addresses };
  return pickVersion(fs, store, addresses[0]!, constraint);
}
