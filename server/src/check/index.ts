// Runs every rule over a method tree. Rules are grouped by family, one module each; a rule that
// needs a part that failed to parse simply finds nothing there, so one broken table never hides
// the findings of the others.

import type { MethodTree } from '../language/tree.js';
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

/** Every finding of a tree, sorted by file and position. */
export function checkTree(tree: MethodTree): Finding[] {
  const ctx: CheckContext = { tree, out: [] };
  for (const bundle of tree.bundles) {
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
  checkNameConflicts(ctx);
  checkCycles(ctx);
  checkSignatures(ctx);
  checkForceMarkers(ctx);
  if (tree.manifest) {
    checkTomlSyntax(tree.manifest.file, tree.manifest.doc, ctx.out);
    checkManifest(tree, tree.manifest, ctx.out);
  }
  checkLockFile(tree, ctx.out);
  return ctx.out.sort(compareFindings);
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
