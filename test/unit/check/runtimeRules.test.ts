// The rules of the newest reference runtime (language reference, corrections of 2026-11-24):
// Markdown as a native, PipeParallel outputs, maybe-absent branches, `item_type` naming a concept,
// and no cascade after an unresolved step.

import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../server/src/check/applyFixes.js';
import { HEADER, check, codes, only, textAt } from '../../helpers/tree.js';

const func = (code: string, inputs: string, output: string): string => `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "${output}"\nfunction_name = "f"\n`;
const par = (inputs: string, output: string, branches: string): string => `[pipe.p]\ntype = "PipeParallel"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "${output}"\nbranches = [${branches}]\n`;
const CONCEPTS = `[concept]
Note = "A description-only concept"
[concept.Brief]
description = "A brief"
refines = "Text"
[concept.Report]
description = "A report"
[concept.Report.structure]
summary = { type = "text", description = "S", required = true }
score = { type = "number", description = "N", required = true }
`;
const bundle = (...parts: string[]): string => `${HEADER}${CONCEPTS}${parts.join('\n')}`;

describe('Markdown is a native refining Text', () => {
  it('resolves without a declaration and is accepted wherever Text is', () => {
    const text = bundle(func('write', 'a = "Text"', 'Markdown'), func('read', 'md = "Text"', 'Text'), `[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nsteps = [{ pipe = "write", result = "md" }, { pipe = "read", result = "r" }]\n`);
    expect(check(text)).toEqual([]);
  });
  it('is not a place for a concept of the same name', () => {
    expect(codes(check(`${HEADER}[concept]\nMarkdown = "mine"\n`))).toContain('method.name_conflict');
  });
  it('walks into no field (a leaf, like Text)', () => {
    const text = bundle(func('write', 'a = "Text"', 'Markdown'), `[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nsteps = [{ pipe = "write", result = "md" }, { from = "md.body", result = "b" }]\n`);
    expect(only(check(text), 'method.field_path_unresolved')).toHaveLength(1);
  });
});

