// Repairs written from a finding's code and params (create concept / pipe, declare / remove
// inputs), applied to the text and re-checked. Input findings are built directly: their rule may
// evolve, the repair only relies on `{pipe, variables}`.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFinding, type Finding, type TextEdit } from '../../../server/src/check/finding.js';
import { repairsFor } from '../../../server/src/ide/repairs.js';
import type { RegistryCode } from '../../../server/src/registry/index.js';
import { check, codes, HEADER, only, ROOT, treeOf } from '../../helpers/tree.js';

const MAIN = path.join(ROOT, 'main.mthds');

function apply(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.range.start - a.range.start)) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}

function inputFinding(code: 'method.input_undeclared' | 'method.input_unused', pipe: string, variables: string[], text: string): Finding {
  const at = text.indexOf(`[pipe.${pipe}]`);
  return makeFinding(code, { pipe, variables }, MAIN, { start: at, end: at + 1 });
}

const PIPE = (inputs: string, prompt: string): string => `${HEADER}\n[pipe.p]\ntype = "PipeLLM"\ndescription = "P"\n${inputs}output = "Text"\nprompt = "${prompt}"\n`;

describe('repairs: inputs', () => {
  it('declares an undeclared variable in an inline inputs table', () => {
    const text = PIPE('inputs = { text = "Text" }\n', '$text and $extra.title');
    const fixes = repairsFor(inputFinding('method.input_undeclared', 'p', ['extra.title'], text), treeOf({ 'main.mthds': text }));
    expect(fixes.map((f) => f.title)).toEqual(['Declare input `extra`']);
    const fixed = apply(text, fixes[0]!.edits);
    expect(fixed).toContain('inputs = { text = "Text", extra = "Text" }');
    expect(only(check(fixed), 'method.input_undeclared')).toEqual([]);
  });

  it('declares several at once, creating the inputs table when there is none', () => {
    const text = PIPE('', '$a $b');
    const fixes = repairsFor(inputFinding('method.input_undeclared', 'p', ['a', 'b'], text), treeOf({ 'main.mthds': text }));
    expect(fixes.map((f) => f.title)).toEqual(['Declare input `a`', 'Declare input `b`', 'Declare inputs `a`, `b`']);
    const fixed = apply(text, fixes[2]!.edits);
    expect(fixed).toContain('description = "P"\ninputs = { a = "Text", b = "Text" }\n');
    expect(codes(check(fixed)).filter((c) => c.startsWith('method.input'))).toEqual([]);
  });

  it('declares into a header inputs table', () => {
    const text = `${HEADER}\n[pipe.p]\ntype = "PipeLLM"\ndescription = "P"\noutput = "Text"\nprompt = "$a $b"\n\n[pipe.p.inputs]\na = "Text"\n`;
    const fixes = repairsFor(inputFinding('method.input_undeclared', 'p', ['b'], text), treeOf({ 'main.mthds': text }));
    const fixed = apply(text, fixes[0]!.edits);
    expect(fixed.endsWith('[pipe.p.inputs]\na = "Text"\nb = "Text"\n')).toBe(true);
    expect(codes(check(fixed)).filter((c) => c.startsWith('method.input'))).toEqual([]);
  });

  it('leaves a lone variable to the finding’s own fix', () => {
    const text = PIPE('inputs = { text = "Text" }\n', '$text $x');
    const f = inputFinding('method.input_undeclared', 'p', ['x'], text);
    f.fix = { title: 'Declare input `x` as Text', safe: false, edits: [] };
    expect(repairsFor(f, treeOf({ 'main.mthds': text }))).toEqual([]);
  });

  it('removes unused inputs one by one or together, inline or in a header table', () => {
    const text = PIPE('inputs = { a = "Text", b = "Text", c = "Text" }\n', '$b');
    const fixes = repairsFor(inputFinding('method.input_unused', 'p', ['a', 'c'], text), treeOf({ 'main.mthds': text }));
    expect(fixes.map((f) => f.title)).toEqual(['Remove unused input `a`', 'Remove unused input `c`', 'Remove unused inputs `a`, `c`']);
    expect(apply(text, fixes[0]!.edits)).toContain('inputs = { b = "Text", c = "Text" }');
    const all = apply(text, fixes[2]!.edits);
    expect(all).toContain('inputs = { b = "Text" }');
    expect(codes(check(all)).filter((c) => c.startsWith('method.input'))).toEqual([]);

    const header = `${HEADER}\n[pipe.p]\ntype = "PipeLLM"\ndescription = "P"\noutput = "Text"\nprompt = "$b"\n\n[pipe.p.inputs]\na = "Text"\nb = "Text"\n`;
    const h = repairsFor(inputFinding('method.input_unused', 'p', ['a'], header), treeOf({ 'main.mthds': header }));
    expect(apply(header, h[0]!.edits).endsWith('[pipe.p.inputs]\nb = "Text"\n')).toBe(true);
  });

  it('knows nothing of a pipe that is not there', () => {
    const text = PIPE('', '');
    expect(repairsFor(inputFinding('method.input_unused', 'p', ['zzz'], text), treeOf({ 'main.mthds': text }))).toEqual([]);
    expect(repairsFor(makeFinding('method.input_unused', { pipe: 'nope', variables: ['a'] }, MAIN, { start: 0, end: 0 }), treeOf({ 'main.mthds': text }))).toEqual([]);
  });
});

