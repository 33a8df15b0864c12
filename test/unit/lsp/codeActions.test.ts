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
  it('takes safe fixes in order and leaves out overlapping ones', async () => {
    const edits = await fixAllEdits([finding(0, 5, true), finding(3, 8, true), finding(8, 9, true), finding(10, 12, false), finding(20, 20, true), finding(20, 20, true)], undefined);
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

  it('offers the fix once (preferred when safe) and alternatives, for findings under the range', async () => {
    const f = finding(0, 6, true);
    f.alternatives = [f.fix!, { title: 'other', safe: false, edits: [{ file: FILE, range: { start: 0, end: 6 }, newText: 'y' }] }];
    const far = finding(40, 41, false);
    const actions = await codeActions({ params: params(0), file: FILE, text, lineStarts: computeLineStarts(text), findings: [f, far], tree: treeOf({ 'main.mthds': text }), locator });
    expect(actions.map((a) => [a.title, a.kind, a.isPreferred ?? false])).toEqual([
      ['fix 0', 'quickfix', true],
      ['other', 'quickfix', false],
    ]);
    // No fix-all: its one fix (\`x\` over \`domain\`) breaks the bundle, so the re-check rolls it back.
    expect(actions[0]!.diagnostics![0]!.code).toBe('method.syntax');
    const onlyFixAll = await codeActions({ params: params(0, ['source.fixAll.mthds']), file: FILE, text, lineStarts: computeLineStarts(text), findings: [f, far], tree: undefined, locator });
    expect(onlyFixAll.map((a) => a.kind)).toEqual(['source.fixAll.mthds']);
  });
});

describe('fixAllEdits on a large tree', () => {
  it('re-checks in slices that let other work through, and keeps what keepHarmlessFixes keeps', async () => {
    const pipeText = (i: number, reads: boolean) => `[pipe.p${i}]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\nprompt = "${reads ? 'Read $doc' : 'Write'}"\n`;
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`b${i}.mthds`] = `domain = "d${i % 20}"\ndescription = "bundle ${i}"\n\n${pipeText(i, true)}`;
    const tree = treeOf(files);
    const bundle = tree.bundles[7]!;
    const p = bundle.pipes[0]!;
    const description = p.table.entries.find((e) => e.key === 'description')!.value.range;
    const inputs = p.table.entries.find((e) => e.key === 'inputs')!.value.range;
    const findings = [
      makeFinding('method.syntax', { finding: 'a' }, bundle.file, description, { fix: { title: 'describe', safe: true, edits: [{ file: bundle.file, range: description, newText: '"better"' }] } }),
      // Harmful: the prompt reads `doc`.
      makeFinding('method.syntax', { finding: 'b' }, bundle.file, inputs, { fix: { title: 'drop inputs', safe: true, edits: [{ file: bundle.file, range: inputs, newText: '{}' }] } }),
    ];
    let pauses = 0;
    const pause = async (): Promise<void> => {
      pauses += 1;
      await new Promise<void>((r) => setImmediate(r));
    };
    // Slices of one step each: how many steps a slice of time holds depends on the machine.
    const first = fixAllEdits(findings, tree, pause, 0);
    // Asked again while the re-check runs: the same answer, from the same re-check.
    const again = fixAllEdits(findings, tree, pause, 0);
    const edits = await first;
    expect(await again).toEqual(edits);
    expect(edits).toEqual([{ file: bundle.file, range: description, newText: '"better"' }]);
    expect(pauses).toBeGreaterThan(2);
    const before = pauses;
    expect(await fixAllEdits(findings, tree, pause, 0)).toEqual(edits);
    expect(pauses).toBe(before);
  });
});
