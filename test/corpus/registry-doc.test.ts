// Checks the registry data against the contract document itself: the markdown tables of
// runner-protocol-and-error-registry.md (request, auth/account, input, method and Warnings) are
// parsed here, and every code they list must exist in the data with the same status, retry,
// domain, raised_as and parameters (names, types, enum values, optional markers). The reverse
// holds too: every non-extension code of the data is listed there (pipe.output_multiplicity, named
// in prose only, excepted).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allEntries, getEntry } from '../../server/src/registry/index.js';
import type { Domain, ParamType } from '../../server/src/registry/index.js';

import { sharedPath } from './shared.js';

const DOC_PATH = sharedPath('reference/runner-protocol-and-error-registry.md');

interface DocParam {
  name: string;
  type: ParamType;
  optional: boolean;
}

interface DocCode {
  code: string;
  table: string;
  status: number | undefined;
  retry: boolean;
  domain: Domain;
  raisedAs: 'problem' | 'warning';
  params: DocParam[];
}

/** The rows of the first table after the heading that starts with `headingPrefix`. */
function tableAfter(markdown: string, headingPrefix: string): Record<string, string>[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith(headingPrefix));
  if (start < 0) throw new Error(`heading not found: ${headingPrefix}`);
  let i = start + 1;
  while (i < lines.length && !(lines[i] ?? '').startsWith('|')) {
    if ((lines[i] ?? '').startsWith('#')) throw new Error(`no table under ${headingPrefix}`);
    i++;
  }
  const split = (line: string): string[] =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  const header = split(lines[i] ?? '');
  i += 2; // header and separator
  const rows: Record<string, string>[] = [];
  for (; i < lines.length && (lines[i] ?? '').startsWith('|'); i++) {
    const cells = split(lines[i] ?? '');
    expect(cells.length, `row width under ${headingPrefix}: ${lines[i]}`).toBe(header.length);
    rows.push(Object.fromEntries(header.map((h, k) => [h, cells[k] ?? ''])));
  }
  return rows;
}

const SCALARS = ['identifier', 'caller_text', 'integer', 'bytes', 'seconds', 'sha256'] as const;

function parseType(text: string): ParamType {
  const t = text.trim();
  if (t.startsWith('enum ')) {
    return { kind: 'enum', values: t.slice(5).split(',').map((v) => v.trim()) };
  }
  if (t.startsWith('list of ')) return { kind: 'list', of: parseType(t.slice(8)) };
  const scalar = SCALARS.find((s) => s === t);
  if (!scalar) throw new Error(`unknown parameter type in document: ${JSON.stringify(t)}`);
  return { kind: scalar };
}

/**
 * Parses a Parameters cell: `none`, or groups separated by `;`, each `names: type (note)` where
 * names are comma-separated and share the type; a note `(optional)` marks the names optional.
 */
function parseParams(cell: string): DocParam[] {
  const text = cell.replace(/`/g, '').trim();
  if (text === 'none') return [];
  const params: DocParam[] = [];
  for (const group of text.split(';')) {
    const colon = group.indexOf(':');
    if (colon < 0) throw new Error(`parameter group without a type: ${JSON.stringify(group)}`);
    const names = group
      .slice(0, colon)
      .split(',')
      .map((n) => n.trim());
    let typeText = group.slice(colon + 1).trim();
    let optional = false;
    const note = /\s*\(([^)]*)\)\s*$/.exec(typeText);
    if (note) {
      optional = note[1]?.trim() === 'optional';
      typeText = typeText.slice(0, note.index);
    }
    const type = parseType(typeText);
    for (const name of names) {
      expect(name, `parameter name in ${JSON.stringify(cell)}`).toMatch(/^[a-z_][a-z0-9_]*$/);
      params.push({ name, type, optional });
    }
  }
  return params;
}

function parseRetry(text: string): boolean {
  expect(['yes', 'no']).toContain(text);
  return text === 'yes';
}

function parseDomain(text: string): Domain {
  expect(['input', 'runtime', 'account', 'method']).toContain(text);
  return text as Domain;
}

function documentCodes(markdown: string): DocCode[] {
  const codes: DocCode[] = [];
  const codeOf = (cell: string | undefined): string => (cell ?? '').replace(/`/g, '').trim();

  for (const [heading, table] of [
    ['### request family', 'request'],
    ['### auth and account families', 'auth/account'],
  ] as const) {
    for (const row of tableAfter(markdown, heading)) {
      codes.push({
        code: codeOf(row['Code']),
        table,
        status: Number(row['Status']),
        retry: parseRetry(row['Retry'] ?? ''),
        domain: parseDomain(row['Domain'] ?? ''),
        raisedAs: 'problem',
        params: parseParams(row['Parameters'] ?? ''),
      });
    }
  }

  // "all status 422, domain input unless stated": no row states otherwise.
  const inputHeading = '### input family';
  expect(markdown).toContain('### input family (all status 422, domain input unless stated)');
  for (const row of tableAfter(markdown, inputHeading)) {
    codes.push({
      code: codeOf(row['Code']),
      table: 'input',
      status: 422,
      retry: parseRetry(row['Retry'] ?? ''),
      domain: 'input',
      raisedAs: 'problem',
      params: parseParams(row['Parameters'] ?? ''),
    });
  }

  for (const row of tableAfter(markdown, '### method family')) {
    const [status, retry, domain] = (row['Status / retry / domain'] ?? '').split('/').map((s) => s.trim());
    codes.push({
      code: codeOf(row['Code']),
      table: 'method',
      status: Number(status),
      retry: parseRetry(retry ?? ''),
      domain: parseDomain(domain ?? ''),
      raisedAs: 'problem',
      params: parseParams(row['Parameters'] ?? ''),
    });
  }

  // "raised_as = warning; no HTTP status; never make a method invalid; retry no". The document
  // gives warnings no domain; they are faults of the method as written, so domain method.
  expect(markdown).toContain('### Warnings (raised_as = warning; no HTTP status; never make a method invalid; retry no)');
  for (const row of tableAfter(markdown, '### Warnings')) {
    codes.push({
      code: codeOf(row['Code']),
      table: 'warnings',
      status: undefined,
      retry: false,
      domain: 'method',
      raisedAs: 'warning',
      params: parseParams(row['Parameters'] ?? ''),
    });
  }
  return codes;
}

