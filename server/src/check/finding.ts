// Findings: what a check reports. Plain data with offsets; the CLI, the language server and the
// runner each translate them (lines and columns, LSP diagnostics, problem items).

import { renderDetail } from '../registry/detail.js';
import type { RegistryCode } from '../registry/codes.js';
import { getEntry as getRegistryEntry } from '../registry/lookup.js';
import type { Range } from '../syntax/types.js';

export type Severity = 'error' | 'warning' | 'information';

export interface TextEdit {
  file: string;
  range: Range;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** Safe fixes may be applied without review (source.fixAll). */
  safe: boolean;
}

export interface RelatedLocation {
  file: string;
  range: Range;
  message: string;
}

export interface Finding {
  /** A registry code (`method.*`). */
  code: string;
  params: Record<string, unknown>;
  file: string;
  range: Range;
  /** Rendered from the registry's detail template. */
  message: string;
  severity: Severity;
  related?: RelatedLocation[];
  fix?: Fix;
  /** Alternative repairs ("Did you mean X?"), likeliest first. */
  alternatives?: Fix[];
}

export interface FindingOptions {
  related?: RelatedLocation[];
  fix?: Fix;
  alternatives?: Fix[];
  severity?: Severity;
}

/** Typed by registry code, so that a misspelt code does not compile. */
export function makeFinding(code: RegistryCode, params: Record<string, unknown>, file: string, range: Range, options: FindingOptions = {}): Finding {
  const entry = getRegistryEntry(code);
  const severity = options.severity ?? (entry?.raisedAs === 'warning' ? 'warning' : 'error');
  const finding: Finding = { code, params, file, range, message: renderDetail(code, params), severity };
  if (options.related && options.related.length > 0) finding.related = options.related;
  if (options.fix) finding.fix = options.fix;
  if (options.alternatives && options.alternatives.length > 0) finding.alternatives = options.alternatives;
  return finding;
}

/** A one-edit fix replacing a range of one file. */
export function replaceFix(title: string, file: string, range: Range, newText: string, safe = true): Fix {
  return { title, edits: [{ file, range, newText }], safe };
}

/**
 * The fixes of a finding's suggestions ("did you mean"), likeliest first: a lone one is the
 * finding's (safe) fix, since the replacement is unambiguous (`mthds check --fix` and fix-all roll
 * it back should it bring an error); several are alternatives for the author to choose from.
 */
export function suggestionFixes(fixes: readonly Fix[]): Pick<FindingOptions, 'fix' | 'alternatives'> {
  if (fixes.length === 0) return {};
  return fixes.length === 1 ? { fix: { ...fixes[0]!, safe: true }, alternatives: [...fixes] } : { alternatives: [...fixes] };
}

/** Sort by file, then position, then code: the order every output uses. */
export function compareFindings(a: Finding, b: Finding): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start - b.range.start || a.range.end - b.range.end || a.code.localeCompare(b.code);
}
