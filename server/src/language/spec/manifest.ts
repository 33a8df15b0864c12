// The package manifest METHODS.toml.

import { PACKAGE_ADDRESS, SEMVER, SNAKE } from './lexical.js';
import type { FieldSpec, TableSpec } from './values.js';

export const MANIFEST_FILE = 'METHODS.toml';
export const LOCK_FILE = 'methods.lock';

/** A package name: snake_case or kebab-case, 2 to 25 characters. */
export const PACKAGE_NAME = /^[a-z][a-z0-9_-]{1,24}$/;

export const PACKAGE_TABLE: TableSpec = {
  kind: 'table',
  name: 'package',
  closed: true,
  fields: [
    // Kebab-case names are accepted too: published packages checked valid by the reference runtime use them.
    { name: 'name', required: true, value: { kind: 'string', pattern: PACKAGE_NAME, patternName: 'snake_case, 2 to 25 characters' }, doc: 'The package name (snake_case, 2-25 characters).' },
    { name: 'address', required: true, value: { kind: 'string', pattern: PACKAGE_ADDRESS, patternName: 'an address like github.com/org/repo' }, doc: 'Where the package lives, e.g. `github.com/acme/legal-methods`.' },
    { name: 'version', required: true, value: { kind: 'string', pattern: SEMVER, patternName: 'a semantic version (1.2.3)' }, doc: 'The package version (SemVer).' },
    { name: 'description', required: true, value: { kind: 'string', nonEmpty: true }, doc: 'What the package offers.' },
    { name: 'display_name', value: { kind: 'string', nonEmpty: true }, doc: 'A human-friendly name (at most 128 characters).' },
    { name: 'authors', value: { kind: 'array', items: { kind: 'string' } }, doc: 'The authors.' },
    { name: 'license', value: { kind: 'string' }, doc: 'An SPDX license identifier.' },
    { name: 'mthds_version', value: { kind: 'string' }, doc: 'The MTHDS standard versions this package works with (a constraint like `>=1.0.0`).' },
    { name: 'main_pipe', value: { kind: 'string', pattern: SNAKE, patternName: 'snake_case', role: 'pipe-ref' }, doc: "The package's entry pipe; it must be exported." },
  ],
};

export const DEPENDENCY_TABLE: TableSpec = {
  kind: 'table',
  name: 'dependency',
  closed: true,
  fields: [
    { name: 'address', required: true, value: { kind: 'string', pattern: PACKAGE_ADDRESS, patternName: 'an address like github.com/org/repo' }, doc: 'Where the dependency lives.' },
    { name: 'version', required: true, value: { kind: 'string', nonEmpty: true }, doc: 'A version constraint (`1.0.0`, `^1.0.0`, `>=1.2, <2`, `1.*`).' },
    { name: 'path', value: { kind: 'string', nonEmpty: true }, doc: 'A local directory holding the dependency, relative to this manifest.' },
  ],
};

export const MANIFEST_FIELDS: readonly FieldSpec[] = [
  { name: 'package', required: true, value: PACKAGE_TABLE, doc: 'The package identity.' },
  { name: 'dependencies', value: { kind: 'map', name: 'dependencies', values: DEPENDENCY_TABLE }, doc: 'Other packages this one uses: `alias = { address, version, path? }`.' },
  { name: 'exports', value: { kind: 'any' }, doc: 'The pipes other packages may call, per domain: `[exports.domain] pipes = ["x"]`.' },
];
