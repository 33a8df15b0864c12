// Findings and fixes (offsets into file texts) as LSP diagnostics and workspace edits (URIs and
// line/character positions). Positions are UTF-16, LSP's default encoding, like the offsets.

import type { Diagnostic, Range as LspRange, TextEdit as LspTextEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { Finding, Fix, Severity, TextEdit } from '../check/finding.js';
import { codeDocumentationUrl } from '../registry/docs.js';
import { rangeToLspRange } from '../syntax/positions.js';
import type { Range } from '../syntax/types.js';

/** Where conversions find the URI and the line starts of each file. */
export interface TextLocator {
  uriOf(file: string): string;
  lineStartsOf(file: string): readonly number[];
}

export const DIAGNOSTIC_SOURCE = 'mthds';

/**
 * The `data` of a diagnostic: its registry parameters. Its fixes are not sent with it: a code action
 * reads them from the server's findings, and a branch switch publishing 2,000 diagnostics with five
 * fixes each (every edit naming its file's URI) sent megabytes that clients parsed for nothing.
 */
export interface DiagnosticData {
  params: Record<string, unknown>;
}

const SEVERITY: Record<Severity, 1 | 2 | 3> = { error: 1, warning: 2, information: 3 };

export function toLspRange(locator: TextLocator, file: string, range: Range): LspRange {
  // The start of a file needs no line starts: a file's own finding there (a document too large to
  // analyse, whose line starts would cost a pass over megabytes) is placed without them.
  if (range.end === 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return rangeToLspRange(locator.lineStartsOf(file), range);
}

/** One link per code, shared by its diagnostics (a file may have tens of thousands of one code). */
const codeDescriptions = new Map<string, { href: string }>();

function codeDescriptionOf(code: string): { href: string } {
  let description = codeDescriptions.get(code);
  if (!description) codeDescriptions.set(code, (description = { href: codeDocumentationUrl(code) }));
  return description;
}

export function findingToDiagnostic(finding: Finding, locator: TextLocator): Diagnostic {
  const data: DiagnosticData = { params: finding.params };
  const diagnostic: Diagnostic = {
    range: toLspRange(locator, finding.file, finding.range),
    severity: SEVERITY[finding.severity],
    code: finding.code,
    codeDescription: codeDescriptionOf(finding.code),
    source: DIAGNOSTIC_SOURCE,
    message: finding.message,
    data,
  };
  if (finding.related && finding.related.length > 0) {
    diagnostic.relatedInformation = finding.related.map((r) => ({
      location: { uri: locator.uriOf(r.file), range: toLspRange(locator, r.file, r.range) },
      message: r.message,
    }));
  }
  return diagnostic;
}

/** Model edits (possibly over several files) as one workspace edit, edits of a file in order. */
export function editsToWorkspaceEdit(edits: readonly TextEdit[], locator: TextLocator): WorkspaceEdit {
  const changes: Record<string, LspTextEdit[]> = {};
  const sorted = [...edits].sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  for (const e of sorted) {
    const uri = locator.uriOf(e.file);
    (changes[uri] ??= []).push({ range: toLspRange(locator, e.file, e.range), newText: e.newText });
  }
  return { changes };
}

export function fixToWorkspaceEdit(fix: Fix, locator: TextLocator): WorkspaceEdit {
  return editsToWorkspaceEdit(fix.edits, locator);
}
