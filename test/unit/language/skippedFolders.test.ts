// The folders the walks skip are one list (language/spec/folders.ts), read by the desktop's walk
// and by the browser client's walk: no second list may appear, and both walks honour every name.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsReadableMethods, INSTALLED_METHODS_FOLDER, SKIPPED_FOLDERS, TOOLS_FOLDER } from '../../../server/src/language/spec/folders.js';
import { walkFiles } from '../../../server/src/workspace/discover.js';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem.js';

const REPO = path.resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('the skipped folders', () => {
  it('are listed in one module of the sources', () => {
    // Two names no other list of the code base has reason to spell out together.
    const listing = sources(path.join(REPO, 'server/src'))
      .concat(sources(path.join(REPO, 'client/src')))
      .filter((file) => /'__pycache__'/.test(readFileSync(file, 'utf8')) && /'node_modules'/.test(readFileSync(file, 'utf8')));
    expect(listing.map((f) => path.relative(REPO, f))).toEqual(['server/src/language/spec/folders.ts']);
  });

  it('are never entered by the desktop walk', () => {
    const fs = new MemoryFileSystem([['/ws/keep.mthds', 'x'], ...[...SKIPPED_FOLDERS].map((name): [string, string] => [`/ws/${name}/in.mthds`, 'x']), [`/ws/${TOOLS_FOLDER}/${INSTALLED_METHODS_FOLDER}/p/p.mthds`, 'x']]);
    expect(walkFiles(fs, '/ws').files).toEqual(['/ws/keep.mthds']);
  });

  it('let the browser read only the installed methods of the tools folder', () => {
    for (const name of SKIPPED_FOLDERS) expect(holdsReadableMethods(undefined, name)).toBe(name === TOOLS_FOLDER);
    expect(holdsReadableMethods(TOOLS_FOLDER, INSTALLED_METHODS_FOLDER)).toBe(true);
    expect(holdsReadableMethods(TOOLS_FOLDER, 'packages')).toBe(false);
    expect(holdsReadableMethods(INSTALLED_METHODS_FOLDER, 'scoring')).toBe(true);
    expect(holdsReadableMethods('pkg', INSTALLED_METHODS_FOLDER)).toBe(true);
  });
});
