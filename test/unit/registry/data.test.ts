// Integrity of the registry data: shapes, templates, advice, extension rules, counts.

import { describe, expect, it } from 'vitest';
import {
  allEntries,
  buildProblem,
  buildProblemItem,
  CORE_REGISTRY_VERSION,
  EXTENSION_PREFIX,
  getEntry,
  isClientOnly,
  isExtension,
  isRegistryCode,
  isWarning,
  parseTemplate,
  PROTOCOL_VERSION,
  registrySnapshot,
  renderDetail,
  requireEntry,
  RegistryUsageError,
  templateParams,
  validateParams,
  type RegistryCode,
} from '../../../server/src/registry/index.js';
import { sampleParams } from './samples.js';

const entries = allEntries();

describe('registry data', () => {
  it('has the versions of the contract', () => {
    expect(CORE_REGISTRY_VERSION).toBe('8.0.0');
    expect(PROTOCOL_VERSION).toBe('0.6.0');
  });

  it('counts core, extension and warning codes', () => {
    const core = entries.filter((e) => !e.extension);
    expect(core.filter((e) => e.raisedAs === 'problem').length).toBe(67); // 66 listed + pipe.output_multiplicity
    expect(entries.filter((e) => e.raisedAs === 'warning').length).toBe(3);
    expect(entries.filter((e) => e.extension).length).toBe(28); // mthdsls.client.document_too_large, mthdsls.client.template_too_long and mthdsls.client.packages_unreachable (the browser) included
    expect(new Set(entries.map((e) => e.code)).size).toBe(entries.length);
  });

  it('derives family and extension from the code', () => {
    for (const e of entries) {
      const parts = e.code.split('.');
      if (e.extension) {
        expect(parts[0], e.code).toBe(EXTENSION_PREFIX);
        expect(parts.length, e.code).toBe(3);
        expect(e.family, e.code).toBe(parts[1]);
      } else {
        expect(parts.length, e.code).toBe(2);
        expect(e.family, e.code).toBe(parts[0]);
        expect(['request', 'auth', 'account', 'input', 'method', 'pipe']).toContain(e.family);
      }
      expect(e.code, e.code).toMatch(/^[a-z]+(\.[a-z][a-z0-9_]*)+$/);
    }
  });

  it('gives warnings no status, retry no, domain method', () => {
    for (const e of entries.filter((x) => x.raisedAs === 'warning')) {
      expect(e.status).toBeUndefined();
      expect(e.retry).toBe(false);
      expect(e.domain).toBe('method');
      expect(isWarning(e.code)).toBe(true);
    }
    expect(isWarning('method.syntax')).toBe(false);
    expect(isWarning('no.such_code')).toBe(false);
  });

  it('gives client-family codes no status, and every other problem an HTTP error status', () => {
    for (const e of entries) {
      if (e.family === 'client') {
        expect(e.status, e.code).toBeUndefined();
        expect(e.extension).toBe(true);
        expect(isClientOnly(e.code)).toBe(true);
      } else if (e.raisedAs === 'problem') {
        expect(e.status, e.code).toBeGreaterThanOrEqual(400);
        expect(e.status, e.code).toBeLessThan(600);
        expect(isClientOnly(e.code)).toBe(false);
      }
    }
  });

  it('has the extension codes the runner needs, with their statuses', () => {
    const expected: Array<[string, number | undefined, boolean]> = [
      ['pipe.output_multiplicity', 422, false],
      ['mthdsls.pipe.execution_failed', 422, false],
      ['mthdsls.pipe.output_invalid', 422, false],
      ['mthdsls.pipe.func_unsupported', 422, false],
      ['mthdsls.pipe.condition_no_result', 422, false],
      ['mthdsls.pipe.condition_failed', 422, false],
      ['mthdsls.pipe.template_render_failed', 422, false],
      ['mthdsls.model.unknown', 422, false],
      ['mthdsls.model.setting_refused', 422, false],
      ['mthdsls.provider.unavailable', 502, true],
      ['mthdsls.provider.refused', 422, false],
      ['mthdsls.provider.rate_limited', 429, true],
      ['mthdsls.provider.invalid_response', 502, true],
      ['mthdsls.run.timeout', 504, true],
      ['mthdsls.run.cancelled', 409, true],
      ['mthdsls.security.address_refused', 422, false],
      ['mthdsls.security.path_refused', 422, false],
      ['mthdsls.runtime.internal', 500, true],
      ['mthdsls.runtime.unavailable', 503, true],
      ['mthdsls.client.unreachable', undefined, true],
      ['mthdsls.client.timeout', undefined, true],
      ['mthdsls.client.bad_response', undefined, false],
    ];
    for (const [code, status, retry] of expected) {
      const e = getEntry(code);
      expect(e, code).toBeDefined();
      expect(e?.status, code).toBe(status);
      expect(e?.retry, code).toBe(retry);
    }
    expect(getEntry('pipe.output_multiplicity')?.extension).toBe(false);
    expect(isExtension('pipe.output_multiplicity')).toBe(false);
    expect(isExtension('mthdsls.pipe.execution_failed')).toBe(true);
    expect(getEntry('mthdsls.runtime.internal')?.domain).toBe('runtime');
    expect(getEntry('mthdsls.runtime.internal')?.params).toEqual([]);
  });

  for (const e of entries) {
    it(`${e.code}: texts, template and advice are well formed`, () => {
      expect(e.title.length).toBeGreaterThan(2);
      expect(e.title.length).toBeLessThanOrEqual(48);
      expect(e.title).not.toMatch(/\.$/);
      expect(e.explanation.length).toBeGreaterThan(20);
      // one or two sentences
      expect(e.explanation.split(/[.!?](\s|$)/).filter((s) => s.trim().length > 0).length).toBeLessThanOrEqual(3);
      expect(e.advice.client.length).toBeGreaterThan(0);
      expect(e.advice.others.length).toBeGreaterThan(0);
      for (const s of [...e.advice.client, ...e.advice.others]) expect(s.text.length).toBeGreaterThan(5);

      // Template: parses; names only declared params; uses every param; optional params only in
      // optional segments.
      expect(() => parseTemplate(e.detail)).not.toThrow();
      const { required, optional } = templateParams(e.detail);
      const declared = e.params.map((p) => p.name);
      for (const name of [...required, ...optional]) expect(declared, `${name} in ${e.detail}`).toContain(name);
      for (const p of e.params) {
        expect([...required, ...optional], `${p.name} not used by the template`).toContain(p.name);
        if (p.optional) expect(required, `optional ${p.name} outside a segment`).not.toContain(p.name);
      }
      for (const p of e.params) {
        expect(p.description.length, p.name).toBeGreaterThan(5);
        if (p.type.kind === 'enum') {
          expect(p.type.values.length).toBeGreaterThan(0);
          if (p.type.labels) expect(Object.keys(p.type.labels)).toEqual([...p.type.values]);
        }
      }

      // Sample parameters are well formed and render completely.
      const params = sampleParams(e);
      expect(validateParams(e.code, params)).toEqual([]);
      expect(validateParams(e.code, sampleParams(e, false))).toEqual([]);
      const detail = renderDetail(e.code, params);
      expect(detail).not.toMatch(/[{}]/);
      expect(renderDetail(e.code, sampleParams(e, false))).not.toMatch(/[{}]|\[ | \]/);
      expect(detail).toMatch(/[.?)_a-z0-9]$/);
    });
  }

  it('builds a problem (or item) for every code, strictly', () => {
    for (const e of entries) {
      const code = e.code as RegistryCode;
      if (e.raisedAs === 'warning') {
        expect(() => buildProblem(code, sampleParams(e))).toThrow(RegistryUsageError);
        expect(buildProblemItem(code, sampleParams(e), { strict: true }).code).toBe(code);
      } else if (e.family === 'client') {
        expect(() => buildProblem(code, sampleParams(e))).toThrow(RegistryUsageError);
        expect(() => buildProblemItem(code, sampleParams(e))).toThrow(RegistryUsageError);
      } else if (code === 'method.invalid') {
        const doc = buildProblem(code, {}, { strict: true, errors: [{ code: 'method.syntax', params: { finding: 'x' } }] });
        expect(doc.status).toBe(422);
      } else {
        const doc = buildProblem(code, sampleParams(e), { strict: true });
        expect(doc.status).toBe(e.status);
        expect(doc.code).toBe(code);
      }
    }
  });

  it('looks codes up', () => {
    expect(getEntry('method.concept_unresolved')?.title).toBe('Concept not found');
    expect(getEntry('nope')).toBeUndefined();
    expect(isRegistryCode('request.invalid')).toBe(true);
    expect(isRegistryCode('request.nope')).toBe(false);
    expect(() => requireEntry('nope')).toThrow(RegistryUsageError);
  });

  it('produces a JSON snapshot', () => {
    const snap = registrySnapshot();
    expect(snap.registry_version).toBe('8.0.0');
    expect(snap.codes.length).toBe(entries.length);
    const round = JSON.parse(JSON.stringify(snap)) as typeof snap;
    expect(round).toEqual(snap);
    expect(snap.codes.find((c) => c['code'] === 'method.hint_invalid')).toMatchObject({ raised_as: 'warning', retry: 'no' });
    expect(snap.codes.find((c) => c['code'] === 'method.hint_invalid')).not.toHaveProperty('status');
  });
});
