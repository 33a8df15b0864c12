// The function registry of PipeFunc (language reference §5.3): JavaScript functions registered by
// ES modules the configuration names (the runner's `functions`, `mthds serve --functions`,
// `mthds check --functions`). A PipeFunc's `function_name` is looked up here; its declared output
// is checked against the pipe's output by check/rules/functions.ts, and the executor calls `run`
// (execute/operators/func.ts).
//
// A function module registers functions by its exports:
//
//   export const shout = { output: 'Text', run: ({ text }) => text.text.toUpperCase() };
//   export default { split_words: { output: 'Text[]', run: async ({ text }) => text.text.split(' ') } };
//
// Every named export and every member of a default-exported object is one registration, under
// its name: `{ output, run }`, or a function carrying an `output` property. `output` is the
// concept reference the function returns, with `[]` (or `[N]`) when it returns a list; `run`
// receives the pipe's inputs by name (contents as in working memory: a list input is an array of
// items) and a context `{ pipe, signal }`, and returns the output content (or a promise of it).

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { declaredOutputFault, type FunctionCatalog, type FunctionCatalogEntry } from '../check/rules/functions.js';
import { regularFileFault } from '../workspace/readText.js';

export interface FunctionCallContext {
  /** Code of the pipe calling the function. */
  pipe: string;
  /** Aborted when the run is cancelled or times out. */
  signal: AbortSignal;
}

export type FunctionRun = (inputs: Record<string, unknown>, context: FunctionCallContext) => unknown;

export interface RegisteredFunction {
  name: string;
  /** The module registering it (its label). */
  module: string;
  output: string;
  run: FunctionRun;
}

export interface FunctionRegistry {
  /** Labels of the configured modules, in order. */
  modules: readonly string[];
  /** The usable functions: well formed and registered once. */
  functions: ReadonlyMap<string, RegisteredFunction>;
  /** Every registered name, usable or not, and the import faults: what the checks read. */
  catalog: FunctionCatalog;
  /** Names registered by more than one module (each name with its modules). */
  duplicates: ReadonlyMap<string, readonly string[]>;
}

/** How a module is named in findings and logs: relative to the working folder when inside it. */
export function moduleLabel(file: string, cwd = process.cwd()): string {
  const rel = path.relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

/** An import error in one line, without its stack, the module's absolute path replaced by its label. */
function importMessage(error: unknown, file: string, label: string): string {
  const raw = error instanceof Error ? error.message : String(error);
  const first = raw.split('\n').find((l) => l.trim() !== '') ?? 'unknown error';
  const href = pathToFileURL(file).href;
  const message = first.split(href).join(label).split(file).join(label).trim();
  return message.length > 500 ? `${message.slice(0, 499)}…` : message;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A registration as written: its output and run function, or why it cannot be used. */
function readEntry(value: unknown): { output: string; run: FunctionRun } | { fault: string } {
  let output: unknown;
  let run: unknown;
  if (typeof value === 'function') {
    output = (value as unknown as Record<string, unknown>)['output'];
    run = value;
  } else if (isRecord(value)) {
    output = value['output'];
    run = value['run'];
  } else return { fault: 'its registration is neither an object { output, run } nor a function' };
  if (typeof run !== 'function') return { fault: 'its registration has no run function' };
  const fault = declaredOutputFault(output);
  if (fault !== undefined) return { fault };
  return { output: output as string, run: run as FunctionRun };
}

/**
 * Imports the modules (absolute paths, in order) and builds the registry. Never throws: a module
 * that cannot be imported, a malformed registration and a name registered twice are recorded
 * for the checks, which report them on the PipeFunc pipes that use them.
 */
export async function loadFunctionRegistry(files: readonly string[], cwd = process.cwd()): Promise<FunctionRegistry> {
  const modules: string[] = [];
  const importFaults: Array<{ module: string; message: string }> = [];
  const found = new Map<string, Array<{ module: string; value: unknown }>>();
  for (const file of files) {
    const label = moduleLabel(file, cwd);
    modules.push(label);
    let namespace: Record<string, unknown>;
    // A FIFO or a device would hold the import forever: only a regular file is imported.
    const fault = regularFileFault(file);
    if (fault && fault.kind !== 'missing') {
      importFaults.push({ module: label, message: `the file ${fault.message}` });
      continue;
    }
    try {
      namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      importFaults.push({ module: label, message: importMessage(error, file, label) });
      continue;
    }
    const own = new Map<string, unknown>();
    for (const [name, value] of Object.entries(namespace)) if (name !== 'default') own.set(name, value);
    const fallback = namespace['default'];
    if (fallback !== undefined) {
      if (!isRecord(fallback)) {
        importFaults.push({ module: label, message: 'its default export is not an object of functions' });
        continue;
      }
      for (const [name, value] of Object.entries(fallback)) {
        // The same registration exported both ways is one registration.
        if (own.has(name) && own.get(name) !== value) own.set(name, Symbol.for('mthds.duplicate'));
        else own.set(name, value);
      }
    }
    for (const [name, value] of own) {
      const list = found.get(name) ?? [];
      list.push({ module: label, value });
      found.set(name, list);
    }
  }
  const functions = new Map<string, RegisteredFunction>();
  const entries = new Map<string, FunctionCatalogEntry>();
  const duplicates = new Map<string, string[]>();
  for (const [name, list] of found) {
    if (list.length > 1 || list[0]!.value === Symbol.for('mthds.duplicate')) {
      const where = [...new Set(list.map((l) => l.module))];
      duplicates.set(name, where);
      entries.set(name, { fault: where.length > 1 ? `it is registered by several function modules: ${where.join(', ')}` : `the module ${where[0]} registers it twice (as a named export and in its default export)` });
      continue;
    }
    const { module, value } = list[0]!;
    const entry = readEntry(value);
    if ('fault' in entry) {
      entries.set(name, { fault: entry.fault });
      continue;
    }
    entries.set(name, { output: entry.output });
    functions.set(name, { name, module, output: entry.output, run: entry.run });
  }
  return { modules, functions, catalog: { entries, importFaults }, duplicates };
}

/** Lines for an operator's log: modules that failed to import and names registered twice. */
export function registryWarnings(registry: FunctionRegistry): string[] {
  const lines = registry.catalog.importFaults.map((f) => `function module ${f.module} cannot be imported: ${f.message}`);
  for (const [name, where] of registry.duplicates) lines.push(`function ${name} is registered more than once (${where.join(', ')}); PipeFunc pipes calling it are refused`);
  return lines;
}
