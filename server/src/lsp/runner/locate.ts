// Where a runner's validation error belongs in the editor: its file/line/column when the runner
// gives them (this toolkit's runner does), else the pipe or concept it names, located in the
// bundles (the reference runner gives codes only), else the start of the file (or of the first
// bundle). Offsets, like findings: the diagnostics feature converts them.

import type { Bundle } from '../../language/model.js';
import type { MethodTree } from '../../language/tree.js';
import type { ValidationErrorWire } from '../../protocol/types.js';
import { getEntry } from '../../syntax/lookup.js';
import { positionToOffset } from '../../syntax/positions.js';
import type { Range } from '../../syntax/types.js';

export interface LocatedRunnerError {
  file: string;
  range: Range;
  code: string;
  message: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined;
}

/** The word at an offset (a name, a dotted reference or a quoted string), for a start without an end. */
function wordAt(text: string, start: number): Range {
  if (text[start] === '"') {
    const close = text.indexOf('"', start + 1);
    const eol = text.indexOf('\n', start);
    if (close > start && (eol < 0 || close < eol)) return { start, end: close + 1 };
  }
  let end = start;
  while (end < text.length && /[A-Za-z0-9_.\-[\]]/.test(text[end]!)) end += 1;
  return { start, end: end > start ? end : Math.min(start + 1, text.length) };
}

/**
 * Locates each error. `names` maps the names sent as mthds_sources (and any name the runner may use
 * for a file: its path, its base name) to the file.
 */
export function locateRunnerErrors(errors: readonly ValidationErrorWire[], tree: MethodTree, names: ReadonlyMap<string, string>): LocatedRunnerError[] {
  const byFile = new Map(tree.bundles.map((b) => [b.file, b]));
  return errors.map((error) => {
    const code = str(error.code) ?? str(error.category) ?? 'runner';
    const message = str(error.message) ?? code;
    const named = str(error.file) ?? str(error.source);
    const file = named !== undefined ? names.get(named) ?? names.get(named.split(/[\\/]/).pop() ?? named) : undefined;
    const bundle = file !== undefined ? byFile.get(file) : undefined;
    const line = int(error.line);
    if (bundle && line !== undefined) {
      const text = bundle.doc.text;
      const ls = bundle.doc.lineStarts;
      const start = positionToOffset(ls, text, { line: line - 1, character: (int(error.column) ?? 1) - 1 });
      const endLine = int(error.end_line);
      let range: Range;
      if (endLine !== undefined) {
        const end = positionToOffset(ls, text, { line: endLine - 1, character: (int(error.end_column) ?? 1) - 1 });
        range = end > start ? { start, end } : wordAt(text, start);
      } else range = wordAt(text, start);
      return { file: bundle.file, range, code, message };
    }
    const located = locateByCode(error, tree, bundle);
    if (located) return { ...located, code, message };
    const fallback = bundle ?? tree.bundles[0];
    return { file: fallback?.file ?? file ?? '', range: { start: 0, end: 0 }, code, message };
  });
}

/** The pipe or concept an error names (with its field when given), in its bundle or its domain. */
function locateByCode(error: ValidationErrorWire, tree: MethodTree, bundle: Bundle | undefined): { file: string; range: Range } | undefined {
  const domain = str(error.domain_code);
  const candidates = bundle ? [bundle, ...tree.bundles.filter((b) => b !== bundle)] : tree.bundles;
  const inDomain = (b: Bundle): boolean => domain === undefined || b.domain?.value === domain;
  const pipeCode = str(error.pipe) ?? str(error.pipe_code);
  if (pipeCode !== undefined) {
    const code = pipeCode.split('.').pop()!;
    for (const b of candidates) {
      if (!inDomain(b)) continue;
      const pipe = b.pipes.find((p) => p.code === code);
      if (!pipe) continue;
      // `field` / `field_path` (e.g. `prompt` or `pipe.x.prompt`): the key inside the pipe.
      const field = str(error.field) ?? str(error.field_path);
      const key = field?.replace(new RegExp(`^pipe\\.${code}\\.`), '').split('.')[0];
      const entry = key !== undefined ? getEntry(pipe.table, key) : undefined;
      return { file: b.file, range: entry ? entry.keyRange : pipe.codeRange };
    }
  }
  const conceptCode = str(error.concept) ?? str(error.concept_code);
  if (conceptCode !== undefined) {
    const code = conceptCode.split('.').pop()!;
    for (const b of candidates) {
      if (!inDomain(b)) continue;
      const concept = b.concepts.find((c) => c.code === code);
      if (concept) return { file: b.file, range: concept.codeRange };
    }
  }
  return undefined;
}