describe('repairs: declarations', () => {
  it('creates a concept stub and a pipe signature stub that check clean', () => {
    const text = `${HEADER}\n[pipe.go]\ntype = "PipeSequence"\ndescription = "Go"\ninputs = { text = "Text" }\noutput = "Report"\nsteps = [{ pipe = "write", result = "report" }]`;
    const tree = treeOf({ 'main.mthds': text });
    const findings = check({ 'main.mthds': text });
    const concept = repairsFor(only(findings, 'method.concept_unresolved')[0]!, tree);
    expect(concept.map((f) => f.title)).toEqual(['Create concept `Report`']);
    const pipe = repairsFor(only(findings, 'method.pipe_unresolved')[0]!, tree);
    expect(pipe.map((f) => f.title)).toEqual(['Create pipe `write`']);
    const fixed = apply(text, [...concept[0]!.edits, ...pipe[0]!.edits].sort((a, b) => a.range.start - b.range.start).reduce<TextEdit[]>((acc, e) => {
      // Both append at the end: merge them into one insertion.
      const last = acc[acc.length - 1];
      if (last && last.range.start === e.range.start) last.newText += e.newText;
      else acc.push({ ...e });
      return acc;
    }, []));
    expect(fixed).toContain('\n\n[concept.Report]\ndescription = "TODO: describe Report"\n');
    expect(fixed).toContain('[pipe.write]\ndescription = "TODO: describe write"\ninputs = {}\noutput = "Text"\n');
    const left = codes(check(fixed));
    expect(left).not.toContain('method.concept_unresolved');
    expect(left).not.toContain('method.pipe_unresolved');
    expect(left).not.toContain('method.schema_violation');
    expect(left).not.toContain('method.pipe_type_invalid');
  });

  it('creates nothing for package references, natives or invalid codes', () => {
    const tree = treeOf({ 'main.mthds': HEADER });
    const f = (params: Record<string, unknown>, code: RegistryCode = 'method.concept_unresolved'): Finding => makeFinding(code, params, MAIN, { start: 0, end: 0 });
    expect(repairsFor(f({ concept: 'dep->x.Thing', suggestions: [] }), tree)).toEqual([]);
    expect(repairsFor(f({ concept: 'native.Thing', suggestions: [] }), tree)).toEqual([]);
    expect(repairsFor(f({ concept: 'elsewhere.Thing', suggestions: [] }), tree)).toEqual([]);
    expect(repairsFor(f({ concept: 'lowercase', suggestions: [] }), tree)).toEqual([]);
    expect(repairsFor(f({ pipe: 'a', missing: 'Bad-Name', candidates: [] }, 'method.pipe_unresolved'), tree)).toEqual([]);
  });
});
