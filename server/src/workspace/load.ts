// Loading method trees from disk for the command line (the language server keeps its own
// documents and uses the same builders). Dependencies are resolved afterwards, by
// workspace/dependencies.ts (which loads dependency packages with this module).

import path from 'node:path';
import { buildBundle } from '../language/buildBundle.js';
import { buildManifest } from '../language/manifest.js';
import type { Bundle } from '../language/model.js';
import { LOCK_FILE, MANIFEST_FILE } from '../language/spec/manifest.js';
import { createTree, type MethodTree } from '../language/tree.js';
import { makeFinding, type Finding } from '../check/finding.js';
import { parseToml } from '../syntax/document.js';
import { MAX_PACKAGE_FILES, entryKind, findPackageRoot, isBundlePath, isDirectory, isPlainFile, listTreeFiles, type TreeFiles, type UnreadableFolder } from './discover.js';
import { isMethodFile } from './scan.js';
import { MAX_FILE_BYTES, type RefusedRead } from './methodText.js';
import type { FileSystem } from './fileSystem.js';
import { clashingName } from '../util/paths.js';

export interface TreePlan {
  root: string;
  manifestFile?: string;
  bundleFiles: string[];
  allFiles: string[];
  /** Faults of a package's layout (symbolic links, too many files), found while listing it. */
  layout?: Finding[];
  /** When set, only findings of these files are wanted (a file was named, not its tree). */
  focus?: Set<string>;
}

export interface PlanProblem {
  path: string;
  message: string;
  /** The path does not exist (a typo in a list of paths): never a silent pass. */
  missing?: boolean;
}

/** The plan of a package folder: every file below it (nested packages excepted). */
export function planPackage(fs: FileSystem, root: string): TreePlan {
  const listing = listTreeFiles(fs, root);
  const plan: TreePlan = { root, bundleFiles: listing.files.filter(isBundlePath), allFiles: listing.files };
  const manifest = path.join(root, MANIFEST_FILE);
  if (fs.exists(manifest)) {
    const layout = layoutFindings(fs, root, manifest, listing);
    if (layout.length > 0) plan.layout = layout;
    // A manifest that is a symbolic link is reported (layout) and not read: it could lead anywhere.
    if (isPlainFile(fs, manifest)) plan.manifestFile = manifest;
  }
  return plan;
}

/** The most files a package may hold; the walk stops there. */
export { MAX_PACKAGE_FILES };

/**
 * method.package_invalid for what a package's layout may not hold: symbolic links (never followed,
 * so a package cannot reach outside its folder), more files than the limit, and names that differ
 * only by letter case or Unicode form (one file on many file systems).
 */
export function layoutFindings(fs: FileSystem, root: string, manifestFile: string, listing: Pick<TreeFiles, 'files' | 'links' | 'special' | 'unreadable' | 'truncated'>): Finding[] {
  const out: Finding[] = [...unreadableFindings(root, listing.unreadable), ...skippedFindings(fs, root, listing)];
  if (listing.truncated) out.push(makeFinding('method.package_invalid', { reason: 'too_many_files', limit: MAX_PACKAGE_FILES }, manifestFile, { start: 0, end: 0 }));
  const clashing = clashingName(listing.files.map((f) => relativeTo(root, f)));
  if (clashing !== undefined) out.push(makeFinding('method.package_invalid', { reason: 'clashing_names', path: clashing }, path.join(root, ...clashing.split('/')), { start: 0, end: 0 }));
  return out;
}

/**
 * method.package_invalid for the entries a walk met and did not read: symbolic links (reason
 * symlink: never followed) and what is neither a file nor a folder (reason not_regular_file: a
 * FIFO would block a read, a device never ends). `only` keeps those some test holds (a folder
 * that is no package reports only the method files it skipped).
 */