describe('PipeParallel outputs, in the runtime order', () => {
  it('a description-only output has the one required field `text`', () => {
    const wrong = check(bundle(func('w', 'a = "Text"', 'Text'), par('a = "Text"', 'Note', '{ pipe = "w", result = "body" }')));
    expect(only(wrong, 'method.wiring_invalid').map((f) => f.params['variable_path']).sort()).toEqual(['body', 'text']);
    expect(check(bundle(func('w', 'a = "Text"', 'Text'), par('a = "Text"', 'Note', '{ pipe = "w", result = "text" }')))).toEqual([]);
  });
  it('a Text-refining output too', () => {
    const wrong = check(bundle(func('w', 'a = "Text"', 'Text'), par('a = "Text"', 'Brief', '{ pipe = "w", result = "draft" }')));
    expect(only(wrong, 'method.wiring_invalid').map((f) => f.params['variable_path']).sort()).toEqual(['draft', 'text']);
  });
  it('`add_each_output` changes nothing: the runtime combines the branches into the output all the same', () => {
    const each = (output: string): string => bundle(func('w', 'a = "Text"', 'Brief'), func('n', 'a = "Text"', 'Text'), par('a = "Text"', output, '{ pipe = "w", result = "brief" }, { pipe = "n", result = "notes" }').replace('branches =', 'add_each_output = true\nbranches ='));
    const wrong = check(each('Brief'));
    expect(only(wrong, 'method.wiring_invalid').map((f) => f.params['variable_path']).sort()).toEqual(['brief', 'notes', 'text']);
    expect(check(each('Composite'))).toEqual([]);
  });
  it('a refinement of another native holds that native\'s fields (Number: `number`, JSON: `json_obj`)', () => {
    const refined = (native: string, result: string, branch: string): string[] =>
      check(bundle(`[concept.Derived]\ndescription = "D"\nrefines = "${native}"\n`, func('w', 'a = "Text"', branch), par('a = "Text"', 'Derived', `{ pipe = "w", result = "${result}" }`)))
        .map((f) => `${f.code} ${String(f.params['variable_path'])}`)
        .sort();
    expect(refined('Number', 'total', 'Number')).toEqual(['method.wiring_invalid number', 'method.wiring_invalid total']);
    expect(refined('Number', 'number', 'Number')).toEqual([]);
    expect(refined('JSON', 'payload', 'JSON')).toEqual(['method.wiring_invalid json_obj', 'method.wiring_invalid payload']);
    // Every field of TextAndImages is optional: only names outside it are refused.
    expect(refined('TextAndImages', 'text', 'Text')).toEqual([]);
    expect(refined('TextAndImages', 'caption', 'Text')).toEqual(['method.wiring_invalid caption']);
  });
  it('a refinement of Composite holds any branch names', () => {
    const text = bundle('[concept.Bundle]\ndescription = "B"\nrefines = "Composite"\n', func('w', 'a = "Text"', 'Text'), par('a = "Text"', 'Bundle', '{ pipe = "w", result = "anything" }'));
    expect(check(text)).toEqual([]);
  });
  it('Dynamic is refused like every native but Composite', () => {
    const found = check(bundle(func('w', 'a = "Text"', 'Text'), par('a = "Text"', 'Dynamic', '{ pipe = "w", result = "x" }')));
    expect(found.map((f) => [f.code, f.params['expected']])).toEqual([['method.output_concept_mismatch', ['Composite', 'a structured concept']]]);
  });
  it('a list marker is reported alone: no native and no field findings on top', () => {
    const found = check(bundle(func('w', 'a = "Text"', 'Text'), par('a = "Text"', 'Report[]', '{ pipe = "w", result = "other" }')));
    expect(codes(found)).toEqual(['method.output_multiplicity_mismatch']);
    const native = check(bundle(func('w', 'a = "Text"', 'Text'), par('a = "Text"', 'Page[]', '{ pipe = "w", result = "other" }')));
    expect(codes(native)).toEqual(['method.output_multiplicity_mismatch']);
  });
  it('a native other than Composite is reported without field findings', () => {
    expect(codes(check(bundle(func('w', 'a = "Text"', 'Text'), par('a = "Text"', 'Text', '{ pipe = "w", result = "other" }'))))).toEqual(['method.output_concept_mismatch']);
  });
  it('fields come before branch types, branch types before absence: each stage only when the one before passed', () => {
    const dossier = `[concept.Dossier]\ndescription = "D"\n[concept.Dossier.structure]\ncover = { type = "concept", concept_ref = "Image", description = "C", required = true }\nscore = { type = "number", description = "N", required = true }\n`;
    const branches = (extra: string): string => `{ pipe = "w", result = "cover" }, { pipe = "n", result = "score" }${extra}`;
    const text = (output: string, extra: string): string => bundle(dossier, func('w', 'a = "Text"', output), func('n', 'a = "Text"', 'Number'), par('a = "Text"', 'Dossier', branches(extra)));
    expect(codes(check(text('Document?', ', { pipe = "n", result = "extra" }')))).toEqual(['method.wiring_invalid']);
    expect(codes(check(text('Document?', '')))).toEqual(['method.output_concept_mismatch']);
    expect(codes(check(text('Image?', '')))).toEqual(['method.optional_unhandled']);
    expect(check(text('Image', ''))).toEqual([]);
  });
});

