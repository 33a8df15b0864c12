// Every reason of method.package_invalid raised in the sources is listed, with its meaning, in the
// registry (and so in docs/errors.md, which is generated from it), and the registry lists no reason
// nothing raises.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getEntry, renderErrorsMarkdown } from '../../../server/src/registry/index.js';

const SRC = path.resolve(__dirname, '../../../server/src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') && !full.includes(`${path.sep}registry${path.sep}`) ? [full] : [];
  });
}

/**
 * Reason literals of the files that raise method.package_invalid: on the lines that raise it or
 * choose a `reason` (skippedFindings' `add`), the PackageReason union, and the path faults of a request's files.
 */
function raisedReasons(): Set<string> {
  const out = new Set<string>();
  const literals = (text: string): void => {
    // Not a property read (`params['x']`) nor a comparison (`kind === 'x'`).
    for (const m of text.matchAll(/(\[|=== )?'([a-z][a-z_]+)'/g)) if (m[1] === undefined) out.add(m[2]!);
  };
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('package_invalid')) continue;
    for (const line of text.split('\n')) {
      if (line.includes("'method.package_invalid'") && line.includes('reason')) literals(line.slice(line.indexOf('reason')).replace(/detail: `[^`]*`/g, ''));
      else if (/const reason\b.*\?/.test(line)) literals(line);
      else if (/\badd\(\w+, '[a-z_]+'/.test(line)) literals(line.slice(0, line.indexOf("', ") + 1));
    }
    literals(/type PackageReason =[^;]*;/.exec(text)?.[0] ?? '');
    literals(/function pathFault[\s\S]*?\n}/.exec(text)?.[0]?.replace(/\/[^/\n]*\/\.test/g, '') ?? '');
  }
  return out;
}

describe('the reasons of method.package_invalid', () => {
  const known = getEntry('method.package_invalid')!.params.find((p) => p.name === 'reason')!.known!;

  it('every reason raised is documented', () => {
    const raised = raisedReasons();
    expect(raised.size).toBeGreaterThan(15);
    expect([...raised].filter((r) => !(r in known))).toEqual([]);
    expect(Object.keys(known).filter((r) => !raised.has(r))).toEqual([]);
  });

  it('docs/errors.md lists each with its meaning', () => {
    const markdown = renderErrorsMarkdown();
    for (const reason of Object.keys(known)) expect(markdown).toContain(`- \`${reason}\`: `);
    expect(markdown).toContain('must be named like package.name');
  });
});
