// The RFC 7807 problem builder.

import { describe, expect, it } from 'vitest';
import {
  buildProblem,
  buildProblemItem,
  clientFacts,
  codeFromTypeUri,
  PROBLEM_CONTENT_TYPE,
  problemTypeUri,
  RegistryUsageError,
  validateParams,
  WITHHELD_TEXT,
  withheldParams,
  allEntries,
  getEntry,
  problemItemFromEntry,
  type RegistryEntry,
} from '../../../server/src/registry/index.js';

describe('problemTypeUri', () => {
  it('appends the code to the core base address', () => {
    expect(problemTypeUri('method.concept_unresolved')).toBe('https://mthds.ai/errors/method.concept_unresolved');
    expect(problemTypeUri('pipe.output_multiplicity')).toBe('https://mthds.ai/errors/pipe.output_multiplicity');
    expect(problemTypeUri('request.invalid', { baseUrl: 'https://example.org/e' })).toBe(
      'https://example.org/e/request.invalid',
    );
  });

  it('uses the extension base address for extension codes', () => {
    expect(problemTypeUri('mthdsls.pipe.execution_failed')).toBe(
      'https://github.com/mthds-language-server/errors/mthdsls.pipe.execution_failed',
    );
    expect(
      problemTypeUri('mthdsls.run.timeout', { baseUrl: 'https://x/', extensionBaseUrl: 'https://ext.example/errors#' }),
    ).toBe('https://ext.example/errors#mthdsls.run.timeout');
  });

  it('reads the code back from a type URI', () => {
    expect(codeFromTypeUri('https://mthds.ai/errors/input.missing')).toBe('input.missing');
    expect(codeFromTypeUri(problemTypeUri('mthdsls.run.timeout'))).toBe('mthdsls.run.timeout');
    expect(codeFromTypeUri('https://other.example/errs/method.cycle')).toBe('method.cycle');
    expect(codeFromTypeUri('https://mthds.ai/errors/method.nope')).toBeUndefined();
    expect(codeFromTypeUri('about:blank')).toBeUndefined();
  });

  it('throws for an unknown code', () => {
    expect(() => problemTypeUri('nope.nope')).toThrow(RegistryUsageError);
  });
});

