// The environment check: PipeFunc functions against a function registry (method.dependency_missing
// with kind function, method.function_invalid) and requirements.txt (kind requirement).

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEnvironment, checkFunctions, checkRequirements, parseRequirements, type FunctionCatalog, type FunctionCatalogEntry } from '../../../server/src/check/rules/functions.js';
import { ROOT, check, textAt, treeOf } from '../../helpers/tree.js';

function catalog(entries: Record<string, FunctionCatalogEntry>, importFaults: FunctionCatalog['importFaults'] = []): FunctionCatalog {
  return { entries: new Map(Object.entries(entries)), importFaults };
}

const CONCEPTS = `
[concept.Invoice]
description = "An invoice"
[concept.Invoice.structure]
number = { type = "integer", description = "Number", required = true }

[concept.CreditNote]
description = "A credit note"
refines = "Invoice"

[concept.Receipt]
description = "A receipt"
[concept.Receipt.structure]
total = { type = "number", description = "Total", required = true }
`;

/** A bundle with one PipeFunc `f` calling `name`, with the given output. */
function bundle(name: string, output = 'Text'): string {
  return `domain = "books"\ndescription = "Books"\n${CONCEPTS}\n[pipe.f]\ntype = "PipeFunc"\ndescription = "Calls a function"\ninputs = { text = "Text" }\noutput = "${output}"\nfunction_name = "${name}"\n`;
}

function run(text: string, entries: Record<string, FunctionCatalogEntry>, importFaults: FunctionCatalog['importFaults'] = []) {
  return checkFunctions(treeOf({ 'books.mthds': text }), catalog(entries, importFaults));
}

describe('method.dependency_missing (kind function)', () => {
  it('is raised on the function_name value when no function has the name, with registered names as alternatives', () => {
    const text = bundle('shot');
    const found = run(text, { shout: { output: 'Text' }, split_words: { output: 'Text[]' } });
    expect(found).toHaveLength(1);
    const [f] = found;
    expect(f!.code).toBe('method.dependency_missing');
    expect(f!.severity).toBe('error');
    expect(f!.params).toEqual({ kind: 'function', name: 'shot', reason: 'not_found' });
    expect(textAt(text, f!)).toBe('shot');
    expect(f!.alternatives?.map((a) => a.edits[0]!.newText)).toEqual(['shout']);
    expect(f!.fix).toBeUndefined();
  });

  it('is not raised when the name is registered', () => {
    expect(run(bundle('shout'), { shout: { output: 'Text' } })).toEqual([]);
  });

  it('is not part of the static checks (no registry: the language server and a plain check skip it)', () => {
    expect(check({ 'books.mthds': bundle('shot') }).filter((f) => f.code === 'method.dependency_missing' || f.code === 'method.function_invalid')).toEqual([]);
  });
});

describe('method.function_invalid', () => {
  it('is raised when a module could not be imported and the name is not among the loaded ones', () => {
    const text = bundle('score');
    const [f, ...rest] = run(text, { shout: { output: 'Text' } }, [{ module: 'scoring.mjs', message: 'the scoring model file is missing' }]);
    expect(rest).toEqual([]);
    expect(f!.code).toBe('method.function_invalid');
    expect(f!.params).toEqual({ pipe: 'f', function: 'score', finding: 'no loaded module registers it, and the function module scoring.mjs cannot be imported: the scoring model file is missing' });
    expect(textAt(text, f!)).toBe('score');
  });

  it('is not raised for a name another module registers, even when one module failed', () => {
    expect(run(bundle('shout'), { shout: { output: 'Text' } }, [{ module: 'scoring.mjs', message: 'x' }])).toEqual([]);
  });

  it('is raised for a registration with a fault (no run, registered twice)', () => {
    const text = bundle('shout');
    const [f] = run(text, { shout: { fault: 'its registration has no run function' } });
    expect(f).toMatchObject({ code: 'method.function_invalid', params: { pipe: 'f', function: 'shout', finding: 'its registration has no run function' } });
    expect(textAt(text, f!)).toBe('shout');
  });

  it('is raised when the declared output is missing or not a concept reference', () => {
    expect(run(bundle('shout'), { shout: {} })[0]!.params['finding']).toContain('declares no output');
    expect(run(bundle('shout'), { shout: { output: 'text list' } })[0]!.params['finding']).toContain('is not a concept reference');
    expect(run(bundle('shout'), { shout: { output: 'Text?' } })[0]!.params['finding']).toContain('presence marker');
    expect(run(bundle('shout'), { shout: { output: 'Missing' } })[0]!.params['finding']).toContain('names no concept');
  });

  it('is raised when a list output meets a single return, and the reverse', () => {
    const list = run(bundle('split', 'Text[]'), { split: { output: 'Text' } });
    expect(list).toHaveLength(1);
    expect(list[0]!.code).toBe('method.function_invalid');
    expect(list[0]!.params['finding']).toContain('the output of the pipe is a list (Text[])');
    expect(run(bundle('split', 'Text'), { split: { output: 'Text[]' } })[0]!.params['finding']).toContain('returns a list');
    expect(run(bundle('split', 'Text[3]'), { split: { output: 'Text[2]' } })[0]!.params['finding']).toContain('returns 2 items');
  });

  it('is not raised when the multiplicities agree', () => {
    expect(run(bundle('split', 'Text[]'), { split: { output: 'Text[]' } })).toEqual([]);
    expect(run(bundle('split', 'Text[3]'), { split: { output: 'Text[]' } })).toEqual([]);
  });

  it('is raised when the returned concept does not fit the output', () => {
    const [f] = run(bundle('total', 'Invoice'), { total: { output: 'Receipt' } });
    expect(f!.code).toBe('method.function_invalid');
    expect(f!.params['finding']).toBe('it returns Receipt (declared "Receipt"), which does not fit the output of the pipe, Invoice');
    expect(run(bundle('total', 'Invoice'), { total: { output: 'Number' } })).toHaveLength(1);
  });

  it('accepts the same concept however written, and refinements of it', () => {
    expect(run(bundle('total', 'Invoice'), { total: { output: 'books.Invoice' } })).toEqual([]);
    expect(run(bundle('total', 'Invoice'), { total: { output: 'CreditNote' } })).toEqual([]);
    expect(run(bundle('total', 'Anything'), { total: { output: 'Receipt' } })).toEqual([]);
  });

  it('keeps control characters out of the function parameter', () => {
    const [f] = run(bundle('a\\nb'), {});
    expect(f!.params['name']).toBe('a?b');
  });
});

