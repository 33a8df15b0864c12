// The formatter's safety sweep over documents on disk (the project's fixtures in `npm test`, the
// shared corpus and toml-test in `npm run test:corpus`). Formatting runs without the built-in
// safety net, so that a fault shows: it must keep the parsed value (key order included) and every
// comment, and be idempotent.

import { readFileSync } from 'node:fs';
import { layoutToml } from '../../../server/src/format/document.js';
import { commentsOf, parsedCanonical } from '../../../server/src/format/verify.js';

export interface Outcome {
  formatted: number;
  refused: string[];
  faults: string[];
}

export function sweep(files: readonly string[]): Outcome {
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
