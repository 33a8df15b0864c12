// `mthds check`: the same verdicts as the editor, for terminals and CI.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkTree, hasErrors, makeFinding, type Finding } from '../check/index.js';
import { computeLineStarts, offsetToPosition } from '../syntax/positions.js';
import { loadTree, planTrees, type TreePlan } from '../workspace/load.js';
import { PackageCache, resolveDependencies, type DependencyOptions } from '../workspace/dependencies.js';
import { isDirectory } from '../workspace/discover.js';
import { readStructures } from '../workspace/structures.js';
import type { HostStructures } from '../language/hostStructures.js';
import { treeFileReader } from '../workspace/treeFiles.js';
import { loadTreeWithBuffers, type Buffers } from '../workspace/buffers.js';
import { checkEnvironment } from '../check/rules/functions.js';
import { loadFunctionRegistry, registryWarnings, type FunctionRegistry } from '../runner/functions.js';
import { fixTrees } from './checkFix.js';
import { fixSignature } from '../check/applyFixes.js';
import { toGithubAnnotations, toSarif, type LocatedFinding } from './reportFormats.js';
import { dryRunAfterChecks } from '../runner/dryRun.js';
import { nodeFileSystem } from '../workspace/nodeFileSystem.js';

interface Writable {
  write(text: string): unknown;
}