describe('buildProblem', () => {
  it('builds the members from the entry', () => {
    const doc = buildProblem(
      'method.concept_unresolved',
      { concept: 'Sumary', suggestions: ['Summary', 'Summaries'] },
      { instance: '/execute', requestId: 'req-1', strict: true },
    );
    expect(doc).toEqual({
      type: 'https://mthds.ai/errors/method.concept_unresolved',
      title: 'Concept not found',
      status: 422,
      detail: 'The concept Sumary is not defined. Did you mean: Summary, Summaries?',
      instance: '/execute',
      code: 'method.concept_unresolved',
      params: { concept: 'Sumary', suggestions: ['Summary', 'Summaries'] },
      request_id: 'req-1',
      error_domain: 'method',
      retryable: false,
      user_action: { kind: getEntry('method.concept_unresolved')!.advice.client[0]!.kind, detail: getEntry('method.concept_unresolved')!.advice.client[0]!.text },
    });
    expect(PROBLEM_CONTENT_TYPE).toBe('application/problem+json');
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('tells the client who acts, whether to retry and what to do first, from the entry itself', () => {
    const d = buildProblem('account.rate_limited', { limit: 5, window: 60 }, { retryAfter: 2 });
    expect(d.error_domain).toBe('account');
    expect(d.retryable).toBe(true);
    expect(d.user_action).toEqual({ kind: 'wait', detail: getEntry('account.rate_limited')!.advice.client[0]!.text });
    expect(getEntry('account.rate_limited')!.advice.client[0]!.kind).toBe('wait');
    for (const entry of allEntries()) {
      expect(clientFacts(entry)).toEqual({
        error_domain: entry.domain,
        retryable: entry.retry,
        user_action: { kind: entry.advice.client[0]!.kind, detail: entry.advice.client[0]!.text },
      });
    }
  });

  it('uses the configured base addresses', () => {
    expect(buildProblem('input.missing', { input: 'x' }, { baseUrl: 'https://r.example/errors/' }).type).toBe(
      'https://r.example/errors/input.missing',
    );
    expect(
      buildProblem('mthdsls.runtime.internal', {}, { extensionBaseUrl: 'https://impl.example/e/' }).type,
    ).toBe('https://impl.example/e/mthdsls.runtime.internal');
  });

  it('carries one item per fault in errors, each with its own code, title, detail, params and location', () => {
    const doc = buildProblem(
      'method.invalid',
      {},
      {
        strict: true,
        errors: [
          {
            code: 'method.syntax',
            params: { finding: 'expected "]"' },
            location: { file: 'a.mthds', line: 3, column: 7 },
          },
          {
            code: 'method.input_unused',
            params: { pipe: 'summarize', variables: ['tone'] },
            location: { file: 'a.mthds', field: 'pipe.summarize.inputs.tone', pipe: 'summarize' },
            suggestedFix: { description: 'Remove the input tone', edits: [{ range: [1, 2], newText: '' }] },
          },
        ],
      },
    );
    expect(doc.status).toBe(422);
    expect(doc.detail).toBe('The method is invalid; each fault is listed in errors.');
    expect(doc.params).toEqual({});
    expect(doc.errors).toEqual([
      {
        code: 'method.syntax',
        title: 'Syntax error',
        detail: 'The file is not valid TOML or MTHDS syntax: expected "]"',
        params: { finding: 'expected "]"' },
        location: { file: 'a.mthds', line: 3, column: 7 },
        ...clientFacts(getEntry('method.syntax')!),
      },
      {
        code: 'method.input_unused',
        title: 'Unused input',
        detail: 'The pipe summarize declares inputs that nothing it runs reads: tone.',
        params: { pipe: 'summarize', variables: ['tone'] },
        location: { file: 'a.mthds', field: 'pipe.summarize.inputs.tone', pipe: 'summarize' },
        suggested_fix: { description: 'Remove the input tone', edits: [{ range: [1, 2], newText: '' }] },
        ...clientFacts(getEntry('method.input_unused')!),
      },
    ]);
  });

  it('refuses method.invalid without a fault of the method, and warnings as items', () => {
    expect(() => buildProblem('method.invalid', {})).toThrow(RegistryUsageError);
    expect(() =>
      buildProblem('method.invalid', {}, { errors: [{ code: 'input.missing', params: { input: 'x' } }] }),
    ).toThrow(RegistryUsageError);
    expect(() =>
      buildProblem('method.invalid', {}, {
        errors: [
          { code: 'method.syntax', params: { finding: 'x' } },
          { code: 'method.optional_force_redundant', params: { pipe: 'p', input: 'x' } },
        ],
      }),
    ).toThrow(/warning/);
    expect(() =>
      buildProblem('method.invalid', {}, { errors: [{ code: 'mthdsls.client.timeout', params: { seconds: 3 } }] }),
    ).toThrow(RegistryUsageError);
  });

  it('carries retry_after on retryable codes only, in whole seconds', () => {
    expect(buildProblem('account.rate_limited', { limit: 60, window: 60 }, { retryAfter: 12.2 }).retry_after).toBe(13);
    expect(buildProblem('mthdsls.runtime.unavailable', {}, { retryAfter: 0 }).retry_after).toBe(0);
    expect(buildProblem('request.idempotency_key_in_use', {}).retry_after).toBeUndefined();
    expect(() => buildProblem('account.quota_exhausted', { quota: 'runs' }, { retryAfter: 60 })).toThrow(
      RegistryUsageError,
    );
    expect(() => buildProblem('mthdsls.runtime.unavailable', {}, { retryAfter: -1 })).toThrow(RegistryUsageError);
  });

  it('carries a suggested_fix and a location', () => {
    const doc = buildProblem(
      'method.syntax',
      { finding: 'unclosed table header' },
      {
        suggestedFix: { description: 'Close the header', safety: 'safe' },
        location: { file: 'main.mthds', line: 1, column: 8, pipe: undefined },
      },
    );
    expect(doc.suggested_fix).toEqual({ description: 'Close the header', safety: 'safe' });
    expect(doc.location).toEqual({ file: 'main.mthds', line: 1, column: 8 });
  });

  it('refuses warnings and client-side codes (programming errors)', () => {
    expect(() => buildProblem('method.hint_invalid', { reason: 'unknown_key', hint: 'x' })).toThrow(RegistryUsageError);
    expect(() => buildProblem('mthdsls.client.unreachable', { url: 'http://localhost:8080' })).toThrow(
      RegistryUsageError,
    );
    expect(() => buildProblem('nope.nope' as 'input.missing', {})).toThrow(RegistryUsageError);
  });

  it('adds extension members but never lets them replace builder members', () => {
    const doc = buildProblem('mthdsls.runtime.internal', {}, { extensions: { runner: 'mthds' } });
    expect(doc['runner']).toBe('mthds');
    expect(() => buildProblem('mthdsls.runtime.internal', {}, { extensions: { status: 200 } })).toThrow(
      RegistryUsageError,
    );
  });

  it('throws in strict mode on malformed params, and is lenient otherwise', () => {
    expect(() => buildProblem('input.missing', {}, { strict: true })).toThrow(/requires the parameter input/);
    expect(() =>
      buildProblem('method.invalid', {}, { strict: true, errors: [{ code: 'method.syntax', params: {} }] }),
    ).toThrow(RegistryUsageError);
    expect(buildProblem('input.missing', {}).detail).toBe('The required input {input} was not given.');
  });

  it('copies params so that later changes of the caller do not leak in', () => {
    const suggestions = ['A'];
    const doc = buildProblem('method.concept_unresolved', { concept: 'X', suggestions });
    suggestions.push('B');
    expect(doc.params['suggestions']).toEqual(['A']);
  });
});

describe('never quoting caller values', () => {
  it('input.invalid names the input and field, and drops any value', () => {
    const secret = 'hunter2-4111111111111111';
    const params = { input: 'card', field: 'number', value: secret, content: secret, raw: secret };
    expect(validateParams('input.invalid', params).map((p) => [p.kind, p.param])).toEqual([
      ['unknown_param', 'value'],
      ['unknown_param', 'content'],
      ['unknown_param', 'raw'],
    ]);
    const doc = buildProblem('input.invalid', params, {
      errors: [{ code: 'input.invalid', params: { input: 'card', field: 'cvc', value: secret } }],
    });
    expect(doc.params).toEqual({ input: 'card', field: 'number' });
    expect(doc.detail).toBe('The input card does not satisfy its concept at number.');
    expect(doc.errors?.[0]?.params).toEqual({ input: 'card', field: 'cvc' });
    expect(JSON.stringify(doc)).not.toContain(secret);
    expect(() => buildProblem('input.invalid', params, { strict: true })).toThrow(/declares no parameter value/);
  });

  it('withholds caller_text of input-domain codes unless echo is allowed', () => {
    // No core input-domain code declares caller_text today; exercise the policy on a synthetic entry.
    const synthetic: RegistryEntry = {
      code: 'input.synthetic',
      family: 'input',
      title: 't',
      status: 422,
      retry: false,
      domain: 'input',
      raisedAs: 'problem',
      params: [
        { name: 'input', type: { kind: 'identifier' }, description: 'd' },
        { name: 'excerpt', type: { kind: 'caller_text' }, description: 'd' },
        { name: 'note', type: { kind: 'caller_text' }, echo: true, description: 'd' },
      ],
      detail: '{input} {excerpt} {note}',
      advice: { client: [], others: [] },
      explanation: '',
      extension: false,
    };
    expect(withheldParams(synthetic)).toEqual(['excerpt']);
    expect(withheldParams({ ...synthetic, domain: 'method' })).toEqual([]);
    const item = problemItemFromEntry(synthetic, { input: 'doc', excerpt: 'card 4111', note: 'ok' });
    expect(item.params).toEqual({ input: 'doc', note: 'ok' });
    expect(item.detail).toBe('doc (withheld) ok');
    const asMethod = problemItemFromEntry({ ...synthetic, domain: 'method' }, { input: 'doc', excerpt: 'e', note: 'n' });
    expect(asMethod.params).toEqual({ input: 'doc', excerpt: 'e', note: 'n' });

    // The registry: the one input-domain caller_text parameter is echo-allowed by design.
    expect(withheldParams(getEntry('mthdsls.provider.refused') as RegistryEntry)).toEqual([]);
    for (const code of ['input.invalid', 'input.missing', 'request.invalid', 'mthdsls.security.path_refused']) {
      expect(withheldParams(getEntry(code) as RegistryEntry)).toEqual([]);
    }
    expect(WITHHELD_TEXT).toBe('(withheld)');
  });

  it('keeps caller text of method codes (the method is not a secret of the caller)', () => {
    const item = buildProblemItem('method.identifier_invalid', { identifier_kind: 'pipe_code', name: 'ExtractInvoice' });
    expect(item.detail).toContain('ExtractInvoice');
    expect(item.params).toEqual({ identifier_kind: 'pipe_code', name: 'ExtractInvoice' });
  });
});

describe('buildProblemItem', () => {
  it('builds located findings, warnings included', () => {
    const item = buildProblemItem(
      'method.input_presence_vacuous',
      { pipe: 'p', input: 'x' },
      { location: { file: 'a.mthds', line: 2, column: 1 }, strict: true },
    );
    expect(item).toEqual({
      code: 'method.input_presence_vacuous',
      title: 'Vacuous presence check',
      detail: 'In pipe p, the presence check on x always succeeds: the input is always present.',
      params: { pipe: 'p', input: 'x' },
      location: { file: 'a.mthds', line: 2, column: 1 },
      error_domain: 'method',
      retryable: false,
      user_action: { kind: 'change_method', detail: getEntry('method.input_presence_vacuous')!.advice.client[0]!.text },
    });
  });

  it('refuses client-side codes', () => {
    expect(() => buildProblemItem('mthdsls.client.bad_response', { status: 200 })).toThrow(RegistryUsageError);
  });
});