export function skippedFindings(fs: FileSystem, root: string, listing: Pick<TreeFiles, 'links' | 'special'>, only: (file: string) => boolean = () => true): Finding[] {
  const out: Finding[] = [];
  const add = (file: string, reason: string, why: string): void => {
    if (!only(file)) return;
    const f = makeFinding('method.package_invalid', { reason, path: relativeTo(root, file) }, file, { start: 0, end: 0 });
    f.message = `${f.message} (${why})`;
    out.push(f);
  };
  for (const link of listing.links) add(link, 'symlink', 'a symbolic link; it is not followed');
  for (const file of listing.special) add(file, 'not_regular_file', `${entryKind(fs, file)}, not a regular file; it is not read`);
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * method.package_invalid (reason folder_unreadable, like an unreadable file) on each folder of a
 * tree that could not be listed: its bundles are unknown, so the tree cannot be called clean.
 */
export function unreadableFindings(root: string, unreadable: readonly UnreadableFolder[]): Finding[] {
  return unreadable.map(({ dir, message }) => {
    const f = makeFinding('method.package_invalid', { reason: 'folder_unreadable', path: relativeTo(root, dir) || '.' }, dir, { start: 0, end: 0 });
    f.message = `${f.message} (the folder ${message}; nothing in it was checked)`;
    return f;
  });
}

/**
 * Turns the paths given on a command line into trees: a file belongs to the package above it
 * (else it stands alone); a folder inside a package means that package; any other folder means
 * each package found below it, plus one tree of the bundles that belong to none.
 */
export function planTrees(fs: FileSystem, paths: readonly string[]): { plans: TreePlan[]; problems: PlanProblem[] } {
  const plans = new Map<string, TreePlan>();
  const whole = new Set<string>();
  const problems: PlanProblem[] = [];
  const addPlan = (plan: TreePlan): TreePlan => {
    const existing = plans.get(plan.root);
    if (existing) return existing;
    plans.set(plan.root, plan);
    return plan;
  };
  for (const given of paths) {
    const abs = path.resolve(given);
    if (!fs.exists(abs)) {
      problems.push({ path: given, message: 'no such file or folder', missing: true });
      continue;
    }
    if (!isDirectory(fs, abs)) {
      const pkg = findPackageRoot(fs, path.dirname(abs));
      const plan = pkg ? addPlan(planPackage(fs, pkg)) : addPlan({ root: path.dirname(abs), bundleFiles: [], allFiles: [] });
      if (!pkg && !plan.bundleFiles.includes(abs)) {
        plan.bundleFiles.push(abs);
        plan.allFiles.push(abs);
      }
      (plan.focus ??= new Set()).add(abs);
      continue;
    }
    const pkg = findPackageRoot(fs, abs);
    if (pkg) {
      addPlan(planPackage(fs, pkg));
      whole.add(pkg);
      continue;
    }
    const listing = listTreeFiles(fs, abs);
    const { files, nestedPackages, unreadable } = listing;
    const packages = [...nestedPackages];
    // Nested packages may themselves hold packages: collect them all.
    for (let i = 0; i < packages.length; i++) {
      packages.push(...listTreeFiles(fs, packages[i]!).nestedPackages);
      addPlan(planPackage(fs, packages[i]!));
      whole.add(packages[i]!);
    }
    const bundles = files.filter(isBundlePath);
    // Method files met as links or FIFOs are reported, never passed over in silence.
    const layout = [...unreadableFindings(abs, unreadable), ...skippedFindings(fs, abs, listing, isMethodFile)];
    if (bundles.length > 0 || layout.length > 0) {
      const existing = plans.get(abs);
      if (existing) {
        existing.bundleFiles = bundles;
        existing.allFiles = files;
      } else addPlan({ root: abs, bundleFiles: bundles, allFiles: files });
      if (layout.length > 0) plans.get(abs)!.layout = layout;
      whole.add(abs);
    }
    if (bundles.length === 0 && packages.length === 0 && layout.length === 0) problems.push({ path: given, message: 'holds no method bundle (.mthds) and no METHODS.toml' });
  }
  for (const root of whole) delete plans.get(root)?.focus;
  return { plans: [...plans.values()], problems };
}

/** Reads and builds a tree; faults of the files themselves come back as findings. */
export function loadTree(fs: FileSystem, plan: TreePlan): { tree: MethodTree; findings: Finding[] } {
  const findings: Finding[] = [...(plan.layout ?? [])];
  const bundles: Bundle[] = [];
  const read = (file: string): string | undefined => {
    const result = fs.readMethodFile(file);
    if (!result.ok) {
      findings.push(refusedReadFinding(plan.root, file, result));
      return undefined;
    }
    if ('fault' in result) {
      findings.push(makeFinding('method.syntax', { finding: result.fault.message }, file, { start: result.fault.offset, end: result.fault.offset + 1 }));
    }
    return result.text;
  };
  for (const file of plan.bundleFiles) {
    const text = read(file);
    if (text !== undefined) bundles.push(buildBundle(file, parseToml(text)));
  }
  let manifest;
  if (plan.manifestFile) {
    const text = read(plan.manifestFile);
    if (text !== undefined) manifest = buildManifest(plan.manifestFile, parseToml(text));
  }
  const files = new Set(plan.allFiles.map((f) => relativeTo(plan.root, f)));
  const tree = createTree(plan.root, bundles, manifest, files);
  const lockFile = path.join(plan.root, LOCK_FILE);
  if (plan.manifestFile && isPlainFile(fs, lockFile)) {
    const text = read(lockFile);
    if (text !== undefined) tree.lock = { file: lockFile, doc: parseToml(text) };
  }
  return { tree, findings };
}

/**
 * method.package_invalid for a file of a tree that was not read: file_too_large past the bound,
 * not_regular_file for a FIFO or a device (named, or reached through a link), file_unreadable
 * otherwise; the message says why.
 */
export function refusedReadFinding(root: string, file: string, refusal: RefusedRead): Finding {
  const reason = refusal.kind === 'too_large' ? 'file_too_large' : refusal.kind === 'not_regular' ? 'not_regular_file' : 'file_unreadable';
  const params: Record<string, string | number> = { reason, path: relativeTo(root, file) };
  if (refusal.kind === 'too_large') params['limit'] = MAX_FILE_BYTES;
  const f = makeFinding('method.package_invalid', params, file, { start: 0, end: 0 });
  f.message = `${f.message} (the file ${refusal.message})`;
  return f;
}

export function relativeTo(root: string, file: string): string {
  // The common case, a normalized file below the root, without path.relative (a listing of
  // thousands of files names each one).
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (root !== '' && file.startsWith(prefix)) {
    const rest = file.slice(prefix.length);
    if (rest !== '' && !rest.endsWith(path.sep) && !UNNORMALIZED.test(rest)) return path.sep === '/' ? rest : rest.split(path.sep).join('/');
  }
  return path.relative(root, file).split(path.sep).join('/');
}

/** A `.` or `..` segment, or an empty one: path.relative would normalize these. */
const UNNORMALIZED = /(^|[\\/])\.\.?([\\/]|$)|[\\/][\\/]/;