export const CHECK_OPTIONS = {
  format: { type: 'string', default: 'text' },
  'no-dry-run': { type: 'boolean' },
  packages: { type: 'string' },
  library: { type: 'string', short: 'L', multiple: true },
  structures: { type: 'string' },
  functions: { type: 'string', multiple: true },
  fix: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const CHECK_USAGE = `Usage: mthds check [options] [paths...]

Checks method bundles (.mthds) and package manifests (METHODS.toml) with the editor's rules, then
dry-runs what checks clean (every pipe once, on minted inputs, with the mock model provider), as a
runner's /validate does. A file is checked within its method tree (the package of the nearest
METHODS.toml at or above it, else the file alone); a folder means its method tree or trees. Only
the findings of the named paths are printed, sorted by file and position. Default path: the
current folder.

Options:
  --format FORMAT     text (default): one "path:line:col: severity code message" line per finding,
                      then a summary; json: { files, errors, warnings, findings[] }; sarif: a
                      SARIF 2.1.0 log for code-scanning tools; github: workflow annotations.
  --no-dry-run        Run the static checks only.
  --packages DIR      The package store dependencies are read from ({address}/{version}/ folders).
                      Default: $MTHDS_PACKAGES_DIR, else ~/.mthds/packages. Nothing is downloaded.
  -L, --library DIR   A library folder, searched recursively for packages (METHODS.toml) that
                      address-qualified references name (repeatable). Before it: path
                      dependencies and the packages of the checked folders; after it:
                      .mthds/methods/<name>/ above the package, ~/.mthds/methods/<name>/, the store.
  --structures FILE   Host structures (TOML): fields of description-only concepts that the host
                      program binds at run time, as [Code] or [domain.Code] tables.
  --functions FILE    A function module registering PipeFunc functions (repeatable, relative to
                      the working folder); with one, the environment check runs too (function
                      names, outputs, requirements.txt).
  --fix               Apply the safe fix of each finding, marked "(fix: ...)" in the text output
                      ("(suggestion: ...)" is never applied), at most three passes, each file
                      written atomically and only if unchanged since read; print what was fixed,
                      then report what remains.
  -h, --help          Show this help.

Exit status:
  0  no error (warnings allowed)
  1  at least one error
  2  usage error, a path that does not exist (also reported as method.not_found), or nothing
     could be checked

Examples:
  mthds check examples/
  mthds check --format json method.mthds
  mthds check --format github --packages ./vendor/packages .
  mthds check -L ../shared-methods --structures structures.toml methods/
  mthds check --fix --no-dry-run src/methods/`;

/** What a caller inside the process adds: unsaved buffers that win over the disk (the MCP server's `check`). */
export interface CheckContext {
  buffers?: Buffers;
}

export async function runCheck(args: string[], stdout: Writable, stderr: Writable, context: CheckContext = {}): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: CHECK_OPTIONS });
  } catch (error) {
    stderr.write(`mthds check: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    stdout.write(`${CHECK_USAGE}\n`);
    return 0;
  }
  const format = parsed.values.format;
  if (format !== 'text' && format !== 'json' && format !== 'sarif' && format !== 'github') {
    stderr.write(`mthds check: unknown format '${format}' (expected text, json, sarif or github)\n`);
    return 2;
  }
  const paths = parsed.positionals.length > 0 ? parsed.positionals : ['.'];
  const { plans, problems } = planTrees(nodeFileSystem, paths);
  for (const p of problems) stderr.write(`mthds check: ${p.path}: ${p.message}\n`);
  if (plans.length === 0) return 2;
  // A path that does not exist is a finding of every report (a typo in a CI list of paths must not
  // pass), and the exit status is 2 whatever else is found.
  const missing = problems.filter((p) => p.missing);

  const libraries = (parsed.values.library ?? []).map((dir) => path.resolve(dir));
  for (const dir of libraries) {
    if (!isDirectory(nodeFileSystem, dir)) {
      stderr.write(`mthds check: --library ${dir}: no such folder\n`);
      return 2;
    }
  }
  let structures: HostStructures | undefined;
  const texts = new Map<string, string>();
  const findings: Finding[] = [];
  if (parsed.values.structures !== undefined) {
    const read = readStructures(nodeFileSystem, path.resolve(parsed.values.structures));
    if (!read.ok) {
      stderr.write(`mthds check: ${read.message}\n`);
      return 2;
    }
    structures = read.structures;
    texts.set(structures.file, structures.doc.text);
    findings.push(...read.findings);
  }
  // Sibling packages are those below the folders named (a repository holding several packages).
  const workspace = [...new Set(paths.map((p) => path.resolve(p)).filter((p) => isDirectory(nodeFileSystem, p)))];
  const dependencies: DependencyOptions = { fs: nodeFileSystem, cache: new PackageCache(), workspace, libraries };
  if (parsed.values.packages !== undefined) dependencies.packagesDir = path.resolve(parsed.values.packages);
  const load = (plan: TreePlan): ReturnType<typeof loadTree> => {
    const loaded = context.buffers ? loadTreeWithBuffers(nodeFileSystem, plan, context.buffers) : loadTree(nodeFileSystem, plan);
    if (structures) loaded.tree.hostStructures = structures;
    loaded.findings.push(...resolveDependencies(loaded.tree, dependencies));
    return loaded;
  };
  // The environment check (PipeFunc functions, requirements.txt) runs only with function modules.
  let functions: FunctionRegistry | undefined;
  if (parsed.values.functions && parsed.values.functions.length > 0) {
    functions = await loadFunctionRegistry(parsed.values.functions.map((f) => path.resolve(f)));
    for (const line of registryWarnings(functions)) stderr.write(`mthds check: warning: ${line}\n`);
  }
  const fixes = parsed.values.fix ? fixTrees(plans, (plan) => load(plan).tree) : undefined;
  for (const f of fixes?.failures ?? []) stderr.write(`mthds check: ${display(f.file)}: not fixed, cannot be written (${f.message})\n`);

  findings.push(...(fixes?.conflicts ?? []));
  for (const p of missing) findings.push(makeFinding('method.not_found', { method_ref: p.path }, path.resolve(p.path), { start: 0, end: 0 }));
  let fileCount = 0;
  for (const plan of plans) {
    const { tree, findings: fileFindings } = load(plan);
    for (const b of tree.bundles) texts.set(b.file, b.doc.text);
    if (tree.manifest) texts.set(tree.manifest.file, tree.manifest.doc.text);
    const all = [...fileFindings, ...checkTree(tree)];
    if (functions) all.push(...checkEnvironment(tree, functions.catalog, treeFileReader(nodeFileSystem, tree, (file, text) => texts.set(file, text))));
    // The dry run, as /validate does it, once the static checks find no error.
    if (!parsed.values['no-dry-run']) all.push(...(await dryRunAfterChecks(tree, all)));
    const wanted = plan.focus;
    findings.push(...(wanted ? all.filter((f) => wanted.has(f.file)) : all));
    fileCount += wanted ? wanted.size : plan.bundleFiles.length + (plan.manifestFile ? 1 : 0);
  }
  // A fix the re-check rolled back is no longer offered as safe: the report calls it a suggestion.
  const rolledBack = fixes?.rolledBackFixes;
  const offered = rolledBack && rolledBack.size > 0 ? findings.map((f) => (f.fix?.safe && rolledBack.has(fixSignature(f.fix)) ? { ...f, fix: { ...f.fix, safe: false } } : f)) : findings;
  const located = locate(offered, texts);
  located.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || a.code.localeCompare(b.code)));
  const errors = located.filter((f) => f.severity === 'error').length;
  const warnings = located.filter((f) => f.severity === 'warning').length;
  const fixedLines = (fixes?.fixed ?? []).map((x) => `fixed ${display(x.file)}:${x.line}:${x.column}: ${x.code} ${x.title}`);
  for (const x of fixes?.rolledBack ?? []) fixedLines.push(`rolled back ${display(x.file)}:${x.line}:${x.column}: ${x.code} ${x.title} (it brings ${x.error.code}: ${x.error.message})`);
  if (fixes) {
    const fixedFiles = new Set(fixes.fixed.map((x) => x.file)).size;
    fixedLines.push(fixes.fixed.length === 0 ? 'Nothing to fix.' : `Fixed ${fixes.fixed.length} problem${fixes.fixed.length === 1 ? '' : 's'} in ${fixedFiles} file${fixedFiles === 1 ? '' : 's'}.`);
    // Machine formats keep stdout to their document: what was fixed goes to stderr.
    if (format === 'sarif' || format === 'github') for (const line of fixedLines) stderr.write(`${line}\n`);
    else if (format === 'text') for (const line of fixedLines) stdout.write(`${line}\n`);
  }
  if (format === 'json') {
    const fixed = fixes ? { fixed: fixes.fixed.map((x) => ({ ...x, file: display(x.file) })), rolledBack: fixes.rolledBack.map((x) => ({ ...x, file: display(x.file) })) } : {};
    stdout.write(`${JSON.stringify({ files: fileCount, errors, warnings, ...fixed, findings: located.map((f) => toJson(f, texts)) }, null, 2)}\n`);
  } else if (format === 'sarif') {
    const position = (file: string, offset: number): { line: number; character: number } => offsetToPosition(computeLineStarts(texts.get(file) ?? ''), offset);
    stdout.write(`${JSON.stringify(toSarif(located, process.cwd(), position), null, 2)}\n`);
  } else if (format === 'github') {
    stdout.write(toGithubAnnotations(located, display));
  } else {
    for (const f of located) {
      stdout.write(`${display(f.file)}:${f.line}:${f.column}: ${f.severity} ${f.code} ${f.message}${suggestionOf(f)}\n`);
    }
    const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
    stdout.write(`${errors + warnings === 0 ? 'No problems' : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`} in ${plural(fileCount, 'file')} checked.\n`);
  }
  if (missing.length > 0) return 2;
  return hasErrors(findings) ? 1 : problems.length > 0 && located.length === 0 && fileCount === 0 ? 2 : 0;
}

