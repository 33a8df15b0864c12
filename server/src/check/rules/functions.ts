// The environment check (language reference §9.3, V10): PipeFunc functions against the function
// registry a runtime was given (method.dependency_missing with kind function, and
// method.function_invalid), and the Python requirements of the tree's requirements.txt, which a
// JavaScript runtime cannot install (method.dependency_missing with kind requirement).
//
// It runs only when a function registry is configured (`mthds check --functions`, the runner's
// `functions`): the language server and a plain `mthds check` skip it. The registry itself is
// loaded by the runner (runner/functions.ts); this module sees it as plain data, so that the
// checks stay free of module loading.

import { stringSliceRange } from '../../language/buildBundle.js';
import { isCompatible, lookupConcept } from '../../language/concepts.js';
import type { PipeDecl } from '../../language/model.js';
import { formatMultiplicity, formatRef, parseIoRef, type IoRef } from '../../language/references.js';
import type { MethodTree } from '../../language/tree.js';
import { getEntry } from '../../syntax/lookup.js';
import { suggest } from '../../util/suggest.js';
import { compareFindings, makeFinding, replaceFix, type Finding } from '../finding.js';

/** What the checks know of one registered name. */
export interface FunctionCatalogEntry {
  /** The declared output, as the module wrote it (`Text`, `Text[]`, `domain.Concept`). */
  output?: string;
  /** Why the registration cannot be used (its shape, or a name registered twice); wins over `output`. */
  fault?: string;
}

/** A function registry as the checks see it. */
export interface FunctionCatalog {
  entries: ReadonlyMap<string, FunctionCatalogEntry>;
  /** Modules that could not be imported (label, message): a name not found may be one of theirs. */
  importFaults: ReadonlyArray<{ module: string; message: string }>;
}

/** A file of the tree by its path relative to the root: its absolute name and its text. */
export type TreeFileReader = (rel: string) => { file: string; text: string } | undefined;

/** The file of a tree naming its Python requirements. */
export const REQUIREMENTS_FILE = 'requirements.txt';

/** An identifier parameter: no control characters, bounded (function names come from TOML strings). */
function identifier(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 256 ? `${clean.slice(0, 255)}…` : clean;
}

/**
 * Why a declared output cannot stand for a function's return type, or undefined when it parses as
 * a concept reference with an optional multiplicity (no presence marker).
 */
export function declaredOutputFault(output: unknown): string | undefined {
  if (output === undefined) return 'it declares no output (write output = "Text", "Text[]" or "domain.Concept")';
  if (typeof output !== 'string' || output.trim() === '') return 'its output is not a concept reference string';
  const parsed = parseIoRef(output);
  if (!parsed.ok) return `its output ${JSON.stringify(output)} is not a concept reference: ${parsed.error}`;
  if (parsed.value.marker !== undefined) return `its output ${JSON.stringify(output)} carries a presence marker, which a return type cannot have`;
  return undefined;
}

/** Why the function's declared output does not fit the pipe's, or undefined when it does. */
function outputMismatch(tree: MethodTree, pipe: PipeDecl, declared: IoRef, written: string): string | undefined {
  const wanted = pipe.output?.io;
  if (!wanted || !pipe.output?.ref) return undefined;
  const pipeConcept = lookupConcept(tree, pipe.bundle, wanted);
  if (!pipeConcept) return undefined; // reported by the reference rules
  const fnConcept = lookupConcept(tree, pipe.bundle, declared);
  if (!fnConcept) return `its declared output ${JSON.stringify(written)} names no concept the bundle of the pipe can see`;
  const fnList = declared.multiplicity.kind !== 'single';
  const pipeList = wanted.multiplicity.kind !== 'single';
  const pipeOutput = `${formatRef(wanted)}${formatMultiplicity(wanted.multiplicity)}`;
  if (pipeList && !fnList) return `it returns a single ${formatRef(declared)} (declared ${JSON.stringify(written)}), but the output of the pipe is a list (${pipeOutput})`;
  if (!pipeList && fnList) return `it returns a list (declared ${JSON.stringify(written)}), but the output of the pipe is a single ${pipeOutput}`;
  if (declared.multiplicity.kind === 'fixed' && wanted.multiplicity.kind === 'fixed' && declared.multiplicity.count !== wanted.multiplicity.count) {
    return `it returns ${declared.multiplicity.count} items (declared ${JSON.stringify(written)}), but the output of the pipe has ${wanted.multiplicity.count} (${pipeOutput})`;
  }
  if (!isCompatible(tree, fnConcept, pipeConcept)) return `it returns ${formatRef(declared)} (declared ${JSON.stringify(written)}), which does not fit the output of the pipe, ${pipeOutput}`;
  return undefined;
}

