import { describe, expect, it } from 'vitest';
import { pendingSignatures } from '../../../server/src/check/rules/signatures.js';
import { HEADER, check, only, textAt, treeOf } from '../../helpers/tree.js';

describe('method.signature_mismatch', () => {
  const sig = `domain = "research"\n[pipe.find]\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Finding"\n[concept]\nFinding = "f"\n`;
  const impl = (inputs: string, output: string): string => `domain = "research"\n[pipe.find]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "${output}"\nfunction_name = "f"\n`;
  it('reconciles contracts written with other spellings', () => {
    expect(check({ 'sig.mthds': sig, 'impl.mthds': impl('doc = "native.Text"', 'research.Finding') })).toEqual([]);
  });
  it('reports a contract that differs, with the signature as related', () => {
    const found = check({ 'sig.mthds': sig, 'impl.mthds': impl('doc = "Document"', 'Finding[]') });
    const [f] = only(found, 'method.signature_mismatch');
    expect(f!.params['pipe']).toBe('find');
    expect(String(f!.params['finding'])).toContain('input `doc` is native.Document, the signature says native.Text');
    expect(String(f!.params['finding'])).toContain('the output is research.Finding[]');
    expect(f!.related?.[0]?.file.endsWith('sig.mthds')).toBe(true);
    expect(String(only(check({ 'sig.mthds': sig, 'impl.mthds': impl('doc = "Text?"', 'Finding') }), 'method.signature_mismatch')[0]!.params['finding'])).toContain('Text?');
  });
  it('lists pending signatures', () => {
    expect(pendingSignatures(treeOf({ 'sig.mthds': sig }))).toEqual(['research.find']);
    expect(pendingSignatures(treeOf({ 'sig.mthds': sig, 'impl.mthds': impl('doc = "Text"', 'Finding') }))).toEqual([]);
  });
});

describe('packages', () => {
  const manifest = `[package]\nname = "tree"\naddress = "github.com/acme/tree"\nversion = "1.0.0"\ndescription = "d"\n[dependencies]\nscoring = { address = "github.com/acme/scoring", version = "^1.0.0" }\n[exports.legal]\npipes = ["review"]\n`;
  const legal = `domain = "legal"\n[pipe.review]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"\n[pipe.internal]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"\n`;
  const caller = (ref: string): string => `domain = "sales"\n[pipe.go]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = [{ pipe = "${ref}", result = "r" }]\n`;
  it('raises method.dependency_missing for an unknown alias', () => {
    const text = caller('scorng->scoring.compute');
    const [f] = only(check({ 'METHODS.toml': manifest, 'a.mthds': legal, 'b.mthds': text }), 'method.dependency_missing');
    expect(f!.params).toEqual({ kind: 'package', name: 'scorng', reason: 'not_found' });
    expect(textAt(text, f!)).toBe('scorng');
    expect(only(check({ 'METHODS.toml': manifest, 'a.mthds': legal, 'b.mthds': caller('scoring->scoring.compute') }), 'method.dependency_missing')).toEqual([]);
  });
  it('raises method.pipe_not_exported for a private pipe of another domain', () => {
    const text = caller('legal.internal');
    const [f] = only(check({ 'METHODS.toml': manifest, 'a.mthds': legal, 'b.mthds': text }), 'method.pipe_not_exported');
    expect(f!.params).toEqual({ pipe: 'legal.internal', package: 'tree' });
    expect(check({ 'METHODS.toml': manifest, 'a.mthds': legal, 'b.mthds': caller('legal.review') })).toEqual([]);
  });
  it('raises method.resource_missing for file references', () => {
    const doc = (file: string): string => `${HEADER}[pipe.d]\ntype = "PipeDocGen"\ndescription = "d"\noutput = "Document"\nformat = "pptx"\ntemplate_file = "${file}"\n`;
    const reasons = ['../x.pptx', '/abs/x.pptx', 'a\\\\b.pptx', 'https://x/y.pptx', 'missing.pptx'].map((f) => only(check({ 'main.mthds': doc(f) }), 'method.resource_missing')[0]?.params['reason']);
    expect(reasons).toEqual(['leaves_tree', 'absolute', 'backslash', 'scheme', 'not_in_tree']);
    expect(only(check({ 'main.mthds': doc('templates/deck.pptx'), 'templates/deck.pptx': '' }), 'method.resource_missing')).toEqual([]);
  });
});

