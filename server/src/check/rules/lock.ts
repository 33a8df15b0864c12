// The lock file methods.lock (language reference §2.4): one table per remote dependency, keyed by
// its address, sorted, each with a semantic version, a sha256 hash, an https git source and, in the
// newest form, a fingerprint and a commit. Faults are method.package_invalid (reason lock_invalid).

import { SEMVER } from '../../language/spec/lexical.js';
import type { MethodTree } from '../../language/tree.js';
import { getEntry } from '../../syntax/lookup.js';
import type { Range } from '../../syntax/types.js';
import { makeFinding, type Finding } from '../finding.js';
import { checkTomlSyntax } from './syntax.js';

const FIELDS: Readonly<Record<string, { pattern: RegExp; what: string; required: boolean }>> = {
  version: { pattern: SEMVER, what: 'a semantic version', required: true },
  hash: { pattern: /^sha256:[0-9a-f]{64}$/, what: '`sha256:` and 64 lowercase hexadecimal digits', required: true },
  source: { pattern: /^https:\/\/\S+\.git$/, what: 'an https URL ending in .git', required: true },
  fingerprint: { pattern: /^[0-9a-f]{64}$/, what: '64 lowercase hexadecimal digits', required: false },
  commit: { pattern: /^[0-9a-f]{40}$/, what: '40 lowercase hexadecimal digits', required: false },
};

export function checkLockFile(tree: MethodTree, out: Finding[]): void {
  const lock = tree.lock;
  if (!lock) return;
  checkTomlSyntax(lock.file, lock.doc, out);
  const report = (path: string, range: Range, what: string): void => {
    const f = makeFinding('method.package_invalid', { reason: 'lock_invalid', path }, lock.file, range);
    f.message = `${f.message} (${what})`;
    out.push(f);
  };
  let previous: string | undefined;
  for (const entry of lock.doc.root.entries) {
    if (entry.value.type !== 'table') {
      report(entry.key, entry.keyRange, 'each locked dependency is a table named by its address');
      continue;
    }
    if (previous !== undefined && entry.key < previous) report(entry.key, entry.keyRange, 'entries must be sorted by address');
    previous = entry.key;
    for (const [key, rule] of Object.entries(FIELDS)) {
      const value = getEntry(entry.value, key)?.value;
      if (!value) {
        if (rule.required) report(`${entry.key}.${key}`, entry.keyRange, `missing \`${key}\``);
      } else if (value.type !== 'string' || !rule.pattern.test(value.value)) {
        report(`${entry.key}.${key}`, value.range, `\`${key}\` must be ${rule.what}`);
      }
    }
    for (const e of entry.value.entries) {
      if (!(e.key in FIELDS)) report(`${entry.key}.${e.key}`, e.keyRange, `unknown key \`${e.key}\``);
    }
  }
}
