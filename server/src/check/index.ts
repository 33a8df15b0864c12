// Runs every rule over a method tree. Rules are grouped by family, one module each; a rule that
// needs a part that failed to parse simply finds nothing there, so one broken table never hides
// the findings of the others.

import { recordingAccess, type MethodTree } from '../language/tree.js';
import type { Bundle } from '../language/model.js';
import type { CheckContext } from './context.js';
import { compareFindings, type Finding } from './finding.js';
import { checkConcepts } from './rules/concepts.js';
import { checkCycles } from './rules/cycles.js';
import { checkIdentifiers } from './rules/identifiers.js';
import { checkLockFile } from './rules/lock.js';
import { checkManifest } from './rules/manifest.js';
import { checkMarkers } from './rules/markers.js';
import { checkNameConflicts } from './rules/names.js';
import { checkReferences } from './rules/references.js';
import { checkBundleShape } from './rules/shape.js';
import { checkReferenceSyntax, checkTomlSyntax } from './rules/syntax.js';
import { checkFlows } from './rules/flow.js';
import { checkForceMarkers } from './rules/force.js';
import { checkModelReferences } from './rules/models.js';
import { checkPackageReferences } from './rules/packages.js';
import { checkSignatures } from './rules/signatures.js';
import { checkOperatorKinds } from './rules/operators.js';
import { checkTemplateInputs } from './rules/templateInputs.js';
import { checkTemplateShorthands } from './rules/templates.js';

export { compareFindings, makeFinding, type Finding, type Fix, type Severity, type TextEdit } from './finding.js';

/**
 * Findings of each bundle's own rules, kept between checks of one tree (the language server keeps
 * one per tree). A bundle's findings are reused while the bundle object is the same (its text did
 * not change), every bundle whose declarations its rules read is the same too, and the tree's
 * shape (the codes each bundle declares, main pipes, manifest, files, dependencies) is unchanged.
 * Rules over the whole tree always run.
 */
export interface CheckCache {
  shape?: string;
  byBundle: WeakMap<Bundle, { findings: Finding[]; reads: Bundle[] }>;
}

export function createCheckCache(): CheckCache {
  return { byBundle: new WeakMap() };
}

/** Every finding of a tree, sorted by file and position. */
export function checkTree(tree: MethodTree, cache?: CheckCache): Finding[] {
  const ctx: CheckContext = { tree, out: [] };
  if (cache) {
    const shape = treeShape(tree);
    if (cache.shape !== shape) {
      cache.shape = shape;
      cache.byBundle = new WeakMap();
    }
    const members = new Set(tree.bundles);
    for (const bundle of tree.bundles) {
      const kept = cache.byBundle.get(bundle);
      if (kept && kept.reads.every((b) => members.has(b))) {
        for (const f of kept.findings) ctx.out.push(f);
        continue;
      }
      const start = ctx.out.length;
      const { bundles } = recordingAccess(() => checkBundle(ctx, bundle));
      // Reads in dependency packages are covered by the shape (their trees' identities).
      const reads = [...bundles].filter((b) => b !== bundle && members.has(b));
      cache.byBundle.set(bundle, { findings: ctx.out.slice(start), reads });
    }
  } else for (const bundle of tree.bundles) checkBundle(ctx, bundle);
  checkTreeRules(ctx);
  return ctx.out.sort(compareFindings);
}

/** The rules of one bundle (they may read other bundles' declarations through resolution). */
function checkBundle(ctx: CheckContext, bundle: Bundle): void {
  checkTomlSyntax(bundle.file, bundle.doc, ctx.out);
  checkReferenceSyntax(bundle, ctx.out);
  checkBundleShape(bundle, ctx.out);
  checkIdentifiers(bundle, ctx.out);
  checkMarkers(bundle, ctx.out);
  checkConcepts(bundle, ctx.out);
  checkReferences(ctx, bundle);
  checkTemplateShorthands(bundle, ctx.out);
  checkTemplateInputs(ctx, bundle);
  checkOperatorKinds(ctx, bundle);
  checkFlows(ctx, bundle);
  checkModelReferences(ctx, bundle);
  checkPackageReferences(ctx, bundle);
}

/** The rules over the whole tree. */
function checkTreeRules(ctx: CheckContext): void {
  const tree = ctx.tree;
  checkNameConflicts(ctx);
  checkCycles(ctx);
  checkSignatures(ctx);
  checkForceMarkers(ctx);
  if (tree.manifest) {
    checkTomlSyntax(tree.manifest.file, tree.manifest.doc, ctx.out);
    checkManifest(tree, tree.manifest, ctx.out);
  }
  checkLockFile(tree, ctx.out);
}

// Identities of objects that only matter by identity in the shape (manifests, dependency trees).
const ids = new WeakMap<object, number>();
let nextId = 1;
function idOf(o: object | undefined): number {
  if (!o) return 0;
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = nextId++));
  return id;
}

const bundleShapes = new WeakMap<Bundle, string>();

/** What a bundle's rules may see of the rest of the tree without resolving a declaration. */
function treeShape(tree: MethodTree): string {
  const parts: string[] = [tree.root, String(idOf(tree.manifest)), String(tree.files.size), [...tree.files].join('\n')];
  for (const [prefix, dep] of tree.dependencies ?? []) parts.push(`${prefix}=${idOf(dep.tree)}`);
  for (const bundle of tree.bundles) {
    let shape = bundleShapes.get(bundle);
    if (shape === undefined) {
      shape = [bundle.file, bundle.domain?.value ?? '', bundle.mainPipe?.value ?? '', bundle.concepts.map((c) => c.code).join(','), bundle.pipes.map((p) => `${p.code}${p.typeless ? '?' : ''}`).join(',')].join('\t');
      bundleShapes.set(bundle, shape);
    }
    parts.push(shape);
  }
  return parts.join('\n');
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