describe('maybe-absent branches', () => {
  const report = (branchInputs: string, parInputs: string, output = 'Text'): string =>
    bundle(func('w', branchInputs, output), func('n', 'a = "Text"', 'Number'), par(parInputs, 'Report', '{ pipe = "w", result = "summary" }, { pipe = "n", result = "score" }'));
  it('a plain input of the branch pipe fed by a `?` single input of the parallel', () => {
    const found = only(check(report('a = "Text", extra = "Text"', 'a = "Text", extra = "Text?"')), 'method.optional_unhandled');
    expect(found.map((f) => f.params)).toEqual([{ pipe: 'p', input: 'summary', site: 'parallel_branch' }]);
  });
  it('not when the branch input is itself `?`, nor when the parallel input is a list', () => {
    expect(only(check(report('a = "Text", extra = "Text?"', 'a = "Text", extra = "Text?"')), 'method.optional_unhandled')).toEqual([]);
    expect(only(check(report('a = "Text", extra = "Text"', 'a = "Text", extra = "Text[]?"')), 'method.optional_unhandled')).toEqual([]);
  });
  it('plural branch results are exempt', () => {
    const text = `${HEADER}[concept.Pack]\ndescription = "p"\n[concept.Pack.structure]\nitems = { type = "list", item_type = "text", description = "I", required = true }\n${func('w', 'a = "Text", extra = "Text"', 'Text[]')}${par('a = "Text", extra = "Text?"', 'Pack', '{ pipe = "w", result = "items" }')}`;
    expect(only(check(text), 'method.optional_unhandled')).toEqual([]);
  });
});

describe('`item_type` naming a concept', () => {
  const field = (itemType: string, inline: boolean): string =>
    inline
      ? `${HEADER}[concept.Stop]\ndescription = "A stop"\n[concept.Route]\ndescription = "A route"\n[concept.Route.structure]\nstops = { type = "list", item_type = "${itemType}", description = "Stops", required = true }\n`
      : `${HEADER}[concept.Stop]\ndescription = "A stop"\n[concept.Route]\ndescription = "A route"\n[concept.Route.structure.stops]\ntype = "list"\nitem_type = "${itemType}"\ndescription = "Stops"\nrequired = true\n`;
  it.each([true, false])('is a warning whose fix writes the canonical form (inline %s)', (inline) => {
    const text = field('Stop', inline);
    const found = check(text);
    expect(found.map((f) => [f.code, f.severity])).toEqual([['method.concept_invalid', 'warning']]);
    expect(textAt(text, found[0]!)).toBe('"Stop"');
    const fixed = applyEdits(text, found[0]!.fix!.edits);
    expect(fixed).toContain(inline ? 'item_type = "concept", item_concept_ref = "Stop"' : 'item_type = "concept"\nitem_concept_ref = "Stop"');
    expect(check(fixed)).toEqual([]);
  });
  it('the item concept is walked like item_concept_ref', () => {
    const text = `${field('Stop', true)}[concept.Stop.structure]\nname = "The name"\n${func('plan', 'a = "Text"', 'Route')}[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nsteps = [{ pipe = "plan", result = "route" }, { from = "route.stops.nme", result = "n" }]\n`;
    expect(only(check(text), 'method.field_path_unresolved').map((f) => f.params['available_fields'])).toEqual([['name']]);
  });
  it('neither a scalar type nor a concept that resolves stays an error', () => {
    expect(check(field('Stopp', true)).map((f) => [f.code, f.severity])).toEqual([['method.concept_invalid', 'error']]);
    expect(check(field('strings', true)).map((f) => [f.code, f.severity])).toEqual([['method.concept_invalid', 'error']]);
  });
});

describe('no cascade after an unresolved step', () => {
  const seq = (steps: string): string => `[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nsteps = [${steps}]\n`;
  it('names a later step reads are not undeclared when an unresolved step could have stored them', () => {
    const found = check(`${HEADER}${func('use', 'notes = "Text"', 'Text')}${seq('{ pipe = "missing_pipe", result = "r" }, { pipe = "use", result = "u" }')}`);
    expect(codes(found)).toEqual(['method.pipe_unresolved']);
  });
  it('names read before the unresolved step are still reported', () => {
    const found = check(`${HEADER}${func('use', 'notes = "Text"', 'Text')}${seq('{ pipe = "use", result = "u" }, { pipe = "missing_pipe", result = "r" }')}`);
    expect(codes(found).sort()).toEqual(['method.input_undeclared', 'method.pipe_unresolved']);
  });
});
