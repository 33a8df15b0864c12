// References across packages and domains: method.dependency_missing (unknown dependency aliases
// and addresses), method.pipe_not_exported (cross-domain calls to pipes a package keeps private),
// and method.resource_missing (file references that leave or miss the tree).

import path from 'node:path';
import { stringSliceRange } from '../../language/buildBundle.js';
import type { Bundle, PipeRefSite } from '../../language/model.js';
import { isExported } from '../../language/manifest.js';
import { prefixedRefs } from '../../language/packageRefs.js';
import { isMainPipe, isPublicPipe, resolveDependency, resolvePipe, treeHasFile } from '../../language/tree.js';
import { getEntry } from '../../syntax/lookup.js';
import type { LValue } from '../../syntax/types.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';

export function checkPackageReferences(ctx: CheckContext, bundle: Bundle): void {
  const manifest = ctx.tree.manifest;
  const aliases = new Set(manifest?.dependencies.map((d) => d.alias) ?? []);
  // An alias must be declared in [dependencies]; a full address names an installed package (its
  // absence is reported where dependencies are loaded).
  for (const { prefix, range } of prefixedRefs(bundle)) {
    if (prefix.includes('/') || aliases.has(prefix)) continue;
    const f = makeFinding('method.dependency_missing', { kind: 'package', name: prefix, reason: 'not_found' }, bundle.file, range);
    f.message = `${f.message} (looked in ${manifest ? `the [dependencies] of ${manifest.file}` : 'the [dependencies] of a manifest: this tree has no METHODS.toml'})`;
    ctx.out.push(f);
  }
  for (const pipe of bundle.pipes) {
    for (const site of pipe.pipeRefs) {
      if (site.ref?.prefix) checkDependencyExport(ctx, bundle, site);
      else checkExport(ctx, bundle, site);
    }
    checkTemplateFile(ctx, bundle, getEntry(pipe.table, 'template_file')?.value);
  }
}

/** Inside a package, calling a pipe of another domain needs it exported (or a bundle's main_pipe). */
function checkExport(ctx: CheckContext, bundle: Bundle, site: PipeRefSite): void {
  const manifest = ctx.tree.manifest;
  if (!manifest || !site.ref?.domain || site.ref.domain === bundle.domain?.value) return;
  const target = resolvePipe(ctx.tree, bundle, site.ref);
  if (target.kind !== 'pipe') return;
  const domain = target.decl.bundle.domain?.value ?? '';
  if (isMainPipe(ctx.tree, domain, target.decl.code) || isExported(manifest, domain, target.decl.code)) return;
  const range = stringSliceRange(site.node, site.ref.refStart, site.ref.refEnd);
  ctx.out.push(makeFinding('method.pipe_not_exported', { pipe: `${domain}.${target.decl.code}`, package: manifest.name?.value ?? path.basename(ctx.tree.root) }, bundle.file, range));
}

/** A pipe of another package must be public there: exported, or a bundle's main_pipe. */
function checkDependencyExport(ctx: CheckContext, bundle: Bundle, site: PipeRefSite): void {
  if (!site.ref?.prefix) return;
  const dep = resolveDependency(ctx.tree, bundle, site.ref.prefix);
  const target = dep ? resolvePipe(ctx.tree, bundle, site.ref) : undefined;
  if (!dep || target?.kind !== 'pipe') return;
  const domain = target.decl.bundle.domain?.value ?? '';
  if (isPublicPipe(dep.tree, domain, target.decl.code)) return;
  const range = stringSliceRange(site.node, site.ref.refStart, site.ref.refEnd);
  ctx.out.push(makeFinding('method.pipe_not_exported', { pipe: `${domain}.${target.decl.code}`, package: dep.address ?? dep.prefix }, bundle.file, range));
}

/** A file reference: relative, forward slashes, inside the tree, and one of its files. */
function checkTemplateFile(ctx: CheckContext, bundle: Bundle, node: LValue | undefined): void {
  if (node?.type !== 'string' || node.value === '') return;
  const ref = node.value;
  const report = (reason: 'not_in_tree' | 'leaves_tree' | 'absolute' | 'backslash' | 'scheme'): void => {
    ctx.out.push(makeFinding('method.resource_missing', { file: ref, reason }, bundle.file, node.range));
  };
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(ref) && !/^[a-zA-Z]:[\\/]/.test(ref)) return report('scheme');
  if (ref.includes('\\')) return report('backslash');
  if (ref.startsWith('/') || /^[a-zA-Z]:/.test(ref)) return report('absolute');
  const fromRoot = path.posix.normalize(path.posix.join(path.relative(ctx.tree.root, path.dirname(bundle.file)).split(path.sep).join('/'), ref));
  if (fromRoot.startsWith('..')) return report('leaves_tree');
  if (!treeHasFile(ctx.tree, fromRoot)) return report('not_in_tree');
}
