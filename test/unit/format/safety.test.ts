// The formatter's safety over real documents: every corpus bundle and every valid toml-test file.
// Formatting (without the built-in safety net, so that a fault shows here) must keep the parsed
// value (key order included) and every comment, and be idempotent.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutToml } from '../../../server/src/format/document.js';
import { formatText } from '../../../server/src/format/index.js';
import { commentsOf, parsedCanonical } from '../../../server/src/format/verify.js';

const REPO = path.resolve(__dirname, '../../..');
const CORPUS = path.resolve(REPO, '../shared/corpus');
const TOML_TEST = path.resolve(REPO, '../shared/toml-test/tests/valid');

function walk(dir: string, ext: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    const full = path.join(dir, name);
    const s = statSync(full);
    if (s.isDirectory()) walk(full, ext, out);
    else if (name.endsWith(ext)) out.push(full);
  }
  return out;
}

interface Outcome {
  formatted: number;
  refused: string[];
  faults: string[];
}

function sweep(files: readonly string[]): Outcome {
  const out: Outcome = { formatted: 0, refused: [], faults: [] };
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const value = parsedCanonical(text);
    // Documents smol-toml refuses (broken corpus entries) must be left alone.
    const once = layoutToml(text, { verify: false });
    if (value === undefined) {
      if (once.ok) out.faults.push(`${file}: an invalid document was formatted`);
      continue;
    }
    if (!once.ok) {
      out.refused.push(`${file}: ${once.reason}`);
      continue;
    }
    out.formatted++;
    if (parsedCanonical(once.text) !== value) out.faults.push(`${file}: the value changed`);
    const before = commentsOf(text);
    const after = commentsOf(once.text);
    if (before.join('\n') !== after.join('\n')) out.faults.push(`${file}: comments changed`);
    const twice = layoutToml(once.text, { verify: false });
    if (!twice.ok || twice.text !== once.text) out.faults.push(`${file}: not idempotent`);
    for (const options of [{ alignEntries: false, arrayTrailingComma: false, indentString: '\t' }, { reorderKeys: true }]) {
      const other = layoutToml(text, { ...options, verify: false });
      if (!other.ok || parsedCanonical(other.text, !options.reorderKeys) !== parsedCanonical(text, !options.reorderKeys)) out.faults.push(`${file}: options ${JSON.stringify(options)} changed the value`);
    }
  }
  return out;
}

describe('formatter safety', () => {
  it('keeps every corpus bundle’s value and comments, idempotently', () => {
    const files = walk(CORPUS, '.mthds');
    expect(files.length).toBeGreaterThan(100);
    const outcome = sweep(files);
    expect(outcome.faults).toEqual([]);
    expect(outcome.refused).toEqual([]);
    expect(outcome.formatted).toBeGreaterThan(100);
  });

  it('keeps every valid toml-test document’s value and comments, idempotently', () => {
    const files = walk(TOML_TEST, '.toml');
    expect(files.length).toBeGreaterThan(200);
    const outcome = sweep(files);
    expect(outcome.faults).toEqual([]);
    // Every valid document is formatted: none is refused as unsafe.
    expect(outcome.refused).toEqual([]);
  });

  it('formats the examples of this repository to themselves', () => {
    for (const file of walk(path.join(REPO, 'examples'), '.mthds').filter((f) => !f.includes('broken'))) {
      const text = readFileSync(file, 'utf8');
      const result = formatText(text);
      expect(result.ok && result.text, file).toBe(text);
    }
  });
});