/**
 * The repair a finding offers, for the text output: a safe fix (one \`--fix\` applies) as \`(fix: …)\`,
 * any other as \`(suggestion: …)\`, else its alternatives.
 */
function suggestionOf(f: Finding): string {
  if (f.fix) return f.fix.safe ? ` (fix: ${f.fix.title})` : ` (suggestion: ${f.fix.title})`;
  if (f.alternatives && f.alternatives.length > 0 && !f.message.includes('Did you mean')) return ` (possible fixes: ${f.alternatives.map((a) => a.title).join('; ')})`;
  return '';
}

function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return (rel.startsWith('..') ? file : rel).split(path.sep).join('/');
}

function locate(findings: Finding[], texts: Map<string, string>): LocatedFinding[] {
  const starts = new Map<string, number[]>();
  const lineStartsOf = (file: string): number[] => {
    let s = starts.get(file);
    if (!s) {
      s = computeLineStarts(texts.get(file) ?? '');
      starts.set(file, s);
    }
    return s;
  };
  return findings.map((f) => {
    const ls = lineStartsOf(f.file);
    const a = offsetToPosition(ls, f.range.start);
    const b = offsetToPosition(ls, f.range.end);
    return { ...f, line: a.line + 1, column: a.character + 1, endLine: b.line + 1, endColumn: b.character + 1 };
  });
}

function toJson(f: LocatedFinding, texts: Map<string, string>): Record<string, unknown> {
  const pos = (file: string, offset: number): { line: number; character: number } => offsetToPosition(computeLineStarts(texts.get(file) ?? ''), offset);
  const edits = (fix: NonNullable<Finding['fix']>): Record<string, unknown> => ({
    title: fix.title,
    safe: fix.safe,
    edits: fix.edits.map((e) => ({ file: display(e.file), range: { start: pos(e.file, e.range.start), end: pos(e.file, e.range.end) }, newText: e.newText })),
  });
  const out: Record<string, unknown> = {
    file: display(f.file),
    line: f.line,
    column: f.column,
    endLine: f.endLine,
    endColumn: f.endColumn,
    severity: f.severity,
    code: f.code,
    message: f.message,
    params: f.params,
    range: { start: { line: f.line - 1, character: f.column - 1 }, end: { line: f.endLine - 1, character: f.endColumn - 1 } },
  };
  if (f.related) out['related'] = f.related.map((r) => ({ file: display(r.file), range: { start: pos(r.file, r.range.start), end: pos(r.file, r.range.end) }, message: r.message }));
  if (f.fix) out['fix'] = edits(f.fix);
  if (f.alternatives) out['alternatives'] = f.alternatives.map(edits);
  return out;
}