function importFaultText(catalog: FunctionCatalog): string {
  const [first, ...rest] = catalog.importFaults;
  const more = rest.length > 0 ? ` (and ${rest.length} other function module${rest.length === 1 ? '' : 's'})` : '';
  return `no loaded module registers it, and the function module ${first!.module} cannot be imported${more}: ${first!.message}`;
}

/** method.dependency_missing (kind function) and method.function_invalid on every PipeFunc. */
export function checkFunctions(tree: MethodTree, catalog: FunctionCatalog): Finding[] {
  const out: Finding[] = [];
  let names: string[] | undefined;
  for (const bundle of tree.bundles) {
    for (const pipe of bundle.pipes) {
      if (pipe.type?.value !== 'PipeFunc') continue;
      const node = getEntry(pipe.table, 'function_name')?.value;
      if (node?.type !== 'string' || node.value === '') continue; // the shape rules report it
      const name = node.value;
      const range = stringSliceRange(node, 0, name.length);
      const invalid = (finding: string): void => {
        out.push(makeFinding('method.function_invalid', { pipe: pipe.code, function: identifier(name), finding }, bundle.file, range));
      };
      const entry = catalog.entries.get(name);
      if (!entry) {
        if (catalog.importFaults.length > 0) {
          invalid(importFaultText(catalog));
          continue;
        }
        names ??= [...catalog.entries.keys()].filter((n) => !catalog.entries.get(n)!.fault);
        const alternatives = suggest(name, names, 3).map((s) => replaceFix(`Replace with \`${s}\``, bundle.file, range, s, false));
        out.push(makeFinding('method.dependency_missing', { kind: 'function', name: identifier(name), reason: 'not_found' }, bundle.file, range, { alternatives }));
        continue;
      }
      const fault = entry.fault ?? declaredOutputFault(entry.output);
      if (fault !== undefined) {
        invalid(fault);
        continue;
      }
      const parsed = parseIoRef(entry.output!);
      const mismatch = parsed.ok ? outputMismatch(tree, pipe, parsed.value, entry.output!) : undefined;
      if (mismatch !== undefined) invalid(mismatch);
    }
  }
  return out;
}

/** One requirement of a requirements.txt: its project name and where its text stands. */
export interface Requirement {
  name: string;
  start: number;
  end: number;
}

const PROJECT_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?/;

/**
 * The requirements of a requirements.txt (pip's format): one per line, comments (`#`) and blank
 * lines skipped, option lines (`-r`, `-e`, `--index-url`, ...) skipped, and a URL or path line
 * counted only when it names its project (`#egg=name`). Offsets index `text`.
 */
export function parseRequirements(text: string): Requirement[] {
  const out: Requirement[] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    const egg = /#egg=([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(line)?.[1];
    // A comment starts a line or follows whitespace.
    const hash = line.search(/(^|\s)#/);
    const body = hash >= 0 ? line.slice(0, hash) : line;
    const trimmed = body.trim().replace(/\\$/, '').trim();
    if (trimmed !== '' && !trimmed.startsWith('-')) {
      const start = lineStart + body.indexOf(trimmed);
      const end = start + trimmed.length;
      const isLocation = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(trimmed) || /^[./~\\]/.test(trimmed) || /^[A-Za-z]:[\\/]/.test(trimmed);
      const name = isLocation ? egg : PROJECT_NAME.exec(trimmed)?.[0];
      if (name !== undefined) out.push({ name, start, end });
    }
    if (lineEnd >= text.length) break;
    lineStart = lineEnd + 1;
  }
  return out;
}

/**
 * method.dependency_missing (kind requirement) for each requirement of the tree's
 * requirements.txt (at its root): this runtime runs JavaScript functions and installs no Python.
 */
export function checkRequirements(tree: MethodTree, read: TreeFileReader): Finding[] {
  if (!tree.files.has(REQUIREMENTS_FILE)) return [];
  const source = read(REQUIREMENTS_FILE);
  if (!source) return [];
  const text = source.text.charCodeAt(0) === 0xfeff ? ` ${source.text.slice(1)}` : source.text;
  return parseRequirements(text).map((r) => makeFinding('method.dependency_missing', { kind: 'requirement', name: identifier(r.name), reason: 'not_found' }, source.file, { start: r.start, end: r.end }));
}

/** The whole environment check, sorted like every other list of findings. */
export function checkEnvironment(tree: MethodTree, catalog: FunctionCatalog, read: TreeFileReader): Finding[] {
  return [...checkFunctions(tree, catalog), ...checkRequirements(tree, read)].sort(compareFindings);
}
