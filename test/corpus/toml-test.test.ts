// Conformance with the TOML 1.0 files of toml-test (https://github.com/toml-lang/toml-test), kept
// beside the repository in ../shared/toml-test (`npm run test:corpus`). Three parsers are checked:
// - parseToml (the public entry; smol-toml decides validity): every valid file parses to the
//   expected value, every invalid file has errors, except ALLOWED_BY_SMOL_TOML;
// - the own parser alone, default dialect: it must agree with smol-toml on every file, so that a
//   document without errors always has a complete, trustworthy tree;
// - the own parser alone, strict TOML 1.0 (`toml10`): it must agree with toml-test on every file.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseToml } from '../../server/src/syntax/document.js';
import { parseTomlSyntax } from '../../server/src/syntax/parser.js';
import { TomlDateTime, toPlainValue, type PlainValue } from '../../server/src/syntax/values.js';

import { sharedPath } from './shared.js';

const SUITE = sharedPath('toml-test/tests');

/**
 * Invalid files whose bytes are not UTF-8. parseToml takes a JavaScript string: such files are
 * refused when their bytes are decoded (fatal UTF-8 decoding), before any parsing.
 */
const REJECTED_BY_DECODER = new Set([
  'invalid/encoding/bad-codepoint.toml',
  'invalid/encoding/bad-utf8-at-end.toml',
  'invalid/encoding/bad-utf8-in-array.toml',
  'invalid/encoding/bad-utf8-in-comment.toml',
  'invalid/encoding/bad-utf8-in-multiline.toml',
  'invalid/encoding/bad-utf8-in-multiline-literal.toml',
  'invalid/encoding/bad-utf8-in-string.toml',
  'invalid/encoding/bad-utf8-in-string-literal.toml',
  'invalid/encoding/utf16-bom.toml',
]);

/**
 * Invalid TOML 1.0 that smol-toml 1.9.1, the authority on validity, accepts. parseToml reports no
 * error for them (by design); the strict mode of the own parser does.
 */
const ALLOWED_BY_SMOL_TOML = new Map<string, string>([
  ['invalid/datetime/feb-29.toml', 'smol-toml does not check the day against the month (2023-02-29)'],
  ['invalid/datetime/feb-30.toml', 'smol-toml does not check the day against the month (Feb 30)'],
  ['invalid/local-date/feb-29.toml', 'smol-toml does not check the day against the month'],
  ['invalid/local-date/feb-30.toml', 'smol-toml does not check the day against the month'],
  ['invalid/local-datetime/feb-29.toml', 'smol-toml does not check the day against the month'],
  ['invalid/local-datetime/feb-30.toml', 'smol-toml does not check the day against the month'],
  ['invalid/datetime/no-secs.toml', 'TOML 1.1: seconds are optional'],
  ['invalid/local-datetime/no-secs.toml', 'TOML 1.1: seconds are optional'],
  ['invalid/local-time/no-secs.toml', 'TOML 1.1: seconds are optional'],
  ['invalid/inline-table/linebreak-01.toml', 'TOML 1.1: line breaks in inline tables'],
  ['invalid/inline-table/linebreak-02.toml', 'TOML 1.1: line breaks in inline tables'],
  ['invalid/inline-table/linebreak-03.toml', 'TOML 1.1: line breaks in inline tables'],
  ['invalid/inline-table/linebreak-04.toml', 'TOML 1.1: line breaks in inline tables'],
  ['invalid/inline-table/trailing-comma.toml', 'TOML 1.1: trailing comma in inline tables'],
  ['invalid/string/basic-byte-escapes.toml', 'TOML 1.1: \\xHH escapes'],
]);

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function readText(file: string): string | undefined {
  try {
    return decoder.decode(readFileSync(path.join(SUITE, file)));
  } catch {
    return undefined;
  }
}

// ---- Comparing with toml-test's tagged JSON ------------------------------------------------------

const KINDS: Record<string, string> = {
  datetime: 'offset-datetime',
  'datetime-local': 'local-datetime',
  'date-local': 'local-date',
  'time-local': 'local-time',
};

