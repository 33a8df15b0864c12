// Where each registry code is raised: the source files that name it in a string literal. The
// sources are the one truth; docs/errors.md shows what this finds (test/unit/registry/docs.test.ts
// regenerates and compares the page), so the page cannot drift from the code.
//
// Not counted: the registry itself (it defines the codes), the language server's lsp/ folder and
// check/consequences.ts, which read codes of findings raised elsewhere (to offer repairs, to order
// fixes) and raise none.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { allEntries } from '../../server/src/registry/index.js';
import { REPO } from './files.js';

const ROOTS = ['server/src', 'client/src'];
const READERS = ['server/src/registry/', 'server/src/lsp/', 'server/src/check/consequences.ts'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Code to the repository paths of the files raising it, sorted; codes no file names are absent. */
export function raisingFiles(): Map<string, string[]> {
  const codes = new Set(allEntries().map((e) => e.code));
  const found = new Map<string, Set<string>>();
  for (const root of ROOTS) {
    for (const file of sourceFiles(path.join(REPO, root))) {
      const rel = path.relative(REPO, file).split(path.sep).join('/');
      if (READERS.some((r) => rel.startsWith(r))) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`]((?:[a-z]+\.)?[a-z]+\.[a-z_]+)['"`]/g)) {
        const code = m[1]!;
        if (!codes.has(code)) continue;
        let files = found.get(code);
        if (!files) found.set(code, (files = new Set()));
        files.add(rel);
      }
    }
  }
  return new Map([...found].map(([code, files]) => [code, [...files].sort()]));
}
