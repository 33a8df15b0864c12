// The rules of METHODS.toml: method.package_invalid for the manifest's own faults,
// method.name_conflict for reserved export domains, method.pipe_unresolved for its main_pipe.

import path from 'node:path';
import type { Manifest } from '../../language/manifest.js';
import { MANIFEST_FIELDS, PACKAGE_NAME } from '../../language/spec/manifest.js';
import { DOMAIN_CODE, RESERVED_DOMAINS, SNAKE } from '../../language/spec/lexical.js';
import type { MethodTree } from '../../language/tree.js';
import { suggest } from '../../util/suggest.js';
import type { Range } from '../../syntax/types.js';
import { makeFinding, replaceFix, type Finding } from '../finding.js';
import { ShapeWalker } from '../shapeWalker.js';
import { CUSTOM_VALIDATORS } from './shape.js';

/** Reasons of method.package_invalid this checker raises. */
export type PackageReason =
  | 'manifest_unknown_key'
  | 'manifest_missing_field'
  | 'manifest_invalid_field'
  | 'name_mismatch'
  | 'main_pipe_not_exported'
  | 'export_invalid'
  | 'exported_pipe_missing';

export function checkManifest(tree: MethodTree, manifest: Manifest, out: Finding[]): void {
  const file = manifest.file;
  const packageInvalid = (reason: PackageReason, fieldPath: string, range: Range): void => {
    out.push(makeFinding('method.package_invalid', { reason, path: fieldPath }, file, range));
  };
  // The shape of the manifest, through the generic walker, each fault restated as package_invalid.
  const shape: Finding[] = [];
  new ShapeWalker(file, manifest.doc.text, shape, CUSTOM_VALIDATORS).table(manifest.doc.root, { name: 'manifest', fields: MANIFEST_FIELDS, closed: true }, '');
  for (const f of shape) {
    const finding = String(f.params['finding'] ?? '');
    const reason: PackageReason = finding.startsWith('unknown key') ? 'manifest_unknown_key' : finding.startsWith('missing required key') ? 'manifest_missing_field' : 'manifest_invalid_field';
    const restated = makeFinding('method.package_invalid', { reason, path: String(f.params['field_path'] ?? '') }, file, f.range);
    restated.message = `${restated.message} (${finding})`;
    if (f.alternatives) restated.alternatives = f.alternatives;
    out.push(restated);
  }

  if (manifest.name && !tree.installed) {
    // The package folder is named after the package (a stored package's, after its version); `-` and `_` are taken as the same.
    const dir = path.basename(path.dirname(file));
    const norm = (s: string): string => s.replace(/-/g, '_');
    if (norm(dir) !== norm(manifest.name.value)) {
      const f = makeFinding('method.package_invalid', { reason: 'name_mismatch', path: 'package.name' }, file, manifest.name.range);
      f.message = `${f.message} (the package folder must be named like package.name, \`-\` and \`_\` alike: the folder is \`${dir}\`, package.name is \`${manifest.name.value}\`)`;
      // Renaming the package changes its identity for those who depend on it: offered, not applied by --fix.
      if (PACKAGE_NAME.test(dir)) f.fix = replaceFix(`Rename package.name to \`${dir}\``, file, manifest.name.range, JSON.stringify(dir), false);
      out.push(f);
    }
  }
  for (const dep of manifest.dependencies) {
    if (!SNAKE.test(dep.alias)) packageInvalid('manifest_invalid_field', `dependencies.${dep.alias}`, dep.aliasRange);
    if (dep.version && !isVersionConstraint(dep.version.value)) packageInvalid('manifest_invalid_field', `dependencies.${dep.alias}.version`, dep.version.range);
  }

  const pipesOf = (domain: string): Set<string> => new Set(tree.symbols.get(domain)?.pipes.keys() ?? []);
  for (const exp of manifest.exports) {
    const anchor = exp.table.header?.range ?? exp.table.range;
    if (!DOMAIN_CODE.test(exp.domain)) {
      packageInvalid('export_invalid', `exports.${exp.domain}`, anchor);
      continue;
    }
    if (RESERVED_DOMAINS.includes(exp.domain.split('.')[0]!)) {
      out.push(makeFinding('method.name_conflict', { name: exp.domain, conflict: 'reserved_domain' }, file, anchor));
      continue;
    }
    const known = pipesOf(exp.domain);
    for (const p of exp.pipes) {
      if (!SNAKE.test(p.value)) packageInvalid('export_invalid', `exports.${exp.domain}.pipes`, p.range);
      else if (tree.bundles.length > 0 && !known.has(p.value)) packageInvalid('exported_pipe_missing', `exports.${exp.domain}.pipes`, p.range);
    }
  }

  const main = manifest.mainPipe;
  if (main && SNAKE.test(main.value)) {
    const domains = [...tree.symbols].filter(([, s]) => s.pipes.has(main.value)).map(([d]) => d);
    if (tree.bundles.length > 0 && domains.length === 0) {
      const all = [...tree.symbols.values()].flatMap((s) => [...s.pipes.keys()]);
      const candidates = suggest(main.value, all);
      out.push(makeFinding('method.pipe_unresolved', { pipe: main.value, missing: main.value, candidates }, file, main.range));
    } else if (domains.length > 0 && !manifest.exports.some((e) => domains.includes(e.domain) && e.pipes.some((p) => p.value === main.value))) {
      packageInvalid('main_pipe_not_exported', 'package.main_pipe', main.range);
    }
  }
}

/** A dependency version constraint: `1.0.0`, `^1.0`, `~1`, `>=1.2, <2`, `1.*`, `*`. */
export function isVersionConstraint(text: string): boolean {
  const version = String.raw`\d+(\.(\d+|\*|x)){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?`;
  const clause = new RegExp(String.raw`^\s*((\^|~|>=|<=|>|<|==|!=|=)?\s*${version}|\*)\s*$`);
  return text.split(',').every((c) => clause.test(c));
}
