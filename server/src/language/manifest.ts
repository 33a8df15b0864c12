// The package manifest (METHODS.toml) as a model: identity, dependencies and exports, located.

import { getEntry } from '../syntax/lookup.js';
import type { LString, LTable, TomlDocument } from '../syntax/types.js';
import type { Located } from './model.js';

export interface DependencyDecl {
  alias: string;
  aliasRange: Located<string>['range'];
  address?: Located<string>;
  version?: Located<string>;
  path?: Located<string>;
}

export interface ExportDecl {
  domain: string;
  /** The header or key that names the domain path. */
  table: LTable;
  pipes: LString[];
}

export interface Manifest {
  file: string;
  doc: TomlDocument;
  packageTable?: LTable;
  name?: Located<string>;
  address?: Located<string>;
  version?: Located<string>;
  mainPipe?: Located<string> & { node: LString };
  dependencies: DependencyDecl[];
  exports: ExportDecl[];
}

function str(table: LTable | undefined, key: string): Located<string> | undefined {
  if (!table) return undefined;
  const v = getEntry(table, key)?.value;
  return v?.type === 'string' ? { value: v.value, range: v.range } : undefined;
}

export function buildManifest(file: string, doc: TomlDocument): Manifest {
  const manifest: Manifest = { file, doc, dependencies: [], exports: [] };
  const pkg = getEntry(doc.root, 'package')?.value;
  if (pkg?.type === 'table') {
    manifest.packageTable = pkg;
    const name = str(pkg, 'name');
    if (name) manifest.name = name;
    const address = str(pkg, 'address');
    if (address) manifest.address = address;
    const version = str(pkg, 'version');
    if (version) manifest.version = version;
    const main = getEntry(pkg, 'main_pipe')?.value;
    if (main?.type === 'string') manifest.mainPipe = { value: main.value, range: main.range, node: main };
  }
  const deps = getEntry(doc.root, 'dependencies')?.value;
  if (deps?.type === 'table') {
    for (const entry of deps.entries) {
      const dep: DependencyDecl = { alias: entry.key, aliasRange: entry.keyRange };
      if (entry.value.type === 'table') {
        const address = str(entry.value, 'address');
        if (address) dep.address = address;
        const version = str(entry.value, 'version');
        if (version) dep.version = version;
        const path = str(entry.value, 'path');
        if (path) dep.path = path;
      }
      manifest.dependencies.push(dep);
    }
  }
  const exports = getEntry(doc.root, 'exports')?.value;
  if (exports?.type === 'table') collectExports(exports, [], manifest.exports);
  return manifest;
}

function collectExports(table: LTable, path: string[], out: ExportDecl[]): void {
  for (const entry of table.entries) {
    if (entry.key === 'pipes' && path.length > 0) {
      const pipes = entry.value.type === 'array' ? entry.value.items.filter((i): i is LString => i.type === 'string') : [];
      out.push({ domain: path.join('.'), table, pipes });
    } else if (entry.value.type === 'table') {
      collectExports(entry.value, [...path, entry.key], out);
    }
  }
}

/** Whether the manifest exports a pipe code of a domain. */
export function isExported(manifest: Manifest, domain: string, code: string): boolean {
  return manifest.exports.some((e) => e.domain === domain && e.pipes.some((p) => p.value === code));
}
