// Code actions from findings without a server: kinds, dedupe, fixAll without overlaps.

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../server/src/check/finding.js';
import { makeFinding } from '../../../server/src/check/finding.js';
import { codeActions, fixAllEdits, kindWanted } from '../../../server/src/lsp/codeActions.js';
import type { TextLocator } from '../../../server/src/lsp/convert.js';
import { computeLineStarts } from '../../../server/src/syntax/positions.js';
import { HEADER, treeOf } from '../../helpers/tree.js';
import path from 'node:path';
import { ROOT } from '../../helpers/tree.js';

const FILE = path.join(ROOT, 'main.mthds');

function finding(start: number, end: number, safe: boolean, newText = 'x'): Finding {
  return makeFinding('method.syntax', { finding: 'f' }, FILE, { start, end }, { fix: { title: `fix ${start}`, safe, edits: [{ file: FILE, range: { start, end }, newText }] } });
}

describe('kindWanted', () => {
  it('matches kinds and their parents', () => {
    expect(kindWanted('source.fixAll.mthds', undefined)).toBe(true);
    expect(kindWanted('source.fixAll.mthds', ['source'])).toBe(true);
    expect(kindWanted('source.fixAll.mthds', ['source.fixAll'])).toBe(true);
    expect(kindWanted('source.fixAll.mthds', ['quickfix'])).toBe(false);
    expect(kindWanted('quickfix', ['source.fixAll'])).toBe(false);
    expect(kindWanted('source.fixAllx', ['source.fixAll'])).toBe(false);
  });
});

describe('fixAllEdits', () => {
  it('takes safe fixes in order and leaves out overlapping ones', () => {
    const edits = fixAllEdits([finding(0, 5, true), finding(3, 8, true), finding(8, 9, true), finding(10, 12, false), finding(20, 20, true), finding(20, 20, true)], undefined);
    expect(edits.map((e) => [e.range.start, e.range.end])).toEqual([[0, 5], [8, 9], [20, 20]]);
  });
});

describe('codeActions', () => {
  const text = `${HEADER}\n[pipe.a]\ntype = "PipeLLM"\n`;
  const locator: TextLocator = { uriOf: (f) => `file://${f}`, lineStartsOf: () => computeLineStarts(text) };
  const params = (line: number, only?: string[]) => ({
    textDocument: { uri: `file://${FILE}` },
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    context: only ? { diagnostics: [], only } : { diagnostics: [] },
  });

  it('offers the fix once (preferred when safe) and alternatives, for findings under the range', () => {
    const f = finding(0, 6, true);
    f.alternatives = [f.fix!, { title: 'other', safe: false, edits: [{ file: FILE, range: { start: 0, end: 6 }, newText: 'y' }] }];
    const far = finding(40, 41, false);
    const actions = codeActions({ params: params(0), file: FILE, text, lineStarts: computeLineStarts(text), findings: [f, far], tree: treeOf({ 'main.mthds': text }), locator });
    expect(actions.map((a) => [a.title, a.kind, a.isPreferred ?? false])).toEqual([
      ['fix 0', 'quickfix', true],
      ['other', 'quickfix', false],
    ]);
    // No fix-all: its one fix (\`x\` over \`domain\`) breaks the bundle, so the re-check rolls it back.
    expect(actions[0]!.diagnostics![0]!.code).toBe('method.syntax');
    const onlyFixAll = codeActions({ params: params(0, ['source.fixAll.mthds']), file: FILE, text, lineStarts: computeLineStarts(text), findings: [f, far], tree: undefined, locator });
    expect(onlyFixAll.map((a) => a.kind)).toEqual(['source.fixAll.mthds']);
  });
});