describe('method.dependency_missing (kind requirement)', () => {
  const reader = (files: Record<string, string>) => (rel: string) => (files[rel] === undefined ? undefined : { file: path.join(ROOT, rel), text: files[rel]! });

  it('parses requirement lines: names, comments, options, locations', () => {
    const text = '# pinned\nnumpy>=1.26\n\n  requests[socks] == 2.31 # HTTP\n-r more.txt\n--index-url https://x\nhttps://x/y.whl#egg=ywheel\n./local/pkg\npandas ; python_version < "3.12"\r\nscikit-learn\\\n';
    const found = parseRequirements(text);
    expect(found.map((r) => r.name)).toEqual(['numpy', 'requests', 'ywheel', 'pandas', 'scikit-learn']);
    expect(found.map((r) => text.slice(r.start, r.end))).toEqual(['numpy>=1.26', 'requests[socks] == 2.31', 'https://x/y.whl#egg=ywheel', 'pandas ; python_version < "3.12"', 'scikit-learn']);
  });

  it('reports each requirement of the tree root requirements.txt at its line', () => {
    const req = '# Python\nnumpy>=1.26\nrequests\n';
    const tree = treeOf({ 'books.mthds': bundle('shout'), 'requirements.txt': req });
    const found = checkRequirements(tree, reader({ 'requirements.txt': req }));
    expect(found.map((f) => f.params)).toEqual([
      { kind: 'requirement', name: 'numpy', reason: 'not_found' },
      { kind: 'requirement', name: 'requests', reason: 'not_found' },
    ]);
    expect(found[0]!.file).toBe(path.join(ROOT, 'requirements.txt'));
    expect(found.map((f) => req.slice(f.range.start, f.range.end))).toEqual(['numpy>=1.26', 'requests']);
    expect(found.every((f) => f.code === 'method.dependency_missing' && f.severity === 'error')).toBe(true);
  });

  it('reports nothing for a requirements.txt of comments only, or one below the root', () => {
    const comments = '# nothing needed\n\n';
    expect(checkRequirements(treeOf({ 'books.mthds': bundle('shout'), 'requirements.txt': comments }), reader({ 'requirements.txt': comments }))).toEqual([]);
    expect(checkRequirements(treeOf({ 'books.mthds': bundle('shout'), 'sub/requirements.txt': 'numpy\n' }), reader({ 'sub/requirements.txt': 'numpy\n' }))).toEqual([]);
  });

  it('joins the function check in checkEnvironment, sorted by file', () => {
    const req = 'numpy\n';
    const tree = treeOf({ 'books.mthds': bundle('shot'), 'requirements.txt': req });
    const found = checkEnvironment(tree, catalog({ shout: { output: 'Text' } }), reader({ 'requirements.txt': req }));
    expect(found.map((f) => [path.basename(f.file), f.params['kind']])).toEqual([
      ['books.mthds', 'function'],
      ['requirements.txt', 'requirement'],
    ]);
  });
});