function typeShape(type: ParamType): unknown {
  switch (type.kind) {
    case 'list':
      return { kind: 'list', of: typeShape(type.of) };
    case 'enum':
      return { kind: 'enum', values: [...type.values] };
    default:
      return { kind: type.kind };
  }
}

const markdown = readFileSync(DOC_PATH, 'utf8');
const docCodes = documentCodes(markdown);

describe('registry data against runner-protocol-and-error-registry.md', () => {
  it('reads the registry version and every table of the document', () => {
    expect(markdown).toContain('The error registry has its own version, 8.0.0.');
    expect(markdown).toContain('The protocol version is 0.6.0.');
    const count = (table: string): number => docCodes.filter((c) => c.table === table).length;
    expect(count('request')).toBe(13);
    expect(count('auth/account')).toBe(6);
    expect(docCodes.filter((c) => c.code.startsWith('auth.')).length).toBe(4);
    expect(docCodes.filter((c) => c.code.startsWith('account.')).length).toBe(2);
    expect(count('input')).toBe(10);
    expect(count('method')).toBe(37);
    expect(count('warnings')).toBe(3);
    expect(new Set(docCodes.map((c) => c.code)).size).toBe(docCodes.length);
  });

  it('parses parameter cells as the document writes them', () => {
    const params = (code: string): DocParam[] => docCodes.find((c) => c.code === code)?.params ?? [];
    expect(params('request.malformed')).toEqual([
      { name: 'reason', type: { kind: 'enum', values: ['not_json', 'not_utf8', 'bad_base64', 'bad_zip'] }, optional: false },
    ]);
    expect(params('input.wrong_multiplicity').map((p) => [p.name, p.optional])).toEqual([
      ['input', false],
      ['expected', false],
      ['expected_count', true],
      ['provided_count', false],
    ]);
    expect(params('auth.forbidden')).toEqual([{ name: 'requirement', type: { kind: 'identifier' }, optional: false }]);
    expect(params('request.blobs_missing')[0]?.type).toEqual({ kind: 'list', of: { kind: 'sha256' } });
  });

  for (const doc of docCodes) {
    it(`${doc.code} matches the document (${doc.table} table)`, () => {
      const entry = getEntry(doc.code);
      expect(entry, `${doc.code} is missing from the registry data`).toBeDefined();
      if (!entry) return;
      expect(entry.extension).toBe(false);
      expect(entry.status).toBe(doc.status);
      expect(entry.retry).toBe(doc.retry);
      expect(entry.domain).toBe(doc.domain);
      expect(entry.raisedAs).toBe(doc.raisedAs);
      expect(entry.family).toBe(doc.code.split('.')[0]);
      expect(entry.params.map((p) => p.name)).toEqual(doc.params.map((p) => p.name));
      expect(entry.params.map((p) => typeShape(p.type))).toEqual(doc.params.map((p) => typeShape(p.type)));
      expect(entry.params.map((p) => p.optional === true)).toEqual(doc.params.map((p) => p.optional));
    });
  }

  it('lists every non-extension code of the data (pipe.output_multiplicity is named in prose)', () => {
    const listed = new Set(docCodes.map((c) => c.code));
    const unlisted = allEntries()
      .filter((e) => !e.extension && !listed.has(e.code))
      .map((e) => e.code);
    expect(unlisted).toEqual(['pipe.output_multiplicity']);
    expect(markdown).toContain('its run-time twin is `pipe.output_multiplicity`');
  });

  it('uses only the advice step kinds the document lists', () => {
    const line = markdown.split('\n').findIndex((l) => l.startsWith('### Advice step kinds'));
    const kinds = new Set([...(markdown.split('\n')[line + 2] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    expect(kinds.size).toBe(11);
    for (const entry of allEntries()) {
      for (const step of [...entry.advice.client, ...entry.advice.others]) {
        expect(kinds.has(step.kind), `${entry.code}: ${step.kind}`).toBe(true);
      }
    }
  });

  it('uses only the families the document names', () => {
    const families = ['request', 'auth', 'account', 'input', 'method', 'pipe', 'model', 'provider', 'run', 'security', 'runtime', 'client'];
    for (const f of families) expect(markdown).toContain(`\`${f}\` (`);
    for (const entry of allEntries()) expect(families).toContain(entry.family);
  });
});