/** Date/time text -> comparable parts: separators and case normalized, fraction without trailing zeros. */
function dtParts(text: string): { date: string; time: string; frac: string; offset: string } {
  const t = text.replace(/[ t]/, 'T').replace(/z$/, 'Z');
  const m = /^(\d{4}-\d{2}-\d{2})?T?(\d{2}:\d{2}(?::\d{2})?)?(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(t);
  if (!m) return { date: '?', time: text, frac: '', offset: '' };
  let time = m[2] ?? '';
  if (time.length === 5) time += ':00';
  const offset = m[4] === '-00:00' || m[4] === '+00:00' ? 'Z' : (m[4] ?? '');
  return { date: m[1] ?? '', time, frac: (m[3] ?? '').replace(/0+$/, ''), offset };
}

/** toml-test compares date/times as times, not text; extra precision may be truncated (TOML spec). */
function sameDateTime(want: string, have: string): boolean {
  const a = dtParts(want);
  const b = dtParts(have);
  if (a.date !== b.date || a.time !== b.time || a.offset !== b.offset) return false;
  if (a.frac === b.frac) return true;
  const [short, long] = a.frac.length < b.frac.length ? [a.frac, b.frac] : [b.frac, a.frac];
  return short.length >= 3 && long.startsWith(short);
}

function isTagged(v: object): v is { type: string; value: unknown } {
  const keys = Object.keys(v);
  return keys.length === 2 && 'type' in v && 'value' in v && typeof (v as { type: unknown }).type === 'string';
}

/** Undefined when equal, else where and how they differ. */
function compare(want: unknown, have: PlainValue, at: string): string | undefined {
  if (Array.isArray(want)) {
    if (!Array.isArray(have)) return `${at}: expected an array`;
    if (want.length !== have.length) return `${at}: expected ${want.length} items, got ${have.length}`;
    for (let i = 0; i < want.length; i++) {
      const d = compare(want[i], have[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (typeof want !== 'object' || want === null) return `${at}: bad expectation`;
  if (isTagged(want)) {
    const { type, value } = want;
    const v = String(value);
    switch (type) {
      case 'string':
        return have === v ? undefined : `${at}: expected string ${JSON.stringify(v)}, got ${JSON.stringify(String(have))}`;
      case 'integer':
        return (typeof have === 'number' || typeof have === 'bigint') && BigInt(have) === BigInt(v) ? undefined : `${at}: expected integer ${v}, got ${String(have)}`;
      case 'float': {
        if (typeof have !== 'number') return `${at}: expected float ${v}, got ${String(have)}`;
        const ok = v.endsWith('nan') ? Number.isNaN(have) : v.endsWith('inf') ? have === (v.startsWith('-') ? -Infinity : Infinity) : have === Number(v);
        return ok ? undefined : `${at}: expected float ${v}, got ${have}`;
      }
      case 'bool':
        return have === (v === 'true') ? undefined : `${at}: expected ${v}, got ${String(have)}`;
      case 'datetime':
      case 'datetime-local':
      case 'date-local':
      case 'time-local':
        if (!(have instanceof TomlDateTime) || have.kind !== KINDS[type]) return `${at}: expected ${type} ${v}, got ${String(have)}`;
        return sameDateTime(v, have.text) ? undefined : `${at}: expected ${type} ${v}, got ${have.text}`;
      default:
        return `${at}: unknown type ${type}`;
    }
  }
  if (have === null || typeof have !== 'object' || Array.isArray(have) || have instanceof TomlDateTime) return `${at}: expected a table`;
  const wantKeys = Object.keys(want).sort();
  const haveKeys = Object.keys(have).sort();
  if (wantKeys.join('\u0000') !== haveKeys.join('\u0000')) return `${at}: expected keys ${JSON.stringify(wantKeys)}, got ${JSON.stringify(haveKeys)}`;
  for (const k of wantKeys) {
    const d = compare((want as Record<string, unknown>)[k], have[k], `${at}.${k}`);
    if (d) return d;
  }
  return undefined;
}

// ---- The suite -----------------------------------------------------------------------------------

describe('toml-test 1.0.0', () => {
  it('finds the suite beside the repository', () => {
    expect(existsSync(path.join(SUITE, 'files-toml-1.0.0')), `toml-test not found at ${SUITE}`).toBe(true);
  });
  if (!existsSync(path.join(SUITE, 'files-toml-1.0.0'))) return;

  const files = readFileSync(path.join(SUITE, 'files-toml-1.0.0'), 'utf8')
    .split(/\r?\n/)
    .filter((f) => f.endsWith('.toml'));
  const valid = files.filter((f) => f.startsWith('valid/'));
  const invalid = files.filter((f) => f.startsWith('invalid/'));

  it('passes', () => {
    const failures: string[] = [];
    let validOk = 0;
    let invalidOk = 0;
    let ownValidOk = 0;
    let ownInvalidOk = 0;
    let strictValidOk = 0;
    let strictInvalidOk = 0;
    const decoderRejected: string[] = [];
    const allowed: string[] = [];

    for (const file of valid) {
      const text = readText(file);
      if (text === undefined) {
        failures.push(`${file}: not UTF-8`);
        continue;
      }
      const expected: unknown = JSON.parse(readFileSync(path.join(SUITE, file.replace(/\.toml$/, '.json')), 'utf8'));
      const doc = parseToml(text);
      const diff = doc.errors.length ? `errors: ${doc.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; ')}` : compare(expected, toPlainValue(doc.root), '$');
      if (diff) failures.push(`${file}: ${diff}`);
      else validOk++;
      const own = parseTomlSyntax(text);
      if (own.errors.length) failures.push(`${file}: own parser: ${own.errors[0]!.line}:${own.errors[0]!.column} ${own.errors[0]!.message}`);
      else ownValidOk++;
      const strict = parseTomlSyntax(text, { toml10: true });
      if (strict.errors.length) failures.push(`${file}: own parser (TOML 1.0): ${strict.errors[0]!.message}`);
      else strictValidOk++;
    }

    for (const file of invalid) {
      const text = readText(file);
      if (text === undefined) {
        if (REJECTED_BY_DECODER.has(file)) decoderRejected.push(file);
        else failures.push(`${file}: not UTF-8 (add to REJECTED_BY_DECODER?)`);
        continue;
      }
      if (REJECTED_BY_DECODER.has(file)) failures.push(`${file}: listed in REJECTED_BY_DECODER but decodes`);
      const smolAccepts = ALLOWED_BY_SMOL_TOML.has(file);
      const doc = parseToml(text);
      if (smolAccepts) {
        // Kept honest: if smol-toml starts refusing the file, the allow-list must shrink.
        if (doc.errors.length === 0) allowed.push(file);
        else failures.push(`${file}: in ALLOWED_BY_SMOL_TOML but refused now (remove it from the list)`);
      } else if (doc.errors.length > 0) invalidOk++;
      else failures.push(`${file}: accepted`);
      // The own parser agrees with smol-toml...
      const own = parseTomlSyntax(text);
      if ((own.errors.length === 0) === smolAccepts) ownInvalidOk++;
      else failures.push(`${file}: own parser ${own.errors.length ? 'refuses' : 'accepts'}, smol-toml does not`);
      // ...and, in strict mode, with TOML 1.0.
      const strict = parseTomlSyntax(text, { toml10: true });
      if (strict.errors.length > 0) strictInvalidOk++;
      else failures.push(`${file}: own parser (TOML 1.0) accepts`);
    }

    const parsed = invalid.length - decoderRejected.length;
    console.log(
      `toml-test 1.0.0: valid ${validOk}/${valid.length}, invalid ${invalidOk}/${parsed} refused by parseToml` +
        ` (+ ${allowed.length} allow-listed, accepted by smol-toml; + ${decoderRejected.length} not UTF-8, refused by the decoder)\n` +
        `toml-test 1.0.0, own parser, default dialect (agreeing with smol-toml): valid ${ownValidOk}/${valid.length}, invalid ${ownInvalidOk}/${parsed}\n` +
        `toml-test 1.0.0, own parser, strict TOML 1.0: valid ${strictValidOk}/${valid.length}, invalid ${strictInvalidOk}/${parsed}`,
    );
    expect(failures).toEqual([]);
  });
});
