// The conversion layer: findings (UTF-16 offsets) to LSP diagnostics and workspace edits.

import { describe, expect, it } from 'vitest';
import { makeFinding, type Finding } from '../../../server/src/check/finding.js';
import { editsToWorkspaceEdit, findingToDiagnostic, fixToWorkspaceEdit, type TextLocator } from '../../../server/src/lsp/convert.js';
import { computeLineStarts } from '../../../server/src/syntax/positions.js';

const TEXTS: Record<string, string> = {
  '/w/a.mthds': 'domain = "demo"\r\n# 😀 emoji takes two code units\r\noutput = "Nope"\n',
  '/w/b.mthds': 'line0\nline1\n',
};

const locator: TextLocator = {
  uriOf: (file) => `file://${file}`,
  lineStartsOf: (file) => computeLineStarts(TEXTS[file] ?? ''),
};

function offsetOf(file: string, search: string): number {
  const at = TEXTS[file]!.indexOf(search);
  if (at < 0) throw new Error(search);
  return at;
}

describe('findingToDiagnostic', () => {
  it('carries code, link, source, severity, message and an exact UTF-16 range', () => {
    const start = offsetOf('/w/a.mthds', 'Nope');
    const finding = makeFinding('method.concept_unresolved', { concept: 'Nope', suggestions: [] }, '/w/a.mthds', { start, end: start + 4 });
    const d = findingToDiagnostic(finding, locator);
    expect(d.code).toBe('method.concept_unresolved');
    expect(d.codeDescription?.href).toMatch(/#method-concept_unresolved$/);
    expect(d.source).toBe('mthds');
    expect(d.severity).toBe(1);
    expect(d.message).toBe(finding.message);
    expect(d.range).toEqual({ start: { line: 2, character: 10 }, end: { line: 2, character: 14 } });
    expect(d.data).toEqual({ params: { concept: 'Nope', suggestions: [] } });
    expect(d.relatedInformation).toBeUndefined();
  });

  it('counts characters in UTF-16 code units after an astral character', () => {
    const start = offsetOf('/w/a.mthds', 'emoji');
    const finding: Finding = { ...makeFinding('method.syntax', { finding: 'x' }, '/w/a.mthds', { start, end: start + 5 }), severity: 'warning' };
    const d = findingToDiagnostic(finding, locator);
    // `# ` (2) + the emoji (2 code units) + a space.
    expect(d.range.start).toEqual({ line: 1, character: 5 });
    expect(d.severity).toBe(2);
    expect(findingToDiagnostic({ ...finding, severity: 'information' }, locator).severity).toBe(3);
  });

  it('converts related locations to URIs and LSP ranges of their own files; the data holds the parameters, not the fixes', () => {
    const finding = makeFinding('method.name_conflict', { kind: 'pipe', name: 'x' }, '/w/a.mthds', { start: 0, end: 6 }, {
      related: [{ file: '/w/b.mthds', range: { start: 6, end: 11 }, message: 'also declared here' }],
      fix: { title: 'Rename', safe: true, edits: [{ file: '/w/b.mthds', range: { start: 6, end: 11 }, newText: 'renamed' }] },
      alternatives: [{ title: 'Delete', safe: false, edits: [{ file: '/w/a.mthds', range: { start: 0, end: 0 }, newText: '' }] }],
    });
    const d = findingToDiagnostic(finding, locator);
    expect(d.relatedInformation).toEqual([{ location: { uri: 'file:///w/b.mthds', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 5 } } }, message: 'also declared here' }]);
    // Code actions read the fixes from the server's findings: published diagnostics do not carry them.
    expect(d.data).toEqual({ params: { kind: 'pipe', name: 'x' } });
    expect(fixToWorkspaceEdit(finding.fix!, locator)).toEqual({ changes: { 'file:///w/b.mthds': [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 5 } }, newText: 'renamed' }] } });
  });
});

describe('editsToWorkspaceEdit', () => {
  it('groups edits by URI, in document order', () => {
    const edit = editsToWorkspaceEdit(
      [
        { file: '/w/b.mthds', range: { start: 6, end: 7 }, newText: 'L' },
        { file: '/w/a.mthds', range: { start: 2, end: 3 }, newText: 'x' },
        { file: '/w/b.mthds', range: { start: 0, end: 1 }, newText: 'l' },
      ],
      locator,
    );
    expect(Object.keys(edit.changes!)).toEqual(['file:///w/b.mthds', 'file:///w/a.mthds']);
    expect(edit.changes!['file:///w/b.mthds']!.map((e) => e.newText)).toEqual(['l', 'L']);
    expect(edit.changes!['file:///w/b.mthds']![1]!.range).toEqual({ start: { line: 1, character: 0 }, end: { line: 1, character: 1 } });
  });
});
