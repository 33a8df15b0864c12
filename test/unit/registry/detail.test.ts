// Detail templates and parameter validation.

import { describe, expect, it } from 'vitest';
import {
  CALLER_TEXT_MAX,
  formatParamValue,
  parseTemplate,
  renderDetail,
  renderTemplate,
  RegistryUsageError,
  templateParams,
  validateParams,
  type ParamSpec,
} from '../../../server/src/registry/index.js';

describe('renderDetail', () => {
  it('fills placeholders', () => {
    expect(renderDetail('method.concept_unresolved', { concept: 'Sumary', suggestions: ['Summary'] })).toBe(
      'The concept Sumary is not defined. Did you mean: Summary?',
    );
    expect(renderDetail('input.missing', { input: 'text' })).toBe('The required input text was not given.');
  });

  it('renders lists comma-separated', () => {
    expect(renderDetail('method.input_undeclared', { pipe: 'p', variables: ['a', 'b', 'c'] })).toBe(
      'The pipe p reads variables its inputs do not declare: a, b, c.',
    );
    expect(renderDetail('method.cycle', { kind: 'refines', cycle: ['A', 'B', 'A'] })).toBe(
      'A refinement cycle runs through, in order: A, B, A.',
    );
  });

  it('renders an empty list as "none", and drops an optional segment holding one', () => {
    expect(
      renderDetail('method.field_path_unresolved', { pipe: 'p', path: 'invoice.total.x', segment: 'x', available_fields: [] }),
    ).toBe('In pipe p, the path invoice.total.x has no field x. Available fields: none.');
    expect(renderDetail('request.pipe_unspecified', { candidates: [] })).toMatch(/Candidates: none\.$/);
    expect(renderDetail('method.concept_unresolved', { concept: 'Foo', suggestions: [] })).toBe(
      'The concept Foo is not defined.',
    );
  });

  it('drops optional segments of missing optional params cleanly', () => {
    expect(renderDetail('method.package_invalid', { reason: 'symlink' })).toBe('The package breaks a rule (symlink).');
    expect(renderDetail('method.package_invalid', { reason: 'too_many_files', limit: 500 })).toBe(
      'The package breaks a rule (too_many_files); the limit is 500.',
    );
    expect(renderDetail('method.package_invalid', { reason: 'symlink', path: 'lib/a.mthds' })).toBe(
      'The package breaks a rule (symlink) at lib/a.mthds.',
    );
    expect(
      renderDetail('input.wrong_multiplicity', { input: 'docs', expected: 'list', provided_count: 1 }),
    ).toBe('The input docs must be a list (items given: 1).');
    expect(
      renderDetail('input.wrong_multiplicity', { input: 'docs', expected: 'count', expected_count: 3, provided_count: 2 }),
    ).toBe('The input docs must be a fixed-length list of exactly 3 items (items given: 2).');
    expect(renderDetail('method.pipe_type_invalid', { pipe: 'p', reason: 'missing' })).toBe(
      'The pipe p has an invalid type: it names no type.',
    );
    expect(renderDetail('method.pipe_type_invalid', { pipe: 'p', reason: 'retired', pipe_type: 'PipeOcr' })).toBe(
      'The pipe p has an invalid type PipeOcr: the type is retired.',
    );
    expect(renderDetail('mthdsls.run.cancelled', {})).toBe('The run was cancelled before it finished.');
    expect(renderDetail('mthdsls.run.cancelled', { reason: 'shutdown' })).toBe(
      'The run was cancelled before it finished (the runner is shutting down).',
    );
  });

  it('treats null as absent', () => {
    expect(renderDetail('method.package_invalid', { reason: 'symlink', path: null, limit: null })).toBe(
      'The package breaks a rule (symlink).',
    );
  });

  it('renders enum labels, bytes and seconds', () => {
    expect(renderDetail('request.malformed', { reason: 'bad_zip' })).toBe(
      'The request body could not be decoded: a zip payload is corrupt.',
    );
    expect(renderDetail('request.too_large', { limit: 10 * 1024 * 1024, size: 13_107_200 })).toBe(
      'The request, or a file in it, is 12.5 MiB (13107200 bytes), over the limit of 10 MiB (10485760 bytes).',
    );
    expect(renderDetail('account.rate_limited', { limit: 60, window: 60 })).toBe(
      'More than 60 requests were sent within 60 seconds.',
    );
    expect(renderDetail('mthdsls.client.timeout', { seconds: 1 })).toBe('The runner did not answer within 1 second.');
    expect(renderDetail('method.identifier_invalid', { identifier_kind: 'input_name', name: 'Invoice.total' })).toBe(
      'The input name Invoice.total is not a valid name; names match [a-z][a-z0-9_]*.',
    );
  });

  it('keeps a required missing param visible as its placeholder', () => {
    expect(renderDetail('input.missing', {})).toBe('The required input {input} was not given.');
  });

  it('collapses and cuts caller text', () => {
    const long = 'word '.repeat(200);
    const detail = renderDetail('method.syntax', { finding: `line 1\n\n  expected "]"` });
    expect(detail).toBe('The file is not valid TOML or MTHDS syntax: line 1 expected "]"');
    const cut = formatParamValue({ kind: 'caller_text' }, long);
    expect(cut.length).toBe(CALLER_TEXT_MAX);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('throws for an unknown code', () => {
    expect(() => renderDetail('method.nope', {})).toThrow(RegistryUsageError);
  });
});

describe('template syntax', () => {
  const specs: ParamSpec[] = [
    { name: 'a', type: { kind: 'identifier' }, description: 'a' },
    { name: 'b', type: { kind: 'identifier' }, optional: true, description: 'b' },
  ];

  it('supports escapes for literal brackets and braces', () => {
    expect(renderTemplate('\\[{a}\\] \\{x\\} \\\\', specs, { a: 'v' })).toBe('[v] {x} \\');
  });

  it('reports names by segment', () => {
    expect(templateParams('{a}[ and {b}]')).toEqual({ required: ['a'], optional: ['b'] });
  });

  it('rejects malformed templates', () => {
    for (const bad of ['{a', 'a}', '[{a}', '{a}]', '[[{a}]]', '[no param]', '{A}', 'x\\']) {
      expect(() => parseTemplate(bad), bad).toThrow(RegistryUsageError);
    }
  });
});

describe('validateParams', () => {
  it('accepts well-formed params', () => {
    expect(validateParams('method.concept_unresolved', { concept: 'Foo', suggestions: [] })).toEqual([]);
    expect(
      validateParams('input.wrong_multiplicity', { input: 'x', expected: 'count', expected_count: 2, provided_count: 1 }),
    ).toEqual([]);
  });

  it('catches an unknown code', () => {
    expect(validateParams('method.nope', {}).map((p) => p.kind)).toEqual(['unknown_code']);
  });

  it('catches an unknown param (e.g. a value on input.invalid)', () => {
    const problems = validateParams('input.invalid', { input: 'invoice', field: 'total', value: 'secret' });
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'unknown_param', param: 'value', code: 'input.invalid' }),
    ]);
    expect(JSON.stringify(problems)).not.toContain('secret');
  });

  it('catches a missing required param, not a missing optional one', () => {
    expect(validateParams('input.wrong_multiplicity', { input: 'x', expected: 'list' })).toEqual([
      expect.objectContaining({ kind: 'missing_param', param: 'provided_count' }),
    ]);
  });

  it('catches wrong types', () => {
    const kinds = (code: string, params: Record<string, unknown>): Array<[string, string | undefined]> =>
      validateParams(code, params).map((p) => [p.kind, p.param]);
    expect(kinds('input.missing', { input: 42 })).toEqual([['wrong_type', 'input']]);
    expect(kinds('input.missing', { input: '' })).toEqual([['wrong_type', 'input']]);
    expect(kinds('input.missing', { input: 'two\nlines' })).toEqual([['wrong_type', 'input']]);
    expect(kinds('request.too_large', { limit: -1, size: 1.5 })).toEqual([
      ['wrong_type', 'limit'],
      ['wrong_type', 'size'],
    ]);
    expect(kinds('account.rate_limited', { limit: '60', window: -2 })).toEqual([
      ['wrong_type', 'limit'],
      ['wrong_type', 'window'],
    ]);
    expect(kinds('request.blobs_missing', { missing_blobs: ['ABC'] })).toEqual([['wrong_type', 'missing_blobs']]);
    expect(kinds('request.blobs_missing', { missing_blobs: 'ab'.repeat(32) })).toEqual([['wrong_type', 'missing_blobs']]);
    expect(kinds('method.syntax', { finding: 3 })).toEqual([['wrong_type', 'finding']]);
    expect(kinds('method.input_unused', { pipe: 'p', variables: ['ok', 7] })).toEqual([['wrong_type', 'variables']]);
    expect(validateParams('method.input_unused', { pipe: 'p', variables: ['ok', 7] })[0]?.message).toContain(
      'variables[1]',
    );
  });

  it('catches an enum value that is not allowed', () => {
    expect(validateParams('request.malformed', { reason: 'not_xml' })).toEqual([
      expect.objectContaining({ kind: 'enum_value', param: 'reason' }),
    ]);
    expect(
      validateParams('method.optional_unhandled', { pipe: 'p', input: 'x', site: 'loop' }).map((p) => p.kind),
    ).toEqual(['enum_value']);
  });
});