describe('method.model_setting_invalid (references)', () => {
  it.each([['$'], ['alias:'], [''], ['gpt 4']])('refuses %j', (ref) => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nprompt = "$a"\nmodel = "${ref}"\n`;
    expect(only(check(text), 'method.model_setting_invalid')).toHaveLength(1);
  });
  it.each([['$writing-factual'], ['@default-text'], ['~chain'], ['claude-4.5-sonnet'], ['preset:x']])('accepts %j', (ref) => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\nprompt = "$a"\nmodel = "${ref}"\n`;
    expect(check(text)).toEqual([]);
  });
});

describe('markers outside inputs and outputs, and redundant force markers', () => {
  it('refuses a marker in refines', () => {
    const text = `${HEADER}[concept.A]\ndescription = "a"\nrefines = "Text?"\n`;
    expect(only(check(text), 'method.optional_marker_invalid')[0]!.params).toEqual({ pipe: 'A', field_path: 'concept.A.refines' });
  });
  it('warns when no flow can hand a `!` input an absent value', () => {
    const use = `[pipe.use]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { note = "Text!" }\noutput = "Text"\nfunction_name = "f"\n`;
    const caller = (marker: string): string => `[pipe.s]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { note = "Text${marker}" }\noutput = "Text"\nsteps = [{ pipe = "use", result = "r" }]\n`;
    const [f] = only(check(`${HEADER}${use}${caller('')}`), 'method.optional_force_redundant');
    expect(f!.params).toEqual({ pipe: 'use', input: 'note' });
    expect(f!.severity).toBe('warning');
    expect(only(check(`${HEADER}${use}${caller('?')}`), 'method.optional_force_redundant')).toEqual([]);
  });
});

describe('method.hint_invalid (warning)', () => {
  it('reports unknown hint keys and intents, never as errors', () => {
    const text = `${HEADER}[concept.A]\ndescription = "a"\nhints = { intent = "poetry", tone = "x" }\n`;
    const found = only(check(text), 'method.hint_invalid');
    expect(found.map((f) => f.params['reason']).sort()).toEqual(['unknown_intent', 'unknown_key']);
    expect(found.every((f) => f.severity === 'warning')).toBe(true);
    expect(check(`${HEADER}[concept.A]\ndescription = "a"\nhints = { intent = "prose" }\n`)).toEqual([]);
  });
});

describe('the lock file', () => {
  const good = `["github.com/acme/a"]\nversion = "1.2.0"\nhash = "sha256:${'a'.repeat(64)}"\nsource = "https://github.com/acme/a.git"\ncommit = "${'b'.repeat(40)}"\n`;
  it('accepts a well-formed lock', () => {
    expect(check({ 'methods.lock': good, 'a.mthds': HEADER })).toEqual([]);
  });
  it('reports each faulty entry', () => {
    const bad = `["github.com/acme/z"]\nversion = "1.0"\nhash = "md5:x"\nsource = "http://x/y"\n["github.com/acme/b"]\nversion = "1.0.0"\nhash = "sha256:${'a'.repeat(64)}"\nsource = "https://github.com/acme/b.git"\nextra = 1\n`;
    const found = only(check({ 'methods.lock': bad, 'a.mthds': HEADER }), 'method.package_invalid');
    expect(found.map((f) => f.params['path'])).toEqual([
      'github.com/acme/z.version',
      'github.com/acme/z.hash',
      'github.com/acme/z.source',
      'github.com/acme/b',
      'github.com/acme/b.extra',
    ]);
    expect(found.every((f) => f.params['reason'] === 'lock_invalid')).toBe(true);
  });
});
